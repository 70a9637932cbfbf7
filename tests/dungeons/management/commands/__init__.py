"""Tests of dungeon_report."""
