"""Exports and imports (games/exports.py, games/views_exports.py and the export_league
and import_league commands): a session's rounds and a league's standings as CSV and
XLSX, and a whole league as JSON that an import restores exactly, or refuses with
nothing written."""

from __future__ import annotations

import copy
import csv
import datetime
import gc
import io
import json
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    Rating,
    RatingChange,
    Rejoin,
    Round,
    Seat,
)
from games.queries.standings import standings_of
from games.services.scoreboard import load_scoreboard
from games.transfer import league_import as importer
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import ImportRefused, import_league
from games.transfer.tables import STANDINGS_HEADER, groups_text

from .conftest import LOOSE_148, SHOWN_8S, THREE_PURE, WIN_8S, expected_totals, make_session, play
from .test_standings import FEB, FIRST, JAN, LOSE, MAR, WIN, build_club, pool_session

pytestmark = pytest.mark.django_db

APR = datetime.date(2024, 4, 20)
# 21-card points under cut 8S: value points change hands (+10 each way).
POINTS_ROUNDS = [
    ("8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}),
    (
        "8S",
        {
            "Asha": ("shown", LOOSE_148),
            "Ben": ("declared", THREE_PURE),
            "Chen": ("middle_drop", ""),
        },
    ),
]
# 21-card kodai: the losers pay claims for the jokers they hold.
KODAI_ROUND = POINTS_ROUNDS[0]
# Pool 101: Ben passes 101 in round 2 and buys back in; out again in round 3, and
# Chen in round 4: Asha wins.
REJOIN_ROUNDS = [
    {"Asha": WIN, "Ben": LOSE, "Chen": FIRST},
    {"Asha": WIN, "Ben": LOSE, "Chen": FIRST},
    {"Chen": WIN, "Asha": FIRST, "Ben": LOSE},
    {"Asha": WIN, "Chen": LOSE},
]


# --- Builders --------------------------------------------------------------------------------


def points_session(user: User, league: League | None = None, **kwargs) -> GameSession:
    session = make_session(user, name="Friday", league=league, **kwargs)
    for cut, hands in POINTS_ROUNDS:
        play(session, cut, hands, user)
    return session


def rejoin_session(user: User, league: League | None, day: datetime.date) -> GameSession:
    """A pool in which Ben is out after round 2 and buys back in (the rules service
    sets his total; only the fact is stored), then goes out again."""
    session = pool_session(user, league, day, ("Asha", "Ben", "Chen"), REJOIN_ROUNDS[:2])
    Rejoin.objects.create(
        session=session, seat=session.seats.get(player__name="Ben"), after_round=2
    )
    for hands in REJOIN_ROUNDS[2:]:
        play(session, "7C", hands, user)
    return session


def build_league(user: User) -> League:
    """A club with everything an export holds: pools (finished, running, one with a
    rejoin), a points session with house rules, stakes and a hand-closed ending, a
    kodai session with claims, members of every role and a player with an account."""
    league, _ = build_club(user)
    League.objects.filter(pk=league.pk).update(
        money_per_point=Decimal("0.50"), overrides={"first_drop": 25}
    )
    league.refresh_from_db()
    ben = User.objects.create_user(username="ben", password="x")
    chen = User.objects.create_user(username="chen", password="x")
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    Membership.objects.create(league=league, user=chen, role=Membership.Role.VIEWER)
    Player.objects.filter(name="Asha").update(user=user)
    rejoin_session(user, league, MAR)
    closed = make_session(
        ben, name="Points night", league=league, overrides={"first_drop": 25}, first_dealer=2
    )
    GameSession.objects.filter(pk=closed.pk).update(
        played_on=APR,
        closed_at=timezone.now(),
        money_per_point=Decimal("1.25"),
        buy_in=Decimal("10.00"),
    )
    closed.refresh_from_db()
    play(closed, *POINTS_ROUNDS[0], ben)  # the table had stopped: one round ends it
    kodai = make_session(user, preset="21-kodai", league=league, players=("Chen", "Asha", "Ben"))
    GameSession.objects.filter(pk=kodai.pk).update(played_on=APR)
    kodai.refresh_from_db()
    play(kodai, *KODAI_ROUND, chen)
    return league


def snapshot(league: League) -> dict:
    """Everything about a league that ids do not name: what must survive an export and
    an import unchanged."""
    sessions = list(league.sessions.order_by("played_on", "pk"))
    index = {session.pk: number for number, session in enumerate(sessions)}
    return {
        "league": (
            league.name,
            league.slug,
            league.preset,
            league.overrides,
            league.money_per_point,
        ),
        "members": sorted((m.user.username, m.role) for m in league.memberships.all()),
        "players": sorted(
            (p.name, p.user.username if p.user else None)
            for p in Player.objects.filter(seats__session__league=league).distinct()
        ),
        "sessions": [session_snapshot(session) for session in sessions],
        "standings": standings_snapshot(league),
        "february": standings_snapshot(league, date_from=FEB, date_to=FEB),
        "ratings": sorted(
            (r.player.name, r.mu, r.sigma, r.ordinal, r.sessions)
            for r in Rating.objects.filter(league=league)
        ),
        "rating_changes": [
            (c.player.name, c.sequence, c.played_on, c.mu, c.sigma, index[c.session_id])
            for c in RatingChange.objects.filter(league=league).order_by("sequence", "player__name")
        ],
    }


def session_snapshot(session: GameSession) -> dict:
    return {
        "columns": (
            session.name,
            session.preset,
            session.overrides,
            session.ceiling,
            session.status,
            session.played_on,
            session.created_at,
            session.closed_at,
            session.money_per_point,
            session.buy_in,
            # Not the share link (an import makes new ones) nor who created the session
            # here (whoever imported it).
            session.first_dealer.player.name if session.first_dealer else None,
        ),
        "seats": [
            (
                seat.player.name,
                seat.position,
                seat.total,
                seat.place,
                seat.won,
                seat.rounds_played,
                seat.rounds_won,
                seat.drops,
                seat.points,
                seat.best_round,
                seat.worst_round,
            )
            for seat in session.seats.order_by("position")
        ],
        "rejoins": [(r.seat.player.name, r.after_round) for r in session.rejoins.all()],
        "rounds": [
            (
                played.number,
                played.dealer.player.name if played.dealer else None,
                played.cut_joker,
                played.author,  # an imported round's author is kept as text
                [
                    (
                        entry.player.name,
                        entry.outcome,
                        entry.groups,
                        entry.declaration,
                        entry.hand_points,
                        entry.value_points,
                        entry.claims,
                        entry.score,
                        entry.breakdown,
                    )
                    for entry in played.entries.order_by("pk")
                ],
            )
            for played in session.rounds.order_by("number")
        ],
        "totals": [column.total for column in load_scoreboard(session).columns],
    }


def standings_snapshot(league: League, **dates) -> list[tuple]:
    return [
        (
            row.player.name,
            row.sessions,
            row.sessions_won,
            row.rounds,
            row.rounds_won,
            row.drops,
            row.points,
            row.best_round,
            row.worst_round,
            row.rating,
            row.mu,
            row.sigma,
        )
        for row in standings_of(league, **dates)
    ]


def wipe() -> None:
    """Empty the database of everything a league export holds."""
    GameSession.objects.all().delete()  # seats, rounds, hands, rejoins, rating history
    League.objects.all().delete()
    Player.objects.all().delete()
    User.objects.all().delete()


def counts() -> tuple[int, ...]:
    models = (User, Player, League, Membership, GameSession, Seat, Round, HandEntry, Rejoin)
    return tuple(model.objects.count() for model in models)


def read_csv(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def read_xlsx(content: bytes, sheet: str):
    return openpyxl.load_workbook(io.BytesIO(content))[sheet]


@pytest.fixture
def league(user: User) -> League:
    return build_league(user)


@pytest.fixture
def exported(league: League) -> dict:
    return export_league(league)


@pytest.fixture
def moved(exported: dict) -> dict:
    """The export, with the league gone from this database (a move to a new one)."""
    wipe()
    return exported


@pytest.fixture
def stranger(client: Client) -> Client:
    client.force_login(User.objects.create_user(username="zed", password="x"))
    return client


# --- A session's rounds as CSV and XLSX ----------------------------------------------------


def test_session_csv_has_a_row_per_round_with_each_players_hand_and_running_total(
    scorer: Client, user: User
) -> None:
    session = points_session(user)
    response = scorer.get(reverse("games:session_rounds_csv", args=[session.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="friday-{session.pk}-rounds.csv"'
    )
    header, *rows = read_csv(response.content)
    assert header[:3] == ["Round", "Dealer", "Cut joker"]
    assert header[3:10] == [
        "Asha: outcome",
        "Asha: groups",
        "Asha: hand points",
        "Asha: value points",
        "Asha: claims",
        "Asha: score",
        "Asha: total",
    ]
    assert header[10] == "Ben: outcome" and header[-1] == "Chen: total"
    assert len(rows) == 2
    state = expected_totals("21-points", ("Asha", "Ben", "Chen"), POINTS_ROUNDS)
    for row, played, line in zip(rows, session.rounds.order_by("number"), state.lines, strict=True):
        assert row[:3] == [str(played.number), played.dealer.player.name, "8S"]
        for offset, name in zip((3, 10, 17), ("Asha", "Ben", "Chen"), strict=True):
            entry = played.entries.get(player__name=name)
            assert row[offset : offset + 7] == [
                entry.get_outcome_display(),
                groups_text(entry.groups),
                str(entry.hand_points),
                str(entry.value_points),
                str(entry.claims),
                str(entry.score),
                str(line.totals[name]),
            ]
    # Round 1 as the rules service scores it (the figures of conftest's hands).
    assert rows[0][3:10] == [
        "Declared",
        "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H",
        "0",
        "-10",
        "0",
        "122",
        "122",
    ]
    assert rows[0][17:24] == ["First drop", "", "30", "0", "0", "-30", "-30"]


def test_session_xlsx_holds_the_same_figures_as_numbers(scorer: Client, user: User) -> None:
    session = points_session(user)
    response = scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert f'filename="friday-{session.pk}-rounds.xlsx"' in response["Content-Disposition"]
    sheet = read_xlsx(response.content, "Rounds")
    csv_rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    assert sheet.max_row == 3 and sheet.max_column == len(csv_rows[0]) == 3 + 3 * 7
    assert [cell.value for cell in sheet[1]] == csv_rows[0]
    assert sheet["A2"].value == 1 and sheet["C2"].value == "8S"
    assert (sheet["D2"].value, sheet["I2"].value, sheet["J2"].value) == ("Declared", 122, 122)
    assert (sheet["F2"].value, sheet["G2"].value) == (0, -10)  # hand and value points
    # Row 3: Asha's running total after round 2, as the rules service replays it.
    state = expected_totals("21-points", ("Asha", "Ben", "Chen"), POINTS_ROUNDS)
    assert sheet["J3"].value == state.totals["Asha"]
    assert sheet["X3"].value == state.totals["Chen"]
    assert sheet["A2"].font.b is False and sheet["A1"].font.b is True


def test_a_player_who_is_out_has_no_hand_but_keeps_their_total(scorer: Client, user: User) -> None:
    session = rejoin_session(user, None, MAR)
    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    board = load_scoreboard(session)
    ben = rows[0].index("Ben: outcome")
    # Round 4: Ben went out (again) in round 3, so he has no hand; his total stands.
    assert rows[4][ben : ben + 6] == ["", "", "", "", "", ""]
    assert rows[4][ben + 6] == str(board.rows[3].cells[1].total) == rows[3][ben + 6]
    # Round 2's total is before the rejoin; the rules service set the total after it.
    assert rows[2][ben + 6] == str(board.rows[1].cells[1].total)


def test_session_exports_are_for_those_who_may_see_the_session(client: Client, user: User) -> None:
    session = points_session(user)
    for name in ("games:session_rounds_csv", "games:session_rounds_xlsx"):
        url = reverse(name, args=[session.pk])
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        client.force_login(User.objects.create_user(username=f"zed-{name[-4:]}"))
        assert client.get(url).status_code == 404  # a stranger: no such session
        client.logout()
    assert client.get(f"/sessions/{session.pk + 1000}/rounds.csv").status_code == 302
    client.force_login(user)
    assert client.get(f"/sessions/{session.pk + 1000}/rounds.csv").status_code == 404


def test_a_league_member_may_download_a_league_sessions_rounds(
    client: Client, league: League
) -> None:
    session = league.sessions.get(name="Points night")  # created by Ben
    client.force_login(User.objects.get(username="chen"))  # a viewer of the league
    response = client.get(reverse("games:session_rounds_csv", args=[session.pk]))
    assert response.status_code == 200
    assert 'filename="points-night-' in response["Content-Disposition"]


def test_text_that_looks_like_a_formula_stays_text(scorer: Client, user: User) -> None:
    session = make_session(user, players=("=HYPERLINK(1)", "@Ben", "Chen"))
    play(
        session,
        "8S",
        {"=HYPERLINK(1)": ("declared", WIN_8S), "@Ben": ("shown", SHOWN_8S), "Chen": FIRST},
    )
    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    assert rows[0][3] == "'=HYPERLINK(1): outcome" and rows[0][10] == "'@Ben: outcome"
    sheet = read_xlsx(
        scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content, "Rounds"
    )
    assert sheet["D1"].value == "=HYPERLINK(1): outcome" and sheet["D1"].data_type == "s"
    assert sheet["B2"].value == "=HYPERLINK(1)" and sheet["B2"].data_type == "s"  # the dealer


# --- A league's standings as CSV and XLSX ---------------------------------------------------


def test_standings_csv_lists_the_standings_rows(scorer: Client, league: League) -> None:
    response = scorer.get(reverse("games:league_standings_csv", args=[league.slug]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-standings.csv"'
    header, *rows = read_csv(response.content)
    assert header == list(STANDINGS_HEADER)
    expected = standings_of(league)
    assert [row[0] for row in rows] == [row.player.name for row in expected]
    for row, standing in zip(rows, expected, strict=True):
        assert row[1:4] == [f"{standing.rating:.2f}", f"{standing.mu:.2f}", f"{standing.sigma:.2f}"]
        assert row[4:9] == [
            str(standing.sessions),
            str(standing.sessions_won),
            str(standing.rounds),
            str(standing.rounds_won),
            str(standing.points),
        ]
        assert row[9] == f"{standing.average_points:.2f}"
        assert row[10:] == [
            str(standing.drops),
            f"{standing.drop_rate:.2f}",
            str(standing.best_round),
            str(standing.worst_round),
        ]


def test_standings_downloads_follow_the_pages_dates(scorer: Client, league: League) -> None:
    url = reverse("games:league_standings_csv", args=[league.slug])
    response = scorer.get(url, {"from": "2024-02-01", "to": "2024-02-29"})
    assert response["Content-Disposition"] == (
        'attachment; filename="club-standings-from-2024-02-01-to-2024-02-29.csv"'
    )
    rows = read_csv(response.content)[1:]
    february = standings_of(league, date_from=FEB, date_to=datetime.date(2024, 2, 29))
    assert [row[0] for row in rows] == [row.player.name for row in february] == ["Ben", "Chen"]
    assert [row[6] for row in rows] == [str(row.rounds) for row in february]
    # Only an end date: the ratings as they were then.
    rows = read_csv(scorer.get(url, {"to": JAN.isoformat()}).content)[1:]
    january = {row.player.name: row for row in standings_of(league, date_to=JAN)}
    assert {row[0]: row[1] for row in rows} == {
        name: f"{row.rating:.2f}" for name, row in january.items()
    }
    # Dates the page would refuse are refused here too.
    assert scorer.get(url, {"from": "2024-03-01", "to": "2024-01-01"}).status_code == 400
    assert scorer.get(url, {"from": "soon"}).status_code == 400


def test_standings_xlsx_has_the_rows_as_numbers(scorer: Client, league: League) -> None:
    response = scorer.get(
        reverse("games:league_standings_xlsx", args=[league.slug]), {"from": JAN.isoformat()}
    )
    assert response.status_code == 200
    assert 'filename="club-standings-from-2024-01-05.xlsx"' in response["Content-Disposition"]
    sheet = read_xlsx(response.content, "Standings")
    expected = standings_of(league, date_from=JAN)
    assert [cell.value for cell in sheet[1]] == list(STANDINGS_HEADER)
    assert sheet.max_row == len(expected) + 1
    for number, standing in enumerate(expected, start=2):
        values = [cell.value for cell in sheet[number]]
        assert values[0] == standing.player.name
        assert values[1] == pytest.approx(standing.rating)
        assert values[4:9] == [
            standing.sessions,
            standing.sessions_won,
            standing.rounds,
            standing.rounds_won,
            standing.points,
        ]
        assert values[9] == pytest.approx(standing.average_points)
        assert values[11] == pytest.approx(standing.drop_rate)
        assert values[12:] == [standing.best_round, standing.worst_round]


def test_league_downloads_are_for_members_only(client: Client, league: League) -> None:
    urls = [
        reverse(name, args=[league.slug])
        for name in ("games:league_standings_csv", "games:league_standings_xlsx")
    ] + [reverse("games:league_export", args=[league.slug])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(User.objects.create_user(username="zed"))
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(User.objects.get(username="chen"))  # a viewer
    for url in urls:
        assert client.get(url).status_code == 200
    assert client.get("/leagues/nope/export.json").status_code == 404


def test_the_standings_page_links_its_downloads(scorer: Client, league: League) -> None:
    html = scorer.get(
        reverse("games:league_standings", args=[league.slug]), {"from": "2024-02-01"}
    ).content.decode()
    assert "/leagues/club/standings.csv?from=2024-02-01&amp;to=" in html
    assert "/leagues/club/standings.xlsx?from=2024-02-01&amp;to=" in html
    assert reverse("games:league_export", args=[league.slug]) in html
    assert reverse("games:league_import") in html


# --- The JSON export ----------------------------------------------------------------------


def test_only_owners_export_the_share_links_and_an_import_makes_new_ones(
    client: Client, league: League
) -> None:
    ben = User.objects.get(username="ben")  # a scorer of the league
    client.force_login(ben)
    data = json.loads(client.get(reverse("games:league_export", args=[league.slug])).content)
    old_tokens = set(league.sessions.values_list("share_token", flat=True))
    assert {session["share_token"] for session in data["sessions"]} == {None}

    wipe()
    imported = import_league(json.dumps(data)).league

    tokens = list(imported.sessions.values_list("share_token", flat=True))
    assert len(set(tokens)) == len(tokens) == len(data["sessions"])
    assert not set(tokens) & old_tokens and all(len(token) == 22 for token in tokens)


def test_json_export_holds_the_league_its_sessions_rounds_and_hands(
    scorer: Client, league: League
) -> None:
    response = scorer.get(reverse("games:league_export", args=[league.slug]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    today = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="club-{today}.json"'
    data = json.loads(response.content)
    assert (data["format"], data["version"]) == ("scorekeeper-league", 1)
    assert data["league"] == {
        "name": "Friday club",
        "slug": "club",
        "preset": "13-pool-101",
        "overrides": {"first_drop": 25},
        "money_per_point": "0.50",
    }
    assert data["members"] == [
        {"username": "asha", "role": "owner"},
        {"username": "ben", "role": "scorer"},
        {"username": "chen", "role": "viewer"},
    ]
    assert data["players"] == [
        {"name": "Asha", "user": "asha"},
        {"name": "Ben", "user": None},
        {"name": "Chen", "user": None},
    ]
    sessions = data["sessions"]
    assert [s["played_on"] for s in sessions] == [
        "2024-01-05",
        "2024-02-10",
        "2024-03-15",
        "2024-03-15",
        "2024-04-20",
        "2024-04-20",
    ]
    rejoined = sessions[3]
    assert rejoined["rejoins"] == [{"player": "Ben", "after_round": 2}]
    assert [len(r["entries"]) for r in rejoined["rounds"]] == [3, 3, 3, 2]
    closed = sessions[4]
    assert closed["closed_at"] is not None and closed["buy_in"] == "10.00"
    assert (closed["money_per_point"], closed["created_by"]) == ("1.25", "ben")
    assert closed["overrides"] == {"first_drop": 25} and closed["first_dealer"] == "Chen"
    assert [seat["player"] for seat in closed["seats"]] == ["Asha", "Ben", "Chen"]
    played = GameSession.objects.get(share_token=closed["share_token"]).rounds.get()
    assert closed["rounds"] == [
        {
            "number": 1,
            "dealer": played.dealer.player.name,
            "cut_joker": "8S",
            "entered_by": "ben",
            "entries": [
                {
                    "player": entry.player.name,
                    "outcome": entry.outcome,
                    "groups": entry.groups,
                    "declaration": entry.declaration,
                    "hand_points": entry.hand_points,
                    "value_points": entry.value_points,
                    "claims": entry.claims,
                    "score": entry.score,
                }
                for entry in played.entries.order_by("pk")
            ],
        }
    ]
    kodai = sessions[5]["rounds"][0]["entries"]
    # Hands in seat order; the losers pay claims for their jokers.
    assert [(entry["player"], entry["claims"]) for entry in kodai] == [
        ("Chen", 10),
        ("Asha", 0),
        ("Ben", 10),
    ]


# --- The import: an exact round trip --------------------------------------------------------


def test_import_restores_the_league_exactly_into_an_empty_database(league: League) -> None:
    before = snapshot(league)
    # What is compared covers what matters: ratings, a rejoin, a hand-closed session.
    assert before["rating_changes"] and before["sessions"][3]["rejoins"] == [("Ben", 2)]
    statuses = [session["columns"][4] for session in before["sessions"]]
    assert statuses == ["finished", "finished", "active", "finished", "finished", "active"]
    text = dumps(export_league(league))
    wipe()
    assert counts() == (0,) * 9

    imported = import_league(text, keep_members=True).league

    assert snapshot(imported) == before
    # And the restored league exports as the same file, but for the new share links
    # and who created the sessions here (nobody: no user imported it).
    again, original = export_league(imported), json.loads(text)
    for data in (again, original):
        data["exported_at"] = None
        for session in data["sessions"]:
            session["share_token"] = session["created_by"] = None
    assert again == original


def test_imported_accounts_exist_but_cannot_sign_in(moved: dict) -> None:
    import_league(json.dumps(moved), keep_members=True)
    users = User.objects.order_by("username")
    assert [u.username for u in users] == ["asha", "ben", "chen"]
    assert not any(u.has_usable_password() for u in users)
    assert Player.objects.get(name="Asha").user == users[0]


def test_import_matches_users_already_here_but_makes_its_own_players(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="secret")
    ben = Player.objects.create(name="BEN")  # another club's: never attached by name

    league = import_league(json.dumps(moved), keep_members=True).league

    assert league.memberships.get(user=asha).role == Membership.Role.OWNER
    assert User.objects.get(pk=asha.pk).check_password("secret")  # untouched
    assert Player.objects.count() == 4
    assert ben.pk not in set(league.sessions.values_list("seats__player", flat=True))
    # An account that was already here is not tied to a new player by a file.
    assert Player.objects.get(name="Asha").user is None


@pytest.mark.parametrize(
    ("importer", "invitable"),
    [
        # A viewer in the file who imports it owns the new league, alone.
        ("chen", [("asha", "owner"), ("ben", "scorer")]),
        # Someone the file does not name too; every member listed may be invited.
        ("dev", [("asha", "owner"), ("ben", "scorer"), ("chen", "viewer")]),
    ],
)
def test_the_importing_user_becomes_the_only_owner(
    moved: dict, importer: str, invitable: list
) -> None:
    for username in ("asha", "ben", "chen", "dev"):
        User.objects.create_user(username=username)
    owner = User.objects.get(username=importer)
    imported = import_league(json.dumps(moved), owner=owner)
    league = imported.league
    assert dict(league.memberships.values_list("user__username", "role")) == {importer: "owner"}
    assert list(imported.invitable) == invitable
    assert league.imported_members == [{"username": u, "role": r} for u, r in invitable]


def test_an_import_checks_and_writes_with_the_cycle_collector_paused(
    moved: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An import holds the whole file and every round it scored until it writes them:
    # the cycle collector walking them all again and again took a third of the time of
    # a 10,000-round import (issue 9). It runs again once the import is over.
    collector_on = []

    def noting_the_collector(step):
        def noted(*args):
            collector_on.append(gc.isenabled())
            return step(*args)

        return noted

    monkeypatch.setattr(importer, "_plan", noting_the_collector(importer._plan))
    monkeypatch.setattr(importer, "_write", noting_the_collector(importer._write))

    league = importer.import_league(json.dumps(moved), keep_members=True).league

    assert league.sessions.count() == 6
    assert collector_on == [False, False]
    assert gc.isenabled()


# --- The import: refusals, nothing written ----------------------------------------------------


def tampered(data: dict, change) -> str:
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data)


def refused(text: str | bytes, owner: User | None = None) -> str:
    before = counts()
    with pytest.raises(ImportRefused) as caught:
        import_league(text, owner=owner)
    assert counts() == before
    return str(caught.value)


def test_a_round_that_does_not_score_is_refused(moved: dict) -> None:
    def swap_hands(data: dict) -> None:
        # Round 1 of January: Asha's declaration replaced by Ben's loose hand.
        entries = data["sessions"][0]["rounds"][0]["entries"]
        entries[0]["groups"] = entries[1]["groups"]

    message = refused(tampered(moved, swap_hands))
    assert message.startswith("Session 1 (played 2024-01-05), round 1 does not score")
    assert "Asha's declaration is not valid" in message
    assert gc.isenabled()  # on again after a refusal too


def test_figures_that_are_not_the_rules_services_are_refused(moved: dict) -> None:
    def more_points(data: dict) -> None:
        data["sessions"][4]["rounds"][0]["entries"][1]["score"] += 1

    message = refused(tampered(moved, more_points))
    assert "Session 5 (“Points night”, played 2024-04-20), round 1, Ben" in message
    assert "the rules service scores" in message


def test_a_league_whose_slug_is_taken_is_refused(league: League, exported: dict) -> None:
    message = refused(json.dumps(exported))
    assert "slug 'club' already exists" in message


def test_a_league_imported_again_under_another_slug_is_a_copy_with_its_own_links(
    league: League, exported: dict
) -> None:
    data = copy.deepcopy(exported)
    data["league"]["slug"] = "club-copy"
    copied = import_league(json.dumps(data)).league
    tokens = set(copied.sessions.values_list("share_token", flat=True))
    assert len(tokens) == 6 and not tokens & set(
        league.sessions.values_list("share_token", flat=True)
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "not valid JSON"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage\x80", "not"),
        (b"[" * 100_000, "not valid JSON"),
        (b'{"format": "scorekeeper-league", "version": NaN}', "not valid JSON"),
        (b"[]", "must be a JSON object"),
        (b'{"version": 1}', 'no "format"'),
        (b'{"format": "scorekeeper-league", "version": 2}', "version 2"),
        (b'{"format": "scorekeeper-league", "version": "1"}', "version '1'"),
        (b'{"format": "scorekeeper-league", "version": 1}', '"league" must be a JSON object'),
    ],
)
def test_a_file_that_is_not_a_league_file_is_refused(raw: bytes, message: str) -> None:
    assert message in refused(raw)


def _set(path: str, value: object):
    """A change to the export: the value at a dotted path (list indexes as numbers)."""

    def change(data: dict) -> None:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        node = data
        for key in parents:
            node = node[key]
        node[last] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("league.name", "", "League: name"),
        ("league.slug", "not a slug!", "League: slug"),
        ("league.preset", "poker", "League: preset"),
        ("league.overrides", {"no_such_rule": 1}, "house rules are not valid"),
        ("league.money_per_point", "lots", "money per point"),
        ("members.0.role", "boss", "Member 1: role"),
        ("members.0.username", "no spaces allowed", "User: username"),
        ("players.0.name", "x" * 61, "Player 1: name"),
        ("players.1.name", "asha", "listed twice"),
        ("sessions", {}, '"sessions" must be a list'),
        ("sessions.0.played_on", "yesterday", "played on"),
        ("sessions.0.played_on", 20240105, '"played_on" must be text'),
        ("sessions.0.created_at", ["2024"], '"created_at" must be text'),
        ("sessions.0.buy_in", {"amount": 1}, '"buy_in" must be an amount'),
        ("sessions.0.ceiling", 0, "ceiling must be a positive"),
        ("sessions.0.ceiling", 10**30, "Session 1"),
        ("sessions.0.closed_at", "never", "closed at"),
        ("sessions.0.seats.0.position", "1", '"position" must be a whole number'),
        ("sessions.0.seats.0.player", "Zed", "not in the players list"),
        ("sessions.0.first_dealer", "Chen", "no seat at this table"),
        ("sessions.0.rounds.0.number", True, '"number" must be a whole number'),
        ("sessions.0.rounds.1.number", 3, "numbered 1, 2, 3"),
        ("sessions.0.rounds.0.cut_joker", "8s", "not a card code"),
        ("sessions.0.rounds.0.dealer", "Chen", "no seat at this table"),
        ("sessions.0.rounds.0.entries.0.outcome", "won", "outcome"),
        ("sessions.0.rounds.0.entries.0.groups", "2H 3H 4H", '"groups" must be a list'),
        ("sessions.0.rounds.0.entries.0.groups", [["2h"]], "not a card code"),
        ("sessions.0.rounds.0.entries.0.groups", [[["2H"]]], "lists of card codes"),
        ("sessions.0.rounds.0.entries.0.groups", [{"2H": 1}], "lists of card codes"),
        ("sessions.0.rounds.0.entries.1.player", "Asha", "two hands"),
        ("sessions.0.rounds.0.entries", [], "does not score"),
        ("sessions.0.rounds.0.entries.0.declaration", "three_pure", "declaration"),
        ("sessions.3.rejoins.0.after_round", 9, "not played"),
    ],
)
def test_a_file_with_a_bad_value_is_refused_naming_it(
    moved: dict, path: str, value: object, message: str
) -> None:
    assert message in refused(tampered(moved, _set(path, value)))


def test_a_hand_written_file_may_leave_out_names_and_figures(moved: dict) -> None:
    session = moved["sessions"][4]
    scores = [entry["score"] for entry in session["rounds"][0]["entries"]]
    del session["name"]
    for entry in session["rounds"][0]["entries"]:
        for figure in ("declaration", "hand_points", "value_points", "claims", "score"):
            del entry[figure]

    league = import_league(json.dumps(moved)).league

    imported = league.sessions.get(name="", preset="21-points")
    assert imported.name == ""
    assert [e.score for e in imported.rounds.get().entries.order_by("pk")] == scores


# --- The import page ----------------------------------------------------------------------------


def upload(text: str | bytes, name: str = "club.json") -> dict:
    data = text.encode() if isinstance(text, str) else text
    return {"file": SimpleUploadedFile(name, data, content_type="application/json")}


def test_a_signed_in_user_imports_a_league_and_owns_it(moved: dict, stranger: Client) -> None:
    response = stranger.get(reverse("games:league_import"))
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()

    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:league_detail", args=["club"])
    league = League.objects.get(slug="club")
    assert dict(league.memberships.values_list("user__username", "role")) == {"zed": "owner"}
    assert league.sessions.count() == 6
    page = stranger.get(response["Location"])
    assert "Imported Friday club." in page.content.decode()


def test_the_web_import_creates_no_accounts_and_lists_the_files_members(
    moved: dict, stranger: Client
) -> None:
    before = set(User.objects.values_list("username", flat=True))

    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)), follow=True)

    assert set(User.objects.values_list("username", flat=True)) == before  # nobody reserved
    html = response.content.decode()
    assert "The file lists 3 members; nobody was added." in html
    for username in ("asha", "ben", "chen"):  # none has an account here
        assert f'data-invitable="{username}"' in html
    assert html.count("no account here yet") == 3
    league = League.objects.get(slug="club")
    assert list(league.memberships.values_list("user__username", flat=True)) == ["zed"]


def test_an_htmx_import_redirects_the_page(moved: dict, stranger: Client) -> None:
    response = stranger.post(
        reverse("games:league_import"), upload(json.dumps(moved)), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:league_detail", args=["club"])


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00garbage",
        b"{}",
        b'{"format": "scorekeeper-league"',
        b"[[[[[[" * 1000,
    ],
)
def test_a_bad_upload_is_a_form_error_not_a_crash(stranger: Client, content: bytes) -> None:
    before = counts()
    response = stranger.post(reverse("games:league_import"), upload(content))
    assert response.status_code == 422
    assert "This is not a league file" in response.content.decode()
    assert counts() == before


def test_a_league_file_that_is_refused_shows_why(moved: dict, stranger: Client) -> None:
    moved["sessions"][0]["rounds"][0]["entries"][0]["score"] = 1000
    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)))
    assert response.status_code == 422
    assert "the rules service scores" in response.content.decode()
    assert not League.objects.exists()


def test_the_import_form_needs_a_file_and_a_signed_in_user(
    client: Client, stranger: Client
) -> None:
    response = stranger.post(reverse("games:league_import"), {})
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    stranger.logout()
    response = client.post(reverse("games:league_import"), upload(b"{}"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_file_too_large_for_the_page_is_refused(
    stranger: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.forms.transfer.MAX_IMPORT_BYTES", 10)
    response = stranger.post(reverse("games:league_import"), upload(b"{" + b" " * 20 + b"}"))
    assert response.status_code == 422
    assert "manage.py import_league" in response.content.decode()


# --- The management commands --------------------------------------------------------------


def test_export_and_import_commands_round_trip_a_league(league: League, tmp_path) -> None:
    before = snapshot(league)
    target = tmp_path / "club.json"
    call_command("export_league", "club", "-o", str(target), stderr=io.StringIO())
    assert json.loads(target.read_text(encoding="utf-8"))["league"]["slug"] == "club"
    wipe()

    out = io.StringIO()
    call_command("import_league", str(target), "--keep-members", stdout=out)

    assert "Imported Friday club (club): 6 sessions." in out.getvalue()
    assert snapshot(League.objects.get(slug="club")) == before


def test_export_command_writes_to_standard_output(league: League) -> None:
    out = io.StringIO()
    call_command("export_league", "club", stdout=out)
    assert json.loads(out.getvalue())["sessions"][0]["played_on"] == "2024-01-05"


def test_the_commands_refuse_what_they_cannot_do(league: League, tmp_path) -> None:
    with pytest.raises(CommandError, match="no league with the slug 'nope'"):
        call_command("export_league", "nope")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_league", str(tmp_path / "missing.json"), "--keep-members")
    taken = tmp_path / "club.json"
    call_command("export_league", "club", "-o", str(taken), stderr=io.StringIO())
    before = counts()
    with pytest.raises(CommandError, match="slug 'club' already exists"):
        call_command("import_league", str(taken), "--keep-members")
    assert counts() == before
