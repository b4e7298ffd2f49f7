"""Sky Ships of Barsoom (issue 23): not yet registered with the app."""
