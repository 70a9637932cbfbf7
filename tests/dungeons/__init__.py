"""Tests of the dungeons app."""
