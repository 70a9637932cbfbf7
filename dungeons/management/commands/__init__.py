"""Commands: dungeon_report."""
