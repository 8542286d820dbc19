"""Two real gunicorn workers, as production runs them: whichever worker a phone's
kept-alive connection reaches, a round saved through another is seen at its next
poll, and a sign-out through another is final at once. Without Redis (each worker's
cache is its own memory, so the live answers are not kept at all) and with a Redis
that hangs (SIGSTOP) across a save and a sign-out, then comes back: what it held
from before is never read again (games/live.py, the epoch)."""

from __future__ import annotations

import secrets
import shutil
import time
from pathlib import Path

import pytest

from scorekeeper.cache import RETRY_SECONDS
from tests.support.servers import (
    PASSWORD,
    Browser,
    Club,
    Gunicorn,
    gunicorn,
    manage,
    polls,
    private_redis,
    production_environment,
    save_round,
    set_up_club,
)

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (Debian's redis-server)"
)

# Enough phones that both workers hold some of their connections.
PHONES = 8


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """Static files collected once: production serves them from the manifest."""
    folder = tmp_path_factory.mktemp("collected")
    manage(production_environment(folder), "collectstatic", "--noinput", "-v", "0")
    return folder / "static"


def start_site(tmp_path: Path, static: Path, **env: str) -> tuple[dict[str, str], Club]:
    environ = production_environment(tmp_path, DJANGO_STATIC_ROOT=str(static), **env)
    return environ, set_up_club(environ)


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
