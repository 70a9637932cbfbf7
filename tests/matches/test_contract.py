"""The contract test (SPEC 14 "Schemas"): every registered mode's answers match the published OpenAPI schema.

For every mode a whole game is played through the API (seeded random choices among the allowed actions, on
a small board or map, with a turn limit where the mode has one, until the match is over), and every
``view``, every ``allowed_actions`` entry, every event (read and in an action's answer) and the ``settings``
are validated against the mode's components of the schema served at /api/schema/, $refs resolved; each is
also one of the match schemas' union (``oneOf``: exactly one mode's shape fits).
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from cell_capture import texts as cell_texts
from labyrinth import texts as console_texts
from matches.modes import FRAMEWORK_EVENT_KINDS, registered_modes
from matches.openapi import component_name
from matches.services import mode_settings
from paper_labyrinth import mode as paper_mode
from paper_labyrinth import texts as paper_texts
from roguelike import texts as roguelike_texts
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, read, started
from tests.schema_checks import errors, json_schema, served_schema, validator

pytestmark = pytest.mark.django_db

#: a short whole game of every mode: players and lobby settings
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "cell_capture": (2, {"width": 5, "height": 5}),
    "labyrinth_console": (2, {"rows": 3, "cols": 3, "start_positions": "chosen", "max_turns": 40}),
    "labyrinth_roguelike": (1, {"seed": 11, "width": 4, "height": 4, "floors": 1}),
    "labyrinth_paper": (3, {"nstop": 3}),
    "labyrinth_paper/quantum": (3, {"nstop": 3, "variant": "quantum", "starts": "random"}),
    "secret_race": (2, {"target": 10}),
    "secret_start_race": (2, {"target": 10}),
}
#: the test-only modes (tests/matches/toy_mode.py): one shape twice, so their union is checked for none
TOYS = {"secret_race", "secret_start_race"}


@pytest.fixture
def served(admin_client: Client) -> dict[str, Any]:
    return served_schema(admin_client)


@pytest.fixture
def published(served: dict[str, Any]) -> dict[str, Any]:
    """The served document, its ``nullable`` read as JSON Schema's null."""
    schema: dict[str, Any] = json_schema(served)
    return schema


def _in_registry(value: Any) -> Any:
    """``value`` with each of the document's own references (``#/components/...``) taken into the
    registry's ``urn:api`` resource."""
    if isinstance(value, dict):
        return {key: _in_registry(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_in_registry(item) for item in value]
    if isinstance(value, str) and value.startswith("#/components"):
        return "urn:api" + value
    return value


def matches_of(schema: dict[str, Any], definition: dict[str, Any]) -> Draft202012Validator:
    registry: Registry[Any] = Registry().with_resource("urn:api", DRAFT202012.create_resource(schema))
    fixed = {key: value for key, value in definition.items() if key != "description"}
    return Draft202012Validator(_in_registry(fixed), registry=registry)


def test_every_registered_mode_is_played_here() -> None:
    assert set(registered_modes()) == {game.split("/")[0] for game in GAMES}


def declared_kinds(mode: str) -> set[str]:
    """The event kinds a mode declares a shape for, besides the machinery's."""
    branches = registered_modes()[mode].event_schema["oneOf"]
    return {kind for b in branches for kind in b["properties"]["kind"]["enum"]} - set(FRAMEWORK_EVENT_KINDS)


def test_every_kind_a_mode_speaks_has_its_declared_shape() -> None:
    assert declared_kinds("cell_capture") == set(cell_texts.TEXTS)
    assert declared_kinds("labyrinth_console") == set(console_texts.TEXTS)
    assert declared_kinds("labyrinth_roguelike") == set(roguelike_texts.TEXTS)
    assert declared_kinds("labyrinth_paper") == {*paper_texts.EVENTS, "gm"}
    assert set(paper_mode.GM_DATA) == set(paper_texts.GM)


def test_the_match_schemas_reference_the_modes_components(served: dict[str, Any]) -> None:
    components = served["components"]["schemas"]
    for mode in registered_modes():
        for part in ("Settings", "View", "Action", "Event"):
            assert component_name(mode, part) in components
    assert {"CellCaptureSettings", "LabyrinthConsoleView", "LabyrinthRoguelikeAction",
            "LabyrinthPaperEvent"} <= set(components)
    match = components["MatchOutput"]["properties"]
    for field in ("view", "settings"):
        assert "oneOf" in match[field], field
    assert "oneOf" in match["allowed_actions"]["items"] and "anyOf" in match["events"]["items"]
    assert "oneOf" in components["MatchActInputRequest"]["properties"]["action"]
    assert "anyOf" in components["MatchActOutput"]["properties"]["events"]["items"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_answers_in_the_published_shapes(game: str, published: dict[str, Any]) -> None:
    mode = game.split("/")[0]
    players, settings = GAMES[game]
    checks = {part: validator(published, component_name(mode, part))
              for part in ("Settings", "View", "Action", "Event", "PublicView")}
    match = published["components"]["schemas"]["MatchOutput"]["properties"]
    unions = {"View": matches_of(published, match["view"]),
              "Action": matches_of(published, match["allowed_actions"]["items"]),
              "Settings": matches_of(published, match["settings"])}
    unions["PublicView"] = unions["View"]  # a spectator's view is one of the view union's branches
    rng = random.Random(7)
    watched = mode_settings(mode)
    watched.spectators = True  # a spectator reads along (SPEC 15), whatever the mode's default
    watched.save()
    watcher = PlayerFactory()
    people, row = started(mode, players=players, settings=settings)
    seen: dict[str, int] = {"View": 0, "Action": 0, "Event": 0, "PublicView": 0}
    problems: list[str] = []
    checked: set[tuple[str, str]] = set()  # a value validated once is valid or not the same way again

    def check(part: str, value: Any) -> None:
        seen[part] = seen.get(part, 0) + 1
        key = (part, json.dumps(value, sort_keys=True))
        if key in checked:
            return
        checked.add(key)
        found = errors(checks[part], value)
        if part in unions and mode not in TOYS:
            found += [f"(union) {e}" for e in errors(unions[part], value)]
        problems.extend(f"{part} {value!r:.200}: {e}" for e in found)

    bodies: list[dict[str, Any]] = []
    since = [0] * len(people)  # each reader's events are checked as they come, once each
    watched_since = 0
    for _ in range(600):
        bodies = [read(person, row.pk, since=since[n]) for n, person in enumerate(people)]
        since = [body["last_event"] for body in bodies]
        watched_body = read(watcher, row.pk, since=watched_since)
        watched_since = watched_body["last_event"]
        check("PublicView", watched_body["view"])
        for event in watched_body["events"]:
            check("Event", event)
        for body in bodies:
            check("Settings", body["settings"])
            check("View", body["view"])
            for action in body["allowed_actions"]:
                check("Action", action)
            for event in body["events"]:
                check("Event", event)
        assert not problems, problems[:5]
        if bodies[0]["status"] != "active":
            break
        mover, body = next((p, b) for p, b in zip(people, bodies) if b["allowed_actions"])
        answer = act(mover, row.pk, rng.choice(body["allowed_actions"]), turn=body["turn"])
        assert answer.status_code == 200, answer.json()
        for event in answer.json()["events"]:
            check("Event", event)
    assert bodies[0]["status"] == "finished" and bodies[0]["result"] is not None
    assert all(b["view"] is not None for b in bodies)  # the view after the end, ``revealed`` included
    assert not problems, problems[:5]
    assert all(seen[part] for part in ("View", "Action", "Event", "PublicView"))


def test_the_modes_list_and_lobby_settings_answer_in_the_published_shapes(published: dict[str, Any]) -> None:
    modes = api_client(PlayerFactory()).get("/api/v1/modes/").json()
    check = validator(published, "ModeOutput")
    assert modes and [e for mode in modes for e in errors(check, mode)] == []
    for game, (_, settings) in GAMES.items():
        mode = game.split("/")[0]
        assert errors(validator(published, component_name(mode, "LobbySettings")), settings) == [], game
    bad = errors(validator(published, "CellCaptureLobbySettings"), {"width": 5, "colour": "red"})
    assert bad  # a key the lobby may not set
