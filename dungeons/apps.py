"""App config for dungeons: tells the NPCs (a lower layer) what they must know of runs, and the deadline
clock (backend/deadlines.py) of the runs' battles."""
from django.apps import AppConfig


class DungeonsConfig(AppConfig):
    name = "dungeons"

    def ready(self) -> None:
        from backend.deadlines import deadline_kind_register
        from dungeons.models import MemberStatus
        from dungeons.runs import store
        from dungeons.runs.battles import BATTLE_DEADLINES
        from npcs.services import RunFacts, run_facts_register

        def membership(player_id: int) -> tuple[int, bool] | None:
            found = store.active_membership(player_id)
            return None if found is None else (found[0], found[1] == MemberStatus.IN_DUNGEON)

        run_facts_register(RunFacts(membership=membership, items_at_stake=store.items_at_stake))
        deadline_kind_register(BATTLE_DEADLINES)  # passed battle turns fire with nobody reading
