"""What the admin changes, the pages following a session live show from their next
poll: an admin edit that changes what a table shows moves its stamps as every other
write does (games.services.results.mark_changed, games/live.py), so no cached
"unchanged" is answered for the table as it was."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, League, Membership, Player, TableHand
from games.services.table import open_table
from tests.support.builders import make_session, play
from tests.support.forms import form_on
from tests.support.hands import ROUND_1
from tests.support.queries import beyond_the_sign_in
from tests.support.table import hand_data, seat_phone, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


def admin_save(client: Client, obj, **changes: str | None) -> None:
    """Submit the object's admin change form with ``changes`` (None: a box unticked),
    the rest as the page holds it."""
    page = reverse(f"admin:games_{obj._meta.model_name}_change", args=[obj.pk])
    data = form_on(client, page, "").data()
    for name, value in changes.items():
        data.pop(name, None)
        if value is not None:
            data[name] = [value]
    response = client.post(page, data)
    assert response.status_code == 302, response.content.decode()[:3000]


def stamped(client: Client, page: str, poll: str) -> str:
    """The stamped address of the ``poll`` view that ``page`` holds."""
    html = client.get(page).content.decode()
    for found in re.findall(r'hx-get="([^"]*[?&;]v=[^"]*)"', html):
        address = found.replace("&amp;", "&")
        if address.startswith(poll + "?"):
            return address
    raise AssertionError(f"no stamped poll of {poll} on {page}")


def answer(client: Client, address: str) -> tuple[int, str, bool]:
    """A poll's status, body and whether it made a query but the sign-in's."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address, headers={"HX-Request": "true"})
    return response.status_code, response.content.decode(), bool(beyond_the_sign_in(queries))


@pytest.fixture
def followed(user: User, scorer: Client, django_capture_on_commit_callbacks):
    """Friday, a round saved and table mode open, followed live on the scorer's page
    (score table and table panel), on the share page and on Ben's seat phone, each
    poll answered from the cache by now: the session, and each poll's client and
    address."""
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, name="Friday")
        play(session, "8S", ROUND_1)
        open_table(session)
        phone = seat_phone(session, "Ben")
    session = GameSession.objects.get(pk=session.pk)
    page = reverse("games:session_detail", args=[session.pk])
    shared = reverse("games:shared_session", args=[session.share_token])
    viewer = Client()
    polls = {
        "score table": (
            scorer,
            stamped(scorer, page, reverse("games:session_scoreboard", args=[session.pk])),
        ),
        "table panel": (
            scorer,
            stamped(scorer, page, reverse("games:table_panel", args=[session.pk])),
        ),
        "share page": (
            viewer,
            stamped(viewer, shared, reverse("games:shared_scoreboard", args=[session.share_token])),
        ),
        "seat phone": (
            phone,
            stamped(phone, url("table_hand", session), url("table_hand_status", session)),
        ),
    }
    for client, address in polls.values():
        client.get(address, headers={"HX-Request": "true"})
        assert answer(client, address)[0::2] == (204, False)
    return session, polls


def test_a_player_renamed_in_the_admin_shows_on_every_live_page_at_once(
    admin_client: Client, followed, django_capture_on_commit_callbacks
) -> None:
    _session, polls = followed
    ben = Player.objects.get(name="Ben")

    with django_capture_on_commit_callbacks(execute=True):
        admin_save(admin_client, ben, name="Benedict")

    for what, (client, address) in polls.items():
        status, html, _ = answer(client, address)
        assert (what, status) == (what, 200)
        assert "Benedict" in html and ">Ben<" not in html


def test_a_player_saved_unchanged_in_the_admin_moves_nothing(
    admin_client: Client, followed, django_capture_on_commit_callbacks
) -> None:
    _session, polls = followed

    with django_capture_on_commit_callbacks(execute=True):
        admin_save(admin_client, Player.objects.get(name="Ben"))

    for client, address in polls.values():
        assert answer(client, address)[0::2] == (204, False)


def test_a_leagues_auto_save_set_in_the_admin_shows_on_its_tables_panels(
    user: User, admin_client: Client, django_capture_on_commit_callbacks
) -> None:
    league = League.objects.create(name="Club", slug="club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, league=league)
        open_table(session)
    scorer = Client()
    scorer.force_login(user)
    page = reverse("games:session_detail", args=[session.pk])
    address = stamped(scorer, page, reverse("games:table_panel", args=[session.pk]))
    scorer.get(address, headers={"HX-Request": "true"})
    assert answer(scorer, address)[0::2] == (204, False)

    with django_capture_on_commit_callbacks(execute=True):
        admin_save(admin_client, league, table_auto_save="on")

    status, html, _ = answer(scorer, address)
    assert status == 200 and 'data-auto-save="on"' in html


def test_a_hand_deleted_in_the_admin_leaves_the_scorers_panel_at_once(
    admin_client: Client, followed, django_capture_on_commit_callbacks
) -> None:
    session, polls = followed
    with django_capture_on_commit_callbacks(execute=True):
        phone = seat_phone(session, "Chen")
        phone.post(
            url("table_hand_preview", session),
            hand_data(session, "Chen", "first_drop", "", number=2),
        )
    scorer, address = polls["table panel"]
    address = stamped(
        scorer,
        reverse("games:session_detail", args=[session.pk]),
        reverse("games:table_panel", args=[session.pk]),
    )
    scorer.get(address, headers={"HX-Request": "true"})
    assert answer(scorer, address)[0::2] == (204, False)

    hand = TableHand.objects.get()
    delete = reverse("admin:games_tablehand_delete", args=[hand.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.post(delete, {"post": "yes"}).status_code == 302

    status, html, _ = answer(scorer, address)
    assert status == 200 and 'data-table-seat="Chen" data-state="waiting"' in html
