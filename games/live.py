"""What a live view needs to answer "nothing new" without the database.

The session page and the share page poll every few seconds with the stamp of the
table they show (`services.scoreboard.live_stamp`, from the session row's
``updated_at``). Every save of a session row writes its stamp, share token and who
may see it (league, creator) to Django's cache once the transaction commits; a poll
whose stamp equals the cached one is answered 204 from the cache alone. Every change
to a table saves its session row (that is what moves the stamp), so the cache is
never behind the database for long: a poll that finds no entry, or a cache that is
down, takes the database path as before, never a wrong answer.

**Who may be answered.** A signed-in poll is answered from the cache only for the
browser the database path last answered for that session: a *pass*, kept under the
session and the browser's sign-in key, written once its rights were checked. One
read of the cache (``get_many``) brings the stamp, the pass, the sign-in itself and
the access generation, and all must agree:

- the sign-in is still there and of the pass's user (signing out, or a sign-in that
  expired or was replaced, ends it: the pass goes with it);
- the access generation is the one the pass was written under: any change to a
  membership or to a user (password, active) writes a new one, so every pass is
  checked against the database again on its next poll;
- the session's league and creator are the ones the pass was written for (a session
  moved to another league is checked again).

A pass lives no longer than its sign-in, and 15 minutes at most: what a cache that
missed one invalidation can hold.

**A share link** is the key itself: the session's entry is kept under the token too,
so its poll is one read. A replaced link's entry is deleted when the new one commits,
and again by any write or heal that finds the session's entry under another token.

**Table mode** (the scorer's panel and the seats' phones) follows its own stamps,
built from several rows (hands, seats, the table round): a *table generation* per
session, a fresh random value written on commit by every write to them, stands for
them. The database path reads the generation before it reads the table, and keeps
the stamp it answered with under that generation; a poll is answered from the cache
while the generation and the stamp are both unchanged. A write after the read gives
a new generation, so an answer kept from an older read is never used again. A seat's
phone names its session in its poll's address, so that the generation and its
answer (kept with the link and the seat cookie it was given for) are one read.
"""

from __future__ import annotations

import logging
import secrets
import time
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.cache import DEFAULT_CACHE_ALIAS, cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from games.access import Rights, seat_cookie_sent
from games.models import GameSession, Membership, TableRound
from games.services.scoreboard import live_stamp

logger = logging.getLogger(__name__)

# Long enough that an evening's table stays answered from the cache between rounds.
KEEP_SECONDS = 7 * 24 * 3600
# The longest a pass (see above) is trusted without asking the database again.
PASS_SECONDS = 15 * 60
ACCESS_KEY = "live:access"


def _key(kind: str, *parts: object) -> str:
    """The cache key of one kind of live entry: "session", "token" (the session's
    entry again, under its share token), "pass" (session, sign-in), "table" (a
    session's table generation), "panel" (the scorer's panel) and "seat" (session,
    seat)."""
    return ":".join(["live", kind, *map(str, parts)])


def _signin_key(signin: str) -> str | None:
    """The cache key of a browser's sign-in, where the session store keeps it (the
    cached_db store: the cache first); None for a store without one."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    prefix = getattr(store, "cache_key_prefix", None)
    if prefix is None or settings.SESSION_CACHE_ALIAS != DEFAULT_CACHE_ALIAS:
        return None
    return prefix + signin


def _plain(value: str | None, longest: int = 64) -> bool:
    # Only what the app itself hands out becomes part of a cache key.
    return bool(value) and len(value) <= longest and value.isascii() and value.isalnum()


def _write(what: str, write) -> None:
    try:
        write()
    except Exception:  # the cache is a shortcut: without it, polls read the database
        logger.warning("live cache: %s not written", what, exc_info=True)


# --- Writes: every change moves what the polls compare -------------------------------


def _entry(session: GameSession) -> tuple:
    return (live_stamp(session), session.share_token, session.league_id, session.created_by_id)


def _shaped(value, length: int) -> tuple | None:
    """``value`` if it is an entry of the shape this code writes, else None: a value
    written by another release (a deploy that changed an entry) or junk is a miss,
    never an error."""
    return value if isinstance(value, tuple) and len(value) == length else None


def _newer(entry: tuple, cached) -> bool:
    """Whether ``entry`` is a later state of the session than the cached one. Commits
    of one session are ordered by its row lock, but their on-commit writes are not: a
    worker paused before its write must not put an older stamp back."""
    try:
        return cached is None or int(entry[0]) > int(cached[0])
    except (TypeError, ValueError, IndexError):
        return True


def _put(session: GameSession, cached: tuple | None = None) -> None:
    """Write the session's entry (under its id and its share token) and a new table
    generation. ``cached``: the session's entry as read before, whose share token, if
    another, no longer leads anywhere (a replaced link)."""
    pk, token, entry = session.pk, session.share_token, _entry(session)
    retired = [_key("token", cached[1])] if cached is not None and cached[1] != token else []
    try:
        cache.set_many(
            {_key("session", pk): entry, _key("token", token): entry, _key("table", pk): _fresh()},
            KEEP_SECONDS,
        )
        if retired:
            cache.delete_many(retired)
    except Exception:
        logger.warning("live stamp of session %s not cached", pk, exc_info=True)
        _forget(pk, token, *(cached[1:2] if retired else ()))


def _remember(session: GameSession) -> None:
    try:
        cached = _shaped(cache.get(_key("session", session.pk)), 4)
    except Exception:
        cached = None  # _put tries, and forgets the entry if it cannot
    if _newer(_entry(session), cached):
        _put(session, cached)


def _written(sender, instance: GameSession, **_) -> None:
    transaction.on_commit(lambda: _remember(instance))


def heal(session: GameSession) -> None:
    """Called by a poll the database answered "unchanged": the session as it read it is
    the latest, so if the cache holds an older stamp (an on-commit write that came
    late, above, or one that failed) or another share token or owner for it, put the
    latest back. Viewers still holding the older stamp get the table on their next
    poll."""
    entry = _entry(session)
    keys = [_key("session", session.pk), _key("token", session.share_token)]
    try:
        found = cache.get_many(keys)
    except Exception:
        return
    cached = _shaped(found.get(keys[0]), 4)
    if cached is not None and cached[0] != entry[0] and not _newer(entry, cached):
        return  # a later state is cached already: a write committed after this read
    if cached != entry or found.get(keys[1]) != entry:
        _put(session, cached)


def _deleted(sender, instance: GameSession, **_) -> None:
    pk, token = instance.pk, instance.share_token
    transaction.on_commit(lambda: _forget(pk, token))


def _forget(pk: int, *tokens: str) -> None:
    keys = [_key("session", pk), _key("table", pk), *(_key("token", t) for t in tokens)]
    try:
        cache.delete_many(keys)
    except Exception:
        logger.warning("live stamp of session %s not forgotten", pk, exc_info=True)


def share_link_replaced(old_token: str) -> None:
    """The session's share link was replaced: once that commits, the old link's entry
    goes, so its poll takes the database path (and is refused there)."""
    transaction.on_commit(
        lambda: _write("retired share link", lambda: cache.delete(_key("token", old_token)))
    )


def _fresh() -> str:
    return secrets.token_hex(8)


def _access_changed(sender, created=False, update_fields=None, **_) -> None:
    # A new user or membership takes no right away from anyone; a sign-in's
    # last_login, written at every sign-in, changes nobody's rights.
    if created or (update_fields and set(update_fields) == {"last_login"}):
        return
    transaction.on_commit(
        lambda: _write("access generation", lambda: cache.set(ACCESS_KEY, _fresh(), None))
    )


def table_changed(pk: int) -> None:
    """A write to table mode's rows of session ``pk`` (hands, seats, the table round,
    the table link): its polls ask the database again once it commits."""
    transaction.on_commit(
        lambda: _write(
            f"table generation of {pk}",
            lambda: cache.set(_key("table", pk), _fresh(), KEEP_SECONDS),
        )
    )


def _table_round_changed(sender, instance: TableRound, **_) -> None:
    # A hand is written with its table round saved after it (services.table), so the
    # round's signal covers the hands too; seats and the link call table_changed.
    table_changed(instance.session_id)


def connect() -> None:
    """Called once, from the app's ready()."""
    post_save.connect(_written, sender=GameSession, dispatch_uid="live-stamp-saved")
    post_delete.connect(_deleted, sender=GameSession, dispatch_uid="live-stamp-deleted")
    for model in (Membership, get_user_model()):
        for signal in (post_save, post_delete):
            signal.connect(
                _access_changed, sender=model, dispatch_uid=f"live-access-{model.__name__}"
            )
    for signal in (post_save, post_delete):
        signal.connect(_table_round_changed, sender=TableRound, dispatch_uid="live-table-round")


# --- The session page's poll ---------------------------------------------------------


def access_generation() -> str | None:
    """The access generation, read before the database checks someone's rights (a
    change after the read gives a new one); None without a cache."""
    try:
        generation = cache.get(ACCESS_KEY)
        if generation is None:
            cache.add(ACCESS_KEY, _fresh(), None)
            generation = cache.get(ACCESS_KEY)
    except Exception:
        return None
    return generation


def grant(request: HttpRequest, session: GameSession, rights: Rights, generation) -> None:
    """Remember that this browser's sign-in may see ``session`` (and write to it, per
    ``rights``): the database said so after ``generation`` was read."""
    signin = request.session.session_key
    if generation is None or not rights.view or not _plain(signin):
        return
    user = request.session.get(SESSION_KEY)
    granted = (user, generation, session.league_id, session.created_by_id, rights.write)
    seconds = min(PASS_SECONDS, request.session.get_expiry_age())
    _write("pass", lambda: cache.set(_key("pass", session.pk, signin), granted, seconds))


def _passes(found: dict, keys: list[str], entry, need_write: bool) -> bool:
    """Whether the pass, sign-in and access generation read with ``keys`` (pass,
    access, sign-in) let this browser be answered for the session of ``entry``."""
    granted, generation, signin = (found.get(key) for key in keys)
    granted, entry = _shaped(granted, 5), _shaped(entry, 4)
    if granted is None or entry is None or generation is None or not isinstance(signin, dict):
        return False
    user, granted_generation, league, creator, write = granted
    return (
        user is not None
        and signin.get(SESSION_KEY) == user
        and granted_generation == generation
        and (league, creator) == tuple(entry[2:4])
        and (write or not need_write)
    )


def _pass_keys(request: HttpRequest, pk: int) -> list[str] | None:
    signin = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    signin_key = _signin_key(signin) if _plain(signin) else None
    if signin_key is None:
        return None
    return [_key("pass", pk, signin), ACCESS_KEY, signin_key]


def unchanged(request: HttpRequest, pk: int, stamp: str | None) -> bool:
    """Whether the session's table is still the one of ``stamp`` and this browser may
    be told so, by the cache alone (one round trip)."""
    keys = _pass_keys(request, pk) if stamp else None
    if keys is None:
        return False
    try:
        found = cache.get_many([_key("session", pk), *keys])
    except Exception:
        return False
    entry = _shaped(found.get(_key("session", pk)), 4)
    return entry is not None and entry[0] == stamp and _passes(found, keys, entry, False)


def unchanged_for_token(token: str, stamp: str | None) -> bool:
    """The same for a share link, in one read: the session's entry kept under the
    token (a replaced link has none, or one naming another token)."""
    if not stamp:  # the token: as the address's converter let it through
        return False
    try:
        entry = _shaped(cache.get(_key("token", token)), 4)
    except Exception:
        return False
    return entry is not None and tuple(entry[:2]) == (stamp, token)


# --- Table mode's polls --------------------------------------------------------------


def table_generation(pk: int) -> str | None:
    """The session's table generation, read before the database reads the table;
    None without a cache or before a write committed one (opening table mode does)."""
    try:
        return cache.get(_key("table", pk))
    except Exception:
        return None


def remember_panel(pk: int, generation, stamp: str) -> None:
    """The scorer's panel of session ``pk`` was answered with ``stamp`` from a read
    after ``generation``."""
    if generation is not None:
        _write(
            "panel stamp", lambda: cache.set(_key("panel", pk), (generation, stamp), PASS_SECONDS)
        )


def panel_unchanged(request: HttpRequest, pk: int, stamp: str | None) -> bool:
    """Whether the scorer's panel is still the one of ``stamp`` and this browser may
    still write to the session (its pass says so), by the cache alone."""
    keys = _pass_keys(request, pk) if stamp else None
    if keys is None:
        return False
    table, panel, session = _key("table", pk), _key("panel", pk), _key("session", pk)
    try:
        found = cache.get_many([table, panel, session, *keys])
    except Exception:
        return False
    generation, entry = found.get(table), found.get(session)
    return (
        generation is not None
        and entry is not None
        and found.get(panel) == (generation, stamp)
        and _passes(found, keys, entry, True)
    )


def remember_seat(request: HttpRequest, session: GameSession, generation, answer: tuple) -> None:
    """The phone holding its seat (its cookie verified) was answered ``answer`` (the
    round's number and its stamp) from a read after ``generation``."""
    cookie = seat_cookie_sent(request)
    if generation is None or cookie is None:
        return
    # No longer than the cookie is read (access.phone_seat's max_age).
    seconds = min(PASS_SECONDS, int(cookie.read_until - time.time()))
    if seconds <= 0:
        return
    # The link is kept with the answer: a replaced one (its phone's page still naming
    # the session) does not match it.
    kept = (generation, session.table_token, cookie.value, *answer)
    key = _key("seat", session.pk, cookie.seat_pk)
    _write("seat answer", lambda: cache.set(key, kept, seconds))


def seat_unchanged(request: HttpRequest, token: str, pk: int | None, answer: tuple) -> bool:
    """Whether the phone's round and stamp (``answer``) are still those of its seat,
    for this very seat cookie and table link, by the cache alone, in one round trip:
    ``pk`` is the session as the phone's page names it (its poll's address), so the
    table generation and the seat's answer are read together. A ``pk`` that is not
    the link's finds no answer kept for this link and cookie: the database answers."""
    cookie = seat_cookie_sent(request)
    if cookie is None or pk is None or not all(answer):
        return False
    table, seat = _key("table", pk), _key("seat", pk, cookie.seat_pk)
    try:
        found = cache.get_many([table, seat])
    except Exception:
        return False
    generation = found.get(table)
    return generation is not None and found.get(seat) == (generation, token, cookie.value, *answer)
