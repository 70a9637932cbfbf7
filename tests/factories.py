"""factory_boy factories and small builders shared by the API and service tests."""
from __future__ import annotations

from datetime import timedelta

import factory
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from dungeons.models import Run
from guilds import services
from guilds.models import Guild
from players.models import Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("correct-horse-battery")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.LazyAttribute(lambda p: p.user.username)
    money = 100


def api_client(player: Player | None = None) -> APIClient:
    """An API client that authenticates as ``player`` with a real JWT access token."""
    client = APIClient()
    if player is not None:
        token = RefreshToken.for_user(player.user).access_token
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def make_guild(*, leader: Player | None = None, members: int = 0, name: str | None = None,
               joined_days_ago: int = 0) -> Guild:
    """A guild with ``leader`` plus ``members`` more players, all joined ``joined_days_ago`` days ago."""
    leader = leader or PlayerFactory()
    at = timezone.now() - timedelta(days=joined_days_ago)
    with time_machine.travel(at, tick=False):
        guild = services.guild_create(player=leader, name=name or f"Guild of {leader.display_name}")
        for _ in range(members):
            add_member(guild, PlayerFactory())
    guild.refresh_from_db()
    return guild


def add_member(guild: Guild, player: Player) -> Player:
    """Join ``player`` to ``guild`` through the real application path."""
    application = services.guild_application_create(player=player, guild_id=guild.pk)
    services.guild_application_approve(actor=guild.leader, guild_id=guild.pk, application_id=application.pk)
    guild.refresh_from_db()
    return player


def make_run(*, host: Player | None = None, kind: str = "ordinary") -> Run:
    """A lobby opened by ``host`` through the real service."""
    from dungeons.runs.lobby import run_open

    return run_open(player=host or PlayerFactory(), kind=kind)
