"""What a live view needs to answer "nothing new" without the database.

The session page and the share page poll every few seconds with the stamp of the
table they show (`services.scoreboard.live_stamp`, from the session row's
``updated_at``). Every save of a session row writes its stamp, share token and who
may see it (league, creator) to Django's cache once the transaction commits; a poll
whose stamp equals the cached one is answered 204 from the cache alone. Every change
to a table saves its session row (that is what moves the stamp), so the cache is
never behind the database for long: a poll that finds no entry, or a cache that is
down, takes the database path as before, never a wrong answer.

**Only a cache every worker shares.** Entries kept in one process's memory would
answer that process's polls after another process saved a round: with the cache
local to each process (no Redis) and more than one process serving, nothing is kept
(``settings.LIVE_CACHE``) and every poll reads the database.

**A write that fails.** A cache that refuses or hangs while a change commits would
keep the entry from before it, which says the opposite of the database once the
cache answers again. So every write here that fails moves the *epoch* kept in the
database (``models.LiveCacheEpoch``), and every key here carries the epoch: each
process reads it at most ``EPOCH_SECONDS`` apart, after which the entries written
before the failure are never read again. An entry written from a database read is
keyed by the epoch read *before* that read (a ``Reading``), so a read older than a
failure cannot come back under the new epoch.

**Who may be answered.** A signed-in poll is answered from the cache only for the
browser the database path last answered for that session: a *pass*, kept under the
session and the browser's sign-in key, written once its rights were checked. The
sign-in itself is the database's (Django's database session store, so a sign-out is
final on every process, whatever the cache does); one read of the cache
(``get_many``) brings the stamp, the pass and the access generation, and all must
agree:

- the pass is of the signed-in user;
- the access generation is the one the pass was written under: any change to a
  membership or to a user (password, active) writes a new one, so every pass is
  checked against the database again on its next poll;
- the session's league and creator are the ones the pass was written for (a session
  moved to another league is checked again).

A pass lives no longer than its sign-in, and 15 minutes at most.

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
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from games.access import Rights, seat_cookie_sent
from games.models import GameSession, LiveCacheEpoch, Membership, TableRound
from games.services.scoreboard import live_stamp

logger = logging.getLogger(__name__)

# Long enough that an evening's table stays answered from the cache between rounds.
KEEP_SECONDS = 7 * 24 * 3600
# The longest a pass (see above) is trusted without asking the database again.
PASS_SECONDS = 15 * 60
# How often a process reads the epoch: after a failed write, the other processes
# stop reading the entries from before it within this, well inside one poll interval
# (3 s and more), so a poll is at most one late.
EPOCH_SECONDS = 1.0


# --- Entries, as kept in the cache -----------------------------------------------------


class Entry(NamedTuple):
    """A session's table as the cache keeps it, under its id and its share token."""

    stamp: str
    token: str
    league: int | None
    creator: int | None


class Pass(NamedTuple):
    """This sign-in may see (``write``: and change) the session of league and creator,
    as the database said after access generation ``access`` was read."""

    user: str
    access: str
    league: int | None
    creator: int | None
    write: bool


class PanelAnswer(NamedTuple):
    """The scorer's panel answered ``stamp`` from a read after table ``generation``."""

    generation: str
    stamp: str


class SeatAnswer(NamedTuple):
    """A seat's phone (this link, this cookie) answered round ``number`` at ``stamp``
    from a read after table ``generation``."""

    generation: str
    link: str
    cookie: str
    number: str
    stamp: str


def _shaped(value: object, kind: type[tuple]) -> tuple | None:
    """``value`` as a ``kind`` if it is one of the shape this code writes, else None: a
    value written by another release (a deploy that changed an entry) or junk is a
    miss, never an error."""
    if isinstance(value, tuple) and len(value) == len(kind._fields):
        return kind(*value)
    return None


@dataclass(frozen=True)
class Reading:
    """What was read of the cache before the database was: the epoch, and the value
    of a generation (access, or a session's table) or None where there is none."""

    epoch: int
    value: str | None


# --- The epoch ------------------------------------------------------------------------


class _Epoch:
    """This process's copy of ``LiveCacheEpoch``, read again once EPOCH_SECONDS old. A
    new epoch is a random number, not the last one plus one: a database restored from
    a backup (which moves it, games/backups) never brings back an epoch whose keys
    still hold entries of the database before the restore."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.forget()

    def forget(self) -> None:
        with self._lock:
            self._value, self._read_at = 0, float("-inf")

    def current(self) -> int:
        if time.monotonic() - self._read_at >= EPOCH_SECONDS:
            try:
                rows = LiveCacheEpoch.objects.filter(pk=1).values_list("value", flat=True)
                value = rows.first() or 0
            except DatabaseError:
                # The database down: no change can commit either, so none is missed.
                return self._value
            with self._lock:
                self._value, self._read_at = value, time.monotonic()
        return self._value

    def move(self) -> None:
        """Start a new epoch: every entry kept so far is never read again."""
        value = secrets.randbits(62) + 1
        try:
            with transaction.atomic():
                LiveCacheEpoch.objects.update_or_create(pk=1, defaults={"value": value})
        except IntegrityError:  # another process made the row at the same moment
            LiveCacheEpoch.objects.filter(pk=1).update(value=value)
        except DatabaseError:
            logger.exception("live cache epoch not moved")
            return
        with self._lock:
            self._value, self._read_at = value, time.monotonic()


EPOCH = _Epoch()


def _on() -> bool:
    return settings.LIVE_CACHE


def forget_everything() -> None:
    """Nothing kept so far answers a poll again: for a database replaced under the
    cache (a restore), whose stamps the cached ones do not describe."""
    EPOCH.move()


def _key(epoch: int, kind: str, *parts: object) -> str:
    """The cache key of one kind of live entry: "session", "token" (the session's
    entry again, under its share token), "pass" (session, sign-in), "access" (the
    access generation), "table" (a session's table generation), "panel" (the scorer's
    panel) and "seat" (session, seat)."""
    return ":".join(["live", str(epoch), kind, *map(str, parts)])


def _plain(value: str | None, longest: int = 64) -> bool:
    # Only what the app itself hands out becomes part of a cache key.
    return bool(value) and len(value) <= longest and value.isascii() and value.isalnum()


def _write(what: str, write: Callable[[], object]) -> None:
    """A write of something that, once lost, could leave an entry the database has
    moved past: on failure the epoch moves (see above)."""
    try:
        write()
    except Exception:
        logger.warning("live cache: %s not written", what, exc_info=True)
        EPOCH.move()


def _keep(what: str, write: Callable[[], object]) -> None:
    """A write of what only saves a later read of the database (a pass, an answer):
    lost, it is a miss, never a wrong answer."""
    try:
        write()
    except Exception:
        logger.warning("live cache: %s not kept", what, exc_info=True)


def _fresh() -> str:
    return secrets.token_hex(8)


# --- Writes: every change moves what the polls compare -------------------------------


def _entry(session: GameSession) -> Entry:
    return Entry(live_stamp(session), session.share_token, session.league_id, session.created_by_id)


def _newer(entry: Entry, cached: Entry | None) -> bool:
    """Whether ``entry`` is a later state of the session than the cached one. Commits
    of one session are ordered by its row lock, but their on-commit writes are not: a
    worker paused before its write must not put an older stamp back."""
    try:
        return cached is None or int(entry.stamp) > int(cached.stamp)
    except (TypeError, ValueError):
        return True


def _put(epoch: int, session: GameSession, cached: Entry | None) -> None:
    """Write the session's entry (under its id and its share token) and a new table
    generation. ``cached``: the session's entry as read before, whose share token, if
    another, no longer leads anywhere (a replaced link)."""
    pk, token, entry = session.pk, session.share_token, _entry(session)
    retired = [_key(epoch, "token", cached.token)] if cached and cached.token != token else []

    def write() -> None:
        cache.set_many(
            {
                _key(epoch, "session", pk): tuple(entry),
                _key(epoch, "token", token): tuple(entry),
                _key(epoch, "table", pk): _fresh(),
            },
            KEEP_SECONDS,
        )
        if retired:
            cache.delete_many(retired)

    _write(f"stamp of session {pk}", write)


def _remember(session: GameSession) -> None:
    epoch = EPOCH.current()
    try:
        cached = _shaped(cache.get(_key(epoch, "session", session.pk)), Entry)
    except Exception:
        cached = None  # _put tries, and moves the epoch if it cannot
    if _newer(_entry(session), cached):
        _put(epoch, session, cached)


def _written(sender, instance: GameSession, **_) -> None:
    if _on():
        transaction.on_commit(lambda: _remember(instance))


def before_read() -> Reading | None:
    """What is read of the cache before the database is, for ``heal``; None without a
    cache."""
    return Reading(EPOCH.current(), None) if _on() else None


def heal(session: GameSession, before: Reading | None) -> None:
    """Called by a poll the database answered "unchanged", having read ``before``
    first: the session as it read it is the latest, so if the cache holds an older
    stamp (an on-commit write that came late, above) or another share token or owner
    for it, put the latest back. Viewers still holding the older stamp get the table
    on their next poll."""
    if before is None:
        return
    epoch, entry = before.epoch, _entry(session)
    keys = [_key(epoch, "session", session.pk), _key(epoch, "token", session.share_token)]
    try:
        found = cache.get_many(keys)
    except Exception:
        return
    cached = _shaped(found.get(keys[0]), Entry)
    if cached is not None and cached.stamp != entry.stamp and not _newer(entry, cached):
        return  # a later state is cached already: a write committed after this read
    if cached != entry or _shaped(found.get(keys[1]), Entry) != entry:
        _put(epoch, session, cached)


def _deleted(sender, instance: GameSession, **_) -> None:
    if _on():
        pk, token = instance.pk, instance.share_token
        transaction.on_commit(lambda: _forget(pk, token))


def _forget(pk: int, token: str) -> None:
    epoch = EPOCH.current()
    keys = [_key(epoch, kind, part) for kind, part in (("session", pk), ("table", pk))]
    keys.append(_key(epoch, "token", token))
    _write(f"stamp of session {pk}", lambda: cache.delete_many(keys))


def share_link_replaced(old_token: str) -> None:
    """The session's share link was replaced: once that commits, the old link's entry
    goes, so its poll takes the database path (and is refused there)."""
    if _on():
        transaction.on_commit(
            lambda: _write(
                "retired share link",
                lambda: cache.delete(_key(EPOCH.current(), "token", old_token)),
            )
        )


def _access_changed(sender, created=False, update_fields=None, **_) -> None:
    # A new user or membership takes no right away from anyone; a sign-in's
    # last_login, written at every sign-in, changes nobody's rights.
    if not _on() or created or (update_fields and set(update_fields) == {"last_login"}):
        return
    transaction.on_commit(
        lambda: _write(
            "access generation",
            lambda: cache.set(_key(EPOCH.current(), "access"), _fresh(), None),
        )
    )


def table_changed(pk: int) -> None:
    """A write to table mode's rows of session ``pk`` (hands, seats, the table round,
    the table link): its polls ask the database again once it commits."""
    if _on():
        transaction.on_commit(
            lambda: _write(
                f"table generation of {pk}",
                lambda: cache.set(_key(EPOCH.current(), "table", pk), _fresh(), KEEP_SECONDS),
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


def access_generation() -> Reading | None:
    """The access generation, read before the database checks someone's rights (a
    change after the read gives a new one): its value None if the cache did not
    answer; None without a cache."""
    if not _on():
        return None
    epoch = EPOCH.current()
    key = _key(epoch, "access")
    try:
        generation = cache.get(key)
        if generation is None:
            cache.add(key, _fresh(), None)
            generation = cache.get(key)
    except Exception:
        generation = None  # no pass is kept, but heal may still write
    return Reading(epoch, generation)


def grant(
    request: HttpRequest, session: GameSession, rights: Rights, generation: Reading | None
) -> None:
    """Remember that this browser's sign-in may see ``session`` (and write to it, per
    ``rights``): the database said so after ``generation`` was read."""
    signin = request.session.session_key
    if generation is None or generation.value is None or not rights.view or not _plain(signin):
        return
    user = request.session.get(SESSION_KEY)
    granted = Pass(user, generation.value, session.league_id, session.created_by_id, rights.write)
    seconds = min(PASS_SECONDS, request.session.get_expiry_age())
    key = _key(generation.epoch, "pass", session.pk, signin)
    _keep("pass", lambda: cache.set(key, tuple(granted), seconds))


def _signed_in(request: HttpRequest) -> tuple[str, str] | None:
    """(the sign-in's key, its user) as the database holds them, or None."""
    user = request.session.get(SESSION_KEY)
    signin = request.session.session_key
    return (signin, user) if user is not None and _plain(signin) else None


def _passes(granted: object, access: object, entry: Entry, user: str, need_write: bool) -> bool:
    """Whether the pass and access generation read let this browser, signed in as
    ``user``, be answered for the session of ``entry``."""
    granted = _shaped(granted, Pass)
    return (
        granted is not None
        and access is not None
        and granted.user == user
        and granted.access == access
        and (granted.league, granted.creator) == (entry.league, entry.creator)
        and (granted.write or not need_write)
    )


def unchanged(request: HttpRequest, pk: int, stamp: str | None) -> bool:
    """Whether the session's table is still the one of ``stamp`` and this browser may
    be told so, by the cache alone (one round trip) and the sign-in."""
    if not _on() or not stamp:
        return False
    signed_in = _signed_in(request)
    if signed_in is None:
        return False
    signin, user = signed_in
    epoch = EPOCH.current()
    keys = [_key(epoch, "session", pk), _key(epoch, "pass", pk, signin), _key(epoch, "access")]
    try:
        found = cache.get_many(keys)
    except Exception:
        return False
    entry = _shaped(found.get(keys[0]), Entry)
    return (
        entry is not None
        and entry.stamp == stamp
        and _passes(found.get(keys[1]), found.get(keys[2]), entry, user, False)
    )


def unchanged_for_token(token: str, stamp: str | None) -> bool:
    """The same for a share link, in one read: the session's entry kept under the
    token (a replaced link has none, or one naming another token)."""
    if not _on() or not stamp:  # the token: as the address's converter let it through
        return False
    try:
        entry = _shaped(cache.get(_key(EPOCH.current(), "token", token)), Entry)
    except Exception:
        return False
    return entry is not None and (entry.stamp, entry.token) == (stamp, token)


# --- Table mode's polls --------------------------------------------------------------


def table_generation(pk: int) -> Reading | None:
    """The session's table generation, read before the database reads the table;
    None without a cache or before a write committed one (opening table mode does)."""
    if not _on():
        return None
    epoch = EPOCH.current()
    try:
        generation = cache.get(_key(epoch, "table", pk))
    except Exception:
        return None
    return Reading(epoch, generation) if generation is not None else None


def remember_panel(pk: int, generation: Reading | None, stamp: str) -> None:
    """The scorer's panel of session ``pk`` was answered with ``stamp`` from a read
    after ``generation``."""
    if generation is not None and generation.value is not None:
        answer = PanelAnswer(generation.value, stamp)
        key = _key(generation.epoch, "panel", pk)
        _keep("panel stamp", lambda: cache.set(key, tuple(answer), PASS_SECONDS))


def panel_unchanged(request: HttpRequest, pk: int, stamp: str | None) -> bool:
    """Whether the scorer's panel is still the one of ``stamp`` and this browser may
    still write to the session (its pass says so), by the cache alone."""
    if not _on() or not stamp:
        return False
    signed_in = _signed_in(request)
    if signed_in is None:
        return False
    signin, user = signed_in
    epoch = EPOCH.current()
    keys = [
        _key(epoch, "table", pk),
        _key(epoch, "panel", pk),
        _key(epoch, "session", pk),
        _key(epoch, "pass", pk, signin),
        _key(epoch, "access"),
    ]
    try:
        found = cache.get_many(keys)
    except Exception:
        return False
    generation, entry = found.get(keys[0]), _shaped(found.get(keys[2]), Entry)
    return (
        generation is not None
        and entry is not None
        and _shaped(found.get(keys[1]), PanelAnswer) == (generation, stamp)
        and _passes(found.get(keys[3]), found.get(keys[4]), entry, user, True)
    )


def remember_seat(
    request: HttpRequest, session: GameSession, generation: Reading | None, answer: tuple
) -> None:
    """The phone holding its seat (its cookie verified) was answered ``answer`` (the
    round's number and its stamp) from a read after ``generation``."""
    cookie = seat_cookie_sent(request)
    if generation is None or generation.value is None or cookie is None:
        return
    # No longer than the cookie is read (access.phone_seat's max_age).
    seconds = min(PASS_SECONDS, int(cookie.read_until - time.time()))
    if seconds <= 0:
        return
    # The link is kept with the answer: a replaced one (its phone's page still naming
    # the session) does not match it.
    kept = SeatAnswer(generation.value, session.table_token, cookie.value, *answer)
    key = _key(generation.epoch, "seat", session.pk, cookie.seat_pk)
    _keep("seat answer", lambda: cache.set(key, tuple(kept), seconds))


def seat_unchanged(request: HttpRequest, token: str, pk: int | None, answer: tuple) -> bool:
    """Whether the phone's round and stamp (``answer``) are still those of its seat,
    for this very seat cookie and table link, by the cache alone, in one round trip:
    ``pk`` is the session as the phone's page names it (its poll's address), so the
    table generation and the seat's answer are read together. A ``pk`` that is not
    the link's finds no answer kept for this link and cookie: the database answers."""
    cookie = seat_cookie_sent(request)
    if not _on() or cookie is None or pk is None or not all(answer):
        return False
    epoch = EPOCH.current()
    table, seat = _key(epoch, "table", pk), _key(epoch, "seat", pk, cookie.seat_pk)
    try:
        found = cache.get_many([table, seat])
    except Exception:
        return False
    generation = found.get(table)
    return generation is not None and _shaped(found.get(seat), SeatAnswer) == (
        generation,
        token,
        cookie.value,
        *answer,
    )
