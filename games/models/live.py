"""The generation of the live views' cache entries, kept in the database."""

from __future__ import annotations

from django.db import models


class LiveCacheEpoch(models.Model):
    """The generation of everything games/live.py keeps in the cache, in the one place
    every worker can read whatever the cache is doing. A write to the cache that fails
    (Redis down or hanging) could leave an entry there that the database has moved
    past: the writer then writes a new one here, every worker reads it within
    ``live.EPOCH_SECONDS`` and keys its entries by it, so the entries written before
    are never read again. One row, made by the first failure."""

    value = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"live cache epoch {self.value}"
