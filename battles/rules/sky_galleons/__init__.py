"""Sky Galleons of Mars, the main ruleset (with Cloudships & Gunboats and the errata). Pure Python."""
