"""The database going away mid-request, on PostgreSQL: the user
gets a friendly page, no half-written round is left, and the app recovers by itself
when the database returns. A proxy between the live server and PostgreSQL is cut
and restored, so the failure is a real dropped connection."""

from __future__ import annotations

import http.cookies
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import Client

from games.models import HandEntry, Round
from tests.support.builders import make_session, round_data
from tests.support.faultproxy import FaultProxy
from tests.support.hands import ROUND_1

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a network database fault"),
]


class Browser:
    """A tiny cookie-keeping HTTP client for the live server."""

    def __init__(self, base: str, cookies: dict[str, str]) -> None:
        self.base = base
        self.cookies = dict(cookies)

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            body = urlencode(data).encode()
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                status, text = response.status, response.read().decode()
                headers_in = response.headers
        except urllib.error.HTTPError as error:
            status, text, headers_in = error.code, error.read().decode(), error.headers
        for header in headers_in.get_all("Set-Cookie") or []:
            jar = http.cookies.SimpleCookie(header)
            self.cookies.update({key: morsel.value for key, morsel in jar.items()})
        return status, text


@pytest.fixture
def proxy():
    """Route new database connections through a proxy the test can cut, kept open
    between requests as in production (persistent connections, health checks)."""
    settings = connections.settings["default"]
    saved = settings["HOST"], settings["PORT"], settings["CONN_MAX_AGE"]
    fault = FaultProxy(settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432))
    settings["HOST"], settings["PORT"] = "127.0.0.1", str(fault.port)
    settings["CONN_MAX_AGE"], settings["CONN_HEALTH_CHECKS"] = 60, True
    yield fault
    fault.restore()
    settings["HOST"], settings["PORT"], settings["CONN_MAX_AGE"] = saved
    fault.close()
    connections.close_all()


def test_a_lost_database_gets_a_friendly_page_and_the_app_recovers(live_server, user: User, proxy):
    session = make_session(user)
    client = Client()
    client.force_login(user)
    browser = Browser(live_server.url, {"sessionid": client.cookies["sessionid"].value})
    page = f"/sessions/{session.pk}/"
    assert browser.request(page)[0] == 200

    proxy.cut()
    status, text = browser.request(page)
    assert status == 503
    assert "Nothing you just sent was saved" in text

    proxy.restore()
    status, text = browser.request(page)
    assert status == 200  # reconnected by itself, no restart
    assert "Round 1" in text


def test_a_save_cut_off_midway_leaves_no_half_written_round(
    live_server, user: User, proxy, monkeypatch
):
    session = make_session(user)
    client = Client()
    client.force_login(user)
    browser = Browser(live_server.url, {"sessionid": client.cookies["sessionid"].value})
    assert browser.request(f"/sessions/{session.pk}/")[0] == 200  # sets the CSRF cookie

    # The round row is written, then the database goes away before the hands are.
    real_bulk_create = HandEntry.objects.bulk_create

    def cut_then_write(*args, **kwargs):
        proxy.cut()
        return real_bulk_create(*args, **kwargs)

    monkeypatch.setattr(HandEntry.objects, "bulk_create", cut_then_write)
    status, text = browser.request(
        f"/sessions/{session.pk}/rounds/", round_data(session, "8S", ROUND_1)
    )
    assert status == 503
    assert "Nothing you just sent was saved" in text

    monkeypatch.undo()
    proxy.restore()
    assert Round.objects.count() == 0 and HandEntry.objects.count() == 0
    # The same round, sent again once the database is back, is saved whole.
    status, _ = browser.request(
        f"/sessions/{session.pk}/rounds/", round_data(session, "8S", ROUND_1)
    )
    assert status in (200, 302)
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3
