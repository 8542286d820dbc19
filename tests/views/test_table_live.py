"""Table mode's polls answered from the cache (games/live.py): the scorer's panel and
each seat's phone are told "nothing new" without a query while nothing changed, and
every write to the table (a seat picked or freed, a hand typed, the cut, the link
replaced, a role taken away) is seen from the next poll on."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, League, Membership
from games.services.leagues import change_role
from games.services.table import replace_table_link
from tests.support.builders import make_session
from tests.support.queries import beyond_the_sign_in
from tests.support.table import hand_data, seat_phone, table_link, url

pytestmark = pytest.mark.django_db


def poll(client: Client, address: str) -> tuple[int, bool]:
    """The status of a poll, and whether it made any query but the sign-in's."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address, headers={"HX-Request": "true"})
    return response.status_code, bool(beyond_the_sign_in(queries))


def panel_poll(client: Client, session: GameSession) -> str:
    html = client.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    return re.search(r'hx-get="([^"]*/table/\?[^"]*)"', html)[1].replace("&amp;", "&")


def seat_poll(phone: Client, session: GameSession) -> str:
    html = phone.get(url("table_hand", session)).content.decode()
    return re.search(r'hx-get="([^"]*/hand/status/\?[^"]*)"', html)[1].replace("&amp;", "&")


@pytest.fixture
def opened(user, django_capture_on_commit_callbacks) -> GameSession:
    """A session started and its table mode opened, both committed as requests are."""
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, name="Friday")
        table_link(session)
    return GameSession.objects.get(pk=session.pk)


def test_the_scorers_panel_is_answered_from_the_cache_until_the_table_changes(
    scorer: Client, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    address = panel_poll(scorer, opened)
    assert poll(scorer, address) == (204, True)  # the database says who may see it
    assert poll(scorer, address) == (204, False)

    with django_capture_on_commit_callbacks(execute=True):
        phone = seat_phone(opened, "Chen")  # a seat picked is news at once
    assert poll(scorer, address)[0] == 200

    address = panel_poll(scorer, opened)  # the new panel's stamp, kept by that answer
    assert poll(scorer, address) == (204, False)
    with django_capture_on_commit_callbacks(execute=True):  # a hand being typed
        phone.post(url("table_hand_preview", opened), hand_data(opened, "Chen", "first_drop", ""))
    assert poll(scorer, address)[0] == 200


def test_a_scorer_made_viewer_is_refused_the_panel_at_once(
    user, django_capture_on_commit_callbacks
) -> None:
    from django.contrib.auth.models import User

    league = League.objects.create(name="Club", slug="club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    ben = User.objects.create_user("ben", password="x")
    membership = Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, league=league)
        table_link(session)
    scorer = Client()
    scorer.force_login(ben)
    address = panel_poll(scorer, session)
    assert [poll(scorer, address) for _ in range(2)] == [(204, True), (204, False)]

    with django_capture_on_commit_callbacks(execute=True):
        change_role(membership, Membership.Role.VIEWER)

    assert poll(scorer, address)[0] == 403


def test_a_seats_phone_is_answered_from_the_cache_until_its_hand_or_round_changes(
    scorer: Client, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        phone, other = seat_phone(opened, "Asha"), seat_phone(opened, "Ben")
    address = seat_poll(phone, opened)
    assert [poll(phone, address) for _ in range(2)] == [(204, True), (204, False)]

    with django_capture_on_commit_callbacks(execute=True):  # another seat's hand, no cut
        other.post(
            url("table_hand_preview", opened), hand_data(opened, "Ben", "first_drop", "", cut="")
        )
    # Nothing changed for this phone: the database says so once, then the cache.
    assert [poll(phone, address) for _ in range(2)] == [(204, True), (204, False)]

    with django_capture_on_commit_callbacks(execute=True):  # the scorer enters the cut
        scorer.post(reverse("games:table_cut", args=[opened.pk]), {"cut_joker": "8S", "number": 1})
    status, _ = poll(phone, address)
    assert status == 200  # the table's cut joker comes along


def test_a_freed_seat_or_a_replaced_link_ends_the_answers(
    scorer: Client, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        phone, other = seat_phone(opened, "Asha"), seat_phone(opened, "Ben")
    mine, theirs = seat_poll(phone, opened), seat_poll(other, opened)
    for client, address in ((phone, mine), (other, theirs)):
        assert [poll(client, address) for _ in range(2)] == [(204, True), (204, False)]

    release = reverse("games:table_release", args=[opened.pk])
    with django_capture_on_commit_callbacks(execute=True):
        scorer.post(release, {"seat": opened.seats.get(player__name="Asha").pk})
    assert poll(phone, mine)[0] == 200  # htmx is sent back to pick a seat
    assert phone.get(mine).status_code == 302

    with django_capture_on_commit_callbacks(execute=True):
        replace_table_link(opened)
    # The old link's poll is no longer answered "unchanged": told it no longer works.
    response = other.get(theirs, headers={"HX-Request": "true"})
    assert response.status_code == 410 and "data-table-closed" in response.content.decode()


def test_the_tables_polls_say_nothing_new_is_not_to_be_kept(
    scorer: Client, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        phone = seat_phone(opened, "Asha")
    panel, seat = panel_poll(scorer, opened), seat_poll(phone, opened)
    for _ in range(2):  # the database's answer, then the cache's
        answer = scorer.get(panel, headers={"HX-Request": "true"})
        assert (answer.status_code, answer["Cache-Control"]) == (204, "private, no-cache")
        answer = phone.get(seat, headers={"HX-Request": "true"})
        expected = (204, "private, no-cache, no-store")  # the table link is the key
        assert (answer.status_code, answer["Cache-Control"]) == expected


def test_the_auto_save_switch_shows_on_the_scorers_other_phones_before_any_hand(
    scorer: Client, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    """No phone has started the round, so no table round exists to move: the panel
    still follows the switch, from the cache's answer on."""
    other = Client()
    other.force_login(opened.created_by)
    address = panel_poll(other, opened)
    assert [poll(other, address) for _ in range(2)] == [(204, True), (204, False)]

    with django_capture_on_commit_callbacks(execute=True):
        scorer.post(reverse("games:table_auto_save", args=[opened.pk]), {"auto_save": "on"})

    answer = other.get(address, headers={"HX-Request": "true"})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'data-auto-save="on"' in html and 'id="table-auto-save" ' in html
    assert "the round then saves itself if it checks" in html
    address = panel_poll(other, opened)
    assert poll(other, address) == (204, False)  # the answer kept its new stamp


def test_a_leagues_auto_save_shows_on_its_sessions_panels(
    user, django_capture_on_commit_callbacks
) -> None:
    from games.services.leagues import update_rules

    league = League.objects.create(name="Club", slug="club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, league=league)
        table_link(session)
    scorer = Client()
    scorer.force_login(user)
    address = panel_poll(scorer, session)
    assert [poll(scorer, address) for _ in range(2)] == [(204, True), (204, False)]

    with django_capture_on_commit_callbacks(execute=True):
        update_rules(
            league,
            name=league.name,
            preset=league.preset,
            overrides=league.overrides,
            money_per_point=league.money_per_point,
            table_auto_save=True,
        )

    answer = scorer.get(address, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'data-auto-save="on"' in answer.content.decode()


def test_a_seats_unchanged_poll_is_one_cache_read(
    opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    from django.core.cache import cache

    with django_capture_on_commit_callbacks(execute=True):
        phone = seat_phone(opened, "Asha")
    address = seat_poll(phone, opened)
    assert poll(phone, address) == (204, True)

    with mock.patch("games.live.cache", wraps=cache) as counted:
        assert poll(phone, address) == (204, False)
    assert len(counted.method_calls) == 1  # the table's generation and the seat's answer


def test_a_seats_poll_naming_another_session_is_asked_of_the_database(
    user, opened: GameSession, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        other = make_session(user, name="Saturday")
        table_link(other)
        phone, stranger = seat_phone(opened, "Asha"), seat_phone(other, "Asha")
    address = seat_poll(phone, opened)
    poll(phone, address)
    poll(stranger, seat_poll(stranger, other))  # an answer kept for the other table
    elsewhere = address.replace(f"s={opened.pk}&", f"s={other.pk}&")
    assert elsewhere != address

    # Its table's generation is never read for this one, nor an answer kept under it.
    assert [poll(phone, elsewhere) for _ in range(2)] == [(204, True), (204, True)]
    assert [poll(phone, address.replace(f"s={opened.pk}&", "")) for _ in range(2)] == [
        (204, True),
        (204, True),
    ]
    assert poll(phone, address) == (204, False)
