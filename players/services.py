"""Writes about players: registration."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction

from backend.errors import InvalidInput, RuleViolation
from players.models import Player, PlayerSettings


@transaction.atomic
def player_register(*, username: str, password: str) -> Player:
    """Create a user and their character; usernames are unique ignoring case."""
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise RuleViolation("username_taken", "That username is taken.", {"username": username})
    user = user_model(username=username)
    try:
        validate_password(password, user)
    except DjangoValidationError as exc:
        raise InvalidInput("weak_password", "The password is too weak.", {"password": exc.messages}) from exc
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # a concurrent registration won the same name
        raise RuleViolation("username_taken", "That username is taken.", {"username": username}) from exc
    return Player.objects.create(
        user=user, display_name=username, money=PlayerSettings.load().starting_money
    )
