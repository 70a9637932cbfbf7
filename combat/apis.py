"""Battle endpoints: read a battle (applying passed turn deadlines) and act on one's turn."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.schema import errors
from backend.api.views import PlayerApi, valid
from combat import services
from combat.models import Battle, CombatSettings
from combat.serializers import ActOutput, BattleActInput, BattleOutput, BattleQuery
from players.models import Player


def battle_payload(battle: Battle, player: Player, *, since: int) -> dict[str, Any]:
    state = battle.state
    deadline = None
    if battle.turn_started_at is not None and battle.awaiting_id is not None:
        deadline = battle.turn_started_at + timedelta(seconds=CombatSettings.cached().turn_deadline_seconds)
    combatants = [
        {"id": c["id"], "kind": c["kind"], "name": c["name"], "hp": c["hp"], "max_hp": c["max_hp"],
         "is_boss": c["is_boss"], "fled": c["fled"], "weapons": [w["name"] for w in c["weapons"]],
         "active_weapon": c["active_weapon"], "potions": [{"id": p["id"], "kind": p["kind"]} for p in c["potions"]],
         "effects": c["effects"]}
        for c in state["combatants"]
    ]
    return {
        "id": battle.pk, "run": battle.run_id, "floor": battle.floor, "room": battle.room,
        "outcome": battle.outcome, "round": state["round"], "turn": battle.step, "order": state["order"],
        "awaiting": battle.awaiting_id, "deadline": deadline, "combatants": combatants,
        "allowed_actions": services.battle_allowed_actions(battle=battle, player=player),
        "events": services.battle_events_since(battle=battle, since=since),
        "last_event": battle.event_count,
    }


class BattleDetailApi(PlayerApi):
    @extend_schema(parameters=[BattleQuery], responses={200: BattleOutput, **errors(400, 401, 404)},
                   summary="A battle of the caller's run: state, whose turn, allowed actions, events since")
    def get(self, request: Request, battle_id: int) -> Response:
        since = valid(BattleQuery, request.query_params)["since"]
        battle = services.battle_refresh(player=self.player, battle_id=battle_id)
        return Response(BattleOutput(battle_payload(battle, self.player, since=since)).data)


class BattleActApi(PlayerApi):
    @extend_schema(request=BattleActInput, responses={200: ActOutput, **errors(400, 401, 404, 409)},
                   summary="Act on the caller's turn (attack, drink, switch_weapon, skip, flee)")
    def post(self, request: Request, battle_id: int) -> Response:
        data = valid(BattleActInput, request.data)
        outcome = services.battle_act(player=self.player, battle_id=battle_id, turn=data["turn"],
                                      action=data["action"], idempotency_key=data["idempotency_key"])
        return Response(ActOutput({**outcome.response, "replayed": outcome.replayed}).data)
