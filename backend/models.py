"""Shared model building blocks: admin-editable settings rows, and the token keeping their copies current."""
from __future__ import annotations

import dataclasses
import secrets
from contextvars import ContextVar
from typing import Any, ClassVar, NoReturn, Self, TypeVar, cast

from django.db import IntegrityError, models, router, transaction
from django.db.models.expressions import RawSQL
from django.dispatch import Signal

V = TypeVar("V")

#: Sent (``sender``: the settings model, ``using``) in the transaction of every change of a settings row.
singleton_settings_changed = Signal()
#: The current token, as one column of another statement (``backend.api.authentication``).
SETTINGS_TOKEN_SQL = 'SELECT "token" FROM "backend_settingsversion" WHERE "id" = 1'
#: The token the current request read with its account (None: not read; then ``cached()`` reads the row).
_token_seen: ContextVar[int | None] = ContextVar("settings_token_seen", default=None)


class SettingsVersion(models.Model):
    """One row (id 1) whose random ``token`` every change of any settings row replaces, in the change's own
    transaction: a process may serve its copy of a settings row only while the token is the one it read the
    copy with (``SingletonSettings.cached``). Random, not counted: a token of a rolled-back change is never
    committed, so no copy read inside that change can ever match a committed token."""

    token = models.BigIntegerField()


def settings_token_seen(token: int | None) -> None:
    """Record the token the current request read (with its account, before any rule is applied)."""
    _token_seen.set(token)


def settings_token_forget(**kwargs: Any) -> None:
    """At a request's start and end (``request_started``/``request_finished``): no token seen yet."""
    _token_seen.set(None)


def settings_changed(model: type[models.Model] | None, *, using: str | None = None) -> None:
    """Replace the token (call inside the change's transaction: it commits with the change) and drop this
    process's copies."""
    token = secrets.randbits(62)
    versions = SettingsVersion.objects.using(using)
    if not versions.filter(pk=1).update(token=token):
        try:
            with transaction.atomic(using=using):
                versions.create(pk=1, token=token)
        except IntegrityError:  # created meanwhile: replace its token
            versions.filter(pk=1).update(token=token)
    SingletonSettings._cache.clear()
    if model is not None:
        singleton_settings_changed.send(sender=model, using=using)


class SingletonQuerySet(models.QuerySet[Any]):
    """A settings table's rows: an ``update()`` replaces the token too, as a ``save()`` does."""

    def update(self, **kwargs: Any) -> int:
        with transaction.atomic(using=self.db):
            rows = super().update(**kwargs)
            settings_changed(self.model, using=self.db)
        return rows


class SingletonSettings(models.Model):
    """A one-row table of admin-editable balancing numbers.

    The row (pk=1) is created with its defaults by each app's data migration; ``load()``
    also creates it on first use so a fresh database never lacks it. Every change through the ORM
    (``save``, ``update``) and every ``migrate`` replaces ``SettingsVersion``'s token (see ``cached``).
    """

    singleton_id = 1
    # This process's copies: class -> (the token they were read with, the row).
    _cache: ClassVar[dict[type, tuple[int, SingletonSettings]]] = {}

    objects = SingletonQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.pk = self.singleton_id
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        with transaction.atomic(using=using):
            super().save(*args, **kwargs)
            settings_changed(type(self), using=using)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:  # the row must stay
        raise ValueError(f"{type(self).__name__} is a singleton and cannot be deleted")

    def as_value(self, value_type: type[V]) -> V:
        """The row as the engine's frozen dataclass ``value_type``, whose every field is a column of the
        same name: the one settings-to-rules copy (RunRules, CombatRules, CarryRules, ...)."""
        fields: Any = dataclasses.fields(value_type)  # type: ignore[arg-type]
        return value_type(**{f.name: getattr(self, f.name) for f in fields})

    @classmethod
    def load(cls) -> Self:
        """The current row, read from the database (use in services that enforce the rules)."""
        obj, _ = cls.objects.get_or_create(pk=cls.singleton_id)
        # the manager is declared on the abstract base: some runs of the stubs see the base, some the class
        return cast(Self, obj)  # type: ignore[redundant-cast, unused-ignore]

    @classmethod
    def cached(cls) -> Self:
        """The current row, as ``load()`` reads it, without a statement of its own on the API's paths.

        Each process keeps a copy of the row with the token it was read with. An API request reads the
        current token with its account (``backend.api.authentication``: one column of the statement every
        request makes), and the copy is served only if its token is that one: an edit in the admin takes
        effect in every process at once, for every request that starts after it commits (issue 24: a
        copy trusted for 10 s let two instances enforce different party sizes). Elsewhere (the admin,
        tasks, scripts) no token was read and the row is read again, with the token, in one statement.
        """
        seen = _token_seen.get()
        hit = SingletonSettings._cache.get(cls)
        if seen is not None and hit is not None and hit[0] == seen:
            return hit[1]  # type: ignore[return-value]
        with_token = cls.objects.annotate(settings_token=RawSQL(SETTINGS_TOKEN_SQL, ()))
        row = with_token.filter(pk=cls.singleton_id).first()
        if row is None:
            return cls.load()
        if row.settings_token is not None:  # None: the token's row is missing (a flush), keep nothing
            SingletonSettings._cache[cls] = (row.settings_token, row)
        return cast(Self, row)  # annotate() loses the model type in the stubs
