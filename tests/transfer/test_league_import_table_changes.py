"""A session whose table changed between rounds, moved by league file (format version
5): who joined and who left after which round, and the new seatings a toss gave the
table then, come back, so the imported sessions count and settle what the originals
did; a change the rules no longer allow (a rejoin after an earlier round was edited,
a leave after a round deleted since) comes back kept and ignored, as its page ignored
it; a file before version 5 imports as it always did; and a change naming nobody at
the table is refused."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, League, Membership, SeatChange
from games.services.money import money_of
from games.services.round_saves import delete_round
from games.services.scoreboard import load_scoreboard
from games.services.seat_changes import rename
from games.services.sessions import leave, rejoin
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.builders import edit, make_session, play
from tests.support.club import FIRST, MAR, WIN
from tests.support.hands import ROUND_1
from tests.support.league_files import (
    as_version_4,
    build_changing_tables,
    refused,
    rejoin_session,
    seat_changes_of,
    session_snapshot,
    set_at,
    snapshot,
    tampered,
    wipe,
)

pytestmark = pytest.mark.django_db


def club(user: User, preset: str = "13-pool-101") -> League:
    league = League.objects.create(name="Friday club", slug="club", preset=preset)
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    return league


def table_of(session: GameSession) -> dict:
    """What the session's page shows of its table: every column's total and standing,
    each round's dealer, totals and what changed after it, the next dealer, the
    warnings above the table and who pays whom."""
    board = load_scoreboard(session)
    return {
        "columns": [
            (c.name, c.total, c.eliminated_in, c.winner, c.left_after, c.joined_after)
            for c in board.columns
        ],
        "lines": [
            (line.dealer, line.totals, line.joined, line.left, line.seats)
            for line in board.state.lines
        ],
        "next_dealer": board.state.next_dealer,
        "finished": board.finished,
        "warnings": board.warnings,
        "money": money_of(board),
    }


def sessions_of(league: League) -> list[GameSession]:
    return list(league.sessions.order_by("played_on", "pk"))


def moved_and_back(league: League) -> list[GameSession]:
    """The league's sessions after its file is imported into an empty database."""
    text = dumps(export_league(league))
    wipe()
    return sessions_of(import_league(text, keep_members=True).league)


def test_joins_leaves_and_new_seatings_come_back_with_the_same_totals(user: User) -> None:
    league = build_changing_tables(user)
    points, pool = sessions_of(league)
    before = [table_of(session) for session in (points, pool)]
    # What is compared covers what matters: a latecomer and a leaver in a points game
    # played for money, a latecomer in a pool, and the toss after each change.
    columns = {column[0]: column for column in before[0]["columns"]}
    assert (columns["Kim"][-1], columns["Ravi"][-2]) == (2, 3)
    assert before[0]["money"].payments and before[1]["lines"][1][2] == {"Dev": 61}
    kinds = [[change[0] for change in seat_changes_of(s)] for s in (points, pool)]
    assert kinds == [["join", "seats", "leave", "seats"], ["join", "seats"]]
    snapshots = [session_snapshot(session) for session in (points, pool)]
    original = export_league(league)

    imported = moved_and_back(league)

    assert [table_of(session) for session in imported] == before
    # The seats and their results, the changes with their times and authors ("ben"
    # marked Ravi's leaving), the rounds and their dealers: all as they were.
    assert [session_snapshot(session) for session in imported] == snapshots
    # And the league exports as the same file, but for its new share links and who
    # created its sessions here (nobody: no user imported it).
    again = export_league(imported[0].league)
    for data in (again, original):
        data["exported_at"] = None
        for session in data["sessions"]:
            session["share_token"] = session["created_by"] = None
    assert again == original


def test_a_name_corrected_comes_back_as_corrected_with_the_changes_of_the_table(
    user: User,
) -> None:
    league = build_changing_tables(user)
    points, _ = sessions_of(league)
    rename(points, points.seats.get(player__name="Kim"), "Kimi", user)
    before = table_of(points)
    assert "Kimi" in [column[0] for column in before["columns"]]

    imported, _ = moved_and_back(league)

    # The file names Kimi where Kim sat; a correction is no change of the table.
    assert table_of(imported) == before
    assert [change[:2] for change in seat_changes_of(imported)][:1] == [("join", "Kimi")]
    assert not imported.seat_changes.filter(kind=SeatChange.Kind.RENAME).exists()


def test_a_leave_after_a_round_deleted_since_comes_back_ignored(user: User) -> None:
    session = make_session(user, league=club(user, "21-points"))
    play(session, "8S", ROUND_1)
    play(session, "8S", ROUND_1)
    leave(session, session.seats.get(player__name="Chen"), user, random.Random(1))
    # Round 2 deleted: Chen's leave and the toss after it follow no round played.
    delete_round(session.rounds.get(number=2), user)
    before = table_of(session)
    assert len(before["warnings"]) == 2 and "no round 2" in before["warnings"][0]

    (imported,) = moved_and_back(session.league)

    assert table_of(imported) == before
    assert [change[:3] for change in seat_changes_of(imported)] == [
        ("leave", "Chen", 2),
        ("seats", None, 2),
    ]


def test_a_rejoin_its_page_ignores_comes_back_ignored(user: User) -> None:
    session = rejoin_session(user, club(user), MAR)
    # Round 2 edited since: Ben no longer passes 101 in it, so his rejoin after it
    # breaks the rules, and the page counts the rounds without it.
    edit(session.rounds.get(number=2), "7C", {"Asha": WIN, "Ben": FIRST, "Chen": FIRST})
    before = table_of(session)
    assert any("Ben's rejoin after round 2 is ignored" in line for line in before["warnings"])

    (imported,) = moved_and_back(session.league)

    assert table_of(imported) == before
    assert list(imported.rejoins.values_list("seat__player__name", "after_round")) == [("Ben", 2)]


def test_a_rejoin_made_after_a_leave_comes_back_after_it(user: User) -> None:
    players = ("Asha", "Ben", "Chen", "Dev")
    pool = make_session(user, players=players, preset="13-pool-101", league=club(user))
    drops = {"Asha": WIN, "Ben": ("middle_drop", ""), "Dev": FIRST}
    play(pool, "7C", drops | {"Chen": ("invalid_declaration", "")})
    play(pool, "7C", drops | {"Chen": ("middle_drop", "")})  # Chen out at 120, Ben at 80
    # Ben (above the cutoff) goes home, so Chen may buy back in: at Dev's 40, plus one.
    leave(pool, pool.seats.get(player__name="Ben"), user, random.Random(1))
    rejoin(pool, pool.seats.get(player__name="Chen"), user)
    before = table_of(pool)
    assert before["warnings"] == () and before["columns"][2][:3] == ("Chen", 41, None)
    snapshot_before = session_snapshot(pool)

    (imported,) = moved_and_back(pool.league)

    # Replayed in the order made, by the import (the seats' stored results) and its page.
    assert table_of(imported) == before
    assert session_snapshot(imported) == snapshot_before


def test_a_file_before_version_5_imports_as_it_always_did(
    moved: dict, moved_changing_tables: dict
) -> None:
    # A league where nobody joined or left: the same league from either version.
    current = snapshot(import_league(json.dumps(moved)).league)
    wipe()
    assert snapshot(import_league(json.dumps(as_version_4(moved))).league) == current
    wipe()
    # Version 4 kept no joins or leaves: a latecomer and a leaver sit at the table from
    # the first round to the last, as that file's import always seated them, and a
    # key of that name in such a file is not read.
    old = as_version_4(moved_changing_tables)
    old["sessions"][0]["seat_changes"] = moved_changing_tables["sessions"][0]["seat_changes"]

    league = import_league(json.dumps(old)).league

    assert not SeatChange.objects.exists()
    points = league.sessions.get(name="Long table")
    columns = load_scoreboard(points).columns
    assert [c.name for c in columns] == ["Asha", "Ben", "Chen", "Ravi", "Kim"]
    assert not any(c.joined_after or c.left_after for c in columns)


# The changing tables' file: session 1 is "Long table", its seat changes Kim's join
# after round 2 (0), the toss after it (1), Ravi's leave after round 3 (2) and the toss
# after that (3).
POINTS = "sessions.0.seat_changes"


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (f"{POINTS}.0.player", "Zed", "seat change 1: 'Zed' has no seat at this table."),
        (f"{POINTS}.0.player", None, "seat change 1: a player who joins or leaves is named"),
        (f"{POINTS}.0.seats", ["Kim"], 'seat change 1: only a new seating lists "seats".'),
        (f"{POINTS}.0.kind", "swap", "\"kind\" must be one of join, leave, seats, not 'swap'"),
        (f"{POINTS}.0.kind", "rename", "must be one of join, leave, seats, not 'rename'"),
        (f"{POINTS}.2.after_round", 0, "after_round must be a round's number, from 1, not 0"),
        (f"{POINTS}.2.after_round", "3", 'seat change 3: "after_round" must be a whole number'),
        (f"{POINTS}.1.seats", ["Asha", "Asha"], "seat change 2: Asha is seated twice."),
        (f"{POINTS}.1.seats", ["Asha", "Zed"], "seat change 2: 'Zed' has no seat at this table"),
        (f"{POINTS}.1.seats", "Asha Ben", '"seats" must be a list of players\' names'),
        (f"{POINTS}.1.seats", [], 'seat change 2: a new seating lists its players in "seats".'),
        (f"{POINTS}.1.player", "Asha", 'a new seating lists its players in "seats", not "player"'),
        (f"{POINTS}.3.created_at", "2099-01-01T00:00:00+00:00", "is in the future"),
        (f"{POINTS}.3.created_by", 7, '"created_by" must be text'),
        (POINTS, {}, 'Session 1 (“Long table”, played 2024-06-07): "seat_changes" must be a list'),
    ],
)
def test_a_seat_change_the_table_cannot_have_is_refused_naming_it(
    moved_changing_tables: dict, path: str, value: object, message: str
) -> None:
    assert message in refused(tampered(moved_changing_tables, set_at(path, value)))


def test_a_leaver_with_a_hand_after_they_left_is_refused(moved_changing_tables: dict) -> None:
    # Ravi left after round 3: said to have left after round 1, his hands in rounds 2
    # and 3 are of rounds he did not sit at.
    text = tampered(moved_changing_tables, set_at(f"{POINTS}.2.after_round", 1))

    message = refused(text)

    assert "the session does not replay: Ravi is not at the table in round 2." in message
