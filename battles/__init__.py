"""Battles: the Django app that stores and serves what the pure engine (battles.engine) computes."""
