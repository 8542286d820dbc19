"""Django's Redis cache, keeping one Redis client per server instead of making one
for every call, without memcached's key checks, and passing over a Redis that has
stopped answering.

Django's RedisCacheClient builds a new ``redis.Redis`` object around its connection
pool on each get and set. Building one fills its table of some 170 reply parsers:
about 75 µs of CPU, more than the round trip it serves, in every live poll. A
``redis.Redis`` is safe to share between threads (each command takes a connection
from the pool), so one per server is kept; the pools, the servers and the data are
Django's own.

Django also checks every key against memcached's rules (no spaces or control
characters, 250 characters at most), a loop over each character of each key, only to
warn: Redis takes any key, so the check is left out.

**A Redis that hangs.** Each call waits at most the socket timeout (half a second,
settings.CACHES). A request makes several calls, and a save more (its stamps, its
table generation), so a Redis that stopped answering would cost it seconds. Once a
call fails, every call of this process to that server fails at once, without
waiting, for ``RETRY_SECONDS``; then one call tries again. Callers treat a failure
as a miss (games/live.py reads the database instead and, when a write was lost,
says so there), so a request pays the timeout once at most.
"""

from __future__ import annotations

import threading
import time
from functools import wraps

import redis
from django.core.cache.backends import redis as django_redis

# How long a server that failed is passed over before it is tried again: short
# enough that the cache is back within a poll or two of Redis coming back.
RETRY_SECONDS = 2.0


class CacheUnavailable(ConnectionError):
    """Raised instead of trying a server that failed less than RETRY_SECONDS ago."""


class _Breaker:
    """When each server last failed, for every thread of this process (Django makes a
    cache object per thread, so this cannot live on one)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failed_until: dict[str, float] = {}

    def check(self, location: str) -> None:
        """Pass, or raise CacheUnavailable. Once the pause is over, the first caller
        passes and the pause starts again for the others: one call tries the server,
        not every thread's at once (each would wait out the timeout)."""
        until = self._failed_until.get(location)
        if until is None:
            return
        now = time.monotonic()
        with self._lock:
            if self._failed_until.get(location) == until and now >= until:
                self._failed_until[location] = now + RETRY_SECONDS
                return
        raise CacheUnavailable(f"cache {location} failed less than {RETRY_SECONDS} s ago")

    def failed(self, location: str) -> None:
        with self._lock:
            self._failed_until[location] = time.monotonic() + RETRY_SECONDS

    def answered(self, location: str) -> None:
        if location in self._failed_until:
            with self._lock:
                self._failed_until.pop(location, None)


BREAKER = _Breaker()
# What says the server is away or hanging. Anything else (incr of a missing key's
# ValueError, a wrong type) is an answer, and the server is still there.
OUTAGES = (redis.ConnectionError, redis.TimeoutError)


def _guarded(method):
    @wraps(method)
    def call(self, *args, **kwargs):
        BREAKER.check(self.location)
        try:
            result = method(self, *args, **kwargs)
        except OUTAGES:
            BREAKER.failed(self.location)
            raise
        BREAKER.answered(self.location)
        return result

    return call


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers, **options) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


# Every public call of Django's cache API that reaches the server.
GUARDED = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        # The servers as configured: what the breaker knows a server by.
        self.location = server if isinstance(server, str) else ",".join(server)

    def validate_key(self, key) -> None:
        pass  # memcached's rules: see above


for _name in GUARDED:
    setattr(RedisCache, _name, _guarded(getattr(django_redis.RedisCache, _name)))
