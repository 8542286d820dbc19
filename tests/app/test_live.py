"""A live poll whose table is current is answered from the cache, with no query; any
change, a replaced share link, a deleted session or a cache that is down takes the
database path, so the answer is never stale (games/live.py)."""

from __future__ import annotations

import re
from decimal import Decimal
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession
from games.services.sessions import replace_share_token, set_stakes
from tests.support.builders import play
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


def session_poll(session: GameSession, stamp: str) -> str:
    return reverse("games:session_scoreboard", args=[session.pk]) + f"?v={stamp}"


def share_poll(token: str, stamp: str) -> str:
    return reverse("games:shared_scoreboard", args=[token]) + f"?v={stamp}"


def page_stamp(client: Client, session: GameSession) -> str:
    html = client.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    return re.search(r'data-stamp="(\d+)"', html)[1]


def saved(session: GameSession, django_capture_on_commit_callbacks) -> GameSession:
    """A round saved as a request would: committed, so the cache has its stamp."""
    with django_capture_on_commit_callbacks(execute=True):
        play(session, "8S", ROUND_1)
    return GameSession.objects.get(pk=session.pk)


def test_an_unchanged_poll_is_answered_without_a_query(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    with CaptureQueriesContext(connection) as queries:
        response = scorer.get(session_poll(table, stamp))
    assert response.status_code == 204
    assert [q["sql"] for q in queries] == []
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(share_poll(table.share_token, stamp))
    assert response.status_code == 204
    assert [q["sql"] for q in queries] == []


def test_after_a_change_the_old_stamp_gets_the_new_table(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    saved(table, django_capture_on_commit_callbacks)  # round 2, from another phone
    response = scorer.get(session_poll(table, stamp))
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()
    response = Client().get(share_poll(table.share_token, stamp))
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()


def test_a_change_rolled_back_leaves_the_cached_stamp_alone(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        set_stakes(table, money_per_point=Decimal("0.5"), buy_in=None)
        transaction.set_rollback(True)
    assert scorer.get(session_poll(table, stamp)).status_code == 204


def test_signed_out_a_current_stamp_still_asks_to_sign_in(
    client: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = str(int(table.updated_at.timestamp() * 1_000_000))
    response = client.get(session_poll(table, stamp))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_replaced_share_link_is_refused_even_with_a_current_stamp(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    old = table.share_token
    with django_capture_on_commit_callbacks(execute=True):
        new = replace_share_token(table)
    stamp = page_stamp(scorer, GameSession.objects.get(pk=table.pk))
    assert Client().get(share_poll(old, stamp)).status_code == 404
    assert Client().get(share_poll(new, stamp)).status_code == 204


def test_a_deleted_session_is_not_found_whatever_the_stamp(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    pk, token = table.pk, table.share_token
    with django_capture_on_commit_callbacks(execute=True):
        table.delete()
    assert (
        scorer.get(reverse("games:session_scoreboard", args=[pk]) + f"?v={stamp}").status_code
        == 404
    )
    assert Client().get(share_poll(token, stamp)).status_code == 404


def test_with_the_cache_down_polls_read_the_database(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    with mock.patch.object(cache, "set_many", side_effect=ConnectionError("cache down")):
        table = saved(table, django_capture_on_commit_callbacks)  # the save still stands
    stamp = page_stamp(scorer, table)
    with mock.patch.object(cache, "get", side_effect=ConnectionError("cache down")):
        assert scorer.get(session_poll(table, stamp)).status_code == 204
        assert Client().get(share_poll(table.share_token, stamp)).status_code == 204
        saved(table, django_capture_on_commit_callbacks)
        assert scorer.get(session_poll(table, stamp)).status_code == 200
