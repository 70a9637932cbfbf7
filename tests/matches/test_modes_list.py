"""GET /api/v1/modes/ (SPEC 14): every registered mode as its adapter declares it, with the admin's data."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import MatchModeSettings
from matches.modes import get_mode, registered_modes
from matches.services import mode_settings
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import started, url

pytestmark = pytest.mark.django_db

MODES = "/api/v1/modes/"
#: the shipped modes (the test-only modes of conftest.py are registered too, and listed like any other)
SHIPPED = {
    "cell_capture": (2, 10),
    "labyrinth_console": (1, 8),
    "labyrinth_roguelike": (1, 1),
    "labyrinth_paper": (2, 5),
}


def _modes(**headers: str) -> dict[str, dict[str, Any]]:
    reply = api_client(PlayerFactory()).get(MODES, **headers)
    assert reply.status_code == 200, reply.json()
    return {mode["name"]: mode for mode in reply.json()}


def test_every_registered_mode_is_listed_with_its_limits() -> None:
    modes = _modes()
    assert set(modes) == set(registered_modes())
    assert list(modes) == sorted(modes)
    for name, (low, high) in SHIPPED.items():
        assert (modes[name]["min_players"], modes[name]["max_players"]) == (low, high)
    for name, mode in modes.items():
        adapter = get_mode(name)
        assert adapter is not None
        assert set(mode) == {"name", "title", "min_players", "max_players", "turn_deadline_seconds",
                             "settings", "bots", "spectators"}
        assert (mode["min_players"], mode["max_players"]) == (adapter.min_players, adapter.max_players)
        assert mode["title"] and mode["title"] == str(adapter.title)
        offered = list(adapter.bots) if adapter.max_players > 1 else []  # a single seat has none to give
        assert mode["bots"] == offered
        row = MatchModeSettings.objects.filter(mode=name).first()  # the admin's value, else the adapter's
        assert mode["spectators"] is (adapter.spectators if row is None else row.spectators)
    for name in SHIPPED:  # SPEC 15: every shipped game of several seats offers `random` and a sensible one
        if modes[name]["max_players"] > 1:
            assert modes[name]["bots"][0] == "random" and len(modes[name]["bots"]) >= 2
    assert modes["labyrinth_roguelike"]["bots"] == []  # its single player can ask for no bot


def test_the_settings_are_a_json_schema_of_every_setting_with_the_defaults_and_lobby_settings() -> None:
    modes = _modes()
    for name, mode in modes.items():
        adapter = get_mode(name)
        assert adapter is not None
        schema = mode["settings"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        defaults = adapter.default_settings()
        assert set(schema["properties"]) == set(defaults), name
        assert {key: prop["default"] for key, prop in schema["properties"].items()} == defaults
        # The declaration agrees with the mode's own check: its defaults pass both, and so do the
        # settings the mode completes them into.
        jsonschema.validate(defaults, schema)
        complete = adapter.validate_settings(defaults)
        assert isinstance(complete, dict), complete
        jsonschema.validate({key: complete[key] for key in defaults}, schema)
    roguelike = modes["labyrinth_roguelike"]["settings"]
    assert "seed" in roguelike["lobby_settings"] and "player_health" not in roguelike["lobby_settings"]
    assert roguelike["properties"]["width"] == {"type": ["integer", "null"], "minimum": 3, "maximum": 8,
                                                "default": None}
    assert modes["cell_capture"]["settings"]["lobby_settings"] == ["height", "width"]
    assert modes["cell_capture"]["settings"]["properties"]["width"]["maximum"] == 50


def test_a_value_the_schema_refuses_is_refused_by_the_mode_too() -> None:
    schema = _modes()["cell_capture"]["settings"]
    for bad in ({"width": 4}, {"width": 51}, {"height": "8"}, {"colour": "red"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"width": 8, "height": 8, **bad}, schema)
        lobby = {"mode": "cell_capture", "settings": bad}
        reply = api_client(PlayerFactory()).post("/api/v1/matches/", lobby, format="json")
        assert reply.status_code == 400, bad


def test_the_admins_current_defaults_and_deadline_are_shown() -> None:
    row = mode_settings("cell_capture")
    row.defaults = {"width": 12, "height": 6}
    row.turn_deadline_seconds = 45
    row.save()
    mode = _modes()["cell_capture"]
    assert mode["settings"]["properties"]["width"]["default"] == 12
    assert mode["settings"]["properties"]["height"]["default"] == 6
    assert mode["turn_deadline_seconds"] == 45


def test_a_mode_never_used_shows_its_adapters_data_and_the_read_writes_nothing() -> None:
    MatchModeSettings.objects.all().delete()
    modes = _modes()
    assert MatchModeSettings.objects.count() == 0
    assert modes["cell_capture"]["turn_deadline_seconds"] == 60
    assert modes["cell_capture"]["settings"]["properties"]["width"]["default"] == 8


def test_a_mode_without_turn_deadlines_shows_none() -> None:
    row = mode_settings("labyrinth_roguelike")
    row.turn_deadline_seconds = 30
    row.save()
    modes = _modes()
    assert modes["labyrinth_roguelike"]["turn_deadline_seconds"] is None
    assert modes["labyrinth_paper"]["turn_deadline_seconds"] == 60


def test_titles_are_english_by_default_and_russian_on_request() -> None:
    english = _modes()
    russian = _modes(HTTP_ACCEPT_LANGUAGE="ru")
    assert english["cell_capture"]["title"] == "Cell capture"
    assert russian["cell_capture"]["title"] == "Захват клеток"
    assert russian["labyrinth_console"]["title"] == "Консольный лабиринт"
    assert russian["labyrinth_roguelike"]["title"] == "Лабиринт-рогалик"
    assert russian["labyrinth_paper"]["title"] == "Бумажный лабиринт"
    assert russian["cell_capture"]["settings"] == english["cell_capture"]["settings"]


@pytest.mark.parametrize("on", [True, False])
def test_the_listed_spectators_is_what_the_machinery_does(on: bool) -> None:
    """A stranger reads a started match as a spectator exactly when the list says the mode allows it."""
    row = mode_settings("cell_capture")
    row.spectators = on
    row.save()
    _, match = started("cell_capture", players=2)
    stranger = api_client(PlayerFactory())
    assert _modes()["cell_capture"]["spectators"] is on
    assert stranger.get(url(match.pk)).status_code == (200 if on else 404)


def test_unauthenticated_is_the_same_401_as_every_route() -> None:
    client = APIClient()
    reply = client.get(MODES)
    other = client.get("/api/v1/matches/")
    assert reply.status_code == other.status_code == 401
    assert reply.json() == other.json()
    assert reply.json()["error"]["code"] == "not_authenticated"


def test_the_route_is_in_the_openapi_schema_with_named_components(admin_client: Client) -> None:
    schema = admin_client.get("/api/schema/", {"format": "json"}).json()
    get = schema["paths"]["/api/v1/modes/"]["get"]
    assert {"200", "401"} <= set(get["responses"])
    ok = get["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"type": "array", "items": {"$ref": "#/components/schemas/ModeOutput"}}
    components = schema["components"]["schemas"]
    mode = components["ModeOutput"]["properties"]
    assert set(mode) == {"name", "title", "min_players", "max_players", "turn_deadline_seconds", "settings",
                         "bots", "spectators"}
    assert mode["settings"] == {"$ref": "#/components/schemas/ModeSettingsSchema"}
    assert set(components["ModeSettingsSchema"]["properties"]) == {"type", "properties", "lobby_settings",
                                                                  "additionalProperties"}
