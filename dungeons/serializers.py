"""Input and output serializers of the run API (explicit fields; outputs document the JSON shape and are
rendered by their compiled renderer, backend/api/compiled.py)."""
from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from backend.live import MAX_WAIT_SECONDS
from dungeons.models import DungeonKind, MemberStatus, RoomKind, RunStatus, StoryItem, WeaponChoice
from dungeons.runs.engine.rules import RunRules
from players.models import Rarity


class RunOpenInput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=[(DungeonKind.ORDINARY, "Ordinary"),
                                            (DungeonKind.FRENZY, "Frenzy"),
                                            (DungeonKind.DARKNESS, "Labyrinth of Darkness")])


class RunStepInput(serializers.Serializer[Any]):
    step = serializers.IntegerField(min_value=0, help_text="The run's step as the client last saw it.")


class RunDrinkInput(serializers.Serializer[Any]):
    potion = serializers.IntegerField(
        min_value=1, max_value=MAX_DB_ID,
        help_text="The id of a carried healing or stat potion (an inventory item).")


class RunWeaponInput(serializers.Serializer[Any]):
    item_kind = serializers.IntegerField(
        allow_null=True, min_value=1, help_text="An item kind of the junk dealer's offer, or null to refuse.")


class RunFormationInput(serializers.Serializer[Any]):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=64,
                                    help_text="Every party member's player id once, first in front.")


class RunQuery(serializers.Serializer[Any]):
    since = serializers.IntegerField(required=False, default=0, min_value=0,
                                     help_text="Show the run's events after this seq (default 0: all).")
    wait = serializers.FloatField(
        required=False,
        help_text="Long-poll: answer as soon as an event after `since` exists (or the run ends, or the "
        "awaited battle turn's deadline passes), at the latest after this many seconds (0 < wait <= 30).",
    )

    def validate_wait(self, value: float) -> float:
        if not 0 < value <= MAX_WAIT_SECONDS:
            raise serializers.ValidationError(
                gettext("Wait more than 0 and at most %(seconds)d seconds.") % {"seconds": MAX_WAIT_SECONDS})
        return value


class RunListQuery(serializers.Serializer[Any]):
    cursor = serializers.CharField(required=False, default="", max_length=200, trim_whitespace=False)
    page_size = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)


class RunListItem(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    host = serializers.IntegerField()
    host_username = serializers.CharField()
    created_at = serializers.DateTimeField()


class RunListOutput(serializers.Serializer[Any]):
    results = RunListItem(many=True)
    next = serializers.CharField(allow_null=True)


class RunLobbiesStreamQuery(RunListQuery):
    """``GET runs/lobbies/stream/``: the lobbies' query without a cursor (the stream shows the first page)."""

    cursor = None  # type: ignore[assignment]  # DRF: a parent's field set to None is left out


class RunLobbiesLive(serializers.Serializer[Any]):
    """The ``lobbies`` message of ``GET runs/lobbies/stream/``: the first page of ``GET runs/lobbies/``, sent
    when the stream opens and whenever it changes."""

    results = RunListItem(many=True)
    more = serializers.BooleanField(help_text="A next page exists: read it over REST (GET runs/lobbies/).")


class RunFloorOutput(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    rooms = serializers.IntegerField(help_text="Rooms on this floor.")
    visited = serializers.ListField(child=serializers.ChoiceField(choices=RoomKind.choices),
                                    help_text="Kinds of the rooms entered so far, in order.")


class LootItemKindOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    category = serializers.CharField()
    weight = serializers.IntegerField()


class RunLootOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    item_kind = LootItemKindOutput()
    taken_by = serializers.IntegerField(allow_null=True)


class RunBattleRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    outcome = serializers.CharField()


class RunRoomOutput(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=RoomKind.choices)
    cleared = serializers.BooleanField(help_text="Done: the party may advance.")
    seal = serializers.ChoiceField(
        choices=StoryItem.choices, allow_null=True,
        help_text="A sealed story room: the story item that opens it (see the log).")
    battle = RunBattleRefOutput(allow_null=True)
    loot = RunLootOutput(many=True)


class RunNpcOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()


class PendingEffectOutput(serializers.Serializer[Any]):
    """A trap's effect waiting for the member's next battle."""

    name = serializers.CharField(help_text="The effect (docs/combat.md).")
    turns = serializers.IntegerField()


class RunMemberOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    username = serializers.CharField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MemberStatus.choices)
    hp = serializers.IntegerField()
    max_hp = serializers.IntegerField()
    weapon_choice = serializers.ChoiceField(choices=WeaponChoice.choices)
    stat_boosts = serializers.DictField(child=serializers.IntegerField())
    pending_effects = PendingEffectOutput(many=True, help_text="Trap effects for the next battle.")
    kills = serializers.DictField(child=serializers.IntegerField())
    money_lost = serializers.IntegerField()
    items_lost = serializers.IntegerField()


# --- the run-kind state of the run view (kinds.py: RunKindHooks.run_view) ------------------------
# Only a Labyrinth of Darkness run has one (darkness/selectors.py: darkness_state); the shape is
# declared here because RunOutput's schema owns it.

MAZE_ROOM_KINDS = ["entrance", "camp", "heart", "teleport", "rubber", "stun", "room"]


class DarknessCellOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()


class DarknessWallsOutput(serializers.Serializer[Any]):
    UP = serializers.BooleanField()
    LEFT = serializers.BooleanField()
    DOWN = serializers.BooleanField()
    RIGHT = serializers.BooleanField()


class DarknessRoomOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS, help_text="What the room is as a place.")
    walls = DarknessWallsOutput(help_text="True: a wall on that side; False: an open passage.")


class DarknessMapOutput(serializers.Serializer[Any]):
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    sections = serializers.IntegerField()
    entrance = DarknessCellOutput()
    explored = serializers.IntegerField(help_text="Rooms described below.")
    rooms = DarknessRoomOutput(many=True, help_text="Only rooms already seen; nothing about the others.")


class DarknessPositionOutput(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    section = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MAZE_ROOM_KINDS)


class DarknessTorchOutput(serializers.Serializer[Any]):
    left = serializers.IntegerField(help_text="Moves before it burns out.")
    length = serializers.IntegerField(help_text="Units when relit at a camp.")
    bearer = serializers.IntegerField(allow_null=True, help_text="The player carrying it.")


class DarknessStateOutput(DarknessMapOutput):
    position = DarknessPositionOutput()
    torch = DarknessTorchOutput()
    path = DarknessCellOutput(many=True, help_text="Every place this run stood on, in order.")


RUN_ACTION_KINDS = ["advance", "escape", "drink", "take_loot", "move"]


class RunActionOutput(serializers.Serializer[Any]):
    """One thing the caller can do now that would succeed, in the shape its route takes back (docs/runs.md):
    advance and escape post ``{step}`` to runs/{id}/advance/ and escape/, drink posts ``{potion}`` to
    runs/{id}/drink/, take_loot posts to runs/{id}/loot/{loot}/take/, move (darkness) posts
    ``{step, direction}`` to runs/{id}/move/. Only the fields of its kind are present."""

    kind = serializers.ChoiceField(choices=RUN_ACTION_KINDS)
    step = serializers.IntegerField(required=False, help_text="advance, escape, move: the run's step.")
    direction = serializers.ChoiceField(choices=["UP", "LEFT", "DOWN", "RIGHT"], required=False,
                                        help_text="move: an open side of the room.")
    potion = serializers.IntegerField(required=False, help_text="drink: a carried healing or stat potion.")
    loot = serializers.IntegerField(required=False, help_text="take_loot: an item lying in the room.")


class RunOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    host = serializers.IntegerField()
    step = serializers.IntegerField(help_text="Run-level moves so far; advance and escape name it.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True, help_text="Revealed when the run is over.")
    dungeon = serializers.IntegerField(allow_null=True)
    floors = RunFloorOutput(many=True)
    current_room = RunRoomOutput(allow_null=True)
    npc = RunNpcOutput(allow_null=True)
    members = RunMemberOutput(many=True)
    log = serializers.ListField(child=serializers.DictField(), help_text="What happened, room by room.")
    is_member = serializers.BooleanField()
    darkness = DarknessStateOutput(allow_null=True, help_text="A darkness run's place, torch and known map.")
    events = serializers.ListField(
        child=serializers.DictField(),
        help_text="The run's events after ?since= in its one sequence, oldest first: its log's entries "
        "(origin run) and its battles' events (origin battle, with battle and battle_seq), each with its seq "
        "and text.")
    last_event = serializers.IntegerField(
        help_text="The seq of the run's last event: pass it as ?since= next time.")
    awaiting = serializers.IntegerField(
        allow_null=True, help_text="The player the run waits for (its room's battle's turn); null otherwise.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the awaited turn times out.")
    allowed_actions = RunActionOutput(many=True, help_text="What the caller can do now, each sendable back.")


class OfferItemOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    sub_kind = serializers.CharField()
    damage = serializers.IntegerField()
    weight = serializers.IntegerField()


# --- the replay of a finished run (GET runs/{id}/replay/) -----------------------------------------------

_RULE_FIELDS: dict[type, type[serializers.Field[Any, Any, Any, Any]]] = {
    int: serializers.IntegerField, float: serializers.FloatField, str: serializers.CharField}


def _rules_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """One typed field per run rule (``RunRules``): the admin's run settings by their names."""
    defaults = RunRules()
    return {f.name: _RULE_FIELDS[type(getattr(defaults, f.name))]()
            for f in dataclasses.fields(RunRules)}


#: The run settings a run plays by (recorded at its start; docs/runs.md, "Run settings").
RunRulesOutput = type("RunRulesOutput", (serializers.Serializer,), _rules_fields())


class ReplayPartyMemberOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    position = serializers.IntegerField()
    completed_dungeons = serializers.IntegerField()
    stats = serializers.DictField(child=serializers.IntegerField(), help_text="The five stats at the start.")


class RunReplayStepOutput(serializers.Serializer[Any]):
    """A move of the party: who did what, when; only the fields of its kind are present."""

    kind = serializers.ChoiceField(choices=["start", "advance", "escape", "drink", "formation", "move"])
    player = serializers.IntegerField()
    at = serializers.DateTimeField()
    step = serializers.IntegerField(required=False, help_text="advance, escape, move: the step it named.")
    potion = serializers.IntegerField(required=False, help_text="drink: the inventory item drunk.")
    item_kind = serializers.IntegerField(required=False, help_text="drink: the potion's catalog entry.")
    players = serializers.ListField(child=serializers.IntegerField(), required=False,
                                    help_text="formation: the new order.")
    direction = serializers.ChoiceField(choices=["UP", "LEFT", "DOWN", "RIGHT"], required=False,
                                        help_text="move: the way taken.")
    party = ReplayPartyMemberOutput(many=True, required=False, help_text="start: the party as it set out.")


class RunReplayBattleActionOutput(serializers.Serializer[Any]):
    step = serializers.IntegerField(help_text="The battle's turn it answered.")
    player = serializers.IntegerField(allow_null=True)
    action = serializers.DictField(help_text="The engine's action as JSON (combat.engine.action_from_dict).")
    timeout = serializers.BooleanField(help_text="The awaited player's deadline passed: the turn skipped.")
    at = serializers.DateTimeField()


class RunReplayBattleOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    seed = serializers.IntegerField()
    engine_version = serializers.IntegerField()
    setup = serializers.DictField(
        help_text="The engine's BattleSetup as JSON (combat.engine.setup_from_dict): the combatants, "
        "starting effects and combat rules.")
    outcome = serializers.CharField()
    created_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    actions = RunReplayBattleActionOutput(many=True)


class RunReplayRoomOutput(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=RoomKind.choices)
    npc_kind = serializers.CharField()
    story_item = serializers.CharField()
    seal = serializers.CharField()


class RunReplayDungeonOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    seed = serializers.IntegerField()
    generator_version = serializers.IntegerField()
    party_size = serializers.IntegerField()
    rank = serializers.FloatField()
    completed = serializers.FloatField()
    same_guild = serializers.BooleanField()
    params = serializers.DictField(help_text="The generation parameters in force (GenerationParams).")
    npc_candidates = serializers.ListField(child=serializers.CharField())
    rooms = RunReplayRoomOutput(many=True, help_text="As generated (a darkness run: as entered).")


class RunReplayLootOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    item_kind = serializers.IntegerField()
    taken_by = serializers.IntegerField(allow_null=True)


class RunReplayCatalogEntryOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The catalog entry (item kind).")
    rarity = serializers.ChoiceField(choices=Rarity.choices,
                                     help_text="Its rarity then: the weight a draw gave it.")


class RunReplayCatalogReadOutput(serializers.Serializer[Any]):
    """The catalog entries a loot draw read, as they stood then (the catalog may change after the run)."""

    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    purpose = serializers.CharField(
        help_text="The room's stream the draw took: treasure-items, story, sealed-reward, battle-loot-item, "
        "boss-loot.")
    items = RunReplayCatalogEntryOutput(many=True, help_text="The pool drawn from, in id order.")


class RunReplayCarriedOutput(serializers.Serializer[Any]):
    """What a member carried when they escaped (a flight from battle too): the losses are chosen from it."""

    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    player = serializers.IntegerField()
    purpose = serializers.CharField(help_text="The room's stream the losses took: escape, or flee/<battle>.")
    items = serializers.ListField(child=serializers.IntegerField(),
                                  help_text="The inventory items carried, in id order.")


class RunReplayOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    status = serializers.ChoiceField(choices=RunStatus.choices)
    seed = serializers.IntegerField(help_text="The run's seed: every draw outside battle, each battle's.")
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    rules = RunRulesOutput(allow_null=True, help_text="The run settings it played by (null: never started).")
    dungeon = RunReplayDungeonOutput(allow_null=True)
    members = RunMemberOutput(many=True, help_text="The members as the run left them.")
    steps = RunReplayStepOutput(many=True, help_text="Every move of the party, in order.")
    battles = RunReplayBattleOutput(many=True)
    loot = RunReplayLootOutput(many=True)
    catalog_reads = RunReplayCatalogReadOutput(many=True, help_text="Every loot draw's pool, in order.")
    escapes = RunReplayCarriedOutput(many=True, help_text="What each escaping member carried, in order.")
    events = serializers.ListField(
        child=serializers.DictField(),
        help_text="The whole run in its one sequence, as GET runs/{id}/ gives its events (with their text).")
    last_event = serializers.IntegerField()
