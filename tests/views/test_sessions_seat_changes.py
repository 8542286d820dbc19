"""Players joining and leaving the table from the session page
(games/views/sessions.py): the scorer's buttons, the badges they leave, the round form
without the leaver and with the latecomer."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, SeatChange
from tests.support.builders import make_session, play, pool_with_chen_out, seat_pk
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db


def url(name: str, session: GameSession) -> str:
    return reverse(f"games:{name}", args=[session.pk])


def test_a_player_leaves_from_the_session_page_and_the_next_round_is_without_them(
    scorer: Client, user: User
) -> None:
    table = make_session(user, money_per_point=Decimal("1.00"))
    play(table, "8S", ROUND_1)
    page = scorer.get(url("session_detail", table)).content.decode()
    form = re.search(r'<form class="session-leave-form".*?data-leave="Chen".*?</form>', page, re.S)
    assert form and "Chen leaves after round 1, keeping" in form[0]

    response = scorer.post(
        url("session_leave", table), {"seat": seat_pk(table, "Chen")}, follow=True
    )

    html = response.content.decode()
    assert "Chen left the table, keeping their total." in html
    assert '<span class="badge" data-left>left after round 1</span>' in html
    assert 'data-leave="Chen"' not in html
    assert f'name="outcome_{seat_pk(table, "Chen")}"' not in html
    assert f'name="outcome_{seat_pk(table, "Ben")}"' in html
    assert "<strong>Chen</strong> pays" in html  # still settled
    play(table, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S)})
    later = scorer.get(url("session_detail", table)).content.decode()
    assert '<span class="sat-out" title="not at the table">–</span>' in later


def test_leaving_before_the_first_round_is_refused_on_the_page(scorer: Client, user: User) -> None:
    table = make_session(user)

    response = scorer.post(url("session_leave", table), {"seat": seat_pk(table, "Chen")})

    assert response.status_code == 422
    assert "Nobody leaves before the first round" in response.content.decode()
    assert not SeatChange.objects.exists()


def test_leaving_needs_a_seat_of_this_table(scorer: Client, user: User) -> None:
    table = make_session(user)
    other = make_session(user, players=("Dev", "Eli"))

    response = scorer.post(url("session_leave", table), {"seat": seat_pk(other, "Dev")})

    assert response.status_code == 400


def test_a_latecomer_joins_from_the_session_page_and_is_in_the_next_round(
    scorer: Client, user: User
) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    page = scorer.get(url("session_detail", table)).content.decode()
    assert ">A latecomer joins at 0</label>" in page

    response = scorer.post(url("session_join", table), {"name": "Dev"}, follow=True)

    html = response.content.decode()
    assert "Dev joined the table. A new toss seated the table" in html
    assert '<span class="badge" data-joined>joined at 0 after round 1</span>' in html
    assert f'name="outcome_{seat_pk(table, "Dev")}"' in html
    assert "deals next" in html


def test_no_latecomer_is_offered_before_the_first_round(scorer: Client, user: User) -> None:
    table = make_session(user)

    page = scorer.get(url("session_detail", table)).content.decode()
    response = scorer.post(url("session_join", table), {"name": "Dev"})

    assert "A latecomer joins" not in page
    assert response.status_code == 422
    assert "Nobody joins before the first round" in response.content.decode()
    assert not table.seats.filter(player__name="Dev").exists()


# --- Taking back a join or a leave ---------------------------------------------------------


def _take_back_forms(html: str) -> list[str]:
    return re.findall(r'<form class="take-back-change".*?</form>', html, re.S)


def test_a_join_is_undone_from_its_message_or_taken_back_from_the_fold(
    scorer: Client, user: User
) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)

    joined = scorer.post(url("session_join", table), {"name": "Kim"}, follow=True)

    html = joined.content.decode()
    made = table.seat_changes.get(kind="join")
    message = re.search(
        r'<li class="message message-success">Kim joined the table.*?</li>', html, re.S
    )
    assert (
        message
        and f'name="change" value="{made.pk}"' in message[0]
        and ">Undo</button>" in message[0]
    )
    fold = re.search(
        r"<details class=\"table-changes\" data-table-changes>.*?</details>", html, re.S
    )
    assert "Kim joined after round 1." in fold[0] and ">Take back</button>" in fold[0]
    assert len(_take_back_forms(html)) == 2

    response = scorer.post(url("session_take_back_change", table), {"change": made.pk}, follow=True)

    html = response.content.decode()
    assert "Kim&#x27;s join taken back: their seat is gone." in html
    assert not table.seats.filter(player__name="Kim").exists()
    assert 'data-player="Kim"' not in html and not _take_back_forms(html)


def test_a_leave_taken_back_puts_the_player_back_in_the_next_round(
    scorer: Client, user: User
) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    scorer.post(url("session_leave", table), {"seat": seat_pk(table, "Chen")})
    made = table.seat_changes.get(kind="leave")

    response = scorer.post(url("session_take_back_change", table), {"change": made.pk}, follow=True)

    html = response.content.decode()
    assert "Chen&#x27;s leave taken back: Chen plays on." in html
    assert "data-left" not in html
    assert f'name="outcome_{seat_pk(table, "Chen")}"' in html


def test_a_change_played_on_is_refused_saying_why(scorer: Client, user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    scorer.post(url("session_leave", table), {"seat": seat_pk(table, "Chen")})
    made = table.seat_changes.get(kind="leave")
    play(table, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S)})

    page = scorer.get(url("session_detail", table)).content.decode()
    response = scorer.post(url("session_take_back_change", table), {"change": made.pk})

    assert not _take_back_forms(page)
    assert response.status_code == 422
    assert (
        "Chen&#x27;s leaving after round 1 can no longer be taken back: round 2 has been "
        "played since."
    ) in response.content.decode()
    assert table.seat_changes.filter(kind="leave").exists()


def test_taking_back_needs_a_change(scorer: Client, user: User) -> None:
    table = make_session(user)

    assert scorer.post(url("session_take_back_change", table), {"change": "x"}).status_code == 400


# --- Correcting a name ----------------------------------------------------------------------


def test_a_name_is_corrected_from_the_session_page(scorer: Client, user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Ravee"))
    page = scorer.get(url("session_detail", table)).content.decode()
    fold = re.search(
        r'<details class="table-changes" id="rename" data-rename>.*?</details>', page, re.S
    )
    assert fold and "<summary>Correct a player's name</summary>" in fold[0]
    assert re.search(
        rf'<input type="radio" name="seat" value="{seat_pk(table, "Ravee")}"[^>]*>\s*Ravee', fold[0]
    )

    response = scorer.post(
        url("session_rename", table), {"seat": seat_pk(table, "Ravee"), "name": "Ravi"}, follow=True
    )

    html = response.content.decode()
    assert "Ravee is now Ravi." in html
    assert 'data-player="Ravi"' in html and 'data-player="Ravee"' not in html


def test_a_name_already_at_the_table_is_refused_at_the_field(scorer: Client, user: User) -> None:
    table = make_session(user, players=("Asha", "Ben", "Ravee"))
    data = {"seat": seat_pk(table, "Ravee"), "name": "ben"}

    whole = scorer.post(url("session_rename", table), data)
    in_place = scorer.post(url("session_rename", table), data, headers={"HX-Request": "true"})

    for response in (whole, in_place):
        assert response.status_code == 422
        html = response.content.decode()
        fold = re.search(
            r'<details class="table-changes" id="rename" data-rename open>.*?</details>', html, re.S
        )
        assert fold, html
        said = "<li>Ben already has a seat at this table.</li>"
        assert f'<ul class="errorlist" id="rename-name_error">{said}</ul>' in fold[0]
        assert 'value="ben"' in fold[0] and 'aria-invalid="true"' in fold[0]
    assert in_place["HX-Retarget"] == "#rename" and in_place["HX-Reswap"] == "outerHTML"
    assert table.seats.filter(player__name="Ravee").exists()


def test_a_blank_name_or_a_seat_of_another_table_is_refused(scorer: Client, user: User) -> None:
    table = make_session(user)
    other = make_session(user, players=("Dev", "Eli"))

    blank = scorer.post(url("session_rename", table), {"seat": seat_pk(table, "Ben"), "name": " "})
    foreign = scorer.post(
        url("session_rename", table), {"seat": seat_pk(other, "Dev"), "name": "X"}
    )

    assert blank.status_code == foreign.status_code == 422
    assert "Say the name to seat them under." in blank.content.decode()
    assert "Pick a player at this table." in foreign.content.decode()
    assert not SeatChange.objects.exists()


def test_the_rematch_leaves_out_who_went_home(scorer: Client, user: User) -> None:
    table = make_session(user)
    play(table, "8S", ROUND_1)
    scorer.post(url("session_leave", table), {"seat": seat_pk(table, "Ben")})
    scorer.post(url("session_close", table))

    html = scorer.get(url("session_detail", table)).content.decode()

    assert "the same players (not Ben, who went home), rules and stakes" in html
    assert "Chen, Asha; Chen deals first" in html  # the next after Asha, past Ben


def test_a_latecomers_buy_in_is_in_the_pot(scorer: Client, user: User) -> None:
    pool = pool_with_chen_out(user, buy_in=Decimal("10.00"))

    scorer.post(url("session_join", pool), {"name": "Kim"})

    html = scorer.get(url("session_detail", pool)).content.decode()
    assert '<h2 id="money-title">The pot: 40.00</h2>' in html
