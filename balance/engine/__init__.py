"""The balancing lab's simulator (SPEC 17), pure: whole runs played in memory by named bot policies over
the admin's data as frozen values, composing the run's rules (``dungeons/runs/engine``), the generator
(``dungeons/generation``) and the combat engine (``combat/engine``); no rule of its own. docs/balance.md.

- ``values``: the admin's data (``BalanceData``), a what-if copy of it (``what_if``), a party (``PartySpec``);
- ``policies``: the bots (``cautious``, ``aggressive``; ``POLICIES``);
- ``simulator``: one whole run (``simulate_run``);
- ``report``: many runs summed up (``simulate``, ``Report``), the Wilson interval, the path to the first NPC.
"""
from balance.engine.policies import AGGRESSIVE, CAUTIOUS, POLICIES, MemberView, Policy
from balance.engine.report import LabInputs, Report, first_npc_paths, run_seeds, simulate, summarize, wilson
from balance.engine.simulator import RunResult, simulate_run
from balance.engine.values import BalanceData, Held, ItemFacts, JunkTier, PartySpec, PlayerSpec, what_if

__all__ = ["AGGRESSIVE", "CAUTIOUS", "POLICIES", "BalanceData", "Held", "ItemFacts", "JunkTier", "LabInputs",
           "MemberView", "PartySpec", "PlayerSpec", "Policy", "Report", "RunResult", "first_npc_paths",
           "run_seeds", "simulate", "simulate_run", "summarize", "what_if", "wilson"]
