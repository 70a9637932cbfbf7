"""Hosted matches: one protocol (lobby, seats, turns, deadlines, views, replay) for every turn-based mode."""
