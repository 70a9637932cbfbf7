"""Playing a small run over HTTP for the NPC tests: every battle's opening state, room by room."""
from __future__ import annotations

from typing import Any

from dungeons.models import Run
from players.models import Player
from tests.dungeons.run_helpers import Party, bestiary, layout, small_dungeons, started


def one_floor_run(players: list[Player], monkeypatch: Any) -> Run:
    """A started ordinary run of one floor of five rooms with exactly one enemy room and no NPC, so two
    battles (the enemy room, then the boss) against a weak test bestiary; everyone takes a weapon."""
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=4, boss_hp=6)
    return started(players, monkeypatch, weapons=True,
                   predicate=lambda d: layout(d)[0].count("enemy") == 1 and d.npc is None)


def play_to_the_end(party: Party, run_id: int, who: Player) -> list[dict[str, Any]]:
    """Advance room by room, fighting every battle to its end; returns each battle as first seen.

    ``who`` moves the party on; the run must end (completed or failed) within its rooms.
    """
    battles: list[dict[str, Any]] = []
    for _ in range(100):
        state = party.run(run_id, who)
        if state["status"] != "active":
            return battles
        room = state["current_room"]
        if room.get("battle") and not room["cleared"]:
            battles.append(party.battle(room["battle"]["id"], who))
            party.fight(room["battle"]["id"])
            continue
        moved = party.post(who, f"runs/{run_id}/advance/", {"step": state["step"]})
        assert moved.status_code == 200, moved.json()
    raise AssertionError(f"run {run_id} did not end")


def effects_of(battle: dict[str, Any], player: Player) -> dict[str, dict[str, Any]]:
    """The effects on ``player``'s combatant in a battle payload, by name."""
    combatant = next(c for c in battle["combatants"] if c["id"] == f"p{player.pk}")
    return {effect["name"]: effect for effect in combatant["effects"]}
