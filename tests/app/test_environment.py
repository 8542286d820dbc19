"""scorekeeper/environment.py: each kind of variable read, its default when unset or
blank, and a value it cannot take refused naming the variable. The settings' own
choices are in test_settings.py, in fresh processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from scorekeeper import environment


def test_a_switch_reads_the_four_spellings_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    for on, off in (("1", "0"), ("True", "FALSE"), (" yes ", "No"), ("ON", "off")):
        monkeypatch.setenv("SK_SWITCH", on)
        assert environment.switch("SK_SWITCH", False) is True, on
        monkeypatch.setenv("SK_SWITCH", off)
        assert environment.switch("SK_SWITCH", True) is False, off


def test_unset_or_blank_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SK_VALUE", raising=False)
    assert environment.switch("SK_VALUE", True) is True
    monkeypatch.setenv("SK_VALUE", "  ")
    assert environment.switch("SK_VALUE", True) is True
    assert environment.number("SK_VALUE", 7) == 7
    assert environment.text("SK_VALUE", "fallback") == "fallback"
    assert environment.path("SK_VALUE", Path("/srv")) == Path("/srv")
    assert environment.choice("SK_VALUE", "open", {"open": "", "invite": ""}) == "open"


def test_a_list_set_blank_is_empty_not_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SK_LIST", raising=False)
    assert environment.names("SK_LIST", ["localhost"]) == ["localhost"]
    monkeypatch.setenv("SK_LIST", "")
    assert environment.names("SK_LIST", ["localhost"]) == []
    monkeypatch.setenv("SK_LIST", " a.example , ,b.example ")
    assert environment.names("SK_LIST", []) == ["a.example", "b.example"]


def test_four_names_may_go_without_their_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    monkeypatch.setenv("DEBUG", "0")
    assert environment.switch("DJANGO_DEBUG", True) is False
    monkeypatch.setenv("DJANGO_DEBUG", "1")  # the prefixed one wins
    assert environment.switch("DJANGO_DEBUG", False) is True

    monkeypatch.setenv("DEBUG", "ture")
    monkeypatch.delenv("DJANGO_DEBUG")
    with pytest.raises(ImproperlyConfigured, match=r"^DEBUG: 'ture' is neither on nor off"):
        environment.switch("DJANGO_DEBUG", False)


@pytest.mark.parametrize(
    ("read", "value", "said"),
    [
        (lambda: environment.switch("SK_BAD", False), "ture", "SK_BAD: 'ture' is neither on"),
        (lambda: environment.number("SK_BAD", 0), "1y", "SK_BAD: '1y' is not a whole number"),
        (lambda: environment.number("SK_BAD", 0), "-1", "SK_BAD: must be 0 or more, not -1"),
        (lambda: environment.number("SK_BAD", 1, minimum=1), "0", "SK_BAD: must be 1 or more"),
        (lambda: environment.log_level("SK_BAD", "INFO"), "loud", "SK_BAD: Not a valid log"),
        (
            lambda: environment.choice("SK_BAD", "open", {"open": "all", "invite": "some"}),
            "closed",
            "SK_BAD: must be 'open' (all) or 'invite' (some), not 'closed'",
        ),
        (
            lambda: environment.database("SK_BAD", "sqlite:///db.sqlite3"),
            "postgres://scorer:s3cret@db:54x2/scores",
            "SK_BAD: Not a valid database URL",
        ),
        (
            lambda: environment.parsed("SK_BAD", environment.redis_url, ""),
            "redis://cache:6379/0,http://:s3cret@cache",
            "SK_BAD: not a Redis URL",
        ),
    ],
)
def test_a_value_the_variable_cannot_take_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch, read, value: str, said: str
) -> None:
    monkeypatch.setenv("SK_BAD", value)

    with pytest.raises(ImproperlyConfigured) as refused:
        read()

    assert str(refused.value).startswith(said)
    assert "s3cret" not in str(refused.value)


def test_urls_are_read_by_the_libraries_that_use_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SK_DB", "postgres://scorer:secret@db.internal:5433/scores")
    config = environment.database("SK_DB", "sqlite:///db.sqlite3", conn_max_age=60)
    assert (config["ENGINE"], config["HOST"], config["PORT"], config["CONN_MAX_AGE"]) == (
        "django.db.backends.postgresql",
        "db.internal",
        5433,
        60,
    )
    monkeypatch.setenv("SK_DB", "")
    assert environment.database("SK_DB", "sqlite:///db.sqlite3")["NAME"] == "db.sqlite3"

    monkeypatch.setenv("SK_CACHE", "redis://cache:6379/0; rediss://replica:6380/0")
    assert environment.parsed("SK_CACHE", environment.redis_url, "") == (
        "redis://cache:6379/0; rediss://replica:6380/0"
    )
