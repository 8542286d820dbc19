"""Earlier rounds: viewing what was saved, editing and deleting. Totals, eliminations
and the winner are derived, so every later figure follows an edit."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Round
from games.services.round_entries import edit_form_data
from games.services.scoreboard import load_scoreboard
from tests.support.builders import (
    expected_totals,
    make_session,
    play,
    pool_with_chen_out,
    round_data,
    seat_pk,
)
from tests.support.hands import (
    LOOSE_148,
    POOL_ROUNDS,
    ROUND_1,
    SEED_BEN,
    SHOWN_8S,
    THREE_PURE,
    WIN_8S,
    WIN_13,
    shuffled,
)

pytestmark = pytest.mark.django_db

PLAYERS = ("Asha", "Ben", "Chen")
ROUNDS = [
    ("8S", ROUND_1),
    (
        "5H",
        {
            "Asha": ("middle_drop", ""),
            "Ben": ("declared", THREE_PURE),
            "Chen": ("shown", LOOSE_148),
        },
    ),
    (
        "10C",
        {"Asha": ("first_drop", ""), "Ben": ("middle_drop", ""), "Chen": ("declared", THREE_PURE)},
    ),
]


def edit_url(played: Round) -> str:
    return reverse("games:round_edit", args=[played.session_id, played.pk])


def delete_url(played: Round) -> str:
    return reverse("games:round_delete", args=[played.session_id, played.pk])


@pytest.fixture
def three_rounds(table: GameSession) -> list[Round]:
    return [play(table, cut, hands) for cut, hands in ROUNDS]


def totals(session: GameSession) -> dict[str, int]:
    return {c.name: c.total for c in load_scoreboard(session).columns}


def test_the_edit_page_shows_the_saved_round_and_a_prefilled_form(
    scorer: Client, table: GameSession, three_rounds: list[Round]
) -> None:
    response = scorer.get(edit_url(three_rounds[0]))

    assert response.status_code == 200
    assert response.template_name == "games/round.html"
    form = response.context_data["form"]
    assert form["cut_joker"].value() == "8S"
    assert form[f"outcome_{seat_pk(table, 'Ben')}"].value() == "shown"
    # Stored canonically, shown in the notation of docs/rules §1.
    assert form[f"groups_{seat_pk(table, 'Ben')}"].value() == SHOWN_8S
    assert form.expected_version == 1
    assert [p.result.score for p in form.check.players] == [122, -92, -30]
    html = response.content.decode()
    assert "As saved" in html and "count 102" in html  # the stored breakdown
    assert "Delete round 1" in html


def test_an_edit_typed_card_by_card_saves_as_the_solver_groups_it(
    scorer: Client, table: GameSession, three_rounds: list[Round]
) -> None:
    edited = ROUNDS[0][1] | {"Asha": ("declared", shuffled(WIN_8S)), "Ben": ("shown", SEED_BEN)}

    response = scorer.post(edit_url(three_rounds[0]), round_data(table, "8S", edited, version=1))

    assert response.status_code == 302
    scores = {e.player.name: e.score for e in three_rounds[0].entries.all()}
    assert scores == {"Asha": 101, "Ben": -71, "Chen": -30}  # Ben grouped best: 81
    # The history keeps the groups saved, before and after.
    history = scorer.get(reverse("games:round_history", args=[table.pk, three_rounds[0].pk]))
    edit = history.context_data["fold"].rows[0].round
    ben_before, ben_after = (
        next(e["groups"] for e in snapshot["entries"] if e["player"] == "Ben")
        for snapshot in (edit.before, edit.after)
    )
    assert ben_before[4] == ["5S", "9D"] and ["2D", "3D", "4D", "5D", "6D"] in ben_after


def test_editing_round_one_recomputes_every_later_total(
    scorer: Client, table: GameSession, three_rounds: list[Round]
) -> None:
    edited_1 = ("8S", ROUNDS[0][1] | {"Ben": ("shown", LOOSE_148), "Chen": ("middle_drop", "")})
    data = round_data(table, *edited_1, version=1)

    response = scorer.post(edit_url(three_rounds[0]), data)

    assert response.status_code == 302
    assert response.url == reverse("games:session_detail", args=[table.pk])
    expected = expected_totals("21-points", PLAYERS, [edited_1, *ROUNDS[1:]])
    assert totals(table) == expected.totals
    assert totals(table) != expected_totals("21-points", PLAYERS, ROUNDS).totals
    board = load_scoreboard(table)
    assert [[c.total for c in row.cells] for row in board.rows] == [
        [line.totals[p] for p in PLAYERS] for line in expected.lines
    ]
    played = Round.objects.get(pk=three_rounds[0].pk)
    assert (played.number, played.version) == (1, 2)
    assert played.entries.get(player__name="Ben").hand_points == 120


def test_an_edit_can_move_eliminations_and_the_winner(scorer: Client, user: User) -> None:
    pool = make_session(user, preset="13-pool-101")
    rounds = [
        ("7C", POOL_ROUNDS[0]),
        (
            "7C",
            {"Asha": ("declared", WIN_13), "Ben": ("middle_drop", ""), "Chen": ("middle_drop", "")},
        ),
    ]
    played = [play(pool, cut, hands) for cut, hands in rounds]
    before = load_scoreboard(pool)
    assert before.state.eliminated_in == {"Chen": 2}
    assert not before.finished

    # Round 1 corrected: Ben declared wrongly (80) and Chen dropped first (20). After
    # round 2 Ben has 120 and is out; Chen, at 60, is back in.
    edited = (
        "7C",
        {
            "Asha": ("declared", WIN_13),
            "Ben": ("invalid_declaration", ""),
            "Chen": ("first_drop", ""),
        },
    )
    response = scorer.post(edit_url(played[0]), round_data(pool, *edited, version=1))

    assert response.status_code == 302
    after = load_scoreboard(pool)
    expected = expected_totals("13-pool-101", PLAYERS, [edited, rounds[1]])
    assert after.state.eliminated_in == expected.eliminated_in == {"Ben": 2}
    assert {c.name: c.total for c in after.columns} == expected.totals


def test_an_edit_can_finish_and_unfinish_a_session(scorer: Client, user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    finishing = {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}  # Ben loses 120
    played = play(session, "8S", finishing)
    session.refresh_from_db()
    assert session.status == "finished"

    milder = {"Asha": ("declared", WIN_8S), "Ben": ("first_drop", "")}
    scorer.post(edit_url(played), round_data(session, "8S", milder, version=1))

    session.refresh_from_db()
    assert session.status == "active"
    page = scorer.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    assert "Save round 2" in page and "Session over" not in page


def test_deleting_a_round_renumbers_and_recomputes(scorer: Client, table, three_rounds) -> None:
    response = scorer.post(delete_url(three_rounds[0]), {"version": 1})

    assert response.status_code == 302
    assert list(table.rounds.order_by("number").values_list("pk", "number")) == [
        (three_rounds[1].pk, 1),
        (three_rounds[2].pk, 2),
    ]
    assert totals(table) == expected_totals("21-points", PLAYERS, ROUNDS[1:]).totals
    page = scorer.get(response.url).content.decode()
    assert "Round 1 deleted; later rounds moved up." in page


def test_deleting_the_last_round_moves_no_rounds_up(scorer: Client, table, three_rounds) -> None:
    response = scorer.post(delete_url(three_rounds[2]), {"version": 1})

    page = scorer.get(response.url).content.decode()
    assert "Round 3 deleted." in page
    assert "moved up" not in page


def test_undo_puts_the_rounds_cards_back_in_the_form(scorer: Client, table, three_rounds) -> None:
    as_saved = edit_form_data(three_rounds[1])  # what its edit form would show
    data = {"version": 1, "undo": "1"}
    response = scorer.post(delete_url(three_rounds[1]), data, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.template_name == "games/session.html#form_and_table"
    html = response.content.decode()
    assert (
        "Round 2 deleted; later rounds moved up. Its cards are back in the form below, to fix"
        " and save again." in html
    )
    # Round 3 moved up: the form is round 3's, with round 2's cards as saved.
    assert table.rounds.count() == 2
    form = response.context_data["form"]
    assert form.expected_number == 3
    assert form.data == {name: value for name, value in as_saved.items() if name != "version"}
    assert form.data[f"outcome_{seat_pk(table, 'Ben')}"] == "declared"
    assert 'value="5H"' in html
    assert "<h3>Settlement</h3>" in html  # previewed, ready to fix and save


def test_undo_of_the_last_round_gives_its_number_back(scorer: Client, table, three_rounds) -> None:
    data = {"version": 1, "undo": "1"}
    response = scorer.post(delete_url(three_rounds[2]), data, headers={"HX-Request": "true"})

    html = response.content.decode()
    assert "Round 3 deleted. Its cards are back in the form below" in html
    assert "Save round 3" in html


def test_deleting_the_middle_round_of_many_keeps_numbers_gapless(scorer: Client, table) -> None:
    rounds = [play(table, *ROUNDS[0]) for _ in range(6)]

    scorer.post(delete_url(rounds[2]), {"version": 1})
    scorer.post(delete_url(rounds[0]), {"version": 1})

    assert list(table.rounds.order_by("number").values_list("number", flat=True)) == [1, 2, 3, 4]
    assert list(table.rounds.order_by("number").values_list("pk", flat=True)) == [
        r.pk for r in (rounds[1], rounds[3], rounds[4], rounds[5])
    ]


def test_delete_over_htmx_redirects_the_client(scorer: Client, table, three_rounds) -> None:
    response = scorer.post(
        delete_url(three_rounds[2]), {"version": 1}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:session_detail", args=[table.pk])
    assert table.rounds.count() == 2


def test_deleting_the_deciding_round_reopens_the_session(scorer: Client, user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("first_drop", "")})
    deciding = play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)})
    assert load_scoreboard(session).winners == ("Asha",)

    scorer.post(delete_url(deciding), {"version": 1})

    board = load_scoreboard(session)
    assert not board.finished and board.winners == ()
    session.refresh_from_db()
    assert session.status == "active"


def test_the_round_page_shows_viewers_what_was_saved(client: Client, table, three_rounds) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    table.league = league
    table.save()
    viewer = User.objects.create_user("viewer")
    Membership.objects.create(league=league, user=viewer, role="viewer")
    client.force_login(viewer)
    played = three_rounds[0]

    response = client.get(reverse("games:round_detail", args=[table.pk, played.pk]))

    assert response.status_code == 200
    assert response.context_data["form"] is None
    html = response.content.decode()
    assert "count 102" in html and '<span class="hand-score">−92</span>' in html
    assert "Edit round" not in html
    # ...and may not change it.
    assert client.get(edit_url(played)).status_code == 403
    assert (
        client.post(edit_url(played), round_data(table, *ROUNDS[0], version=1)).status_code == 403
    )
    assert client.post(delete_url(played)).status_code == 403
    assert table.rounds.count() == 3
    # The session page links rounds to this page rather than the edit form.
    page = client.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    assert reverse("games:round_detail", args=[table.pk, played.pk]) in page
    assert edit_url(played) not in page


def test_strangers_and_unknown_rounds_get_404s(client: Client, table, three_rounds, user) -> None:
    played = three_rounds[0]
    other = make_session(user, name="Other")
    client.force_login(User.objects.create_user("stranger"))
    for url in (edit_url(played), reverse("games:round_detail", args=[table.pk, played.pk])):
        assert client.get(url).status_code == 404
    assert client.post(delete_url(played)).status_code == 404

    client.force_login(user)
    # A round id under another session's URL is not found there.
    assert client.get(reverse("games:round_edit", args=[other.pk, played.pk])).status_code == 404
    assert client.get(f"/sessions/{table.pk}/rounds/{'9' * 18}/edit/").status_code == 404
    assert client.get(delete_url(played)).status_code == 405
    assert table.rounds.count() == 3


def test_editing_keeps_the_players_of_that_round(scorer: Client, user: User) -> None:
    pool = pool_with_chen_out(user)
    third = play(pool, "7C", {"Asha": ("declared", WIN_13), "Ben": ("first_drop", "")})

    form = scorer.get(edit_url(third)).context_data["form"]

    assert [row.seat.player.name for row in form.rows()] == ["Asha", "Ben"]  # Chen was out


def test_a_delete_without_the_version_it_was_shown_is_refused(scorer: Client, table) -> None:
    played = play(table, *ROUNDS[0])
    for body in ({}, {"version": "abc"}, {"version": "9" * 40}):
        assert scorer.post(delete_url(played), body).status_code == 400
    assert Round.objects.filter(pk=played.pk).exists()


def test_the_round_page_names_who_entered_it_and_then_who_changed_it_last(
    scorer: Client, table: GameSession, three_rounds: list[Round], password: str
) -> None:
    page = reverse("games:round_detail", args=[table.pk, three_rounds[0].pk])
    assert "entered by asha" in scorer.get(page).content.decode()

    # Ben, a scorer of the session's league, corrects it.
    league = League.objects.create(name="Friday Club", slug="friday-club")
    table.league = league
    table.save(update_fields=["league"])
    ben = User.objects.create_user(username="ben", password=password)
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    Membership.objects.create(league=league, user=table.created_by, role=Membership.Role.OWNER)
    corrected = ROUNDS[0][1] | {"Chen": ("middle_drop", "")}
    ben_client = Client()
    ben_client.force_login(ben)
    response = ben_client.post(
        edit_url(three_rounds[0]), round_data(table, "8S", corrected, version=1)
    )
    assert response.status_code == 302

    html = scorer.get(page).content.decode()
    assert "last changed by ben" in html
    assert "entered by" not in html


def test_a_drop_is_said_once_with_its_rule_not_again_in_the_working(
    scorer: Client, table: GameSession
) -> None:
    played = play(table, "8S", ROUND_1)  # Chen drops first: a fixed 30

    html = scorer.get(reverse("games:round_detail", args=[table.pk, played.pk])).content.decode()

    chen = html.split('data-player="Chen"')[1].split("</article>")[0]
    assert "First drop: a fixed 30" in chen
    assert '<ul class="lines">' not in chen  # "first drop: 30" said it a third time
    ben = html.split('data-player="Ben"')[1].split("</article>")[0]
    assert '<ul class="lines">' in ben and "count 102" in ben  # a count's working stays
