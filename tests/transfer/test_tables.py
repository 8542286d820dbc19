"""A session's rounds and a league's standings as CSV and XLSX
(games/transfer/tables.py): every figure the app stored or the rules service replays,
and text that looks like a formula kept as text."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import (
    GameSession,
    League,
    RoundChange,
)
from games.queries.standings import standings_of
from games.rules import choice_words
from games.services.scoreboard import load_scoreboard
from games.services.sessions import join, leave, set_stakes
from games.transfer.tables import STANDINGS_HEADER, groups_text
from tests.support.builders import edit, expected_totals, make_session, play
from tests.support.club import FEB, FIRST, JAN, MAR, mixed_league
from tests.support.counted import ASHA_SHOWN, BEN_COUNT, TRUSTED, play_counted
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S
from tests.support.league_files import (
    POINTS_ROUNDS,
    as_version_3,
    points_session,
    post_file,
    read_csv,
    read_xlsx,
    rejoin_session,
)

pytestmark = pytest.mark.django_db


def test_session_csv_has_a_row_per_round_with_each_players_hand_and_running_total(
    scorer: Client, user: User
) -> None:
    session = points_session(user)
    response = scorer.get(reverse("games:session_rounds_csv", args=[session.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="friday-2-rounds.csv"'
    header, *rows = read_csv(response.content)
    assert header[:8] == [
        "Round",
        "Dealer",
        "Cut joker",
        "Entered by",
        "Entered at (UTC)",  # a session without a league: the site's zone
        "Edits",
        "Last edited by",
        "Last edited at (UTC)",
    ]
    assert header[8:17] == [
        "Asha: outcome",
        "Asha: on the deal",
        "Asha: groups",
        "Asha: declaration",
        "Asha: hand points",
        "Asha: value points",
        "Asha: claims",
        "Asha: score",
        "Asha: total",
    ]
    assert header[17] == "Ben: outcome" and header[-1] == "Chen: total"
    assert len(rows) == 2
    state = expected_totals("21-points", ("Asha", "Ben", "Chen"), POINTS_ROUNDS)
    for row, played, line in zip(rows, session.rounds.order_by("number"), state.lines, strict=True):
        assert row[:3] == [str(played.number), played.dealer.player.name, "8S"]
        for offset, name in zip((8, 17, 26), ("Asha", "Ben", "Chen"), strict=True):
            entry = played.entries.get(player__name=name)
            assert row[offset : offset + 9] == [
                entry.get_outcome_display(),
                "",
                groups_text(entry.groups),
                choice_words(entry.declaration) if entry.declaration else "",
                str(entry.hand_points),
                str(entry.value_points),
                str(entry.claims),
                str(entry.score),
                str(line.totals[name]),
            ]
    # Round 1 as the rules service scores it (the figures of conftest's hands).
    assert rows[0][8:17] == [
        "Declared",
        "",
        "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H",
        "three pure sequences",  # as the round page names it
        "0",
        "-10",
        "0",
        "122",
        "122",
    ]
    assert rows[0][26:35] == ["First drop", "", "", "", "30", "0", "0", "-30", "-30"]


def test_session_xlsx_holds_the_same_figures_as_numbers(scorer: Client, user: User) -> None:
    session = points_session(user)
    response = scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert 'filename="friday-2-rounds.xlsx"' in response["Content-Disposition"]
    sheet = read_xlsx(response.content, "Rounds")
    csv_rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    assert sheet.max_row == 3 and sheet.max_column == len(csv_rows[0]) == 8 + 3 * 9
    assert [cell.value for cell in sheet[1]] == csv_rows[0]
    assert sheet["A2"].value == 1 and sheet["C2"].value == "8S"
    assert (sheet["D2"].value, sheet["F2"].value) == ("asha", 0)  # entered by, edits
    # Entered at: a date and time a spreadsheet sorts and formats, as the CSV says it.
    assert sheet["E2"].value.isoformat(sep=" ") == csv_rows[1][4]
    assert sheet["E2"].number_format == "yyyy-mm-dd hh:mm:ss"
    assert (sheet["I2"].value, sheet["P2"].value, sheet["Q2"].value) == ("Declared", 122, 122)
    assert (sheet["M2"].value, sheet["N2"].value) == (0, -10)  # hand and value points
    # Row 3: Asha's running total after round 2, as the rules service replays it.
    state = expected_totals("21-points", ("Asha", "Ben", "Chen"), POINTS_ROUNDS)
    assert sheet["Q3"].value == state.totals["Asha"]
    assert sheet["AI3"].value == state.totals["Chen"]
    assert sheet["A2"].font.b is False and sheet["A1"].font.b is True


def test_a_player_who_is_out_has_no_hand_but_keeps_their_total(scorer: Client, user: User) -> None:
    session = rejoin_session(user, None, MAR)
    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    board = load_scoreboard(session)
    ben = rows[0].index("Ben: outcome")
    # Round 4: Ben went out (again) in round 3, so he has no hand; his total stands.
    total = rows[0].index("Ben: total")
    assert rows[4][ben:total] == [""] * 8
    assert rows[4][total] == str(board.rows[3].cells[1].total) == rows[3][total]
    # Round 2's total is before the rejoin; the rules service set the total after it.
    assert rows[2][total] == str(board.rows[1].cells[1].total)


def test_a_rejoin_keeps_the_out_total_in_its_round_and_says_where_it_restarts(
    scorer: Client, user: User
) -> None:
    session = rejoin_session(user, None, MAR)
    header, *rows = read_csv(
        scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content
    )
    total, rejoined = header.index("Ben: total"), header.index("Ben: rejoined at")
    assert header[-1] == "Chen: rejoined at"
    # Ben: 80 + 80 = 160 in round 2 (out), rejoined at 41, then 41 + 80 = 121.
    assert [(row[total], row[rejoined]) for row in rows] == [
        ("80", ""),
        ("160", "41"),
        ("121", ""),
        ("121", ""),
    ]


def test_each_round_says_who_entered_it_when_and_who_edited_it_last(
    scorer: Client, user: User
) -> None:
    session = points_session(user)
    first = session.rounds.get(number=1)
    ben = User.objects.create_user(username="ben", password="x")
    for editor in (user, ben):  # edited twice: by asha, then by ben
        edit(session.rounds.get(number=1), *POINTS_ROUNDS[0], editor)

    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)

    trail = {
        (change.action, change.changed_by.username): change.changed_at
        for change in RoundChange.objects.filter(round=first)
    }
    at = timezone.localtime(trail["created", "asha"]).replace(microsecond=0)
    edited = timezone.localtime(trail["edited", "ben"]).replace(microsecond=0)
    assert rows[1][3:8] == [
        "asha",
        at.replace(tzinfo=None).isoformat(sep=" "),
        "2",
        "ben",
        edited.replace(tzinfo=None).isoformat(sep=" "),
    ]
    assert rows[2][3] == "asha" and rows[2][5:8] == ["0", "", ""]


def test_a_round_imported_from_a_file_before_version_4_names_its_author_and_no_time(
    moved: dict, stranger: Client
) -> None:
    post_file(stranger, as_version_3(moved))
    session = GameSession.objects.get(name="Points night")

    rows = read_csv(stranger.get(reverse("games:session_rounds_csv", args=[session.pk])).content)

    # Who entered it, as the file says; not when: the import's moment would be wrong.
    assert rows[1][3:8] == ["ben", "", "0", "", ""]


def test_an_imported_round_says_who_entered_it_and_when_as_the_file_does(
    moved: dict, stranger: Client
) -> None:
    entered = moved["sessions"][4]["changes"][0]["changed_at"]
    post_file(stranger, moved)
    session = GameSession.objects.get(name="Points night")

    rows = read_csv(stranger.get(reverse("games:session_rounds_csv", args=[session.pk])).content)

    at = timezone.localtime(datetime.datetime.fromisoformat(entered)).replace(microsecond=0)
    assert rows[1][3:8] == ["ben", at.replace(tzinfo=None).isoformat(sep=" "), "0", "", ""]


def test_text_that_looks_like_a_formula_stays_text(scorer: Client, user: User) -> None:
    session = make_session(user, players=("=HYPERLINK(1)", "@Ben", "Chen"))
    play(
        session,
        "8S",
        {"=HYPERLINK(1)": ("declared", WIN_8S), "@Ben": ("shown", SHOWN_8S), "Chen": FIRST},
    )
    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    assert rows[0][8] == "'=HYPERLINK(1): outcome" and rows[0][17] == "'@Ben: outcome"
    sheet = read_xlsx(
        scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content, "Rounds"
    )
    assert sheet["I1"].value == "=HYPERLINK(1): outcome" and sheet["I1"].data_type == "s"
    assert sheet["B2"].value == "=HYPERLINK(1)" and sheet["B2"].data_type == "s"  # the dealer


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
            str(standing.total_points),
            "",  # no stakes set: no money
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
        assert values[12:] == [
            standing.best_round,
            standing.worst_round,
            standing.total_points,
            None,
        ]


def test_standings_downloads_keep_a_points_league_and_its_pool_apart(
    scorer: Client, user: User
) -> None:
    league, _, _ = mixed_league(user, slug="friday")
    csv_url = reverse("games:league_standings_csv", args=[league.slug])
    points = read_csv(scorer.get(csv_url).content)[1:]
    # Player, ..., Points (column 9), Points per round (10): Ben's points rounds only.
    assert {row[0]: (row[8], row[9]) for row in points} == {
        "Asha": ("244", "122.00"),
        "Ben": ("-184", "-92.00"),
        "Chen": ("-60", "-30.00"),
    }
    response = scorer.get(csv_url, {"game": "13-pool-101"})
    assert response["Content-Disposition"] == (
        'attachment; filename="friday-standings-13-pool-101.csv"'
    )
    pool = read_csv(response.content)[1:]
    assert [(row[0], row[8], row[9]) for row in pool] == [
        ("Dev", "0", "0.00"),  # the pool's own order: low points per round first
        ("Ben", "60", "30.00"),
        ("Farah", "120", "60.00"),
    ]
    sheet = read_xlsx(
        scorer.get(
            reverse("games:league_standings_xlsx", args=[league.slug]), {"game": "13-pool-101"}
        ).content,
        "Standings",
    )
    assert [(row[0].value, row[8].value) for row in sheet.iter_rows(min_row=2)] == [
        ("Dev", 0),
        ("Ben", 60),
        ("Farah", 120),
    ]


def test_standings_downloads_carry_total_points_and_net_money(scorer: Client, user: User) -> None:
    league, points, _ = mixed_league(user, slug="money")
    set_stakes(points, money_per_point=Decimal("0.10"), buy_in=None)
    header, *rows = read_csv(
        scorer.get(reverse("games:league_standings_csv", args=[league.slug])).content
    )
    assert header[-2:] == ["Total points", "Net money"]
    # Each player's net total, and that total at 10 cents a point.
    assert {row[0]: (row[-2], row[-1]) for row in rows} == {
        "Asha": ("244", "24.40"),
        "Ben": ("-184", "-18.40"),
        "Chen": ("-60", "-6.00"),
    }
    sheet = read_xlsx(
        scorer.get(reverse("games:league_standings_xlsx", args=[league.slug])).content,
        "Standings",
    )
    by_name = {row[0].value: (row[-2].value, row[-1].value) for row in sheet.iter_rows(min_row=2)}
    assert by_name["Asha"] == (244, pytest.approx(24.4))
    assert by_name["Ben"] == (-184, pytest.approx(-18.4))


def test_the_csv_says_who_was_not_yet_or_no_longer_at_the_table(scorer: Client, user: User) -> None:
    session = make_session(user)
    play(session, "8S", ROUND_1)
    leave(session, session.seats.get(player__name="Chen"), user)
    join(session, "Dev", user)
    dealt = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Dev": ("first_drop", "")}
    play(session, "8S", dealt)

    rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)

    header = rows[0]
    chen_total = str(load_scoreboard(session).state.totals["Chen"])
    assert rows[1][header.index("Dev: outcome")] == "not yet at the table"
    assert rows[1][header.index("Dev: total")] == ""
    assert rows[2][header.index("Chen: outcome")] == "left the table"
    chen = header.index("Chen: total")
    assert rows[2][chen] == chen_total == rows[1][chen]
    assert rows[2][header.index("Dev: outcome")] == "First drop"


def test_a_counted_hand_says_its_figures_where_its_cards_would_be(
    scorer: Client, user: User
) -> None:
    session = make_session(user, name="Counts", overrides=TRUSTED)
    play_counted(session, "8S", ROUND_1, {"Asha": ASHA_SHOWN, "Ben": BEN_COUNT})

    csv_rows = read_csv(scorer.get(reverse("games:session_rounds_csv", args=[session.pk])).content)
    sheet = read_xlsx(
        scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content, "Rounds"
    )

    header, row = csv_rows
    groups = {name: row[header.index(f"{name}: groups")] for name in ("Asha", "Ben", "Chen")}
    assert groups == {
        "Asha": "shown at the table (value points 0)",
        "Ben": "counted at the table (count 102, value points 10)",
        "Chen": "",
    }
    assert row[header.index("Ben: hand points")] == "102"
    assert sheet.cell(2, header.index("Ben: groups") + 1).value == groups["Ben"]
