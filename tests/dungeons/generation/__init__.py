"""Tests of the pure dungeon generation engine (DB-free)."""
