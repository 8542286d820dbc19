"""The Redis cache keeps one client per server (scorekeeper/cache.py): making one per
call cost more CPU than a live poll's round trip. A server that stopped answering
costs a request one timeout, not one per call."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from unittest import mock

import pytest
import redis
from django.core.cache.backends import redis as django_redis

from scorekeeper.cache import (
    BREAKER,
    RETRY_SECONDS,
    CacheUnavailable,
    RedisCache,
    RedisCacheClient,
)


def test_one_client_serves_every_call_to_a_server() -> None:
    cache = RedisCache("redis://127.0.0.1:6379/13", {"KEY_PREFIX": "test-clients"})
    client = cache._cache.get_client("a")  # no connection is opened until a command

    assert client is cache._cache.get_client("b", write=True)
    assert client.connection_pool is cache._cache._get_connection_pool(write=True)


def test_a_read_server_and_the_write_server_keep_their_own_clients() -> None:
    cache = RedisCache("redis://127.0.0.1:6379/13,redis://127.0.0.1:6380/13", {})

    written = cache._cache.get_client(write=True)
    read = cache._cache.get_client()

    assert written is not read
    assert read is cache._cache.get_client()
    assert written.connection_pool.connection_kwargs["port"] == 6379
    assert read.connection_pool.connection_kwargs["port"] == 6380
    assert isinstance(cache._cache, django_redis.RedisCacheClient)


def test_keys_memcached_would_refuse_are_not_warned_about() -> None:
    import warnings

    cache = RedisCache("redis://127.0.0.1:6379/13", {})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.make_and_validate_key("a key with spaces " + "x" * 300)


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
        with mock.patch.object(RedisCacheClient, "get_client") as client:
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
    down = RedisCache("redis://127.0.0.1:1/0", {})
    other = RedisCache("redis://127.0.0.1:2/0", {})
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


def test_an_answer_that_is_an_error_does_not_pass_the_server_over() -> None:
    """incr of a key that expired meanwhile raises ValueError (the sign-up limit
    counts on it): the server answered, and later calls still go to it."""
    cache = RedisCache("redis://127.0.0.1:6379/13", {"KEY_PREFIX": f"test-{time.time_ns()}"})
    try:
        with pytest.raises(ValueError):
            cache.incr("never-set")
        BREAKER.check(cache.location)  # not passed over
    except redis.ConnectionError:
        pytest.skip("needs the Redis on 127.0.0.1:6379")
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
