"""The API's JWT authentication: simplejwt's, whose one user query also reads the settings token."""
from __future__ import annotations

from typing import Any

from django.db.models.expressions import RawSQL
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework_simplejwt.authentication import JWTAuthentication as SimpleJWTAuthentication
from rest_framework_simplejwt.tokens import Token

from backend.models import SETTINGS_TOKEN_SQL, settings_token_seen

#: The attribute of ``request.user`` holding the settings token read with it.
SETTINGS_TOKEN_ATTR = "settings_token"


class _Users:
    """Stands in for the user model in simplejwt's ``get_user``: the same lookup by the same manager, with
    more columns (``columns``: (attribute, SQL of one value) pairs)."""

    def __init__(self, model: Any, columns: tuple[tuple[str, str], ...]) -> None:
        self.model = model
        self.columns = columns
        self.DoesNotExist = model.DoesNotExist
        self._meta = model._meta
        self.objects = model._default_manager.annotate(**{name: RawSQL(sql, ()) for name, sql in columns})


_users_memo: dict[tuple[str, tuple[tuple[str, str], ...]], _Users] = {}


def _users(model: Any, columns: tuple[tuple[str, str], ...]) -> _Users:
    """Built once per model and columns: annotating a queryset anew on every request costs real time."""
    key = (model._meta.label, columns)
    found = _users_memo.get(key)
    if found is None or found.model is not model:
        found = _users_memo[key] = _Users(model, columns)
    return found


class JWTAuthentication(SimpleJWTAuthentication):
    """simplejwt's JWT authentication, every check the same; its user query also reads the settings token
    (``backend.models.SingletonSettings.cached``: the admin's edits apply in every process at once, with no
    statement of their own), and any column a view asks for with ``also_read``."""

    # simplejwt types it as the user model class; here it is the stand-in (same lookups, more columns).
    user_model: _Users  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_model = _users(self.user_model, ((SETTINGS_TOKEN_ATTR, SETTINGS_TOKEN_SQL),))

    def also_read(self, name: str, sql: str) -> None:
        """Read the value of ``sql`` with the user too, as the attribute ``name`` of ``request.user``."""
        users = self.user_model
        if (name, sql) not in users.columns:
            self.user_model = _users(users.model, (*users.columns, (name, sql)))

    def get_user(self, validated_token: Token) -> Any:
        user = super().get_user(validated_token)
        settings_token_seen(getattr(user, SETTINGS_TOKEN_ATTR, None))
        return user


class JWTScheme(SimpleJWTScheme):  # type: ignore[no-untyped-call]  # drf-spectacular's registry hook
    """The OpenAPI security scheme of the project's JWT authentication: simplejwt's bearer scheme."""

    target_class = "backend.api.authentication.JWTAuthentication"
