"""labyrinth/0007 and paper_labyrinth/0001 move PaperMapDesign to the paper_labyrinth app without touching
a row: designer maps of both kinds and matches of every labyrinth mode stored before the move answer and
play exactly as before; the content type follows the model with its permissions and admin history; and
the move reverses."""
from __future__ import annotations

from random import Random
from typing import Any

import pytest
import time_machine
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Model
from django.test import Client
from django.utils import timezone

from labyrinth.engine import GeneratorSettings, format_map, generate_map
from labyrinth.models import LabyrinthMapDesign, MapDesign
from matches.models import Match, MatchAction, MatchEvent, MatchSeat
from paper_labyrinth.engine.examples import CUT_CORNERS_TEXT, SMALL_CLASSIC_TEXT
from paper_labyrinth.models import PaperMapDesign
from tests.factories import PlayerFactory, api_client
from tests.labyrinth.test_hidden_after_the_end import Table
from tests.matches.helpers import open_lobby, url

BEFORE = [("labyrinth", "0006_designer_maps_fit_a_lobby")]
MATCH_TABLES = (Match, MatchSeat, MatchAction, MatchEvent)


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def migrate_to_the_latest() -> None:
    migrate(migrate([]).loader.graph.leaf_nodes())


def derived(design: MapDesign) -> dict[str, Any]:
    """The row the admin would save for ``design`` (its size and checks derived), to write it through the
    model of the state before the move, which has none of the model's code."""
    design.clean()
    return {f.attname: getattr(design, f.attname) for f in design._meta.concrete_fields
            if not f.primary_key and f.name not in ("created_at", "updated_at")}


def rows(model: type[Model]) -> list[dict[str, Any]]:
    return list(model._default_manager.order_by("pk").values())


def play(table: Table, steps: int) -> int:
    """The awaited player sends the first of their allowed actions (200 each), ``steps`` times or until
    the game ends (the seed is drawn at the start: a short game may end early); the actions sent."""
    for sent in range(steps):
        match = table.match()
        if match.is_over:
            return sent
        mover = next(p for p in table.people if p.pk == match.awaiting_id)
        view = table.get(mover, url(table.match_id))
        table.post(mover, url(table.match_id, "actions/"),
                   {"turn": view["turn"], "action": view["allowed_actions"][0]})
    return steps


def answers(tables: list[Table]) -> list[dict[str, Any]]:
    """Every seated player's read of every match, and its replay once it is over."""
    bodies = []
    for table in tables:
        for person in table.people:
            bodies.append(table.get(person, url(table.match_id), {"since": 0}))
            if table.match().is_over:
                bodies.append(table.get(person, url(table.match_id, "replay/")))
    return bodies


@pytest.mark.django_db(transaction=True)
def test_the_paper_map_design_moves_app_keeping_every_row_match_and_permission_both_ways() -> None:
    with time_machine.travel(timezone.now(), tick=False):
        # given: a database before the move, with designer maps of both kinds, their content type with
        # a permission given to a group and an admin history entry, and matches of every labyrinth mode
        old = migrate(BEFORE).loader.project_state(BEFORE).apps
        old_console = old.get_model("labyrinth", "LabyrinthMapDesign").objects
        console = old_console.create(**derived(LabyrinthMapDesign(
            name="moved: console", text=format_map(generate_map(4, 5, Random(3))))))
        draft = LabyrinthMapDesign.generated(name="moved: console draft", rows=6, cols=6, seed=11,
                                             settings=GeneratorSettings())
        old_console.create(**{**derived(draft), "is_active": False})
        old_paper = old.get_model("labyrinth", "PaperMapDesign").objects
        paper = old_paper.create(**derived(PaperMapDesign(name="moved: classic", text=SMALL_CLASSIC_TEXT)))
        corners = old_paper.create(**derived(PaperMapDesign(name="moved: corners", text=CUT_CORNERS_TEXT)))
        quantum = PaperMapDesign.generated(name="moved: quantum draft", rows=4, cols=5, players=3,
                                           variant="quantum", seed=5)
        old_paper.create(**{**derived(quantum), "is_active": False})

        content_type, _ = ContentType.objects.get_or_create(app_label="labyrinth", model="papermapdesign")
        change, _ = Permission.objects.get_or_create(
            content_type=content_type, codename="change_papermapdesign",
            defaults={"name": "Can change paper labyrinth map"})
        designers = Group.objects.create(name="map designers")
        designers.permissions.add(change)
        designer = User.objects.create_user("designer", is_staff=True)
        designer.groups.add(designers)
        entry = LogEntry.objects.create(user=designer, content_type=content_type, object_id=str(paper.pk),
                                        object_repr=paper.name, action_flag=CHANGE, change_message="[]")

        tables = [Table("labyrinth_console", 2, {"map": console.pk}),
                  Table("labyrinth_roguelike", 1, {}),
                  Table("labyrinth_paper", 2, {"map": paper.pk, "starts": "random"})]
        for table in tables:
            play(table, 2)
        ended = Table("labyrinth_paper", 3, {"map": paper.pk, "starts": "chosen"})
        ended.walk_out()
        host, guest = PlayerFactory(), PlayerFactory()
        lobby = open_lobby(host, "labyrinth_paper", {"map": corners.pk, "starts": "random"})["id"]

        designs = {"console": rows(old.get_model("labyrinth", "LabyrinthMapDesign")),
                   "paper": rows(old.get_model("labyrinth", "PaperMapDesign"))}
        stored = [rows(model) for model in MATCH_TABLES]
        read = answers([*tables, ended])
        assert len(designs["paper"]) >= 3 and len(stored[0]) == 5

        # when: the move
        migrate_to_the_latest()
        ContentType.objects.clear_cache()

        # then: every row as it was, every answer the same
        assert {"console": rows(LabyrinthMapDesign), "paper": rows(PaperMapDesign)} == designs
        assert [rows(model) for model in MATCH_TABLES] == stored
        assert answers([*tables, ended]) == read
        assert "revealed" not in ended.get(ended.people[0], url(ended.match_id))["view"]  # the map is in use

        # and the content type is the same row, so the group's permission and the history follow
        assert ContentType.objects.get_for_model(PaperMapDesign).pk == content_type.pk
        assert not ContentType.objects.filter(app_label="labyrinth", model="papermapdesign").exists()
        assert User.objects.get(pk=designer.pk).has_perm("paper_labyrinth.change_papermapdesign")
        assert LogEntry.objects.get(pk=entry.pk).get_admin_url() == \
            f"/admin/paper_labyrinth/papermapdesign/{paper.pk}/change/"
        admin = Client()
        admin.force_login(User.objects.create_superuser("admin"))
        page = admin.get(f"/admin/paper_labyrinth/papermapdesign/{paper.pk}/change/")
        assert page.status_code == 200 and paper.name in page.content.decode()

        # and the matches play on: moves, a lobby on a moved map starts, a map taken out of use is revealed
        assert sum(play(table, 2) for table in tables) > 0
        assert open_lobby(PlayerFactory(), "labyrinth_paper", {"map": paper.pk})["settings"]["map"] == \
            paper.pk
        assert api_client(guest).post(url(lobby, "join/")).status_code == 200
        started = api_client(host).post(url(lobby, "start/"))
        assert started.status_code == 200, started.json()
        assert Match.objects.get(pk=lobby).state["map"]
        PaperMapDesign.objects.filter(pk=paper.pk).update(is_active=False)
        shown = ended.get(ended.people[0], url(ended.match_id))["view"]["revealed"]
        assert shown["map"] == ended.match().state["map"] and set(shown) == {"map", "players"}

        # when: the move is reversed, then done again
        designs_now = rows(PaperMapDesign)
        old = migrate(BEFORE).loader.project_state(BEFORE).apps
        ContentType.objects.clear_cache()
        # then: the rows are the old app's again, and so is the content type
        assert rows(old.get_model("labyrinth", "PaperMapDesign")) == designs_now
        assert (ContentType.objects.get(pk=content_type.pk).app_label, change.content_type_id) == \
            ("labyrinth", content_type.pk)
        migrate_to_the_latest()
        ContentType.objects.clear_cache()
        assert ContentType.objects.get_for_model(PaperMapDesign).pk == content_type.pk
        assert rows(PaperMapDesign) == designs_now
