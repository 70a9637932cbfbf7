"""The contract test of darkness (SPEC 14, issue 26): a darkness run's answers (its start, every move, a read)
and the guild's labyrinth are validated against their components of the schema served at /api/schema/:
the run's darkness entries (torch, moves, camps, a rubber room, a teleport) are typed by kind like the rest.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.darkness.helpers import API
from tests.darkness.test_darkness_move_answer import _moves, _started
from tests.schema_checks import errors, json_schema, served_schema, validator

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(admin_client: Client) -> dict[str, Any]:
    schema: dict[str, Any] = json_schema(served_schema(admin_client))
    return schema


def test_a_darkness_run_answers_in_the_published_shapes(published: dict[str, Any]) -> None:
    players, party, run = _started("treasure", "4 2\n. R\n_ .\n. .\n. _\n. T\n_ .\n. .\n"
                                   "R RubberRoom(DOWN)\nT Teleport((3, 1))\n")
    answers = [run, *_moves(party, players[0], run, ["RIGHT", "LEFT", "DOWN", "UP"])]
    answers += _moves(party, players[1], answers[-1], ["DOWN", "LEFT", "DOWN", "RIGHT"])
    check = validator(published, "RunOutput")
    assert [e for answer in answers for e in errors(check, answer)] == []
    kinds = {event["kind"] for event in answers[-1]["events"]}
    assert {"started", "torch_taken", "moved"} <= kinds, kinds
    guild = players[0].memberships.get(left_at=None).guild_id
    labyrinth = party.client(players[0]).get(f"{API}/guilds/{guild}/labyrinth/")
    assert labyrinth.status_code == 200, labyrinth.json()
    assert errors(validator(published, "GuildLabyrinthOutput"), labyrinth.json()) == []
