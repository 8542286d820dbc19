"""Importing a league file: read as JSON (league_reading), checked against the
league file's schema (league_schema), planned with every round re-scored by the rules
service (league_plan), named (league_naming), then written in one transaction
(league_write), so a league is restored completely or not at all, its rounds' history
with it (version 4 on). An import acts on nobody but the importer (its members and
their "this is me" claims are listed for the owner to invite, share tokens are always
new, whoever entered or changed a round is an account only if the import made them a
member, else a name).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext, gettext_noop

from games.transfer.league_naming import named, typed_name
from games.transfer.league_plan import plan_league
from games.transfer.league_reading import read_league_file
from games.transfer.league_refusal import ImportRefused
from games.transfer.league_schema import checked_league_file
from games.transfer.league_write import Imported, write_plan

__all__ = ["BEFORE_HISTORY", "ImportRefused", "Imported", "import_league", "read_league_file"]

# What the importer of a file before version 4 is told (the import page, the command):
# marked for the catalogue, said with gettext where it is told.
BEFORE_HISTORY = gettext_noop(
    "This file was exported before league files kept the rounds' history: its "
    "sessions' history pages start empty, and who entered each round is kept as a name."
)


def import_league(
    raw: bytes | str,
    *,
    owner: AbstractBaseUser | None = None,
    keep_members: bool = False,
    max_rounds: int | None = None,
    name: str = "",
) -> Imported:
    """Restore a league from the text of a file `export_league` wrote, as a new
    league of which ``owner`` (the user importing, if any) is the only member, named
    ``name`` (held to the rule for names), else as the file names it; beside one of
    the owner's leagues of that name, by the day it came (league_naming).

    Its address is its own (services.leagues.fresh_slug): the file's, or the typed
    name's, numbered as a new league's is if another league has it ("club-2"). So
    the same file imports again as another league, and no message tells the
    importer whose league has that address.

    A file may not act on anyone else: its members are not added but kept on the
    league for the owner to invite (``Imported.invitable``), each with the player
    they claimed ("this is me"), which they make again with one tap once they are
    members (the importer's own claim is made at once); its share links are never
    used (every session gets a new one); its players are linked to no account. Only
    an administrator's ``keep_members`` (``manage.py import_league --keep-members``)
    adds the file's members, creating the accounts missing here with no usable
    password, and makes their claims again.

    Each session's history comes back as the file has it (version 4 on): every
    change with its time, author and the round before and after, each round's version
    and times, each rejoin's time and author. An author is linked to an account as a
    claim is: a member of the file whom the import made a member (the importer; every
    member with ``keep_members``); anyone else is kept as a name, linked to no
    account. A file before version 4 holds no history: its authors are names, its
    rounds and rejoins are timed at the import, and ``Imported.history`` is False.
    From version 5 on the players who joined and left the table come back too, and
    the new seatings a toss gave it then, each with its time and author; one the
    rules refuse (a round it followed was deleted since) is kept and ignored, as the
    session page ignores it. A file before version 5 kept none. From version 6 on a
    hand counted at the table comes back counted, with the figures it was entered
    with, and scores as it did; a file before version 6 has none.

    Raises ImportRefused, writing nothing, for a file that is not JSON or not this
    format and version, a name that is not printable text (the file's or ``name``), a
    date or number the database could not store and read back (or, version 4 on, a
    time in the future), a value the models would refuse, a round the rules service
    does not score as the file says, or a history that does not hold together (a
    change of a round the session does not have, a round before or after that is not
    one, changes out of order, a round last changed before it was entered), or a
    join, leave or new seating of a player without a seat; and,
    before scoring any, for a file of more than ``max_rounds`` rounds (the import
    page's limit: every round is scored again, which takes time).
    """
    typed = typed_name(name)
    with cycle_collector_paused():
        # In a function of its own, so that the file and the plan are gone before the
        # collector is back on: its first pass would otherwise walk all of them.
        return _import(raw, owner, keep_members, max_rounds, typed)


def _import(
    raw: bytes | str,
    owner: AbstractBaseUser | None,
    keep_members: bool,
    max_rounds: int | None,
    typed: str,
) -> Imported:
    data = read_league_file(raw)
    if max_rounds is not None:
        _check_round_count(data, max_rounds)
    checked, reading = checked_league_file(data)
    # From here on the checked records are the file: its JSON need not stay through
    # planning and writing.
    del data
    plan = plan_league(checked, reading)
    del checked
    asked = typed or plan.league["name"]
    imported = write_plan(named(plan, owner, typed), owner, keep_members)
    if imported.league.name != asked:
        return replace(imported, renamed_from=asked)
    return imported


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the length of an import, and on again after it
    whatever happens. An import holds the whole file, its records and every round it
    scored until it writes them, and the collector walked all of those objects again
    and again as they grew: without the pause a 10,000-round import
    (benchmarks/import_league.py) took 7.6-8.2 s of CPU instead of 4.4-5.2. Cycles made
    meanwhile are collected once it is back on. The switch is the process's: a request
    another thread of the worker serves meanwhile (gunicorn.conf.py: gthread) goes
    without it for those seconds too."""
    if not gc.isenabled():
        yield  # off already (another import in this process): whoever turned it off
        return  # turns it back on
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _check_round_count(data: object, limit: int) -> None:
    """Refuse a file of more rounds than ``limit`` before any is scored (the schema
    says why a file that is no league file is not one)."""
    sessions = data.get("sessions") if isinstance(data, dict) else None
    if not isinstance(sessions, list):
        return
    count = sum(
        len(session["rounds"])
        for session in sessions
        if isinstance(session, dict) and isinstance(session.get("rounds"), list)
    )
    if count > limit:
        raise ImportRefused(
            gettext(
                "This file holds {count} rounds; the import page takes at most {limit} at once "
                "(each is scored again, and the page must answer within seconds). Nothing was "
                "imported: an administrator can import it with manage.py import_league."
            ).format(count=f"{count:,}", limit=f"{limit:,}")
        )
