"""The campaign: campaigns, memberships and invitations (and, as it grows, captains, ships, ledger...)."""
