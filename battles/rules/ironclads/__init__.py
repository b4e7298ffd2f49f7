"""Ironclads 1850-1890 (Trevor Raymond, version 3), on hexes: docs/ironclads.md. Not registered until the app's
rooms are built (issue 24); the pure modules below stand on their own."""
