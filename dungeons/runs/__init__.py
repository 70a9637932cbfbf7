"""The run services, split by concern: core (locks, party, log, loot), lobby, rooms, battles, endings.

Import order (no circle): core <- endings <- battles <- rooms <- lobby. Every run write locks the
run row first (select_for_update), then member rows, then player rows (through players.services,
which lock the player); a battle step locks the run and its battle in one statement
(dungeons/runs/battles.py), so a battle step and a run move never interleave.
"""
