"""The Redis cache (scorekeeper/cache.py): Django's cache API over one redis-py
client per server (making one per call cost more CPU than a live poll's round trip),
built on Django's public API for a cache backend. A server that stopped answering
costs a request one timeout, not one per call."""

from __future__ import annotations

import contextlib
import pickle
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from unittest import mock

import pytest
import redis

from scorekeeper.cache import BREAKER, RETRY_SECONDS, CacheUnavailable, RedisCache

LOCAL = "redis://127.0.0.1:6379/13"


@pytest.fixture
def cache() -> Iterator[RedisCache]:
    """The backend on the Redis of 127.0.0.1:6379, under a prefix of its own."""
    cache = RedisCache(LOCAL, {"KEY_PREFIX": f"test-{time.time_ns()}"})
    try:
        cache.client(write=True).ping()
    except redis.ConnectionError:
        pytest.skip("needs the Redis on 127.0.0.1:6379")
    yield cache
    left = cache.client().keys(f"{cache.key_prefix}:*")
    if left:
        cache.client(write=True).delete(*left)


def test_one_client_serves_every_call_to_a_server() -> None:
    cache = RedisCache(LOCAL, {"OPTIONS": {"socket_timeout": 0.5}})
    client = cache.client()  # no connection is opened until a command

    assert client is cache.client(write=True)
    assert client.connection_pool.connection_kwargs["socket_timeout"] == 0.5


def test_a_read_server_and_the_write_server_keep_their_own_clients() -> None:
    cache = RedisCache("redis://127.0.0.1:6379/13,redis://127.0.0.1:6380/13", {})

    written = cache.client(write=True)
    read = cache.client()

    assert written is not read
    assert read is cache.client()
    assert written.connection_pool.connection_kwargs["port"] == 6379
    assert read.connection_pool.connection_kwargs["port"] == 6380


def test_keys_memcached_would_refuse_are_not_warned_about(cache: RedisCache) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cache.set("a key with spaces " + "x" * 300, 1)
        assert cache.get("a key with spaces " + "x" * 300) == 1


def test_it_answers_as_djangos_cache_api_does(cache: RedisCache) -> None:
    # What the app relies on: counts that Redis adds to, values that come back as
    # they went in, timeouts of 0 (gone) and None (kept for good).
    cache.set("count", 1)
    assert cache.incr("count", 2) == 3
    assert cache.decr("count") == 2
    with pytest.raises(ValueError):
        cache.incr("never-set")
    assert cache.add("count", 9) is False
    assert cache.add("fresh", {"round": 3}) is True
    assert cache.get_many(["count", "fresh", "missing"]) == {"count": 2, "fresh": {"round": 3}}
    assert cache.get("missing", "default") == "default"
    assert cache.has_key("fresh") and not cache.has_key("missing")

    cache.set("gone", True, timeout=0)
    assert cache.get("gone") is None
    assert cache.add("gone", True, timeout=0) is True and not cache.has_key("gone")
    cache.set_many({"a": 1, "b": [2]}, timeout=None)
    assert cache.client().ttl(cache.make_key("a")) == -1  # kept for good
    assert cache.touch("a", 60) and 0 < cache.client().ttl(cache.make_key("a")) <= 60
    assert cache.delete("a") and not cache.delete("a")
    cache.delete_many(["b", "fresh"])
    assert cache.get_many(["b", "fresh"]) == {}


def test_entries_are_stored_as_djangos_own_redis_backend_stores_them(cache: RedisCache) -> None:
    # An integer as it is (INCRBY adds to it), anything else pickled: what either
    # backend wrote, the other reads, so switching between them loses nothing.
    cache.set("count", 7)
    cache.set("flag", True)
    raw = cache.client()
    assert raw.get(cache.make_key("count")) == b"7"
    assert pickle.loads(raw.get(cache.make_key("flag"))) is True


# --- A Redis that stopped answering --------------------------------------------------


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A server that takes connections and never answers: a Redis that hangs (paused,
    or its machine gone) as the app sees it."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_after_one_failed_call_the_others_fail_at_once_without_waiting(
    silent_server: str,
) -> None:
    """Each call would wait out the socket timeout; a request makes several. After the
    first times out, the process passes the server over for a while: calls fail with
    CacheUnavailable, before anything is sent."""
    cache = RedisCache(silent_server, {"OPTIONS": {"socket_timeout": 0.2}})
    try:
        with pytest.raises(redis.TimeoutError):
            cache.get("stamp")
        with mock.patch.object(RedisCache, "client") as client:
            for call in (
                lambda: cache.get("stamp"),
                lambda: cache.set_many({"a": 1}),
                lambda: cache.delete_many(["a"]),
                lambda: cache.get_many(["a", "b"]),
            ):
                with pytest.raises(CacheUnavailable):
                    call()
        assert not client.called
    finally:
        BREAKER.answered(cache.location)


def test_a_server_passed_over_is_tried_again_after_a_while(silent_server: str) -> None:
    cache = RedisCache(silent_server, {"OPTIONS": {"socket_timeout": 0.2}})
    try:
        with pytest.raises(redis.TimeoutError):
            cache.get("stamp")
        clock = mock.Mock(monotonic=lambda: time.monotonic() + RETRY_SECONDS + 0.1)
        with mock.patch("scorekeeper.cache.time", clock), pytest.raises(redis.TimeoutError):
            cache.get("stamp")  # tried again: it still hangs
    finally:
        BREAKER.answered(cache.location)


def test_one_server_failing_does_not_pass_over_another() -> None:
    # Ports of their own: tests/app/test_health.py fails port 1 in this process.
    down = RedisCache("redis://127.0.0.1:3/0", {})
    other = RedisCache("redis://127.0.0.1:4/0", {})
    try:
        with pytest.raises(redis.ConnectionError):
            down.get("a")
        with pytest.raises(CacheUnavailable):
            down.get("a")
        with pytest.raises(redis.ConnectionError):  # tried, not passed over
            other.get("a")
    finally:
        BREAKER.answered(down.location)
        BREAKER.answered(other.location)


def test_an_answer_that_is_an_error_does_not_pass_the_server_over(cache: RedisCache) -> None:
    """incr of a key that expired meanwhile raises ValueError (the sign-up limit
    counts on it): the server answered, and later calls still go to it."""
    try:
        with pytest.raises(ValueError):
            cache.incr("never-set")
        BREAKER.check(cache.location)  # not passed over
    finally:
        BREAKER.answered(cache.location)


def test_after_the_pause_one_call_tries_the_server_and_the_others_wait() -> None:
    location = "redis://127.0.0.1:1/0"
    BREAKER.failed(location)
    later = time.monotonic() + RETRY_SECONDS + 0.1
    clock = mock.Mock(monotonic=lambda: later)
    try:
        with mock.patch("scorekeeper.cache.time", clock):
            BREAKER.check(location)  # the one that tries
            with pytest.raises(CacheUnavailable):
                BREAKER.check(location)  # another thread, meanwhile
    finally:
        BREAKER.answered(location)
