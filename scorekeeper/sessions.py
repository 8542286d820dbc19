"""The sign-in session store: Django's cached_db, for which the cache stays a cache.

Sessions are read from the cache (Redis in production) and written to both, so a
live poll answered from the cache needs no database at all (games/live.py). Django's
own store already survives a cache that fails on save, but not on load: a session
it found only in the database is put back in the cache unguarded, so with Redis
away every signed-in page would be a server error. Here every cache call that fails
is logged and passed over; the database alone then holds the sessions, and pages
work, only slower, until Redis is back.
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db

logger = logging.getLogger(__name__)


class _CacheOrNothing:
    """A cache whose failures are misses: get() gives the default, set() and
    delete() do nothing, ``in`` is False."""

    def __init__(self, cache) -> None:
        self._cache = cache

    def _failed(self, what: str) -> None:
        logger.warning("session cache %s failed; using the database alone", what, exc_info=True)

    def get(self, key, default=None, **kwargs):
        try:
            return self._cache.get(key, default, **kwargs)
        except Exception:
            self._failed("get")
            return default

    def set(self, key, value, timeout=None, **kwargs) -> None:
        try:
            self._cache.set(key, value, timeout, **kwargs)
        except Exception:
            self._failed("set")

    def delete(self, key, **kwargs) -> None:
        try:
            self._cache.delete(key, **kwargs)
        except Exception:
            self._failed("delete")

    def __contains__(self, key) -> bool:
        try:
            return key in self._cache
        except Exception:
            self._failed("lookup")
            return False

    def __getattr__(self, name: str):  # the async calls and the rest: Django's own
        return getattr(self._cache, name)


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _CacheOrNothing(self._cache)
