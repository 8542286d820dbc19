"""Two phones at one table: a double tap, a save sent again, deleting a round someone
else changed or editing one deleted meanwhile. Nothing is overwritten or doubled
silently. Every change is recorded in the round's history. (Saving a round another
phone saved first, or an edit over another phone's: test_rounds_clash.py.)"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round, RoundChange
from tests.support.builders import make_session, play, round_data
from tests.support.forms import opened_form
from tests.support.hands import LOOSE_148, ROUND_1, THREE_PURE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
OTHER = {"Asha": ("middle_drop", ""), "Ben": ("declared", THREE_PURE), "Chen": ("shown", LOOSE_148)}


def test_a_double_tap_or_a_retry_saves_one_round(scorer: Client, table: GameSession) -> None:
    create = reverse("games:round_create", args=[table.pk])
    data = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))

    first = scorer.post(create, data, headers=HTMX)
    retried = scorer.post(create, data, headers=HTMX)  # the same form sent again

    assert first.status_code == retried.status_code == 200
    assert "Round 1 saved." in retried.content.decode()
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3
    assert RoundChange.objects.count() == 1


def test_each_form_gets_its_own_submission_token(scorer: Client, table: GameSession) -> None:
    create = reverse("games:round_create", args=[table.pk])
    saved = scorer.post(create, round_data(table, "8S", ROUND_1, **opened_form(scorer, table)))
    assert saved.status_code == 302
    # The next round's form is a new submission: the same hands save as round 2.
    data = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert data["number"] == "2"
    assert scorer.post(create, data).status_code == 302
    assert Round.objects.count() == 2


def test_deleting_a_round_someone_just_edited_is_refused(
    scorer: Client, table: GameSession, user: User
) -> None:
    played = play(table, "8S", ROUND_1)
    edit = reverse("games:round_edit", args=[table.pk, played.pk])
    page = scorer.get(edit).content.decode()
    version = re.search(r'name="version" value="(\d+)"', page)[1]
    assert scorer.post(edit, round_data(table, "8S", ROUND_1, version=version)).status_code == 302

    response = scorer.post(
        reverse("games:round_delete", args=[table.pk, played.pk]), {"version": version}
    )

    assert response.status_code == 302 and response["Location"] == edit
    assert Round.objects.filter(pk=played.pk).exists()
    messages = scorer.get(edit).content.decode()
    assert "Round 1 was saved on another phone by asha meanwhile" in messages


def test_editing_a_round_deleted_meanwhile_says_so(scorer: Client, table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    edit = reverse("games:round_edit", args=[table.pk, played.pk])
    scorer.post(reverse("games:round_delete", args=[table.pk, played.pk]), {"version": 1})

    response = scorer.post(edit, round_data(table, "8S", ROUND_1, version=1), follow=True)

    assert response.status_code == 404  # the round is gone; nothing was recreated
    assert not Round.objects.exists()


def test_an_edit_sent_again_after_its_answer_was_lost_is_not_called_a_clash(
    scorer: Client, table: GameSession
) -> None:
    played = play(table, "8S", ROUND_1)
    edit = reverse("games:round_edit", args=[table.pk, played.pk])
    corrected = round_data(table, "8S", OTHER, version=1)
    assert scorer.post(edit, corrected).status_code == 302

    retried = scorer.post(edit, corrected, follow=True)  # the same form, tapped again

    html = retried.content.decode()
    assert retried.status_code == 200 and "meanwhile" not in html
    played.refresh_from_db()
    assert played.version == 2  # saved once, not twice
    assert RoundChange.objects.filter(action=RoundChange.Action.EDITED).count() == 1


def test_a_delete_sent_again_after_its_answer_was_lost_says_it_is_done(
    scorer: Client, table: GameSession
) -> None:
    played = play(table, "8S", ROUND_1)
    delete = reverse("games:round_delete", args=[table.pk, played.pk])
    assert scorer.post(delete, {"version": 1}).status_code == 302

    retried = scorer.post(delete, {"version": 1}, follow=True)

    assert retried.status_code == 200
    assert retried.redirect_chain[-1][0] == reverse("games:session_detail", args=[table.pk])
    assert "That round is already deleted." in retried.content.decode()
    assert RoundChange.objects.filter(action=RoundChange.Action.DELETED).count() == 1


def test_a_deleted_round_of_a_session_one_may_not_score_stays_hidden(
    table: GameSession, client: Client
) -> None:
    gone = play(table, "8S", ROUND_1).pk
    Round.objects.filter(pk=gone).delete()
    client.force_login(User.objects.create_user("mallory", password="x"))
    response = client.post(reverse("games:round_delete", args=[table.pk, gone]), {"version": 1})
    assert response.status_code == 404


# --- The history of changes ------------------------------------------------------------


def test_every_change_is_recorded_with_who_when_and_what(
    scorer: Client, table: GameSession, user: User
) -> None:
    played = play(table, "8S", ROUND_1, user)
    edit = reverse("games:round_edit", args=[table.pk, played.pk])
    edited = ROUND_1 | {"Chen": ("middle_drop", "")}
    scorer.post(edit, round_data(table, "8S", edited, version=1))
    scorer.post(reverse("games:round_delete", args=[table.pk, played.pk]), {"version": 2})

    created, changed, deleted = RoundChange.objects.order_by("pk")
    assert [c.action for c in (created, changed, deleted)] == ["created", "edited", "deleted"]
    assert {c.changed_by for c in (created, changed, deleted)} == {user}
    assert created.before is None and created.after["cut_joker"] == "8S"
    chen = {e["player"]: e for e in changed.after["entries"]}["Chen"]
    assert chen["outcome"] == "middle_drop" and chen["score"] == -70
    assert changed.before == created.after
    assert deleted.after is None and deleted.before == changed.after
    assert deleted.round is None and deleted.number == 1  # kept after the round is gone


def test_the_history_pages_show_the_changes(scorer: Client, table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    scorer.post(
        reverse("games:round_edit", args=[table.pk, played.pk]),
        round_data(table, "8S", ROUND_1 | {"Chen": ("middle_drop", "")}, version=1),
    )

    session_page = scorer.get(reverse("games:session_history", args=[table.pk]))
    round_page = scorer.get(reverse("games:round_history", args=[table.pk, played.pk]))

    for response in (session_page, round_page):
        html = response.content.decode()
        assert response.status_code == 200
        assert "Round 1 edited</strong>" in html and "Round 1 created</strong>" in html
        assert "Middle drop" in html and "First drop" in html  # after and before
    detail = scorer.get(reverse("games:round_detail", args=[table.pk, played.pk]))
    assert reverse("games:round_history", args=[table.pk, played.pk]) in detail.content.decode()
    assert (
        reverse("games:session_history", args=[table.pk])
        in scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    )


def test_the_history_is_for_those_who_may_see_the_session(client: Client, user: User) -> None:
    table = make_session(user)
    played = play(table, "8S", ROUND_1, user)
    client.force_login(User.objects.create_user("eve", password="x"))
    assert client.get(reverse("games:session_history", args=[table.pk])).status_code == 404
    assert client.get(reverse("games:round_history", args=[table.pk, played.pk])).status_code == 404


def test_an_edit_that_puts_a_player_out_earlier_flags_their_later_hands(
    scorer: Client, user: User
) -> None:
    from tests.support.hands import WIN_13

    pool = make_session(user, preset="13-pool-101")
    # Chen: 80 + 20 = 100 after round 2 (still in), 120 after round 3 (out).
    drops = {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("first_drop", "")}
    play(pool, "7C", drops | {"Ben": ("middle_drop", ""), "Chen": ("invalid_declaration", "")})
    second = play(pool, "7C", drops)
    play(pool, "7C", drops)

    # Round 2 corrected: Chen dropped in the middle (40), so 120 and out in round 2.
    edited = drops | {"Chen": ("middle_drop", "")}
    scorer.post(
        reverse("games:round_edit", args=[pool.pk, second.pk]),
        round_data(pool, "7C", edited, version=1),
    )

    html = scorer.get(reverse("games:session_detail", args=[pool.pk])).content.decode()
    assert "Chen was out before round 3 but has a hand in it" in html
