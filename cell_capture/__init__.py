"""Cell capture (seed 001): the pure engine in `engine/`, hosted as the match mode `cell_capture`."""
