"""The players' side of the engine's ids and actions: which combatant a player is, and a player's action
from its JSON (the kinds are ``ACTION_TYPES``'s, so no other list of action kinds exists)."""
from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from combat.engine.actions import ACTION_TYPES, Action, Timeout

#: A player's combatant id is this prefix and the player's id ("p17").
PLAYER_PREFIX = "p"
#: The NPC companion's combatant id in battles.
NPC_ID = "npc"

#: The actions a player may send (the server applies ``Timeout`` itself), in ACTION_TYPES' order.
PLAYER_ACTION_TYPES: Mapping[str, type[Action]] = {
    kind: cls for kind, cls in ACTION_TYPES.items() if cls is not Timeout
}


def player_combatant_id(player_id: int) -> str:
    return f"{PLAYER_PREFIX}{player_id}"


def combatant_player_id(combatant_id: str) -> int | None:
    """The player behind a combatant id, or None for enemies and the NPC."""
    if combatant_id.startswith(PLAYER_PREFIX) and combatant_id[1:].isdigit():
        return int(combatant_id[1:])
    return None


class ActionShapeError(ValueError):
    """An action's JSON does not describe a player action: an unknown kind, or a field of the wrong type."""

    def __init__(self, message: str, details: dict[str, Any]) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


def _field_types(cls: type[Action]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name != "actor"}


_FIELDS: Mapping[str, dict[str, Any]] = {kind: _field_types(cls) for kind, cls in PLAYER_ACTION_TYPES.items()}


def player_action(actor: str, data: Mapping[str, Any]) -> Action:
    """The action ``data`` ({kind, target | potion | slot}) describes for combatant ``actor``.

    Text fields are taken as text (missing: empty, which the engine then refuses with its own
    reason); an integer field must be an integer. Raises ActionShapeError otherwise.
    """
    kind = data.get("kind")
    cls = PLAYER_ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionShapeError("Unknown action kind.", {"kind": kind})
    values: dict[str, Any] = {}
    for name, type_ in _FIELDS[cls.kind].items():
        value = data.get(name)
        if type_ is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ActionShapeError(f"{cls.kind} needs an integer {name}.", {name: value})
            values[name] = value
        else:
            values[name] = str(data.get(name, ""))
    return cls(actor, **values)
