"""The standings and the session page with a points night nobody ended: named above
the table while it runs, counted once it idled six hours, and its scorer asked at the
top of its page before that (games/services/night_end.py)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import GameSession, League, Membership
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(user: User) -> GameSession:
    """A points league's first night: two rounds, never ended."""
    league = League.objects.create(name="Friday Club", slug="friday", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    session = make_session(user, preset="21-points", league=league)
    for _ in range(2):
        play(session, "8S", ROUND_1, user)
    return session


def idle_for(session: GameSession, hours: float) -> None:
    then = timezone.now() - datetime.timedelta(hours=hours)
    session.rounds.update(created_at=then)
    GameSession.objects.filter(pk=session.pk).update(updated_at=then)


def standings(client: Client, session: GameSession) -> str:
    return client.get(
        reverse("games:league_standings", args=[session.league.slug])
    ).content.decode()


def won(html: str, player: str) -> str:
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', html, re.S).group(1)
    return re.search(r"<td data-won>(.*?)</td>", row).group(1)


def test_the_standings_name_a_night_still_running_and_where_to_end_it(
    scorer: Client, night: GameSession
) -> None:
    html = standings(scorer, night)
    notice = re.search(r"<div [^>]*data-running>(.*?)</div>", html, re.S).group(1)
    page = reverse("games:session_detail", args=[night.pk])
    assert f'href="{page}#session-closing"' in notice
    assert "ends by itself at its last round after 6 hours without one" in notice
    assert won(html, "Asha") == "0"


@override_settings(SESSION_IDLE_HOURS=3)
def test_the_standings_count_a_night_idle_for_the_set_hours(
    scorer: Client, night: GameSession
) -> None:
    idle_for(night, 3.5)
    html = standings(scorer, night)
    night.refresh_from_db()
    assert night.status == GameSession.Status.FINISHED
    assert "data-running" not in html
    assert won(html, "Asha") == "1"
    assert re.search(r'<tr data-player="Asha">.*?<td data-rating>(?!–)', html, re.S)


def test_the_downloads_count_it_too(scorer: Client, night: GameSession) -> None:
    idle_for(night, 7)
    scorer.get(reverse("games:league_standings_csv", args=[night.league.slug]))
    night.refresh_from_db()
    assert night.status == GameSession.Status.FINISHED


def test_the_session_page_asks_its_scorer_to_end_the_night(
    scorer: Client, night: GameSession
) -> None:
    page = reverse("games:session_detail", args=[night.pk])
    assert "data-end-night" not in scorer.get(page).content.decode()  # a round just saved
    idle_for(night, 1)
    html = scorer.get(page).content.decode()
    prompt = re.search(r"<section [^>]*data-end-night>(.*?)</section>", html, re.S).group(1)
    assert f'action="{reverse("games:session_close", args=[night.pk])}"' in prompt
    assert ">End the night</button>" in prompt
    # Above the score table: the first thing under the title and rules.
    assert html.index("data-end-night") < html.index('id="round-entry"')
    assert scorer.post(reverse("games:session_close", args=[night.pk])).status_code == 302
    night.refresh_from_db()
    assert night.status == GameSession.Status.FINISHED
