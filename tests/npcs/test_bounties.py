"""The inquisitor's bounties: taken between runs, counted from battle kills, paid when complete."""
from __future__ import annotations

import pytest

from combat.models import EnemyKind
from npcs.models import BountyQuest, GuildStructure, NpcSettings, NpcTrade, PlayerBounty, Structure
from npcs.services import bounty_progress_record, npc_rescue
from tests.dungeons.run_helpers import Party, bestiary, guild_party
from tests.factories import api_client
from tests.npcs.helpers import API, Snapshot, assert_error, hall, money
from tests.npcs.runs import one_floor_run, play_to_the_end

pytestmark = pytest.mark.django_db


def _quest(slug: str = "giant-rat", kills: int = 3, reward: int = 50) -> BountyQuest:
    return BountyQuest.objects.create(title=f"Hunt {slug}", enemy_kind=EnemyKind.objects.get(slug=slug),
                                      kills=kills, reward=reward)


def test_a_bounty_is_completed_from_kills_and_paid_once() -> None:
    # given: a member who took a bounty on three rats
    h = hall("inquisitor", money=0)
    quest = _quest()
    taken = h.post(f"inquisitor/bounties/{quest.pk}/accept/")
    assert taken.status_code == 201, taken.json()
    assert (taken.json()["progress"], taken.json()["status"]) == (0, "open")

    # when: battles report two rats, then two more (one too many), then another
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 2, "cave-spider": 5})
    assert PlayerBounty.objects.get().progress == 2 and money(h.player) == 0
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 2})
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 1})

    # then: complete at 3 of 3, the reward paid exactly once
    bounty = PlayerBounty.objects.get()
    assert (bounty.progress, bounty.status, bounty.reward_paid) == (3, "completed", 50)
    assert money(h.player) == 50
    assert NpcTrade.objects.get(player=h.player, action="bounty").coins == 50
    mine = h.get("inquisitor/bounties/").json()["mine"]
    assert [(b["quest"], b["status"], b["progress"]) for b in mine] == [(quest.pk, "completed", 3)]


def test_kills_before_taking_a_bounty_do_not_count() -> None:
    h = hall("inquisitor", money=0)
    quest = _quest(kills=2)
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 5})
    h.post(f"inquisitor/bounties/{quest.pk}/accept/")
    assert PlayerBounty.objects.get().progress == 0


def test_the_trophy_hall_adds_its_bonus_to_the_reward() -> None:
    h = hall("inquisitor", money=0)
    GuildStructure.objects.create(guild=h.guild, structure=Structure.objects.get(slug="trophy-hall"),
                                  built_at=h.guild.created_at)
    quest = _quest(kills=1, reward=60)
    h.post(f"inquisitor/bounties/{quest.pk}/accept/")
    assert h.get("inquisitor/bounties/").json()["bonus_percent"] == 25
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 1})
    assert money(h.player) == 75


def test_a_bounty_cannot_be_taken_twice_nor_more_than_the_limit() -> None:
    NpcSettings.objects.filter(pk=1).update(max_open_bounties=2)
    h = hall("inquisitor")
    rats, spiders, goblins = _quest(), _quest("cave-spider"), _quest("goblin-cutthroat")
    assert h.post(f"inquisitor/bounties/{rats.pk}/accept/").status_code == 201
    assert_error(h.post(f"inquisitor/bounties/{rats.pk}/accept/"), 409, "bounty_already_taken")
    assert h.post(f"inquisitor/bounties/{spiders.pk}/accept/").status_code == 201
    error = assert_error(h.post(f"inquisitor/bounties/{goblins.pk}/accept/"), 409, "too_many_bounties")
    assert error["details"] == {"limit": 2}
    assert PlayerBounty.objects.filter(player=h.player).count() == 2


def test_an_abandoned_bounty_stops_counting_and_frees_its_place() -> None:
    h = hall("inquisitor", money=0)
    quest = _quest(kills=1)
    h.post(f"inquisitor/bounties/{quest.pk}/accept/")
    response = h.post(f"inquisitor/bounties/{quest.pk}/abandon/")
    assert response.status_code == 200 and response.json()["status"] == "abandoned"
    bounty_progress_record(player_id=h.player.pk, kills={"giant-rat": 3})
    assert money(h.player) == 0
    assert_error(h.post(f"inquisitor/bounties/{quest.pk}/abandon/"), 404, "bounty_not_found")
    assert h.post(f"inquisitor/bounties/{quest.pk}/accept/").status_code == 201  # may be taken again


def test_refusals_change_nothing() -> None:
    h = hall("inquisitor")
    hidden = _quest()
    BountyQuest.objects.filter(pk=hidden.pk).update(is_active=False)
    before = Snapshot.of(h.player)
    assert_error(h.post(f"inquisitor/bounties/{hidden.pk}/accept/"), 404, "quest_not_found")
    assert_error(h.post("inquisitor/bounties/999999/accept/"), 404, "quest_not_found")
    assert_error(h.post(f"inquisitor/bounties/{_quest().pk}/accept/", player=h.outsider), 403, "not_member")
    assert Snapshot.of(h.player) == before and not PlayerBounty.objects.exists()


def test_negative_kill_counts_are_a_programming_error() -> None:
    with pytest.raises(ValueError):
        bounty_progress_record(player_id=1, kills={"giant-rat": -1})


def test_the_migrated_board_offers_a_quest_per_creature_kind() -> None:
    h = hall("inquisitor")
    quests = h.get("inquisitor/bounties/").json()["quests"]
    assert len(quests) == 12
    assert {"giant-rat", "ember-wyrm"} <= {q["enemy_kind"]["slug"] for q in quests}


def test_a_bounty_is_completed_by_the_kills_of_a_real_run(monkeypatch) -> None:
    # given: a member who took a bounty on one test rat (the run's only ordinary creature)
    (player,), guild = guild_party(1, money=0, strength=4, stamina=6)
    npc_rescue(guild_id=guild.pk, kind="inquisitor")
    bestiary()
    quest = _quest("test-rat", kills=1, reward=40)
    accepted = api_client(player).post(f"{API}/guilds/{guild.pk}/npcs/inquisitor/bounties/{quest.pk}/accept/")
    assert accepted.status_code == 201, accepted.json()
    money_before = money(player)

    # when: the next run is played through (the rat falls to the player's blows)
    run = one_floor_run([player], monkeypatch)
    play_to_the_end(Party([player]), run.pk, player)

    # then
    bounty = PlayerBounty.objects.get(player=player)
    assert (bounty.progress, bounty.status, bounty.reward_paid) == (1, "completed", 40)
    trade = NpcTrade.objects.get(player=player, action="bounty")
    assert trade.coins == 40 and money(player) >= money_before + 40
