"""A lobby's chosen seed (the daily challenge) names a world only this server can build: the world comes
from an HMAC of the public seed under the server's key, never from the seed itself; games stored
before keep playing on their stored world."""
from __future__ import annotations

import pytest
from django.test import override_settings

from matches.models import Match
from roguelike.engine import game_from_json, game_to_json, generate, settings_from_json
from roguelike.mode import chosen_world_seed
from tests.factories import PlayerFactory
from tests.matches.helpers import act, read
from tests.roguelike.test_mode import open_game, server_game

pytestmark = pytest.mark.django_db
SEED = 77


def test_a_chosen_seeds_world_cannot_be_computed_from_the_public_seed() -> None:
    # given: a game on a chosen seed (its settings, the seed included, are public)
    match_id = open_game(PlayerFactory(), {"seed": SEED})
    settings = settings_from_json(Match.objects.get(pk=match_id).settings)
    # when: someone runs the open-source generator on that seed
    offline = generate(settings, SEED)
    # then: it is another world; the server's comes from the keyed seed
    game = server_game(match_id)
    assert game.world != offline.world and game.world_seed != SEED
    assert game == generate(settings, chosen_world_seed(SEED))


def test_the_same_chosen_seed_gives_the_same_world_on_one_server_and_another_on_another_key() -> None:
    first = server_game(open_game(PlayerFactory(), {"seed": SEED}))
    assert server_game(open_game(PlayerFactory(), {"seed": SEED})) == first  # the daily challenge
    with override_settings(ROGUELIKE_SEED_KEY="another server's key"):
        other = server_game(open_game(PlayerFactory(), {"seed": SEED}))
    assert other.world != first.world


def test_the_key_is_derived_from_secret_key_unless_one_is_set() -> None:
    with override_settings(ROGUELIKE_SEED_KEY=""):
        derived = chosen_world_seed(SEED)
        with override_settings(SECRET_KEY="a rotated secret key"):
            assert chosen_world_seed(SEED) != derived
    with override_settings(ROGUELIKE_SEED_KEY="kept across rotations"):
        kept = chosen_world_seed(SEED)
        with override_settings(SECRET_KEY="a rotated secret key"):
            assert chosen_world_seed(SEED) == kept
    assert 0 <= derived < 2**63 and 0 <= kept < 2**63


def test_a_game_stored_before_seeds_were_keyed_plays_on_its_stored_world() -> None:
    # given: a game whose stored world was built from the bare seed (as before)
    player = PlayerFactory()
    match_id = open_game(player, {"seed": SEED})
    match = Match.objects.get(pk=match_id)
    old = generate(settings_from_json(match.settings), SEED)
    match.state = game_to_json(old)
    match.save(update_fields=["state"])
    # when: the player goes on
    action = read(player, match_id)["allowed_actions"][0]
    assert act(player, match_id, action).status_code == 200
    # then: on that world
    after = game_from_json(Match.objects.get(pk=match_id).state)
    assert after.world_seed == SEED and after.turn == 1
