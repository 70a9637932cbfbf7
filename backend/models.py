"""Shared model building blocks (the project package itself has no table)."""
from __future__ import annotations

import dataclasses
import time
from typing import Any, ClassVar, Self, TypeVar

from django.db import models

V = TypeVar("V")


class SingletonSettings(models.Model):
    """A one-row table of admin-editable balancing numbers.

    The row (pk=1) is created with its defaults by each app's data migration; ``load()``
    also creates it on first use so a fresh database never lacks it.
    """

    singleton_id = 1
    # How long a process may serve a cached copy on hot read paths (``cached()``); an edit in
    # the admin reaches other processes within this many seconds.
    cache_seconds: ClassVar[float] = 10.0
    _cache: ClassVar[dict[type, tuple[float, "SingletonSettings"]]] = {}

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - Django signature
        self.pk = self.singleton_id
        super().save(*args, **kwargs)
        SingletonSettings._cache.pop(type(self), None)

    def delete(self, *args, **kwargs):  # noqa: ANN002, ANN003 - the row must stay
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
        return obj

    @classmethod
    def cached(cls) -> Self:
        """The row as read at most ``cache_seconds`` ago in this process: for hot read paths
        (e.g. the ``is_forming`` flag of the guild list), never for enforcing a rule."""
        now = time.monotonic()
        hit = SingletonSettings._cache.get(cls)
        if hit is not None and now - hit[0] < cls.cache_seconds:
            return hit[1]  # type: ignore[return-value]
        obj = cls.load()
        SingletonSettings._cache[cls] = (now, obj)
        return obj
