"""What a live view needs to answer "nothing new" without the database.

The session page and the share page poll every few seconds with the stamp of the
table they show (`services.scoreboard.live_stamp`, from the session row's
``updated_at``). Every save of a session row writes its stamp and share token to
Django's cache once the transaction commits; a poll whose stamp equals the cached
one is answered 204 from the cache alone. Every change to a table saves its session
row (that is what moves the stamp), so the cache is never behind the database for
long: a poll that finds no entry, or a cache that is down, takes the database path
as before, never a wrong answer.

A signed-in poll answered here is checked for a signed-in browser only, not for its
role: all it can learn is that the table it already holds is still current.
"""

from __future__ import annotations

import logging

from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from games.models import GameSession
from games.services.scoreboard import live_stamp

logger = logging.getLogger(__name__)

# Long enough that an evening's table stays answered from the cache between rounds.
KEEP_SECONDS = 7 * 24 * 3600


def _session_key(pk: int) -> str:
    return f"live:session:{pk}"


def _token_key(token: str) -> str:
    return f"live:token:{token}"


def _written(sender, instance: GameSession, **_) -> None:
    stamp, pk, token = live_stamp(instance), instance.pk, instance.share_token

    def remember() -> None:
        try:
            cache.set_many({_session_key(pk): (stamp, token), _token_key(token): pk}, KEEP_SECONDS)
        except Exception:  # the cache is a shortcut: without it, polls read the database
            logger.warning("live stamp of session %s not cached", pk, exc_info=True)
            _forget(pk)

    transaction.on_commit(remember)


def _deleted(sender, instance: GameSession, **_) -> None:
    pk = instance.pk
    transaction.on_commit(lambda: _forget(pk))


def _forget(pk: int) -> None:
    try:
        cache.delete(_session_key(pk))
    except Exception:
        logger.warning("live stamp of session %s not forgotten", pk, exc_info=True)


def connect() -> None:
    """Called once, from the app's ready()."""
    post_save.connect(_written, sender=GameSession, dispatch_uid="live-stamp-saved")
    post_delete.connect(_deleted, sender=GameSession, dispatch_uid="live-stamp-deleted")


def _cached(pk: int) -> tuple[str, str] | None:
    try:
        return cache.get(_session_key(pk))
    except Exception:
        return None


def unchanged(pk: int, stamp: str | None) -> bool:
    """Whether the session's table is still the one of ``stamp``, by the cache."""
    entry = _cached(pk)
    return bool(stamp) and entry is not None and entry[0] == stamp


def unchanged_for_token(token: str, stamp: str | None) -> bool:
    """The same for a share link: the token must still be the session's own (a
    replaced one finds another token in the entry and takes the database path)."""
    if not stamp:
        return False
    try:
        pk = cache.get(_token_key(token))
    except Exception:
        return False
    entry = _cached(pk) if pk is not None else None
    return entry is not None and entry == (stamp, token)


def signed_in(request: HttpRequest) -> bool:
    """Whether the browser holds a signed-in session, read from the session store
    (the cache first: SESSION_ENGINE is cached_db) without loading the user."""
    return SESSION_KEY in request.session
