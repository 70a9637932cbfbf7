"""Tests of the dungeons management commands."""
