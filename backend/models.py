"""Shared model building blocks: admin-editable settings rows, and the token keeping their copies current."""
from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Hashable, Iterable
from contextvars import ContextVar
from typing import Any, ClassVar, NoReturn, Self, TypeVar, cast

from django.db import IntegrityError, models, router, transaction
from django.db.models.expressions import RawSQL
from django.db.models.signals import post_delete, post_save
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
    _balancing_cache.clear()
    if model is not None:
        singleton_settings_changed.send(sender=model, using=using)


#: This process's values read from balancing tables (``balancing_cached``): key -> (token, value).
_balancing_cache: dict[Hashable, tuple[int, Any]] = {}


def balancing_cached(key: Hashable, read: Callable[[], V]) -> V:
    """``read()``'s value, kept by this process under ``key`` while the settings token is the one the current
    request read with its account (as ``SingletonSettings.cached`` keeps a settings row).

    For values read from admin-edited balancing tables whose every change replaces the token
    (``track_balancing_changes``). The value is read after the token was, so a copy is never older than the
    token it is kept with; where no token was read (the admin, tasks, scripts) it is read every time."""
    seen = _token_seen.get()
    hit = _balancing_cache.get(key)
    if seen is not None and hit is not None and hit[0] == seen:
        return cast(V, hit[1])
    value = read()
    if seen is not None:
        _balancing_cache[key] = (seen, value)
    return value


def balancing_cache_clear() -> None:
    """Forget this process's copies (a test's database is rolled back under them)."""
    _balancing_cache.clear()


class _TokenQuerySet(models.QuerySet[Any]):
    """Rows whose ``update()`` replaces the settings token in its own transaction (``_changed``)."""

    def _changed(self) -> None:
        raise NotImplementedError

    def update(self, **kwargs: Any) -> int:
        with transaction.atomic(using=self.db):
            rows = super().update(**kwargs)
            self._changed()
        return rows


class BalancingQuerySet(_TokenQuerySet):
    """A balancing table's rows: the bulk writes that send no signal (``update``, ``bulk_create``; a
    ``bulk_update`` is an ``update``) replace the settings token, as every row's save and delete do
    (``track_balancing_changes``)."""

    def _changed(self) -> None:
        settings_changed(None, using=self.db)

    def bulk_create(self, objs: Iterable[Any], *args: Any, **kwargs: Any) -> list[Any]:
        with transaction.atomic(using=self.db):
            created = super().bulk_create(objs, *args, **kwargs)
            self._changed()
        return created


def _balancing_row_changed(sender: type[models.Model], using: str | None = None, **kwargs: Any) -> None:
    settings_changed(None, using=using)


def track_balancing_changes(*balancing: type[models.Model]) -> None:
    """Every save and delete of these models' rows (the admin's, a fixture's, a cascade's) replaces the
    settings token in its own transaction, so ``balancing_cached`` copies of them are dropped everywhere at
    once. Give each model a ``BalancingQuerySet`` manager too, for the writes that send no signal."""
    for model in balancing:
        label = model._meta.label
        post_save.connect(_balancing_row_changed, sender=model, dispatch_uid=f"balancing-save-{label}")
        post_delete.connect(_balancing_row_changed, sender=model, dispatch_uid=f"balancing-delete-{label}")


class SingletonQuerySet(_TokenQuerySet):
    """A settings table's rows: an ``update()`` replaces the token too, as a ``save()`` does."""

    def _changed(self) -> None:
        settings_changed(self.model, using=self.db)


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
