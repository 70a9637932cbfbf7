"""The lobby over HTTP: opening, listing, joining, leaving, starting weapons, formation and start,
each rule with its refusal (status, code, and nothing changed)."""

from __future__ import annotations

import pytest

from dungeons.models import MemberStatus, Run, RunMember, RunStatus, WeaponChoice
from dungeons.runs import lobby as run_services
from guilds.models import PersonRunDay
from players.models import InventoryItem
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    fix_seed,
    item_kind,
    lobby,
    rooms_are,
    run_settings,
    seed_where,
    small_dungeons,
)
from tests.factories import PlayerFactory, make_run

pytestmark = pytest.mark.django_db


def _members(run_id: int) -> list[tuple[int, str, int, bool]]:
    return list(
        RunMember.objects.filter(run_id=run_id)
        .order_by("pk")
        .values_list("player_id", "status", "position", "active")
    )


def _snapshot(run_id: int) -> tuple:
    run = Run.objects.get(pk=run_id)
    return (
        run.status,
        run.host_id,
        run.step,
        run.dungeon_id,
        _members(run_id),
        list(RunMember.objects.filter(run_id=run_id).order_by("pk").values_list("weapon_choice", flat=True)),
        InventoryItem.objects.count(),
    )


def test_opening_a_lobby_makes_the_caller_host_and_first_member_and_lists_it() -> None:
    host, other = PlayerFactory(), PlayerFactory()
    party = Party([host, other])

    opened = party.post(host, "runs/", {"kind": "frenzy"})

    assert opened.status_code == 201, opened.json()
    body = opened.json()
    assert (body["kind"], body["status"], body["host"], body["step"], body["seed"]) == (
        "frenzy",
        "lobby",
        host.pk,
        0,
        None,
    )
    assert [(m["player"], m["position"], m["status"]) for m in body["members"]] == [(host.pk, 0, "joined")]
    # regression: both run lists answered 500 ("The annotation 'host' conflicts with a field")
    lobbies = party.client(other).get(f"{API}/runs/lobbies/")
    assert lobbies.status_code == 200, lobbies.content
    assert lobbies.json()["results"] == [
        {
            "id": body["id"],
            "kind": "frenzy",
            "status": "lobby",
            "host": host.pk,
            "host_username": host.user.username,
            "created_at": lobbies.json()["results"][0]["created_at"],
        }
    ]
    mine = party.client(host).get(f"{API}/runs/")
    assert mine.status_code == 200, mine.content
    assert [(r["id"], r["host"]) for r in mine.json()["results"]] == [(body["id"], host.pk)]
    assert party.client(other).get(f"{API}/runs/").json()["results"] == []
    # a stranger sees an open lobby, but is not a member
    assert party.run(body["id"], other)["is_member"] is False


def test_an_unknown_kind_is_a_400_and_opens_nothing() -> None:
    party = Party([PlayerFactory()])
    for kind in ("nope", "ORDINARY"):  # darkness opens since issue 16
        response = party.post(party.players[0], "runs/", {"kind": kind})
        assert response.status_code == 400, response.json()
    assert not Run.objects.exists()


def test_a_player_already_in_a_run_cannot_open_or_join_another() -> None:
    # given: a player in one lobby and another lobby
    player = PlayerFactory()
    first = make_run(host=player)
    second = make_run()
    party = Party([player])
    before = (_snapshot(first.pk), _snapshot(second.pk))

    # when / then: opening a second lobby and joining the other are both refused
    error = assert_error(party.post(player, "runs/", {"kind": "ordinary"}), 409, "already_in_run")
    assert error["details"]["run"] == first.pk
    error = assert_error(party.post(player, f"runs/{second.pk}/join/"), 409, "already_in_run")
    assert error["details"]["run"] == first.pk
    assert (_snapshot(first.pk), _snapshot(second.pk)) == before
    assert Run.objects.count() == 2


def test_joining_twice_is_already_in_party() -> None:
    run = make_run()
    joiner = PlayerFactory()
    party = Party([joiner])
    assert party.post(joiner, f"runs/{run.pk}/join/").status_code == 200
    before = _snapshot(run.pk)
    assert_error(party.post(joiner, f"runs/{run.pk}/join/"), 409, "already_in_party")
    assert _snapshot(run.pk) == before


def test_a_full_party_refuses_one_more() -> None:
    run_settings(max_party_size=2)
    run = make_run()
    second, third = PlayerFactory(), PlayerFactory()
    party = Party([second, third])
    assert party.post(second, f"runs/{run.pk}/join/").status_code == 200
    before = _snapshot(run.pk)

    error = assert_error(party.post(third, f"runs/{run.pk}/join/"), 409, "party_full")

    assert error["details"]["limit"] == 2
    assert _snapshot(run.pk) == before
    assert not RunMember.objects.filter(player=third).exists()


def test_joining_a_started_run_is_run_not_in_lobby_for_one_who_was_in_it_and_404_for_a_stranger(
    monkeypatch,
) -> None:
    # given: a player who left the lobby before the start, and a stranger
    small_dungeons(rooms=2)
    bestiary()
    host, quitter, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    fix_seed(monkeypatch, seed_where(rooms_are("rest", "boss"), players=[host]))
    run = lobby([host, quitter])
    run_services.run_leave(player=quitter, run_id=run.pk)
    run_services.run_start(player=host, run_id=run.pk)
    party = Party([quitter, stranger])
    before = _snapshot(run.pk)

    # when / then: the one who left may not come back; the stranger learns nothing about the run
    # (regression: the stranger got 409 run_not_in_lobby {status: active} while GET answered 404)
    error = assert_error(party.post(quitter, f"runs/{run.pk}/join/"), 409, "run_not_in_lobby")
    assert error["details"]["status"] == "active"
    assert_error(party.post(stranger, f"runs/{run.pk}/join/"), 404, "run_not_found")
    assert_error(party.client(stranger).get(f"{API}/runs/{run.pk}/"), 404, "run_not_found")
    assert _snapshot(run.pk) == before


def test_only_the_host_starts_and_only_when_everyone_chose_a_weapon() -> None:
    # given: a lobby of two; the guest has not chosen yet
    host, guest = PlayerFactory(), PlayerFactory()
    run = make_run(host=host)
    party = Party([host, guest])
    assert party.post(guest, f"runs/{run.pk}/join/").status_code == 200
    assert party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": None}).status_code == 200
    before = _snapshot(run.pk)

    # when / then: the guest may not start; the host may not start while a choice is pending
    assert_error(party.post(guest, f"runs/{run.pk}/start/"), 403, "not_host")
    error = assert_error(party.post(host, f"runs/{run.pk}/start/"), 409, "weapon_choice_pending")
    assert error["details"]["players"] == [guest.pk]
    assert _snapshot(run.pk) == before
    assert not PersonRunDay.objects.exists()
    # a stranger starting is a 404, not a 403
    stranger = PlayerFactory()
    assert_error(Party([stranger]).post(stranger, f"runs/{run.pk}/start/"), 404, "run_not_found")
    assert _snapshot(run.pk) == before


def test_a_starting_weapon_is_taken_once_from_the_offer_only() -> None:
    # given: a lobby and the junk dealer's offer (three different basic weapons)
    host = PlayerFactory()
    run = make_run(host=host)
    party = Party([host])
    offer = party.client(host).get(f"{API}/runs/{run.pk}/offer/").json()
    assert len(offer) == 3 and len({o["id"] for o in offer}) == 3
    not_offered = item_kind("Not On Offer", "weapon", "club", damage=3)  # not basic: the offer stays
    assert not_offered.pk not in {o["id"] for o in offer}
    before = _snapshot(run.pk)

    # when / then: a weapon outside the offer is refused, nothing carried
    error = assert_error(
        party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": not_offered.pk}), 409, "not_offered"
    )
    assert sorted(error["details"]["offer"]) == sorted(o["id"] for o in offer)
    assert _snapshot(run.pk) == before

    # when: one is taken: carried, in hand, counted as collected in this run
    assert party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": offer[1]["id"]}).status_code == 200
    item = InventoryItem.objects.get(player=host)
    assert (item.item_kind_id, item.equipped, item.acquired_in_run_id) == (offer[1]["id"], True, run.pk)
    chosen = _snapshot(run.pk)

    # then: a second choice (take or refuse) is weapon_already_chosen
    assert_error(
        party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": offer[0]["id"]}),
        409,
        "weapon_already_chosen",
    )
    assert_error(
        party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": None}), 409, "weapon_already_chosen"
    )
    assert _snapshot(run.pk) == chosen
    assert InventoryItem.objects.filter(player=host).count() == 1


def test_a_starting_weapon_beyond_two_carried_weapons_is_weapon_limit_and_the_choice_stays_open() -> None:
    host = PlayerFactory()
    for n in range(2):
        InventoryItem.objects.create(
            player=host, item_kind=item_kind(f"Own Blade {n}", "weapon", "sword", damage=3)
        )
    run = make_run(host=host)
    party = Party([host])
    offer = party.client(host).get(f"{API}/runs/{run.pk}/offer/").json()
    before = _snapshot(run.pk)

    error = assert_error(
        party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": offer[0]["id"]}), 409, "weapon_limit"
    )

    assert (error["details"]["limit"], error["details"]["current"]) == (2, 2)
    assert _snapshot(run.pk) == before
    assert RunMember.objects.get(run=run, player=host).weapon_choice == WeaponChoice.PENDING
    # refusing still works: the player goes with the weapons they own
    assert party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": None}).status_code == 200


def test_the_offer_is_for_party_members_only() -> None:
    run = make_run()
    stranger = PlayerFactory()
    assert_error(Party([stranger]).client(stranger).get(f"{API}/runs/{run.pk}/offer/"), 404, "run_not_found")
    assert_error(Party([stranger]).client(stranger).get(f"{API}/runs/999999/offer/"), 404, "run_not_found")


@pytest.mark.parametrize("players", ["missing", "stranger", "twice", "extra"])
def test_a_formation_must_name_every_member_once(players: str) -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    run = make_run(host=host)
    party = Party([host, guest])
    assert party.post(guest, f"runs/{run.pk}/join/").status_code == 200
    stranger = PlayerFactory()
    order = {
        "missing": [guest.pk],
        "stranger": [guest.pk, stranger.pk],
        "twice": [guest.pk, guest.pk],
        "extra": [guest.pk, host.pk, stranger.pk],
    }[players]
    before = _snapshot(run.pk)

    error = assert_error(
        party.client(guest).put(f"{API}/runs/{run.pk}/formation/", {"players": order}, format="json"),
        400,
        "invalid_formation",
    )

    assert sorted(error["details"]["party"]) == sorted([host.pk, guest.pk])
    assert _snapshot(run.pk) == before


def test_any_member_sets_the_formation_in_the_lobby() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    run = make_run(host=host)
    party = Party([host, guest])
    party.post(guest, f"runs/{run.pk}/join/")

    response = party.client(guest).put(
        f"{API}/runs/{run.pk}/formation/", {"players": [guest.pk, host.pk]}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert [(m["player"], m["position"]) for m in response.json()["members"]] == [(guest.pk, 0), (host.pk, 1)]


def test_leaving_returns_the_starting_weapon_hands_over_the_host_and_the_last_one_out_cancels() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    own = InventoryItem.objects.create(
        player=host, item_kind=item_kind("Own Dagger", "weapon", "knife", damage=2)
    )
    run = make_run(host=host)
    party = Party([host, guest])
    party.post(guest, f"runs/{run.pk}/join/")
    offer = party.client(host).get(f"{API}/runs/{run.pk}/offer/").json()
    party.post(host, f"runs/{run.pk}/weapon/", {"item_kind": offer[0]["id"]})
    assert InventoryItem.objects.filter(player=host).count() == 2

    left = party.post(host, f"runs/{run.pk}/leave/")

    assert left.status_code == 200, left.json()
    assert left.json()["host"] == guest.pk
    assert [(m["player"], m["position"]) for m in left.json()["members"]] == [(guest.pk, 0)]
    assert list(InventoryItem.objects.filter(player=host)) == [own]  # only the run's weapon went back
    assert not RunMember.objects.get(run=run, player=host).active
    # the one who left may join again (a fresh choice), and leaving twice is not_in_party
    assert_error(party.post(host, f"runs/{run.pk}/leave/"), 409, "not_in_party")
    assert party.post(guest, f"runs/{run.pk}/leave/").status_code == 200
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.ended_at is not None
    assert not RunMember.objects.filter(run=run, active=True).exists()
    assert_error(party.post(host, f"runs/{run.pk}/join/"), 409, "run_not_in_lobby")


def test_a_player_who_left_may_open_another_lobby() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    run = make_run(host=host)
    party = Party([host, guest])
    party.post(guest, f"runs/{run.pk}/join/")
    party.post(guest, f"runs/{run.pk}/leave/")

    again = party.post(guest, "runs/", {"kind": "ordinary"})

    assert again.status_code == 201, again.json()
    assert RunMember.objects.get(run=run, player=guest).status == MemberStatus.LEFT
