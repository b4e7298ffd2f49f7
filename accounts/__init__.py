"""User accounts: the user model, sign-in and sign-out, password reset. Campaign roles live in campaign."""
