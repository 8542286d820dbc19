"""A live poll whose table is current is answered from the cache, with no query; any
change, a replaced share link, a deleted session or a cache that is down takes the
database path, so the answer is never stale (games/live.py). A signed-in poll is
answered from the cache only for a browser the database found may see the session,
and no longer once it signed out, lost its role or the session moved."""

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

from games.models import GameSession, League, Membership
from games.services.leagues import change_role, remove_member
from games.services.sessions import replace_share_token, set_stakes
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.queries import beyond_the_sign_in

pytestmark = pytest.mark.django_db


# A poll is htmx's request, as the pages make it: answered in the page's language
# without asking the database which that is (scorekeeper/languages.py).
HTMX = {"HX-Request": "true", "X-Page-Language": "en"}


def only_the_sign_in(queries: CaptureQueriesContext) -> bool:
    """Whether the queries were no more than the sign-in's (one, at most)."""
    return not beyond_the_sign_in(queries) and len(queries) <= 1


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


def test_an_unchanged_poll_is_answered_by_the_cache_and_the_sign_in_alone(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    # The first poll asks the database who may see the table; the next ones need not.
    assert scorer.get(session_poll(table, stamp), headers=HTMX).status_code == 204
    with CaptureQueriesContext(connection) as queries:
        response = scorer.get(session_poll(table, stamp), headers=HTMX)
    assert response.status_code == 204
    assert only_the_sign_in(queries), [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(share_poll(table.share_token, stamp), headers=HTMX)
    assert response.status_code == 204
    assert [q["sql"] for q in queries] == []


def test_after_a_change_the_old_stamp_gets_the_new_table(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    saved(table, django_capture_on_commit_callbacks)  # round 2, from another phone
    response = scorer.get(session_poll(table, stamp), headers=HTMX)
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()
    response = Client().get(share_poll(table.share_token, stamp), headers=HTMX)
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()


def test_a_change_rolled_back_leaves_the_cached_stamp_alone(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        set_stakes(table, money_per_point=Decimal("0.5"), buy_in=None)
        transaction.set_rollback(True)
    assert scorer.get(session_poll(table, stamp), headers=HTMX).status_code == 204


def test_signed_out_a_current_stamp_still_asks_to_sign_in(
    client: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = str(int(table.updated_at.timestamp() * 1_000_000))
    response = client.get(session_poll(table, stamp), headers=HTMX)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_replaced_share_link_is_refused_even_with_a_current_stamp(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    old = table.share_token
    with django_capture_on_commit_callbacks(execute=True):
        new = replace_share_token(table)
    stamp = page_stamp(scorer, GameSession.objects.get(pk=table.pk))
    assert Client().get(share_poll(old, stamp), headers=HTMX).status_code == 404
    assert Client().get(share_poll(new, stamp), headers=HTMX).status_code == 204


def test_a_deleted_session_is_not_found_whatever_the_stamp(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    pk, token = table.pk, table.share_token
    with django_capture_on_commit_callbacks(execute=True):
        table.delete()
    assert (
        scorer.get(
            reverse("games:session_scoreboard", args=[pk]) + f"?v={stamp}", headers=HTMX
        ).status_code
        == 404
    )
    assert Client().get(share_poll(token, stamp), headers=HTMX).status_code == 404


def test_with_the_cache_down_polls_read_the_database(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    with mock.patch.object(cache, "set_many", side_effect=ConnectionError("cache down")):
        table = saved(table, django_capture_on_commit_callbacks)  # the save still stands
    stamp = page_stamp(scorer, table)
    with mock.patch.object(cache, "get", side_effect=ConnectionError("cache down")):
        assert scorer.get(session_poll(table, stamp), headers=HTMX).status_code == 204
        assert Client().get(share_poll(table.share_token, stamp), headers=HTMX).status_code == 204
        saved(table, django_capture_on_commit_callbacks)
        assert scorer.get(session_poll(table, stamp), headers=HTMX).status_code == 200


# --- Who a poll answered from the cache may reach -----------------------------------


@pytest.fixture
def club(user, django_capture_on_commit_callbacks) -> tuple[League, GameSession]:
    """A league where Asha owns and Ben scores, and one of its sessions, saved."""
    from django.contrib.auth.models import User

    from tests.support.builders import make_session

    league = League.objects.create(name="Club", slug="club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    ben = User.objects.create_user("ben", password="x")
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    session = make_session(user, name="Club night", league=league)
    return league, saved(session, django_capture_on_commit_callbacks)


def signed_in(username: str) -> Client:
    from django.contrib.auth.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def from_the_cache(client: Client, session: GameSession, stamp: str) -> bool:
    """Whether a poll was answered 204 with no query but the sign-in's."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(session_poll(session, stamp), headers=HTMX).status_code
    return status == 204 and only_the_sign_in(queries)


def answered(client: Client, session: GameSession, stamp: str) -> tuple[bool, bool]:
    """Two polls: the first asks the database who may see the table, the second is
    answered from the cache."""
    return client.get(
        session_poll(session, stamp), headers=HTMX
    ).status_code == 204, from_the_cache(client, session, stamp)


@pytest.fixture
def following(club) -> tuple[GameSession, Client, str]:
    """Ben, a scorer of the club, following its session's table: its stamp, the
    first poll asked of the database, the next answered from the cache."""
    _league, session = club
    ben = signed_in("ben")
    stamp = page_stamp(ben, session)
    assert answered(ben, session, stamp) == (True, True)
    return session, ben, stamp


def test_a_signed_in_non_member_holding_a_current_stamp_is_told_nothing(
    following, django_capture_on_commit_callbacks
) -> None:
    session, _ben, stamp = following

    from django.contrib.auth.models import User

    User.objects.create_user("mallory", password="x")
    mallory = signed_in("mallory")
    assert [
        mallory.get(session_poll(session, stamp), headers=HTMX).status_code for _ in range(2)
    ] == [404, 404]


def test_a_member_removed_is_told_nothing_from_the_next_poll_on(
    following, django_capture_on_commit_callbacks
) -> None:
    session, ben, stamp = following

    with django_capture_on_commit_callbacks(execute=True):
        remove_member(Membership.objects.get(user__username="ben"))

    assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 404


def test_a_role_changed_is_checked_again_and_still_answered(
    following, django_capture_on_commit_callbacks
) -> None:
    session, ben, stamp = following
    with django_capture_on_commit_callbacks(execute=True):
        change_role(Membership.objects.get(user__username="ben"), Membership.Role.VIEWER)

    with CaptureQueriesContext(connection) as queries:
        assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 204
    assert not only_the_sign_in(queries)  # the database was asked again
    assert from_the_cache(ben, session, stamp)


def test_signing_out_stops_the_answers_at_once(following) -> None:
    session, ben, stamp = following
    cookie = ben.cookies["sessionid"].value

    ben.post(reverse("logout"))
    stolen = Client()
    stolen.cookies["sessionid"] = cookie  # the old sign-in's cookie, sent again

    assert stolen.get(session_poll(session, stamp), headers=HTMX).status_code == 302
    assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 302


def test_a_password_changed_elsewhere_stops_the_answers(
    following, django_capture_on_commit_callbacks
) -> None:
    session, ben, stamp = following

    user = Membership.objects.get(user__username="ben").user
    with django_capture_on_commit_callbacks(execute=True):
        user.set_password("a-new-one-entirely")
        user.save()

    assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 302


def test_a_session_moved_to_another_league_is_checked_again(
    following, django_capture_on_commit_callbacks
) -> None:
    session, ben, _stamp = following
    other = League.objects.create(name="Other", slug="other", preset="21-points")
    with django_capture_on_commit_callbacks(execute=True):
        session.league = other
        session.save()
    moved = str(int(GameSession.objects.get(pk=session.pk).updated_at.timestamp() * 1_000_000))

    assert ben.get(session_poll(session, moved), headers=HTMX).status_code == 404


def test_a_late_write_of_an_older_stamp_neither_wins_nor_lasts(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    """Two saves of one session commit in lock order, but their on-commit writes to
    the cache may come in either order: the older stamp must not hide the newer
    table from a viewer who still shows the older one."""
    from games import live

    first = saved(table, django_capture_on_commit_callbacks)
    older = page_stamp(scorer, first)
    second = saved(first, django_capture_on_commit_callbacks)
    newer = page_stamp(scorer, second)
    assert newer != older

    # The first save's write, come late, does not put its stamp back.
    live._remember(first)
    assert cache.get(live._key(live.EPOCH.current(), "session", first.pk))[0] == newer
    assert scorer.get(session_poll(first, older), headers=HTMX).status_code == 200

    # Had it got in (a worker paused mid-write), the next up-to-date poll heals it:
    # the share page and the session page each then send the table to an old stamp.
    live._put(live.EPOCH.current(), first, None)
    assert Client().get(share_poll(first.share_token, newer), headers=HTMX).status_code == 204
    assert Client().get(share_poll(first.share_token, older), headers=HTMX).status_code == 200
    live._put(live.EPOCH.current(), first, None)
    assert scorer.get(session_poll(first, newer), headers=HTMX).status_code == 204
    assert scorer.get(session_poll(first, older), headers=HTMX).status_code == 200


@pytest.mark.parametrize(
    "junk", [("too", "short"), ("one", "more", "field", "than", "now", "kept"), 12345, "text"]
)
def test_a_cache_entry_of_another_shape_is_a_miss_not_an_error(following, junk) -> None:
    """After a deploy that changed what an entry holds (or any junk in the cache), a
    poll asks the database, then the cache holds this release's entries again."""
    from games import live

    session, ben, stamp = following
    signin = ben.cookies["sessionid"].value
    epoch = live.EPOCH.current()
    for key in (
        live._key(epoch, "pass", session.pk, signin),
        live._key(epoch, "session", session.pk),
    ):
        cache.set(key, junk)
        with CaptureQueriesContext(connection) as queries:
            assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 204
        assert not only_the_sign_in(queries)  # answered by the database, not a crash
        assert from_the_cache(ben, session, stamp)


def test_nothing_new_is_never_kept_by_a_proxy_or_the_browser(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    """A kept 204 would answer "unchanged" for the poll's address after the table
    changed: every one says so, from the cache or from the database, and a share
    link's (whose address is the key) is not stored at all."""
    from games import live

    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    share = Client()
    for _ in range(2):  # the database's answer, then the cache's
        answer = scorer.get(session_poll(table, stamp), headers=HTMX)
        assert answer.status_code == 204
        assert answer["Cache-Control"] == "private, no-cache"
        answer = share.get(share_poll(table.share_token, stamp), headers=HTMX)
        assert answer.status_code == 204
        assert answer["Cache-Control"] == "private, no-cache, no-store"
    cache.delete(live._key(live.EPOCH.current(), "session", table.pk))
    answer = share.get(share_poll(table.share_token, stamp), headers=HTMX)
    assert (answer.status_code, answer["Cache-Control"]) == (204, "private, no-cache, no-store")


def test_a_replaced_share_link_is_refused_with_the_stamp_its_viewers_hold(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    """The share poll reads the session's entry kept under its token: replacing the
    link takes the old token's entry away, so a viewer of the old link still showing
    the table as it was is refused, not told "unchanged"."""
    table = saved(table, django_capture_on_commit_callbacks)
    old, stamp = table.share_token, page_stamp(scorer, table)
    viewer = Client()
    assert viewer.get(share_poll(old, stamp), headers=HTMX).status_code == 204  # from the cache

    with django_capture_on_commit_callbacks(execute=True):
        replace_share_token(table)

    assert viewer.get(share_poll(old, stamp), headers=HTMX).status_code == 404


def test_a_late_write_from_before_a_new_share_link_is_healed_away(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    """A write of the session as it was before its link was replaced, come late (a
    worker paused mid-write), puts the old link's entry back; the next poll the
    database answers "unchanged" (or the next write) puts the latest back and takes
    the old link's away."""
    from games import live

    before = saved(table, django_capture_on_commit_callbacks)
    old, older = before.share_token, page_stamp(scorer, before)
    with django_capture_on_commit_callbacks(execute=True):
        new = replace_share_token(GameSession.objects.get(pk=table.pk))
    newer = page_stamp(scorer, GameSession.objects.get(pk=table.pk))

    live._put(live.EPOCH.current(), before, None)  # the late write: the old link, the older stamp
    viewer = Client()
    assert (
        viewer.get(share_poll(old, older), headers=HTMX).status_code == 204
    )  # the race's stale answer

    # The scorer's poll finds the older entry: the database answers and heals it.
    assert scorer.get(session_poll(table, newer), headers=HTMX).status_code == 204
    assert viewer.get(share_poll(old, older), headers=HTMX).status_code == 404
    assert Client().get(share_poll(new, newer), headers=HTMX).status_code == 204


# --- A cache that failed while a change committed ------------------------------------


def failing(*names: str):
    """The cache's calls ``names`` refuse, as a Redis that is down or hangs does."""
    return mock.patch.multiple(
        cache, **{name: mock.Mock(side_effect=ConnectionError("cache down")) for name in names}
    )


def test_a_save_the_cache_missed_is_not_hidden_once_the_cache_answers_again(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    """The cache still holds the table from before the save, which it could not be
    told of: once it answers again, a poll with that table's stamp gets the new one,
    on the session page and the share link alike, in this process and any other (the
    epoch, kept in the database, moved)."""
    from games import live
    from games.models import LiveCacheEpoch

    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)
    assert answered(scorer, table, stamp) == (True, True)
    assert Client().get(share_poll(table.share_token, stamp), headers=HTMX).status_code == 204
    epoch = live.EPOCH.current()

    with failing("get", "set_many", "delete_many"):
        saved(table, django_capture_on_commit_callbacks)

    assert LiveCacheEpoch.objects.get().value not in (0, epoch)
    live.EPOCH.forget()  # another process, reading the epoch afresh
    response = scorer.get(session_poll(table, stamp), headers=HTMX)
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()
    response = Client().get(share_poll(table.share_token, stamp), headers=HTMX)
    assert response.status_code == 200 and 'data-round="2"' in response.content.decode()


def test_a_member_removed_while_the_cache_failed_is_told_nothing_once_it_answers(
    following, django_capture_on_commit_callbacks
) -> None:
    session, ben, stamp = following

    with failing("set"), django_capture_on_commit_callbacks(execute=True):
        remove_member(Membership.objects.get(user__username="ben"))

    assert ben.get(session_poll(session, stamp), headers=HTMX).status_code == 404


def test_a_sign_out_while_the_cache_is_down_is_final_once_it_answers(following) -> None:
    session, ben, stamp = following
    cookie = ben.cookies["sessionid"].value

    with failing("get", "set", "delete", "get_many", "set_many", "delete_many"):
        ben.post(reverse("logout"))
    stolen = Client()
    stolen.cookies["sessionid"] = cookie

    assert stolen.get(session_poll(session, stamp), headers=HTMX).status_code == 302


def test_a_replaced_share_link_the_cache_missed_is_refused_once_it_answers(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    table = saved(table, django_capture_on_commit_callbacks)
    old, stamp = table.share_token, page_stamp(scorer, table)
    assert Client().get(share_poll(old, stamp), headers=HTMX).status_code == 204

    with (
        failing("get", "set_many", "delete", "delete_many"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        replace_share_token(table)

    assert Client().get(share_poll(old, stamp), headers=HTMX).status_code == 404


def test_where_processes_do_not_share_the_cache_every_poll_reads_the_database(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks, settings
) -> None:
    """A cache in one process's memory with several processes serving: what one
    process kept would answer its polls after another saved a round."""
    settings.LIVE_CACHE = False
    table = saved(table, django_capture_on_commit_callbacks)
    stamp = page_stamp(scorer, table)

    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert scorer.get(session_poll(table, stamp), headers=HTMX).status_code == 204
        assert not only_the_sign_in(queries)
        with CaptureQueriesContext(connection) as queries:
            assert (
                Client().get(share_poll(table.share_token, stamp), headers=HTMX).status_code == 204
            )
        assert queries
    from games import live

    assert cache.get(live._key(live.EPOCH.current(), "session", table.pk)) is None
