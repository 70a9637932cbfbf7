"""Shared model building blocks (the project package itself owns no tables)."""
from __future__ import annotations

from typing import Self

from django.db import models


class SingletonSettings(models.Model):
    """A one-row table of admin-editable balancing numbers.

    The row (pk=1) is created with its defaults by each app's data migration; ``load()``
    also creates it on first use so a fresh database never lacks it.
    """

    singleton_id = 1

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - Django signature
        self.pk = self.singleton_id
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # noqa: ANN002, ANN003 - the row must stay
        raise ValueError(f"{type(self).__name__} is a singleton and cannot be deleted")

    @classmethod
    def load(cls) -> Self:
        obj, _ = cls.objects.get_or_create(pk=cls.singleton_id)
        return obj
