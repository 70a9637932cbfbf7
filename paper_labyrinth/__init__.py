"""Seed 002's paper Labyrinth: the pure engine in `engine/`, hosted as match mode `labyrinth_paper`."""
