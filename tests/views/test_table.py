"""Table mode: the table link, a phone picking its seat and entering its
own hand, the scorer seeing the table fill up, correcting a hand and saving the
round with one tap (or the round saving itself), late hands, and what a phone may
not do."""

from __future__ import annotations

import re
from html import unescape
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, HandEntry, RoundChange, TableHand, new_share_token
from games.services.leagues import create_league
from games.services.sessions import close_session
from games.services.table import (
    close_table,
    release_seat,
    replace_table_link,
    set_auto_save,
    set_cut,
)
from tests.support.builders import make_session, play, round_data, seat_pk
from tests.support.forms import form_on, opened_form
from tests.support.hands import LOOSE_148, POOL_ROUNDS, ROUND_1, SHOWN_8S, WIN_8S, shuffled
from tests.support.table import hand_data, hand_in, seat_phone, table_link, url

pytestmark = pytest.mark.django_db


def page_of(client: Client, session: GameSession) -> str:
    return client.get(reverse("games:session_detail", args=[session.pk])).content.decode()


def panel(client: Client, session: GameSession) -> str:
    response = client.get(reverse("games:table_panel", args=[session.pk]))
    assert response.status_code == 200
    return response.content.decode()


def states(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-table-seat="(\w+)" data-state="(\w+)"', html))


def everyone_hands_in(table: GameSession, hands=ROUND_1) -> dict[str, Client]:
    phones = {name: seat_phone(table, name) for name in hands}
    for name, hand in hands.items():
        response = hand_in(phones[name], table, name, hand)
        assert response.status_code == 200, response.content.decode()[:800]
    return phones


# --- The table link --------------------------------------------------------------------


def test_opening_table_mode_shows_a_link_and_qr_code_apart_from_the_share_link(
    scorer: Client, table: GameSession
) -> None:
    assert "Open table mode" in page_of(scorer, table)

    response = scorer.post(reverse("games:table_link", args=[table.pk]), {"action": "open"})

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.table_token and table.table_token != table.share_token
    html = page_of(scorer, table)
    assert f"/table/{table.table_token}/" in html
    # The table link in its field, with Copy and Share, then its QR code.
    url = f"http://testserver/table/{table.table_token}/"
    assert re.search(
        rf'value="{url}" aria-label="Table link" data-link-url>.*?data-copy-link.*?'
        r'<div class="qr" aria-hidden="true"><svg',
        html,
        re.S,
    )
    # The share link still opens the read-only table, and not the seats.
    shared = Client().get(reverse("games:shared_session", args=[table.share_token]))
    assert table.table_token not in shared.content.decode()


def test_a_new_table_link_retires_the_old_one_and_frees_every_seat(
    scorer: Client, table: GameSession
) -> None:
    phone = seat_phone(table, "Ben")
    old = table.table_token

    scorer.post(reverse("games:table_link", args=[table.pk]), {"action": "replace"})

    table.refresh_from_db()
    assert table.table_token != old
    assert Client().get(reverse("games:table_seats", args=[old])).status_code == 404
    assert phone.get(url("table_hand", table)).status_code == 302  # to pick a seat again
    assert not table.seats.filter(phone_key__isnull=False).exists()


def test_closing_table_mode_makes_the_link_a_404(scorer: Client, table: GameSession) -> None:
    token = table_link(table)
    scorer.post(reverse("games:table_link", args=[table.pk]), {"action": "close"})
    assert Client().get(reverse("games:table_seats", args=[token])).status_code == 404
    assert "Open table mode" in page_of(scorer, table)


def test_close_table_mode_stays_in_sight_once_the_link_is_folded(
    scorer: Client, table: GameSession
) -> None:
    seat_phone(table, "Ben")  # a phone holds a seat: the link's details fold

    html = page_of(scorer, table)

    details = html[html.index('<details class="table-link"') : html.index("</details>")]
    assert " open" not in details.split(">", 1)[0]
    assert 'value="close"' not in details  # not hidden in the fold...
    after = html[html.index("</details>", html.index('<details class="table-link"')) :]
    close = after[: after.index("</section>")]
    assert "Close table mode</button>" in close  # ...but right under it, in table mode
    assert 'hx-confirm="Close table mode?' in close  # and it still asks first


# --- Picking a seat ------------------------------------------------------------------------


def test_a_phone_picks_its_seat_without_an_account_and_gets_its_own_hand(
    table: GameSession,
) -> None:
    table_link(table)
    phone = Client()
    pick = phone.get(url("table_seats", table)).content.decode()
    assert all(f'data-seat="{name}"' in pick for name in ("Asha", "Ben", "Chen"))

    response = phone.post(url("table_seats", table), {"seat": seat_pk(table, "Ben")})

    assert response.status_code == 302 and response["Location"] == url("table_hand", table)
    cookie = phone.cookies["seat"]
    assert cookie["path"] == f"/table/{table.table_token}/" and cookie["httponly"]
    html = phone.get(url("table_hand", table)).content.decode()
    assert "Ben's hand" in html
    ben, asha = seat_pk(table, "Ben"), seat_pk(table, "Asha")
    assert f'name="groups_{ben}"' in html and f'name="groups_{asha}"' not in html
    assert "Round 1" in html and "data-picker" in html


def test_a_seat_taken_on_another_phone_says_so(table: GameSession) -> None:
    seat_phone(table, "Ben")
    other = Client()

    pick = other.get(url("table_seats", table)).content.decode()
    response = other.post(url("table_seats", table), {"seat": seat_pk(table, "Ben")})

    assert re.search(r'data-seat="Ben" data-taken>\s*Ben <span class="seat-note">taken', pick)
    assert response.status_code == 409
    assert "Ben&#x27;s seat is taken on another phone" in response.content.decode()
    assert "seat" not in other.cookies


def test_the_scorer_releases_a_seat_and_another_phone_may_pick_it(
    scorer: Client, table: GameSession
) -> None:
    first = seat_phone(table, "Ben")
    hand_in(first, table, "Ben", ROUND_1["Ben"])

    response = scorer.post(
        reverse("games:table_release", args=[table.pk]), {"seat": seat_pk(table, "Ben")}
    )

    assert response.status_code == 302
    refused = hand_in(first, table, "Ben", ("shown", LOOSE_148))
    assert refused.status_code == 403
    assert first.get(url("table_hand", table)).status_code == 302
    second = seat_phone(table, "Ben")
    html = second.get(url("table_hand", table)).content.decode()
    assert "2D 3D 4D" in html  # the hand handed in before is kept for the new phone
    assert TableHand.objects.get().text == SHOWN_8S


def test_a_phone_that_leaves_its_seat_frees_it(table: GameSession) -> None:
    phone = seat_phone(table, "Chen")
    response = phone.post(url("table_leave", table))
    assert response.status_code == 302
    assert not table.seats.filter(phone_key__isnull=False).exists()
    assert phone.get(url("table_hand", table)).status_code == 302


def test_only_players_still_in_can_be_picked(user: User) -> None:
    pool = make_session(user, preset="13-pool-101")
    for hands in POOL_ROUNDS:
        play(pool, "7C", hands)  # Chen is out
    table_link(pool)
    phone = Client()
    pick = phone.get(url("table_seats", pool)).content.decode()
    response = phone.post(url("table_seats", pool), {"seat": seat_pk(pool, "Chen")})
    assert 'data-seat="Chen"' not in pick
    assert response.status_code == 422
    assert "still in" in response.content.decode()


# --- A phone's own hand ------------------------------------------------------------------------


def test_a_hand_handed_in_replays_the_sessions_rounds_twice_not_three_times(
    table: GameSession,
) -> None:
    for _ in range(3):
        play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")

    with CaptureQueriesContext(connection) as queries:
        response = hand_in(phone, table, "Ben", ROUND_1["Ben"], number=4)

    assert response.status_code == 200 and "Handed in" in response.text
    # Read for the form, then under write_hand's lock; the page reuses what it read.
    replays = [query for query in queries if '"games_handentry"."score"' in query["sql"]]
    assert len(replays) == 2


def test_a_hand_is_kept_on_the_server_as_it_is_typed(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    half = " ".join(SHOWN_8S.replace("|", "").split()[:10])

    preview = phone.post(url("table_hand_preview", table), hand_data(table, "Ben", "shown", half))

    assert preview.status_code == 200
    hand = TableHand.objects.get()
    assert (hand.outcome, hand.text, hand.status) == ("shown", half, "typing")
    # A reload (or another tab after a dropped connection) shows it as it was left.
    reloaded = phone.get(url("table_hand", table)).content.decode()
    assert half in reloaded and "Kept as you type" in reloaded


def test_a_hand_in_any_order_is_checked_on_its_own_and_handed_in(table: GameSession) -> None:
    phone = seat_phone(table, "Asha")

    response = hand_in(phone, table, "Asha", ("declared", shuffled(WIN_8S)))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Valid declaration" in html and "Arranged by the rules" in html
    assert "data-handed-in" in html
    assert "<strong>Handed in.</strong>" in html  # said as done, not as "Hand in."
    assert TableHand.objects.get().status == "in"


def _under_hand_in(html: str) -> str:
    """What the seat's phone shows right under its Hand in button."""
    button = html.index('id="seat-hand-in"')
    return html[button : html.index("</form>", button)]


def test_handed_in_is_said_under_the_hand_in_button_the_finger_is_on(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")

    response = phone.post(
        url("table_hand", table),
        hand_data(table, "Ben", "shown", SHOWN_8S),
        headers={"HX-Request": "true"},
    )

    under = _under_hand_in(response.content.decode())
    assert 'aria-describedby="seat-handed"' in under  # read out with the button
    assert 'id="seat-handed" class="seat-handed" role="status"' in under
    assert "✓ Handed in. If you change anything, tap Hand in again" in under
    # Without JavaScript the page comes back whole, saying it in the same place.
    assert "✓ Handed in." in _under_hand_in(phone.get(url("table_hand", table)).content.decode())


def test_changing_a_handed_in_hand_takes_the_handed_in_line_away(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    hand_in(phone, table, "Ben", ("shown", SHOWN_8S), edit=3)

    preview = phone.post(
        url("table_hand_preview", table),
        hand_data(table, "Ben", "shown", LOOSE_148, edit=4),
        headers={"HX-Request": "true"},
    )

    html = preview.content.decode()
    handed = re.search(r'<div id="seat-handed"[^>]*>(.*?)</div>', html, re.S)
    assert 'hx-swap-oob="innerHTML"' in handed[0]  # its box stays: a screen reader hears it
    assert handed[1].strip() == ""  # no longer "Handed in" under the button
    assert "data-handed-in" not in html


def test_a_hand_the_scorer_entered_is_said_handed_in_under_the_phones_button(
    scorer: Client, table: GameSession
) -> None:
    phone = seat_phone(table, "Ben")
    scorer.post(
        reverse("games:table_correct", args=[table.pk, seat_pk(table, "Ben")]),
        hand_data(table, "Ben", "shown", SHOWN_8S),
    )

    html = phone.get(url("table_hand", table)).content.decode()

    assert "✓ Handed in (by the scorer)." in _under_hand_in(html)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (("shown", SHOWN_8S.removesuffix("8C") + "8X"), "&#x27;8X&#x27; is not a card"),
        (("shown", SHOWN_8S.removesuffix(" 8C")), "must show all 21 cards, not 20"),
        (("declared", SHOWN_8S), "declaration is not valid"),
        (("shown", SHOWN_8S + " 2C 2C 2C"), "must show all 21 cards, not 24"),
    ],
    ids=["typo", "short", "false declaration", "too many"],
)
def test_bad_input_on_a_seat_phone_is_said_in_place_and_the_hand_is_not_in(
    scorer: Client, table: GameSession, hand: tuple[str, str], message: str
) -> None:
    phone = seat_phone(table, "Ben")

    response = hand_in(phone, table, "Ben", hand)

    html = response.content.decode()
    assert response.status_code == 422
    assert "data-problems" in html and message in html
    # Said under the cards and in the list above Hand in; the status at the top only
    # says what to do (it said it a third time).
    assert html.count(message) == 2
    assert "fix what is marked below, then tap Hand in again" in html
    assert hand[1] in html.replace("&#x27;", "'")  # what was typed stays
    assert TableHand.objects.get().status == "typing"
    assert states(panel(scorer, table))["Ben"] == "problem"


def test_a_refused_hand_reloaded_is_shown_as_it_was_refused(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    hand_in(phone, table, "Ben", ("shown", SHOWN_8S.removesuffix(" 8C")), edit=2)

    reloaded = unescape(phone.get(url("table_hand", table)).content.decode())

    message = "must show all 21 cards, not 20"
    under_cards = reloaded.split('data-hand-errors="Ben"')[1].split("data-picker")[0]
    assert message in under_cards  # marked where it is fixed, as after Hand in
    assert "Not handed in: 1 thing to fix" in reloaded.split("data-problems")[1]
    assert "fix what is marked below, then tap Hand in again" in reloaded
    assert reloaded.count(message) == 2
    # Typed in again: a hand being typed, checked as such.
    phone.post(
        url("table_hand_preview", table),
        hand_data(table, "Ben", "shown", SHOWN_8S.removesuffix(" JS 8C"), edit=3),
        headers={"HX-Request": "true"},
    )
    typing = unescape(phone.get(url("table_hand", table)).content.decode())
    assert "data-problems" not in typing and "fix what is marked below" not in typing


def test_a_hand_refused_for_want_of_the_cut_joker_is_told_it_checks_once_the_cut_came(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    hand_in(phone, table, "Ben", ("shown", SHOWN_8S), cut="", edit=2)
    assert "Enter the cut joker" in TableHand.objects.get().problem
    set_cut(table, 1, "8S")  # another phone's, or the scorer's

    page = unescape(phone.get(url("table_hand", table)).content.decode())

    status = page.split('id="seat-status"')[1].split("</div>")[0]
    assert "your hand checks now — tap Hand in." in status
    assert "Enter the cut joker" not in page and "data-problems" not in page


def test_a_refused_hand_at_a_session_ended_meanwhile_is_not_told_to_tap_hand_in_again(
    table: GameSession,
) -> None:
    play(table, "8S", ROUND_1)  # a points game may be ended once a round is played
    phone = seat_phone(table, "Ben")
    short = SHOWN_8S.removesuffix(" 8C")
    refused = hand_in(phone, table, "Ben", ("shown", short), number=2, edit=2)
    assert "fix what is marked below, then tap Hand in again" in refused.content.decode()
    close_session(table)  # the scorer ends the session

    data = hand_data(table, "Ben", "shown", SHOWN_8S, number=2, edit=3) | {"problems": "listed"}
    answer = phone.post(url("table_hand_preview", table), data, headers={"HX-Request": "true"})

    said = unescape(answer.content.decode())
    status = said.split('id="seat-status"')[1].split("</div>")[0]
    # Said at the top as it is: nothing the player can fix, not the old problem.
    assert "Not handed in:</strong> This session is over: it takes no new rounds." in status
    assert "tap Hand in again" not in said and "not 20" not in status


def test_the_list_hand_in_refused_follows_the_fixes_on_the_seat_phone(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    short = SHOWN_8S.removesuffix(" 8C")
    refused = hand_in(phone, table, "Ben", ("shown", short), edit=2).content.decode()
    assert "Not handed in: 1 thing to fix" in refused  # nothing is saved on a seat phone
    assert "<strong>Ben</strong>:" not in refused  # his own phone: not named again
    listed = {"problems": "listed", "key": "0badcafe"}

    def typed(groups: str, edit: int) -> str:
        data = hand_data(table, "Ben", "shown", groups, edit=edit) | listed
        html = phone.post(
            url("table_hand_preview", table), data, headers={"HX-Request": "true"}
        ).content.decode()
        return html.split('id="problems-0badcafe"')[1].split('id="cut-errors')[0]

    # Still short (checked as Hand in checks it, not as a hand being typed): still listed.
    still = typed(short[:-3], 3)
    assert 'hx-swap-oob="true"' in still
    assert "Not handed in: 1 thing to fix" in still and "must show all 21 cards, not 19" in still
    # The missing card added: the list's place comes back empty, and the hand is not in.
    fixed = typed(SHOWN_8S, 4)
    assert 'hx-swap-oob="true"' in fixed and "Not handed in" not in fixed
    assert TableHand.objects.get().status == "typing"


def test_a_handed_in_hand_can_be_changed_until_the_round_is_saved(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    hand_in(phone, table, "Ben", ("shown", SHOWN_8S), edit=3)

    # Typing again takes it back until it is handed in again...
    phone.post(
        url("table_hand_preview", table), hand_data(table, "Ben", "shown", LOOSE_148, edit=4)
    )
    assert TableHand.objects.get().status == "typing"
    hand_in(phone, table, "Ben", ("shown", LOOSE_148), edit=4)

    hand = TableHand.objects.get()
    assert (hand.text, hand.status) == (LOOSE_148, "in")


def test_a_check_answered_after_the_hand_was_handed_in_does_not_bring_back_an_older_hand(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    hand_in(phone, table, "Ben", ("shown", SHOWN_8S), edit=9)

    stale = phone.post(
        url("table_hand_preview", table), hand_data(table, "Ben", "shown", SHOWN_8S[:20], edit=5)
    )

    assert stale.status_code == 200
    hand = TableHand.objects.get()
    assert (hand.text, hand.status, hand.edit) == (SHOWN_8S, "in", 9)


def test_the_first_cut_joker_entered_is_the_tables(table: GameSession) -> None:
    asha, ben = seat_phone(table, "Asha"), seat_phone(table, "Ben")
    hand_in(asha, table, "Asha", ROUND_1["Asha"], cut="8S")

    page = ben.get(url("table_hand", table)).content.decode()
    response = hand_in(ben, table, "Ben", ROUND_1["Ben"], cut="9H")  # ignored: 8S it is

    assert '<input type="hidden" value="8S" data-cut>' in page  # the table's: not sent
    assert re.search(r'<input type="text" id="seat-cut-known"[^>]* value="8♠" readonly>', page)
    # Said as set, not as still to be entered by the first phone.
    assert "Set for the whole table; the scorer can correct it." in page
    assert "The first phone to enter it" not in page
    assert response.status_code == 200
    assert table.table_rounds.get().cut_joker == "8S"


# --- The scorer ----------------------------------------------------------------------------------


def test_the_scorer_sees_each_seat_waiting_typing_or_in(scorer: Client, table: GameSession) -> None:
    asha, ben = seat_phone(table, "Asha"), seat_phone(table, "Ben")
    hand_in(asha, table, "Asha", ROUND_1["Asha"])
    ben.post(url("table_hand_preview", table), hand_data(table, "Ben", "shown", "2D 3D"))

    html = panel(scorer, table)

    assert states(html) == {"Asha": "in", "Ben": "typing", "Chen": "waiting"}
    assert "1 of 3</strong> hands in" in html
    assert "data-table-save" not in html


def test_the_live_view_answers_nothing_new_while_nothing_changed(
    scorer: Client, table: GameSession
) -> None:
    table_link(table)
    first = panel(scorer, table)
    stamp = re.search(r'data-table-stamp="([^"]+)"', first)[1]
    poll = reverse("games:table_panel", args=[table.pk])

    assert scorer.get(poll, {"v": stamp}).status_code == 204
    seat_phone(table, "Chen")  # a seat picked is news
    assert scorer.get(poll, {"v": stamp}).status_code == 200


def test_once_every_hand_is_in_the_round_is_checked_and_saved_with_one_tap(
    scorer: Client, table: GameSession
) -> None:
    everyone_hands_in(table)
    html = panel(scorer, table)
    assert states(html) == {"Asha": "in", "Ben": "in", "Chen": "in"}
    assert 'data-settlement="Ben"' in html and "data-table-save" in html

    response = scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})

    assert response.status_code == 302
    played = table.rounds.get()
    scores = dict(played.entries.values_list("player__name", "score"))
    assert scores == {"Asha": 122, "Ben": -92, "Chen": -30}
    audit = RoundChange.objects.get(action="created")
    assert audit.changed_by.username == "asha"
    assert {hand["player"]: hand["entered_by"] for hand in audit.after["entries"]} == {
        "Asha": "Asha's phone",
        "Ben": "Ben's phone",
        "Chen": "Chen's phone",
    }
    assert not table.table_rounds.exists()


def test_a_double_tap_on_save_saves_once(scorer: Client, table: GameSession) -> None:
    everyone_hands_in(table)
    save = reverse("games:table_save", args=[table.pk])
    scorer.post(save, {"number": "1"})
    again = scorer.post(save, {"number": "1"}, follow=True)
    assert table.rounds.count() == 1
    assert "Round 1 is already saved." in again.content.decode()


def test_a_round_saved_by_hand_meanwhile_is_not_saved_again_from_the_table(
    scorer: Client, table: GameSession
) -> None:
    """Every hand is in at the table; meanwhile the scorer's other phone enters the same
    round by hand and saves it. The table's Save, tapped on a page from before, is
    told the round is saved: the number it was for is taken, and the table's hands went
    with the round saved (there is nothing left to save twice)."""
    by_hand = opened_form(scorer, table)
    everyone_hands_in(table)
    create = reverse("games:round_create", args=[table.pk])
    assert scorer.post(create, round_data(table, "8S", ROUND_1, **by_hand)).status_code == 302

    response = scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})

    assert response.status_code == 302
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said[-1] == "Round 1 is already saved."
    assert table.rounds.count() == 1 and HandEntry.objects.count() == 3
    assert not table.table_rounds.exists()  # round 2 starts from no hands


def test_the_same_round_typed_by_hand_after_the_table_saved_it_gets_the_clash(
    scorer: Client, table: GameSession
) -> None:
    """The scorer types round 1 by hand ("Enter round 1 yourself instead") while the
    table enters it, and the table's Save comes first: the typed round meets the
    clash at its Save, theirs (the table's) beside it, and is not saved again."""
    by_hand = opened_form(scorer, table)
    everyone_hands_in(table)
    assert scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})

    create = reverse("games:round_create", args=[table.pk])
    typed = round_data(table, "8S", ROUND_1, **by_hand)
    response = scorer.post(create, typed, headers={"HX-Request": "true"})

    assert response.status_code == 422
    html = unescape(response.content.decode())
    assert "Round 1 was saved on another phone" in html
    assert "Yours is the same round" in html and "Save mine as round" not in html
    assert table.rounds.count() == 1 and HandEntry.objects.count() == 3


def test_the_round_check_across_hands_names_the_problem_and_save_waits(
    scorer: Client, table: GameSession
) -> None:
    # Ben declares too: each hand is fine on its own, the round has two winners.
    everyone_hands_in(table, ROUND_1 | {"Ben": ("declared", WIN_8S)})

    html = panel(scorer, table)
    response = scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})

    assert "data-table-problems" in html and "more than one winner" in html
    assert states(html)["Ben"] == "problem" and states(html)["Chen"] == "in"
    assert response.status_code == 302 and not table.rounds.exists()


def test_the_scorer_corrects_a_hand_and_the_audit_says_who(
    scorer: Client, table: GameSession
) -> None:
    everyone_hands_in(table, ROUND_1 | {"Ben": ("declared", WIN_8S)})
    ben = seat_pk(table, "Ben")
    correct = reverse("games:table_correct", args=[table.pk, ben])
    page = scorer.get(correct).content.decode()
    assert "Ben's hand, round 1" in page and "data-picker" in page

    response = scorer.post(correct, hand_data(table, "Ben", "shown", SHOWN_8S))

    assert response.status_code == 302
    assert states(panel(scorer, table))["Ben"] == "in"
    scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})
    audit = RoundChange.objects.get(action="created")
    authors = {hand["player"]: hand["entered_by"] for hand in audit.after["entries"]}
    assert authors["Ben"] == "asha (scorer)" and authors["Asha"] == "Asha's phone"


def test_a_seat_phones_live_check_brings_the_hands_errors_under_its_cards(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    ben = seat_pk(table, "Ben")
    page = phone.get(url("table_hand", table)).content.decode()
    # In the page, right under the cards, and what the cards' field is described by.
    place = re.search(r'<div class="hand-errors" id="([^"]+)" data-hand-errors="Ben"', page)
    assert place and f'aria-describedby="{place.group(1)}"' in page
    assert page.index(f'id="id_groups_{ben}"') < place.start()

    key = {"key": re.search(r'name="key" value="([^"]+)"', page).group(1)}  # the page's form
    check = url("table_hand_preview", table)
    typo = phone.post(check, hand_data(table, "Ben", "shown", "2D 3X") | key)
    fixed = phone.post(check, hand_data(table, "Ben", "shown", "2D 3D") | key)

    for answer, said in ((typo, True), (fixed, False)):
        html = unescape(answer.content.decode())
        errors = html.split(f'id="{place.group(1)}"')[1].split("</div>\n  </div>")[0]
        assert 'hx-swap-oob="true"' in errors  # swapped into its place, not the check's
        assert ("'3X' is not a card" in errors) is said
        assert html.count(f'id="{place.group(1)}"') == 1


def test_a_correction_that_does_not_check_is_refused_in_place(
    scorer: Client, table: GameSession
) -> None:
    seat_phone(table, "Ben")
    correct = reverse("games:table_correct", args=[table.pk, seat_pk(table, "Ben")])
    response = scorer.post(correct, hand_data(table, "Ben", "shown", "2D 3D 4X"))
    assert response.status_code == 422
    assert "&#x27;4X&#x27; is not a card" in response.content.decode()
    assert not TableHand.objects.exists()


def test_with_auto_save_the_last_hand_in_saves_a_round_that_checks(
    scorer: Client, table: GameSession
) -> None:
    set_auto_save(table, True)
    phones = {name: seat_phone(table, name) for name in ROUND_1}
    for name in ("Asha", "Ben"):
        hand_in(phones[name], table, name, ROUND_1[name])
    assert not table.rounds.exists()

    last = hand_in(phones["Chen"], table, "Chen", ROUND_1["Chen"])

    assert last.status_code == 302  # to round 2's hand
    assert table.rounds.count() == 1
    played = table.rounds.get()
    assert played.entered_by is None and played.author == "table mode (saved by itself)"
    assert HandEntry.objects.filter(round=played).count() == 3
    html = phones["Chen"].get(url("table_hand", table)).content.decode()
    assert "Every hand is in: round 1 saved itself." in html and "Round 2" in html
    # Its history says who as the round page does, not "someone no longer here".
    history = scorer.get(reverse("games:session_history", args=[table.pk])).content.decode()
    assert "Round 1 created</strong> by table mode (saved by itself)," in history


def test_auto_save_waits_for_a_round_that_does_not_check(table: GameSession) -> None:
    set_auto_save(table, True)
    everyone_hands_in(table, ROUND_1 | {"Ben": ("declared", WIN_8S)})
    assert not table.rounds.exists()


def test_a_league_can_make_its_sessions_save_rounds_by_themselves(user: User) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    league.table_auto_save = True
    league.save()
    session = make_session(user, league=league)
    phones = {name: seat_phone(session, name) for name in ROUND_1}
    for name, hand in ROUND_1.items():
        hand_in(phones[name], session, name, hand)
    assert session.rounds.count() == 1


# --- Late and forged -----------------------------------------------------------------------------


def test_a_late_hand_is_told_the_round_is_saved_and_changes_nothing(
    scorer: Client, table: GameSession
) -> None:
    phones = everyone_hands_in(table)
    scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})
    before = list(HandEntry.objects.values_list("player__name", "groups"))

    late = hand_in(phones["Ben"], table, "Ben", ("shown", LOOSE_148), number=1)

    html = late.content.decode()
    assert late.status_code == 409  # the round moved on: the page as it is now
    assert "Round 1 is already saved: this hand was not used. Round 2 is open now." in html
    assert "Round 2" in html and "data-seat-form" in html
    assert list(HandEntry.objects.values_list("player__name", "groups")) == before
    assert not TableHand.objects.exists()


def test_a_phone_following_the_table_is_sent_on_to_the_next_round(table: GameSession) -> None:
    phones = everyone_hands_in(table)
    status = url("table_hand_status", table)
    assert phones["Ben"].get(status, {"number": "1", "v": "x"}).status_code == 200
    play(table, "8S", ROUND_1)  # the scorer saves round 1 by hand meanwhile
    moved = phones["Ben"].get(status, {"number": "1"}, headers={"HX-Request": "true"})
    assert moved.status_code == 200 and moved["HX-Refresh"] == "true"


@pytest.mark.parametrize("number", ["²", "٣", "-1", "1" * 30, "9" * 10_000])
def test_a_status_poll_with_a_number_that_is_no_round_number_is_sent_on_not_a_server_error(
    table: GameSession, number: str
) -> None:
    phone = seat_phone(table, "Ben")
    moved = phone.get(url("table_hand_status", table), {"number": number}, HTTP_HX_REQUEST="true")
    assert moved.status_code == 200 and moved["HX-Refresh"] == "true"
    assert not list(get_messages(moved.wsgi_request))  # no "Round ² saved."


def test_a_seat_cookie_cannot_be_forged_for_another_seat(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    value = phone.cookies["seat"].value
    forged = value.replace(f"{seat_pk(table, 'Ben')}:", f"{seat_pk(table, 'Asha')}:", 1)
    phone.cookies["seat"] = forged

    response = hand_in(phone, table, "Asha", ROUND_1["Asha"])

    assert response.status_code == 403
    assert not TableHand.objects.exists()


def test_fields_for_another_seat_in_a_phones_form_are_ignored(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    # Asha's fields beside Ben's, in a form of Ben's seat.
    data = hand_data(table, "Asha", "shown", LOOSE_148) | hand_data(table, "Ben", *ROUND_1["Ben"])
    response = phone.post(url("table_hand", table), data)
    assert response.status_code == 200
    assert list(TableHand.objects.values_list("seat__player__name", "text")) == [("Ben", SHOWN_8S)]


def _two_pages_on_one_phone(table: GameSession) -> tuple[Client, str]:
    """A phone shared by two players: Ben's seat picked, his page open (its status
    poll's address returned), then Chen's picked in another tab of the same phone,
    which gives Ben's seat up."""
    phone = seat_phone(table, "Ben")
    html = phone.get(url("table_hand", table)).content.decode()
    poll = re.search(r'hx-get="([^"]*/hand/status/\?[^"]*)"', html)[1].replace("&amp;", "&")
    assert f"seat={seat_pk(table, 'Ben')}" in poll  # the page names its seat
    seat_phone(table, "Chen", phone)
    return phone, poll


def _moved_on_to_chens_seat(table: GameSession, response, lead: str = "") -> None:
    """Answered with the page of the seat the phone holds, saying why: a 409 (a 200
    to Hand in would be kept on the phone as handed in), which htmx follows."""
    assert response.status_code == 409
    assert response.headers["HX-Redirect"] == url("table_hand", table)
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said[-1] == (
        f"{lead}This phone holds Chen's seat now, picked in another tab: a phone holds one "
        "seat at a time. What you typed for Ben's seat stays on this phone, and comes back "
        "when that seat is picked on it again."
    )


def test_a_page_of_the_seat_a_phone_gave_up_is_moved_on_never_answered_for_the_other_seat(
    table: GameSession,
) -> None:
    phone, poll = _two_pages_on_one_phone(table)
    htmx = {"HX-Request": "true"}
    bens_hand = hand_data(table, "Ben", *ROUND_1["Ben"])

    polled = phone.get(poll, headers=htmx)
    checked = phone.post(url("table_hand_preview", table), bens_hand, headers=htmx)
    handed = phone.post(url("table_hand", table), bens_hand, headers=htmx)
    left = phone.post(url("table_leave", table), {"seat": seat_pk(table, "Ben")}, headers=htmx)

    _moved_on_to_chens_seat(table, polled)
    _moved_on_to_chens_seat(table, checked)
    _moved_on_to_chens_seat(table, handed, "Not handed in. ")
    _moved_on_to_chens_seat(table, left, "Not left. ")
    for response in (polled, checked, handed, left):
        assert "Chen" not in response.content.decode()  # nothing of Chen's seat on Ben's page
    assert not TableHand.objects.exists()  # Ben's hand was not written as anyone's
    assert table.seats.get(phone_key__isnull=False).player.name == "Chen"  # still held
    # Chen's own page is the phone's.
    chens = hand_in(phone, table, "Chen", ROUND_1["Chen"])
    assert chens.status_code == 200
    assert list(TableHand.objects.values_list("seat__player__name", flat=True)) == ["Chen"]


def test_a_page_of_the_seat_a_phone_gave_up_at_a_link_gone_is_told_as_any_page_there(
    table: GameSession,
) -> None:
    phone, poll = _two_pages_on_one_phone(table)
    hand_url = url("table_hand", table)
    htmx = {"HX-Request": "true"}
    close_table(table)

    polled = phone.get(poll, headers=htmx)
    handed = phone.post(hand_url, hand_data(table, "Ben", *ROUND_1["Ben"]), headers=htmx)

    for response in (polled, handed):
        # Only the status, over Ben's status line: never Chen's closed page over Ben's
        # (static/js/table_seat.js closes Ben's hand as typed).
        _told_in_place(response)
        assert "Chen" not in response.content.decode()
        told = "The scorer closed table mode, so this link takes no more hands."
        assert told in _gone_message(response.content.decode())
    assert re.search(r"<strong [^>]*data-hand-fate[^>]*>Not handed in\.</strong>", handed.text)
    # A reload, or a page without htmx: the page of the phone's seat, nothing checked.
    reloaded = phone.get(hand_url)
    plain = phone.post(hand_url, hand_data(table, "Ben", *ROUND_1["Ben"]))
    for response in (reloaded, plain):
        html = response.content.decode()
        assert response.status_code == 410 and "data-table-closed" in html
        assert re.search(r'<h1 id="seat-title">Chen.{1,6}s hand</h1>', html)
        assert "This field is required" not in html
        assert re.search(r"<strong [^>]*data-hand-fate[^>]* hidden>\s*</strong>", html)


def test_a_seat_cookie_of_another_session_opens_nothing_here(
    user: User, table: GameSession
) -> None:
    other = make_session(user, players=("Asha", "Ben", "Dev"), name="Other")
    phone = seat_phone(other, "Ben")
    table_link(table)
    # The browser would not send it here (its path is the other link's); a forger does.
    phone.cookies["seat"]["path"] = "/"

    response = hand_in(phone, table, "Ben", ROUND_1["Ben"])

    assert response.status_code == 403
    assert phone.get(url("table_hand", table)).status_code == 302
    assert not TableHand.objects.exists()


def test_the_history_says_who_entered_each_hand(scorer: Client, table: GameSession) -> None:
    everyone_hands_in(table)
    scorer.post(reverse("games:table_save", args=[table.pk]), {"number": "1"})
    history = scorer.get(reverse("games:session_history", args=[table.pk])).content.decode()
    assert "entered by Ben&#x27;s phone" in history


def test_a_leagues_owner_sets_auto_save_on_its_house_rules_page(user: User, scorer: Client) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    page = reverse("games:league_rules", args=[league.slug])
    data = form_on(scorer, page, page).data() | {"table_auto_save": ["on"]}

    response = scorer.post(page, data)

    assert response.status_code == 302
    league.refresh_from_db()
    assert league.table_auto_save is True
    session = make_session(user, league=league)
    table_link(session)
    html = page_of(scorer, session)
    assert 'data-auto-save="on"' in html
    # A session may still choose otherwise.
    scorer.post(reverse("games:table_auto_save", args=[session.pk]), {"auto_save": "off"})
    assert 'data-auto-save="off"' in page_of(scorer, session)


@pytest.mark.parametrize(
    ("garbage", "status"),
    [
        ({"outcome": "won_twice"}, 422),
        ({"groups": "2H " * 200}, 422),
        ({"groups": "2H \x00\u202e"}, 422),
        ({"cut_joker": "ZZ" * 50}, 422),
        # Hidden fields that are not what the page sent are not trusted, nor refused.
        ({"number": "x" * 30}, 200),
        ({"number": "99999999999999999999"}, 200),
        ({"edit": "-1"}, 200),
    ],
    ids=["outcome", "long", "control", "cut", "number", "huge number", "edit"],
)
def test_garbage_from_a_seat_phone_is_refused_in_place_never_a_server_error(
    table: GameSession, garbage: dict, status: int
) -> None:
    phone = seat_phone(table, "Ben")
    ben = seat_pk(table, "Ben")
    data = hand_data(table, "Ben", *ROUND_1["Ben"])
    for field, value in garbage.items():
        data[{"outcome": f"outcome_{ben}", "groups": f"groups_{ben}"}.get(field, field)] = value

    preview = phone.post(url("table_hand_preview", table), data)
    response = phone.post(url("table_hand", table), data)

    assert preview.status_code == 200
    assert response.status_code == status
    if status == 422:
        assert "errorlist" in response.content.decode()
    handed_in = TableHand.objects.filter(status="in").values_list("text", flat=True)
    assert list(handed_in) == ([SHOWN_8S] if status == 200 else [])


def test_a_kodai_winner_marks_a_win_on_the_deal_from_their_phone(user: User) -> None:
    kodai = make_session(user, preset="21-kodai")
    phone = seat_phone(kodai, "Asha")
    asha = seat_pk(kodai, "Asha")
    assert f'name="on_deal_{asha}"' in phone.get(url("table_hand", kodai)).content.decode()

    data = hand_data(kodai, "Asha", "declared", WIN_8S) | {f"on_deal_{asha}": "on"}
    phone.post(url("table_hand", kodai), data)

    assert TableHand.objects.get().on_deal is True
    reloaded = phone.get(url("table_hand", kodai)).content.decode()
    assert re.search(rf'<input[^>]*name="on_deal_{asha}"[^>]*checked', reloaded)


# --- The scorer closes table mode (or frees the seat) as a hand is sent -----------------


def _scorer_acts_first(action):
    """write_hand as the view calls it, with the scorer's ``action`` committed between
    the view's checks of the link and seat and the hand's write: the race, in order."""
    from games.services import table as services

    def write_hand(session, *args, **kwargs):
        action(GameSession.objects.get(pk=session.pk))
        return services.write_hand(session, *args, **kwargs)

    return mock.patch("games.views.table.write_hand", write_hand)


def test_a_hand_sent_as_the_scorer_closes_table_mode_is_told_so_in_place(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    with _scorer_acts_first(close_table):
        response = phone.post(
            url("table_hand", table),
            hand_data(table, "Ben", "shown", SHOWN_8S),
            headers={"HX-Request": "true"},
        )

    _told_in_place(response)
    assert _gone_message(response.content.decode()).startswith(
        "Not handed in. The scorer closed table mode, so this link takes no more hands."
    )
    assert not TableHand.objects.exists()

    # Its live check, sent as the table closed: the same answer, said once.
    table_link(table)
    phone = seat_phone(table, "Ben")
    with _scorer_acts_first(close_table):
        preview = phone.post(
            url("table_hand_preview", table),
            hand_data(table, "Ben", "shown", SHOWN_8S[:20]),
            headers={"HX-Request": "true"},
        )
    html = preview.content.decode()
    _told_in_place(preview)
    assert _gone_message(html).startswith("The scorer closed table mode")
    assert html.count("The scorer closed table mode") == 1 and not TableHand.objects.exists()

    # Without JavaScript: the page, closed, the hand on it as sent.
    table_link(table)
    phone = seat_phone(table, "Ben")
    with _scorer_acts_first(close_table):
        plain = phone.post(url("table_hand", table), hand_data(table, "Ben", "shown", SHOWN_8S))
    html = plain.content.decode()
    assert plain.status_code == 410 and "<html" in html and SHOWN_8S in html
    assert _gone_message(html).startswith("Not handed in. The scorer closed table mode")
    _only_shown(html)


def test_a_hand_sent_as_the_scorer_frees_the_seat_is_told_so(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    with _scorer_acts_first(
        lambda session: release_seat(session, session.seats.get(pk=seat_pk(session, "Ben")))
    ):
        response = phone.post(
            url("table_hand", table),
            hand_data(table, "Ben", "shown", SHOWN_8S),
            headers={"HX-Request": "true"},
        )

    html = response.content.decode()
    assert response.status_code == 409
    assert "no longer holds Ben&#x27;s seat: your hand was not kept" in html
    assert SHOWN_8S in html and not TableHand.objects.exists()


def test_a_phone_following_a_table_that_closed_is_told_so_and_stops_asking(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    html = phone.get(url("table_hand", table)).content.decode()
    status = re.search(r'hx-get="([^"]*/hand/status/\?[^"]*)"', html)[1].replace("&amp;", "&")
    close_table(table)

    response = phone.get(status, headers={"HX-Request": "true"})

    _told_in_place(response)
    assert _gone_message(response.content.decode()).startswith("The scorer closed table mode")
    # A browser opening the address itself: the page a reload there shows.
    opened = phone.get(status)
    assert opened.status_code == 410 and 'id="seat-hand"' in opened.content.decode()
    assert Client().get(status).status_code == 404  # a phone that held no seat there


def _told_in_place(response) -> None:
    """The one answer, over htmx, to a phone whose table link is gone, whichever of
    its requests learnt it: the seat's status line alone, closed (no more polls), and
    declared by the server to go over the status line of the page that asked
    (static/js/table_seat.js closes the hand there, as typed)."""
    html = response.content.decode()
    assert response.status_code == 410
    assert response.headers["HX-Retarget"] == "#seat-status"
    assert response.headers["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<div id="seat-status"') and "<html" not in html
    assert "data-table-closed" in html and "hx-get" not in html
    assert 'id="seat-hand"' not in html  # the hand on the page stays as typed
    assert "Show your hand to the scorer" in _gone_message(html)


@pytest.mark.parametrize(
    ("scorer_does", "told"),
    [
        ("close", "Not handed in. The scorer closed table mode, so this link takes no more"),
        ("replace", "Not handed in. The scorer made a new table link, so this one takes no"),
    ],
)
def test_a_hand_sent_after_its_link_went_is_told_why(
    table: GameSession, scorer_does: str, told: str
) -> None:
    phone = seat_phone(table, "Ben")
    old_hand_url = url("table_hand", table)
    {"close": close_table, "replace": replace_table_link}[scorer_does](table)

    response = phone.post(
        old_hand_url, hand_data(table, "Ben", "shown", SHOWN_8S), headers={"HX-Request": "true"}
    )

    html = response.content.decode()
    _told_in_place(response)
    assert _gone_message(html).startswith(told)
    assert not TableHand.objects.exists()
    table.refresh_from_db()
    assert table.table_token is None or table.table_token not in html  # never the new link


def _only_shown(html: str) -> None:
    """A hand at a gone link is shown to be read out, with nothing inviting more."""
    assert re.search(r'<form class="round-form seat-form"[^>]* data-closed novalidate>', html, re.S)
    assert re.search(r'<fieldset class="player"[^>]* disabled>', html)  # outcome, cards
    assert "data-picker" not in html and "/hand/preview/" not in html  # nothing to tap
    assert "Show your hand to the scorer" in _gone_message(html)


def _gone_message(html: str) -> str:
    """The one thing a phone at a table link gone is told (its status, above the hand),
    as read: no refusal above it, no note under the hand."""
    told = re.findall(r"<p [^>]*data-table-closed[^>]*>(.*?)</p>", html, re.S)
    assert len(told) == 1 and "data-refused" not in html and "data-closed-note" not in html
    hidden = r"<strong [^>]*data-hand-fate[^>]* hidden>\s*</strong>"  # nothing said of it
    return " ".join(unescape(re.sub(hidden + "|<[^>]+>", "", told[0])).split())


@pytest.mark.parametrize("method", ["get", "post"], ids=["reloaded", "handed in"])
def test_the_page_at_a_link_gone_replays_the_sessions_rounds_once(
    table: GameSession, method: str
) -> None:
    for _ in range(3):
        play(table, "8S", ROUND_1)
    phone = seat_phone(table, "Ben")
    data = hand_data(table, "Ben", "shown", SHOWN_8S)
    old_hand_url = url("table_hand", table)
    close_table(table)

    with CaptureQueriesContext(connection) as queries:
        response = getattr(phone, method)(old_hand_url, data if method == "post" else None)

    assert response.status_code == 410 and "Ben's hand" in response.text
    replays = [query for query in queries if '"games_handentry"."score"' in query["sql"]]
    assert len(replays) == 1


def test_a_hand_sent_to_a_table_link_that_never_was_is_a_404(table: GameSession) -> None:
    phone = seat_phone(table, "Ben")
    data = hand_data(table, "Ben", "shown", SHOWN_8S)

    never = reverse("games:table_hand", args=[new_share_token()])
    assert phone.post(never, data).status_code == 404
    # Nor does a phone that held no seat at a closed table learn anything from it.
    old_hand_url = url("table_hand", table)
    close_table(table)
    assert Client().post(old_hand_url, data).status_code == 404


def test_a_phone_opening_its_hand_page_after_the_link_went_is_told_why(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    old_hand_url = url("table_hand", table)
    close_table(table)  # which drops the hands kept so far

    response = phone.get(old_hand_url)  # the phone reloads its page

    html = response.content.decode()
    assert response.status_code == 410
    # Closed, and what to do; what became of the hand is the phone's to say (static/js/drafts.js).
    assert _gone_message(html) == (
        "The scorer closed table mode, so this link takes no more hands. Show your hand to "
        "the scorer, who enters the round."
    )
    assert "Ben's hand" in html
    assert "/hand/status/" not in html and "data-save" not in html
    _only_shown(html)
    # Anyone else, or a link that never was, learns nothing.
    assert Client().get(old_hand_url).status_code == 404
    never = reverse("games:table_hand", args=[new_share_token()])
    assert phone.get(never).status_code == 404


@pytest.mark.parametrize("htmx", [False, True], ids=["no JavaScript", "htmx"])
@pytest.mark.parametrize(
    ("scorer_does", "told"),
    [
        ("close", "The scorer closed table mode: every seat is free, so this phone has none"),
        ("replace", "The scorer made a new table link: every seat is free, so this phone has"),
    ],
)
def test_leaving_a_seat_after_its_link_went_is_told_why_not_a_404(
    table: GameSession, scorer_does: str, told: str, htmx: bool
) -> None:
    phone = seat_phone(table, "Ben")
    old_leave_url = url("table_leave", table)
    {"close": close_table, "replace": replace_table_link}[scorer_does](table)

    response = phone.post(old_leave_url, headers={"HX-Request": "true"} if htmx else {})

    html = response.content.decode()
    if htmx:
        _told_in_place(response)
    else:
        assert response.status_code == 410 and 'id="seat-hand"' in html and "<html" in html
        assert "Ben's hand" in html
        assert "/hand/status/" not in html and "data-save" not in html
        assert "data-leave" not in html
    assert _gone_message(html).startswith(told)
    table.refresh_from_db()
    assert table.table_token is None or table.table_token not in html  # never the new link
    # Tapped again (a reload that posts again): the same words, not a 404.
    assert phone.post(old_leave_url).status_code == 410
    # A phone that held no seat at that link learns nothing from it.
    assert Client().post(old_leave_url).status_code == 404


def test_a_phone_at_a_replaced_link_never_sees_the_hand_the_seats_new_holder_types(
    table: GameSession,
) -> None:
    old_phone = seat_phone(table, "Ben")
    old_hand_url = url("table_hand", table)
    replace_table_link(table)
    table.refresh_from_db()
    new_phone = seat_phone(table, "Ben")  # Ben's seat, taken again on the new link
    typed = new_phone.post(
        url("table_hand_preview", table),
        hand_data(table, "Ben", "shown", SHOWN_8S),
        headers={"HX-Request": "true"},
    )
    assert typed.status_code == 200 and TableHand.objects.filter(text__isnull=False).exists()

    html = old_phone.get(old_hand_url).content.decode()

    assert "The scorer made a new table link" in html
    assert SHOWN_8S not in html


def test_a_live_check_from_a_link_already_gone_is_told_so_and_keeps_nothing(
    table: GameSession,
) -> None:
    phone = seat_phone(table, "Ben")
    old_preview = url("table_hand_preview", table)  # the page this phone has open
    replace_table_link(table)

    checked = phone.post(
        old_preview,
        hand_data(table, "Ben", "shown", SHOWN_8S[:20]),
        headers={"HX-Request": "true"},
    )

    _told_in_place(checked)
    assert _gone_message(checked.content.decode()).startswith("The scorer made a new table link")
    assert not TableHand.objects.filter(text__isnull=False).exists()
