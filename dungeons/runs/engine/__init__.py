"""The rules of a dungeon run outside battle (SPEC section 6) as a pure package: no Django, every draw from
a seeded stream of the run's seed (``Place.stream``), frozen values in, the changes and log entries out.

The server's run services (``dungeons/runs/``) load a run through its store, call these and save what
they return; the balancing lab's simulator (``balance/engine/``) composes the same functions in memory,
so every rule has one copy. docs/runs.md gives the rules and their numbers.

- ``rules``: the formulas and their numbers (``RunRules``, the admin's run settings), the streams;
- ``values``: where the party stands (``Place``), a member inside (``Inside``), a change (``Changed``);
- ``rooms``: entering a trap, treasure, story, sealed story or rest room, walking on, a potion between rooms;
- ``loot``: the loot pools and draws, a victory's spoils;
- ``battles``: what a member brings into a battle, its seed, what a battle step means for the run;
- ``endings``: death through Charon, escape with losses, completion, a run nobody is left inside;
- ``log``: the run log's entries as typed values.
"""
from dungeons.runs.engine import battles, endings, log, loot, rooms, rules, values
from dungeons.runs.engine.rules import RunRules
from dungeons.runs.engine.values import Changed, Inside, Place, run_stats

__all__ = ["Changed", "Inside", "Place", "RunRules", "battles", "endings", "log", "loot", "rooms", "rules",
           "run_stats", "values"]
