"""How the settings read the environment: environs (on marshmallow) parses each
variable, and a value its variable cannot take stops the start with
ImproperlyConfigured naming the variable, rather than quietly meaning something else
(``DJANGO_SECURE_SSL_REDIRECT=ture`` turning the redirect off).

Two rules hold for every variable read here. Unset or blank (``DJANGO_X=``, what an
.env line left empty gives) means the default, except for a list, where blank is the
empty list. And ``DJANGO_SECRET_KEY``, ``DJANGO_DEBUG``, ``DJANGO_ALLOWED_HOSTS`` and
``DJANGO_CSRF_TRUSTED_ORIGINS`` may be given without their prefix, as most hosting
guides name them; the prefixed name wins when both are set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import dj_database_url
import marshmallow
from django.core.exceptions import ImproperlyConfigured
from environs import Env, EnvError, EnvValidationError, ValidationError, validate
from redis import ConnectionPool

T = TypeVar("T")

UNPREFIXED = {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}


class Switch(marshmallow.fields.Boolean):
    """On or off, written 1/0, true/false, yes/no or on/off in any case. marshmallow's
    own Boolean takes only some casings and no spaces around, which a hand-written
    .env line may have and which these settings have always accepted."""

    truthy = {"1", "true", "yes", "on"}
    falsy = {"0", "false", "no", "off"}
    default_error_messages = {
        "invalid": "{input!r} is neither on nor off: write 1 or 0 (true/false, yes/no, on/off)."
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        return super()._deserialize(str(value).strip().lower(), attr, data, **kwargs)


env = Env(eager=True)
env.add_parser_from_field("switch", Switch)


def _source(name: str) -> str:
    """The variable that holds ``name``'s value: itself, or the unprefixed one of the
    four names hosting guides spell without DJANGO_ when only that is set."""
    plain = name.removeprefix("DJANGO_")
    if name not in os.environ and plain in UNPREFIXED and plain in os.environ:
        return plain
    return name


def _blank(name: str) -> bool:
    return os.environ.get(name, "").strip() == ""


def _read(method: Callable[..., Any], name: str, **options: Any) -> Any:
    """environs' ``method`` on ``name``; its refusal as ImproperlyConfigured, which is
    how every setting of the app that cannot be used stops the start."""
    try:
        return method(name, **options)
    except EnvValidationError as error:
        messages = error.error_messages
        said = "; ".join(messages) if isinstance(messages, list) else str(messages)
        raise ImproperlyConfigured(f"{name}: {said}") from error
    except EnvError as error:
        raise ImproperlyConfigured(str(error)) from error


def text(
    name: str, default: str, *, check: Callable[[str], object] | None = None, strip: bool = False
) -> str:
    """The value as it is written (``strip``: without spaces around it); ``check``
    raises ValidationError for a value the variable cannot take."""
    name = _source(name)
    if _blank(name):
        return default
    value: str = _read(env.str, name, validate=check)
    return value.strip() if strip else value


def choice(
    name: str, default: str, choices: Mapping[str, str], *, blank_is_default: bool = True
) -> str:
    """One of ``choices`` (each name with what it means, for the error), in any case.
    ``blank_is_default=False``: blank is refused too, for a variable where falling
    back to the default would be the wrong thing to do quietly."""
    name = _source(name)
    if name not in os.environ or (blank_is_default and _blank(name)):
        return default
    listed = " or ".join(f"{option!r} ({meaning})" for option, meaning in choices.items())
    one_of = validate.OneOf(choices, error=f"must be {listed}, not {{input!r}}.")
    value: str = _read(env.str, name, validate=lambda value: one_of(value.strip().lower()))
    return value.strip().lower()


def switch(name: str, default: bool) -> bool:
    name = _source(name)
    if _blank(name):
        return default
    value: bool = _read(env.switch, name)
    return value


def number(name: str, default: int, *, minimum: int = 0) -> int:
    """A whole number, ``minimum`` or more."""
    name = _source(name)
    if _blank(name):
        return default
    value: int = _read(
        env.int,
        name,
        validate=validate.Range(min=minimum, error="must be {min} or more, not {input}."),
        error_messages={"invalid": "{input!r} is not a whole number."},
    )
    return value


def names(
    name: str, default: list[str], *, check: Callable[[str], object] | None = None
) -> list[str]:
    """A comma-separated list, each item without spaces around it and empty ones left
    out; blank is the empty list. ``check`` raises ValidationError for an item the
    variable cannot hold."""
    name = _source(name)
    if name not in os.environ:
        return default

    def check_each(items: list[str]) -> None:
        for item in items:
            if check is not None and item.strip():
                check(item.strip())

    items: list[str] = _read(env.list, name, validate=check_each)
    return [item.strip() for item in items if item.strip()]


def path(name: str, default: Path) -> Path:
    name = _source(name)
    if _blank(name):
        return default
    value: Path = _read(env.path, name)
    return value


def log_level(name: str, default: str) -> int | str:
    """A level of Python's logging, by name (any case) or number."""
    name = _source(name)
    if _blank(name):
        return default
    value: int = _read(env.log_level, name)
    return value


def parsed(name: str, parse: Callable[[str], T], default: T) -> T:
    """``parse`` of the value, which raises ValidationError for one it cannot read.
    Its message is shown as it is: a URL's password must not be in it."""
    name = _source(name)
    if _blank(name):
        return default
    return parse(_read(env.str, name, validate=parse))


def database(name: str, default: str, **options: Any) -> dict[str, Any]:
    """Django's DATABASES entry from a URL (dj-database-url, through environs), with
    ``options`` such as conn_max_age."""
    name = _source(name)
    if _blank(name):
        return dict(dj_database_url.parse(default, **options))
    config: dict[str, Any] = _read(env.dj_db_url, name, **options)
    return config


def redis_url(value: str) -> str:
    """``value`` when redis-py can connect by it: every server of Django's Redis cache
    location (several separated by commas or semicolons, as Django splits them)."""
    for server in re.split("[;,]", value):
        try:
            # Reads the URL only: a pool opens no connection until one is asked of it.
            ConnectionPool.from_url(server.strip())
        except ValueError as error:
            # redis-py names the schemes it takes; the URL itself may hold a password.
            raise ValidationError(f"not a Redis URL: {error}") from None
    return value
