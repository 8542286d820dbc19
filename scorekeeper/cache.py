"""The cache on Redis: Django's cache API (a custom backend on ``BaseCache``, as
Django's docs describe them) over redis-py's own client, one client per server, no
memcached key checks, and a Redis that has stopped answering passed over.

Django's own RedisCache builds a new ``redis.Redis`` object around its connection
pool for each get and set. Building one fills its table of some 170 reply parsers,
which costs more CPU than the round trip it serves, in every live poll. A
``redis.Redis`` is safe to share between threads (each command takes a connection
from its pool), so this backend keeps one per server and cache object (Django makes
a cache object per thread). It needs nothing of Django's backend but what it does in
the open: what goes where (writes to the first server, reads from one of the others
if there are more) and how values are stored (integers as they are, so that Redis
can add to them, anything else pickled), so entries written by either backend read
back with the other.

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

import pickle
import random
import re
import threading
import time
from collections.abc import Iterable, Mapping
from functools import wraps
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

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
    """A call of the cache API that reaches the server, through the breaker."""

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


def dumps(value: Any) -> int | bytes:
    # An int (not a bool) as it is: Redis's INCRBY adds to it where it is kept.
    return value if type(value) is int else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> Any:
    try:
        return int(data)
    except ValueError:
        return pickle.loads(data)  # only this app writes to its cache


class RedisCache(BaseCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(params)
        self.servers = re.split("[;,]", server) if isinstance(server, str) else list(server)
        # The servers as configured: what the breaker knows a server by.
        self.location = server if isinstance(server, str) else ",".join(server)
        # Given to each server's client (and so to its connection pool): timeouts,
        # the database, a password.
        self.options: dict[str, Any] = dict(params.get("OPTIONS", {}))
        self.clients: dict[int, redis.Redis] = {}

    def client(self, *, write: bool = False) -> redis.Redis:
        """The client of the server a call goes to, made on first use: writes to the
        first server, reads from one of the others if there are more."""
        many = len(self.servers) > 1
        index = random.randint(1, len(self.servers) - 1) if many and not write else 0
        client = self.clients.get(index)
        if client is None:
            client = self.clients[index] = redis.Redis.from_url(self.servers[index], **self.options)
        return client

    def seconds(self, timeout: Any = DEFAULT_TIMEOUT) -> int | None:
        """A timeout as Redis takes it: whole seconds from now, 0 to delete, None to
        keep for good."""
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return None if timeout is None else max(0, int(timeout))

    def validate_key(self, key: str) -> None:
        pass  # memcached's rules: see above

    @_guarded
    def add(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        key, seconds = self.make_key(key, version=version), self.seconds(timeout)
        client = self.client(write=True)
        if seconds == 0:
            # Added and gone at once, as with every backend: say whether it was added.
            added = bool(client.set(key, dumps(value), nx=True))
            if added:
                client.delete(key)
            return added
        return bool(client.set(key, dumps(value), ex=seconds, nx=True))

    @_guarded
    def get(self, key: str, default: Any = None, version: Any = None) -> Any:
        value = self.client().get(self.make_key(key, version=version))
        return default if value is None else loads(value)

    @_guarded
    def set(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        key, seconds = self.make_key(key, version=version), self.seconds(timeout)
        if seconds == 0:
            self.client(write=True).delete(key)
        else:
            self.client(write=True).set(key, dumps(value), ex=seconds)

    @_guarded
    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        key, seconds = self.make_key(key, version=version), self.seconds(timeout)
        client = self.client(write=True)
        return bool(client.persist(key) if seconds is None else client.expire(key, seconds))

    @_guarded
    def delete(self, key: str, version: Any = None) -> bool:
        return bool(self.client(write=True).delete(self.make_key(key, version=version)))

    @_guarded
    def get_many(self, keys: Iterable[str], version: Any = None) -> dict[str, Any]:
        named = {self.make_key(key, version=version): key for key in keys}
        if not named:
            return {}
        values = self.client().mget(list(named))
        return {
            named[made]: loads(value)
            for made, value in zip(named, values, strict=True)
            if value is not None
        }

    @_guarded
    def has_key(self, key: str, version: Any = None) -> bool:
        return bool(self.client().exists(self.make_key(key, version=version)))

    @_guarded
    def incr(self, key: str, delta: int = 1, version: Any = None) -> int:
        key = self.make_key(key, version=version)
        client = self.client(write=True)
        if not client.exists(key):
            raise ValueError(f"Key {key!r} not found.")  # as every backend says it
        return int(client.incr(key, delta))

    @_guarded
    def set_many(
        self, data: Mapping[str, Any], timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> list[str]:
        if not data:
            return []
        values = {self.make_key(key, version=version): dumps(value) for key, value in data.items()}
        seconds = self.seconds(timeout)
        pipeline = self.client(write=True).pipeline()
        pipeline.mset(values)
        if seconds is not None:
            for key in values:  # MSET sets no timeout: each key's, in the same trip
                pipeline.expire(key, seconds)
        pipeline.execute()
        return []

    @_guarded
    def delete_many(self, keys: Iterable[str], version: Any = None) -> None:
        made = [self.make_key(key, version=version) for key in keys]
        if made:
            self.client(write=True).delete(*made)

    @_guarded
    def clear(self) -> bool:
        return bool(self.client(write=True).flushdb())
