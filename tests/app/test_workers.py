"""Two real gunicorn workers, as production runs them: whichever worker a phone's
kept-alive connection reaches, a round saved through another is seen at its next
poll, and a sign-out through another is final at once. Without Redis (each worker's
cache is its own memory, so the live answers are not kept at all) and with a Redis
that hangs (SIGSTOP) across a save and a sign-out, then comes back: what it held
from before is never read again (games/live.py, the epoch)."""

from __future__ import annotations

import json
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper.cache import RETRY_SECONDS
from tests.support.servers import (
    HIDDEN,
    STAMPED_POLL,
    Browser,
    Gunicorn,
    gunicorn,
    manage,
    private_redis,
    production_environment,
)

# Each test starts servers: on SQLite they run once (CI's SQLite pass).
pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (Debian's redis-server)"
)

PASSWORD = "a-long-club-password"
# A round of three under cut 8S (benchmarks/load.py): Asha declares.
WIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
SHOWN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
# Enough phones that both workers hold some of their connections.
PHONES = 8

SET_UP = """
import json
import django
django.setup()
from django.contrib.auth.models import User
from games.services.sessions import create_session
user = User.objects.create_user("asha", password=PASSWORD)
session = create_session(user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"])
seats = list(session.seats.order_by("position").values_list("pk", flat=True))
print(json.dumps({"pk": session.pk, "token": session.share_token, "seats": seats}))
""".replace("PASSWORD", repr(PASSWORD))


@dataclass
class Club:
    pk: int
    token: str
    seats: list[int]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """Static files collected once: production serves them from the manifest."""
    folder = tmp_path_factory.mktemp("collected")
    manage(production_environment(folder), "collectstatic", "--noinput", "-v", "0")
    return folder / "static"


def start_site(tmp_path: Path, static: Path, **env: str) -> tuple[dict[str, str], Club]:
    environ = production_environment(tmp_path, DJANGO_STATIC_ROOT=str(static), **env)
    manage(environ, "migrate", "--noinput", "-v", "0")
    found = json.loads(manage(environ, "shell", "-c", SET_UP).strip().splitlines()[-1])
    return environ, Club(found["pk"], found["token"], found["seats"])


def phones(server: Gunicorn, cookies: dict[str, str], marker: str) -> list[Browser]:
    """PHONES browsers with ``cookies``, each on a connection of its own, checked to
    reach both workers between them (more are opened until they do)."""
    opened: list[Browser] = []
    while len(opened) < PHONES or len(server.pids_of(marker)) < 2:
        if len(opened) >= 40:
            pytest.fail("every connection went to one worker")
        browser = Browser(server.port, dict(cookies))
        browser.get(f"/hello-{marker}-{len(opened)}/")  # a 404, logged with its worker
        opened.append(browser)
    return opened


def save_round(browser: Browser, club: Club) -> None:
    page = browser.get(f"/sessions/{club.pk}/")
    data = dict(HIDDEN.findall(page.body))
    data["cut_joker"] = "8S"
    for seat, (outcome, groups) in zip(
        club.seats, [("declared", WIN), ("shown", SHOWN), ("first_drop", "")], strict=True
    ):
        data[f"outcome_{seat}"] = outcome
        data[f"groups_{seat}"] = groups
    answer = browser.post(f"/sessions/{club.pk}/rounds/", data, **{"HX-Request": "true"})
    assert answer.status == 200 and "saved." in answer.body, answer.body[:500]


def polls(browser: Browser, club: Club) -> tuple[str, str]:
    """The session page's and the share page's poll addresses, with their stamps."""
    session = STAMPED_POLL.search(browser.get(f"/sessions/{club.pk}/").body)
    shared = STAMPED_POLL.search(Browser(browser.port).get(f"/shared/{club.token}/").body)
    return session[1].replace("&amp;", "&"), shared[1].replace("&amp;", "&")


def statuses(browsers: list[Browser], path: str, **headers) -> list[int]:
    return [browser.get(path, **headers).status for browser in browsers]


def signed_in_cookie(server: Gunicorn) -> str:
    browser = Browser(server.port)
    browser.sign_in("asha", PASSWORD)
    return browser.cookies["sessionid"]


def sign_out(server: Gunicorn, cookie: str) -> None:
    Browser(server.port, {"sessionid": cookie}).sign_out()


def test_without_redis_two_workers_never_answer_from_a_stale_memory(
    tmp_path: Path, prepared: Path
) -> None:
    environ, club = start_site(tmp_path, prepared)
    with gunicorn(environ, tmp_path, workers=2) as server:
        scorer = Browser(server.port)
        scorer.sign_in("asha", PASSWORD)
        session_poll, share_poll = polls(scorer, club)
        table = phones(server, scorer.cookies, "table")
        assert set(statuses(table, session_poll)) == {204}
        assert set(statuses(table, share_poll)) == {204}

        save_round(scorer, club)

        # Every phone's next poll, whichever worker holds its connection, gets round 1.
        assert statuses(table, session_poll) == [200] * len(table)
        assert statuses(table, share_poll) == [200] * len(table)

        # A sign-out on one worker: the old cookie is refused by both, at once.
        session_poll, _ = polls(scorer, club)
        cookie = signed_in_cookie(server)
        following = phones(server, {"sessionid": cookie}, "following")
        assert set(statuses(following, session_poll)) == {204}
        sign_out(server, cookie)
        assert {answer for answer in statuses(following, session_poll)} == {302}
        assert {answer for answer in statuses(following, f"/sessions/{club.pk}/")} == {302}


def test_a_redis_that_hangs_across_a_save_and_sign_outs_leaves_nothing_stale(
    tmp_path: Path, prepared: Path
) -> None:
    with private_redis() as redis:
        environ, club = start_site(
            tmp_path, prepared, REDIS_URL=redis.url, DJANGO_CACHE_PREFIX=secrets.token_hex(4)
        )
        with gunicorn(environ, tmp_path, workers=2) as server:
            scorer = Browser(server.port)
            scorer.sign_in("asha", PASSWORD)
            session_poll, share_poll = polls(scorer, club)
            table = phones(server, scorer.cookies, "table")
            viewers = phones(server, {}, "viewers")
            assert set(statuses(table, session_poll)) == {204}
            assert set(statuses(viewers, share_poll)) == {204}

            # Before the pause: a sign-out on one worker holds on the other.
            before = signed_in_cookie(server)
            assert set(statuses(phones(server, {"sessionid": before}, "b"), session_poll)) == {204}
            sign_out(server, before)
            assert set(statuses(phones(server, {"sessionid": before}, "b2"), session_poll)) == {302}
            during, after = signed_in_cookie(server), signed_in_cookie(server)
            holding = phones(server, {"sessionid": during}, "during")
            assert set(statuses(holding, session_poll)) == {204}

            with redis.paused():
                save_round(scorer, club)
                sign_out(server, during)
                assert statuses(table, session_poll) == [200] * len(table)
                assert statuses(viewers, share_poll) == [200] * len(viewers)
                assert set(statuses(holding, session_poll)) == {302}
                # Long enough that every worker reads the epoch again before Redis is
                # back (games/live.py reads it at most EPOCH_SECONDS apart).
                time.sleep(1.5)

            # Back: what Redis held from before the save and the sign-out is not read.
            assert statuses(table, session_poll) == [200] * len(table)
            assert statuses(viewers, share_poll) == [200] * len(viewers)
            assert set(statuses(holding, session_poll)) == {302}
            sign_out(server, after)  # and a sign-out now, with Redis answering
            assert set(statuses(phones(server, {"sessionid": after}, "a"), session_poll)) == {302}

            # Once the workers try Redis again, the new table is answered from it.
            time.sleep(RETRY_SECONDS + 0.5)
            new_session_poll, new_share_poll = polls(scorer, club)
            assert new_session_poll != session_poll
            statuses(table, new_session_poll)  # the database answers and heals
            assert set(statuses(table, new_session_poll)) == {204}
            assert set(statuses(viewers, new_share_poll)) == {204}
            assert statuses(viewers, share_poll) == [200] * len(viewers)
