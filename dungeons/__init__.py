"""Dungeon kinds, procedural generation (pure engine in generation/), runs, rooms, loot."""
