"""Seed 000's roguelike: the pure engine in `engine/`, hosted as match mode `labyrinth_roguelike`."""
