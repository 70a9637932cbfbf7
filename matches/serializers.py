"""Input and output serializers of the match API (game-specific parts are free JSON objects)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from backend.live import MAX_WAIT_SECONDS
from matches.models import MatchStatus

MAX_TURN = 2**31 - 1


class ModeSettingsSchema(serializers.Serializer[Any]):
    """A mode's settings as a JSON Schema object, with the admin's current defaults."""

    # Not an enum: drf-spectacular would make a component of it, named after the field ("TypeEnum").
    type = serializers.CharField(help_text='Always "object".')
    properties = serializers.DictField(
        child=serializers.DictField(),
        help_text="Each setting's JSON Schema (type, minimum/maximum, enum, anyOf) with its `default`: the "
        "admin's current default of new lobbies.",
    )
    lobby_settings = serializers.ListField(
        child=serializers.CharField(), help_text="The settings a lobby may set; the others only the admin."
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # A JSON Schema keyword, not a Python name.
        fields["additionalProperties"] = serializers.BooleanField(
            help_text="Always false: any other setting is refused."
        )
        return fields


class ModeOutput(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The `mode` of POST matches/.")
    title = serializers.CharField(help_text="In the request's language.")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    turn_deadline_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="The admin's current turn deadline of new matches; null: the mode has none. A mode may "
        "decide from the game (a match's `deadline` says when its turn times out).",
    )
    settings = ModeSettingsSchema()
    bots = serializers.ListField(
        child=serializers.CharField(),
        help_text="The bot levels a host may seat; empty (no mode has bots yet).",
    )
    spectators = serializers.BooleanField(
        help_text="Whether anyone who may see a started match of the mode (public, or of their guild) may "
        "watch it as a spectator (the admin's current setting): the public view and public events only."
    )


class MatchOpenInput(serializers.Serializer[Any]):
    mode = serializers.CharField(max_length=40, help_text="A registered mode, e.g. cell_capture.")
    settings = serializers.DictField(
        required=False,
        default=dict,
        help_text="Overrides of the mode's default settings, e.g. {width, height}.",
    )
    guild = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=MAX_DB_ID,
        help_text="Limit the seats to this guild's members.",
    )
    private = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A private lobby: in nobody's list; its `invite_code` (shown to its seated players) seats "
        "others through `POST matches/join/`.",
    )


class MatchQueueInput(serializers.Serializer[Any]):
    mode = serializers.CharField(max_length=40, help_text="A registered mode, e.g. cell_capture.")
    settings = serializers.DictField(
        required=False,
        default=dict,
        help_text="Overrides of the mode's default settings: only lobbies with the same settings are joined.",
    )


class MatchQueueLeaveQuery(serializers.Serializer[Any]):
    mode = serializers.CharField(
        required=False, default="", max_length=40,
        help_text="Leave only this mode's queue (default: every one)."
    )


class MatchQueueLeaveOutput(serializers.Serializer[Any]):
    left = serializers.ListField(child=serializers.IntegerField(), help_text="The queue lobbies left.")


class MatchJoinCodeInput(serializers.Serializer[Any]):
    code = serializers.CharField(
        max_length=32, help_text="A private lobby's invite code (letters and digits; case does not matter)."
    )


class MatchListQuery(serializers.Serializer[Any]):
    mode = serializers.CharField(required=False, default="", max_length=40)
    status = serializers.ChoiceField(required=False, allow_blank=True, choices=MatchStatus.choices)
    cursor = serializers.CharField(required=False, default="", max_length=200, trim_whitespace=False)
    page_size = serializers.IntegerField(required=False, default=20, min_value=1, max_value=100)
    watchable = serializers.BooleanField(
        required=False,
        default=False,
        help_text="True: instead of the caller's lobbies and matches, the running matches the caller may "
        "watch as a spectator (modes that allow it, public or of the caller's guild, without the caller).",
    )


class MatchListStreamQuery(MatchListQuery):
    """``GET matches/stream/``: the list's query without a cursor (the stream shows the first page)."""

    cursor = None  # type: ignore[assignment]  # DRF: a parent's field set to None is left out


class MatchQuery(serializers.Serializer[Any]):
    since = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_TURN,
        help_text="Return the events numbered after this one.",
    )
    wait = serializers.FloatField(
        required=False,
        help_text="Long-poll: answer as soon as an event after `since` exists (or the match ends, or a "
        "deadline passes), at the latest after this many seconds (0 < wait <= 30).",
    )

    def validate_wait(self, value: float) -> float:
        if not 0 < value <= MAX_WAIT_SECONDS:
            raise serializers.ValidationError(f"Wait more than 0 and at most {MAX_WAIT_SECONDS} seconds.")
        return value


class MatchBotInput(serializers.Serializer[Any]):
    level = serializers.CharField(max_length=40, help_text="One of the mode's `bots` (GET modes/).")


class MatchActInput(serializers.Serializer[Any]):
    turn = serializers.IntegerField(
        min_value=0, max_value=MAX_TURN, help_text="The match's turn the action answers."
    )
    action = serializers.DictField(help_text="One of the caller's allowed_actions, sent unchanged.")
    idempotency_key = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=64,
        help_text="A retry with the same key gets the original answer.",
    )


class MatchResult(serializers.Serializer[Any]):
    """How a match ended: one shape for every mode and every ending (SPEC 14)."""

    winners = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The winners' player ids; empty: nobody won (a draw, a loss, an abandoned match).",
    )
    winner_seats = serializers.ListField(child=serializers.IntegerField(), help_text="The winners' seats.")
    reason = serializers.CharField(
        help_text="Why it ended: one of the mode's codes (e.g. `won`, `exit_reached`, `draw_nstop`), or "
        "the machinery's `abandoned` (everyone walked out, or a whole round timed out), `new_game` and "
        "`resigned` (at most one seat had not resigned: it won) "
        "(docs/matches.md lists them)."
    )
    details = serializers.DictField(help_text="The mode's details of this ending (may be empty).")


class MatchListItem(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    host = serializers.IntegerField()
    guild = serializers.IntegerField(allow_null=True)
    settings = serializers.DictField()
    players = serializers.IntegerField(help_text="Players seated now.")
    turn = serializers.IntegerField()
    awaiting = serializers.IntegerField(allow_null=True)
    result = MatchResult(allow_null=True, help_text="Null until the match ends.")
    created_at = serializers.DateTimeField()


class MatchListOutput(serializers.Serializer[Any]):
    results = MatchListItem(many=True)
    next = serializers.CharField(allow_null=True, help_text="Cursor of the next page, null on the last.")


class MatchListLive(serializers.Serializer[Any]):
    """The ``matches`` message of ``GET matches/stream/``: the first page of ``GET matches/`` with the same
    query, sent when the stream opens and whenever it changes."""

    results = MatchListItem(many=True)
    more = serializers.BooleanField(help_text="A next page exists: read it over REST (GET matches/).")


class MatchPlayerOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField(allow_null=True, help_text="Null for a bot's seat.")
    name = serializers.CharField(help_text="The player's name, or the bot's (in the request's language).")
    seat = serializers.IntegerField(allow_null=True, help_text="Given at the start, in joining order.")
    active = serializers.BooleanField(help_text="False once the player left (or the match ended).")
    bot = serializers.CharField(allow_null=True, help_text="The bot's level (one of the mode's `bots`); "
                                "null for a person.")


class MatchOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    host = serializers.IntegerField()
    guild = serializers.IntegerField(allow_null=True)
    private = serializers.BooleanField(
        help_text="A private lobby: in nobody's list, joined by its invite code."
    )
    invite_code = serializers.CharField(
        allow_null=True,
        help_text="A private lobby's invite code, shown to its seated players only (else null).",
    )
    queue_fill_at = serializers.DateTimeField(
        allow_null=True,
        help_text="A waiting quick-join lobby: when its empty seats fill and it starts (else null).",
    )
    settings = serializers.DictField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    players = MatchPlayerOutput(many=True)
    seat = serializers.IntegerField(
        allow_null=True, help_text="The caller's seat (null before the start, and for a spectator)."
    )
    spectator = serializers.BooleanField(
        help_text="True: the caller watches a started match without a seat (the mode allows spectators): "
        "`view` is the mode's public view, `events` the public ones, maybe some steps behind; no "
        "`allowed_actions`, and an action is 403 `spectator`."
    )
    order = serializers.ListField(child=serializers.IntegerField(allow_null=True),
                                  help_text="Player ids in turn order (null: a bot's seat).")
    turn = serializers.IntegerField(help_text="The turn an action must name.")
    awaiting = serializers.IntegerField(
        allow_null=True, help_text="The player whose turn it is; null when nobody is awaited or on a bot's "
        "turn (then `awaiting_seat` is the bot's seat and `deadline` its turn's start: it plays at once)."
    )
    awaiting_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat whose turn it is (a player's or a bot's); null: nobody's."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the awaited turn times out; null: nobody awaited, or no deadline."
    )
    view = serializers.DictField(
        allow_null=True,
        help_text="The game as the caller may know it (mode-specific); after the end the same shape, plus "
        "`revealed` (what was hidden: the map, the world) when the mode may show it.",
    )
    allowed_actions = serializers.ListField(
        child=serializers.DictField(),
        help_text="Every action the caller may post now, each usable as `action` (a mode may list some "
        "for a player it does not await, e.g. a timer call).",
    )
    events = serializers.ListField(
        child=serializers.DictField(), help_text="Events after ?since= the caller may see."
    )
    last_event = serializers.IntegerField(help_text="Pass as ?since= next time.")
    result = MatchResult(allow_null=True, help_text="Null until the match ends.")
    seed_commitment = serializers.CharField(
        allow_null=True,
        help_text="From the start: the hex SHA-256 of the seed's decimal text (null in a lobby); the replay "
        "reveals the seed, so anyone can check sha256(str(seed)).",
    )
    rematch = serializers.IntegerField(
        allow_null=True, help_text="The rematch lobby opened after the end (one at most); null: none."
    )
    reserved_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A rematch lobby: until then only the players of the match it follows may join; else null.",
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)


class MatchActOutput(serializers.Serializer[Any]):
    turn = serializers.IntegerField()
    next_turn = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    result = MatchResult(allow_null=True, help_text="Null until the match ends.")
    events = serializers.ListField(
        child=serializers.DictField(), help_text="The step's events the caller may see."
    )
    replayed = serializers.BooleanField(help_text="True: an earlier answer to the same idempotency key.")


class ReplayStepOutput(serializers.Serializer[Any]):
    turn = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True, help_text="Null for a bot's step.")
    action = serializers.DictField(
        allow_null=True,
        help_text="Null for a timeout, a resignation, and another seat's action in a withheld replay.",
    )
    timeout = serializers.BooleanField()
    resigned = serializers.BooleanField(help_text="The seat's player resigned at this step (SPEC 15).")


class ReplaySeatOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True, help_text="Null for a bot's seat.")
    bot = serializers.CharField(allow_null=True, help_text="The bot's level; null for a person.")


class MatchReplayOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    withheld = serializers.BooleanField(
        help_text="True while the game's hidden content is still in play (a designer map in the pool, "
        "a chosen roguelike seed): no seed, no final state, only the caller's own actions."
    )
    seed = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(
        allow_null=True, help_text="The commitment the match showed from its start: sha256(str(seed))."
    )
    settings = serializers.DictField()
    seats = ReplaySeatOutput(many=True)
    actions = ReplayStepOutput(many=True)
    result = MatchResult(allow_null=True, help_text="Null until the match ends.")
    final_state = serializers.DictField(allow_null=True)


class MatchReplayQuery(serializers.Serializer[Any]):
    as_seat = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_TURN,
        help_text="The per-seat replay (SPEC 15): step by step, the events this seat could see and its view.",
    )


class SeatReplayStepOutput(serializers.Serializer[Any]):
    turn = serializers.IntegerField(help_text="0: the start; then each step of the match.")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat that acted (null at the start).")
    player = serializers.IntegerField(allow_null=True)
    action = serializers.DictField(
        allow_null=True,
        help_text="Null at the start, for a timeout, a resignation, and another seat's action in a withheld "
        "replay.",
    )
    timeout = serializers.BooleanField()
    resigned = serializers.BooleanField()
    events = serializers.ListField(
        child=serializers.DictField(), help_text="The step's events the seat could see, as it read them."
    )
    view = serializers.DictField(help_text="The seat's view after the step.")


class MatchSeatReplayOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    as_seat = serializers.IntegerField()
    player = serializers.IntegerField(help_text="Who sat in that seat.")
    steps = SeatReplayStepOutput(many=True)
    result = MatchResult(allow_null=True, help_text="How the match ended.")
