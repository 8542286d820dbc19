"""The Redis cache keeps one client per server (scorekeeper/cache.py): making one per
call cost more CPU than a live poll's round trip."""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis

from scorekeeper.cache import RedisCache


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
