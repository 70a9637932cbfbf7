"""No loose part in the typed contract (SPEC 14 "Schemas", issue 26): the published OpenAPI schema is walked
from every answer of the match, mode, run, battle and darkness routes, $refs followed, and no value in them
may be loose: a bare object (``type: object`` with neither properties nor a schema for its other keys), an
object left open to any other key (``additionalProperties: true`` or ``{}``), or a value with no schema at
all (``{}``).

The exceptions are listed below, each with its reason; the test also fails when one is no longer loose (the
list only shrinks).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

#: the routes whose answers are the games' typed contract (their path contains one of these)
ROUTES = ("/api/v1/matches/", "/api/v1/modes/", "/api/v1/runs/", "/api/v1/battles/", "/labyrinth/")
#: loose parts kept on purpose: where (component/property path) and why
EXCEPTIONS = {
    "ErrorDetail/details": "a refusal's details: each error code has its own keys (the app's docs list "
    "them), and a client acts on `code` and shows `message`; one error shape serves every route.",
    "MatchReplayOutput/final_state": "the mode's stored state, in its engine's own versioned storage format "
    "(the replay's check that seed, settings and actions rebuild it exactly), not a view: the modes' views "
    "are the typed answer; publishing it would freeze every engine's internals into the contract.",
    "RunReplayBattleOutput/setup": "a battle's setup in the combat engine's own versioned storage format "
    "(combat.engine.setup_from_dict), what the replay rebuilds the battle from, as final_state above.",
    "RunReplayBattleActionOutput/action": "a battle action in the combat engine's storage format "
    "(combat.engine.action_from_dict), as the setup above; the live actions' shape is BattleActInput's.",
}
_QUIET = {"description", "nullable", "readOnly", "writeOnly", "title", "example"}
_COMBINED = ("oneOf", "anyOf", "allOf")


def loose(node: dict[str, Any]) -> str | None:
    """Why ``node`` is loose, or None."""
    if not set(node) - _QUIET:
        return "a value with no schema"
    if node.get("type") != "object":
        return None
    extra = node.get("additionalProperties")
    if extra is True or extra == {}:
        return "an object open to any other key"
    if not node.get("properties") and extra is None and not any(k in node for k in _COMBINED):
        return "a bare object"
    return None


def loose_parts(schema: dict[str, Any], node: Any, path: str, seen: set[str]) -> Iterator[tuple[str, str]]:
    """Every loose part under ``node`` (its path and why), following $refs into the components once each."""
    if isinstance(node, list):
        for item in node:
            yield from loose_parts(schema, item, path, seen)
        return
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            yield from loose_parts(schema, schema["components"]["schemas"][name], name, seen)
        return
    why = loose(node)
    if why is not None:
        yield path, why
    for name, sub in node.get("properties", {}).items():
        yield from loose_parts(schema, sub, f"{path}/{name}", seen)
    for key in ("items", "additionalProperties", *_COMBINED):
        if node.get(key) and isinstance(node[key], dict | list):  # an open object's {} is reported above
            yield from loose_parts(schema, node[key], path, seen)


def answers(schema: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for route, operations in schema["paths"].items():
        if not any(part in route for part in ROUTES):
            continue
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                for content in response.get("content", {}).values():
                    yield f"{method.upper()} {route} {status}", content.get("schema")


@pytest.fixture
def served(admin_client: Client) -> dict[str, Any]:
    schema: dict[str, Any] = admin_client.get("/api/schema/", {"format": "json"}).json()
    return schema


def test_no_answer_of_the_games_has_a_loose_part(served: dict[str, Any]) -> None:
    seen: set[str] = set()
    found = {path: why for _, answer in answers(served)
             for path, why in loose_parts(served, answer, "", seen)}
    assert {path: why for path, why in found.items() if path not in EXCEPTIONS} == {}
    assert set(EXCEPTIONS) <= set(found), "an exception is typed now: take it off the list"
    walked = {"MatchOutput", "MatchActOutput", "ModeOutput", "RunOutput", "BattleOutput", "ActOutput",
              "GuildLabyrinthOutput", "CellCaptureEvent", "LabyrinthPaperView", "RunEvent", "BattleEvent"}
    assert walked <= seen, walked - seen


@pytest.mark.parametrize(("node", "why"), [
    ({"type": "object", "description": "x"}, "a bare object"),
    ({"type": "object", "additionalProperties": {}}, "an object open to any other key"),
    ({"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": True},
     "an object open to any other key"),
    ({"description": "anything"}, "a value with no schema"),
])
def test_the_walk_finds_each_kind_of_loose_part(node: dict[str, Any], why: str) -> None:
    schema = {"components": {"schemas": {"Loose": node}}}
    wrapped = {"type": "object", "properties": {"part": {"$ref": "#/components/schemas/Loose"}},
               "additionalProperties": False}
    assert list(loose_parts(schema, wrapped, "", set())) == [("Loose", why)]


@pytest.mark.parametrize("node", [
    {"type": "object", "properties": {}, "additionalProperties": False},
    {"type": "object", "additionalProperties": {"type": "integer"}},
    {"oneOf": [{"type": "integer"}, {"type": "string"}]},
    {"type": "string", "nullable": True},
])
def test_typed_parts_are_not_loose(node: dict[str, Any]) -> None:
    assert loose(node) is None
