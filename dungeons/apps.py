"""App config for dungeons: tells the NPCs (a lower layer) what they must know of runs."""
from django.apps import AppConfig


class DungeonsConfig(AppConfig):
    name = "dungeons"

    def ready(self) -> None:
        from dungeons.models import MemberStatus
        from dungeons.runs import store
        from npcs.services import RunFacts, run_facts_register

        def membership(player_id: int) -> tuple[int, bool] | None:
            found = store.active_membership(player_id)
            return None if found is None else (found[0], found[1] == MemberStatus.IN_DUNGEON)

        run_facts_register(RunFacts(membership=membership, items_at_stake=store.items_at_stake))
