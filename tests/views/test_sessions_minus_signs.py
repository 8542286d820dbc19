"""Every page that shows a score or a total writes a loss with the minus sign the
charts draw (U+2212), not a hyphen: "−92" reads as wide as "+92" and a screen reader
says "minus 92" on the score table, the table view and the chart's words alike
(games/templatetags/cards.py: `points` and `signed`)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Player
from games.services.leagues import create_league
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Club", preset="21-points", overrides={})


@pytest.fixture
def lost(user: User, club: League) -> GameSession:
    """A session in which Ben and Chen are behind: Ben −92, Chen −30."""
    session = make_session(user, name="Friday", league=club)
    play(session, "8S", ROUND_1)
    return session


def words_on(page: str) -> str:
    """The text a person reads (and a screen reader says): no tags, scripts or styles."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'alt="([^"]*)"', r"> \1 <", page)  # the chart's figures in words
    return html_lib.unescape(re.sub(r"<[^>]*>", " ", page))


def test_every_page_with_scores_writes_losses_with_a_minus_sign(
    scorer: Client, lost: GameSession, club: League
) -> None:
    ben = Player.objects.get(name="Ben", seats__session=lost)
    pages = {
        "session": reverse("games:session_detail", args=[lost.pk]),
        "share": reverse("games:shared_session", args=[lost.share_token]),
        "table view": reverse("games:shared_big", args=[lost.share_token]),
        "round": reverse("games:round_detail", args=[lost.pk, lost.rounds.get().pk]),
        "history": reverse("games:session_history", args=[lost.pk]),
        "player": reverse("games:player_detail", args=[ben.pk]),
        "standings": reverse("games:league_standings", args=[club.slug]),
    }
    for page, url in pages.items():
        response = scorer.get(url)
        assert response.status_code == 200, page
        text = words_on(response.content.decode())
        assert f"{MINUS}92" in text, page
        # No hyphen before a figure anywhere a person reads.
        assert not re.findall(r"(?<![\w-])-\d", text), (page, re.findall(r".{20}-\d+", text))


def test_a_rating_below_zero_is_written_with_a_minus_sign(
    scorer: Client, lost: GameSession, club: League
) -> None:
    from games.models import Rating
    from games.services.sessions import close_session

    close_session(lost)  # ended by the table: the league rates it
    assert Rating.objects.filter(league=club, ordinal__lt=0).exists()
    ben = Player.objects.get(name="Ben", seats__session=lost)
    for url in (
        reverse("games:league_standings", args=[club.slug]),
        reverse("games:player_detail", args=[ben.pk]),
    ):
        text = words_on(scorer.get(url).content.decode())
        assert not re.findall(r"(?<![\w-])-\d", text), (url, re.findall(r".{20}-\d+", text))


def test_a_net_sessions_ceiling_is_said_as_the_total_it_limits(scorer: Client, user: User) -> None:
    """Net totals: a ceiling of 250 limits what a player may lose. Said as "ceiling
    250", Asha's "372 to go" beside her +122 read wrongly; "ceiling −250" reads right."""
    session = make_session(user, name="Capped", ceiling=250)
    play(session, "8S", ROUND_1)  # Asha +122, Ben −92, Chen −30
    pages = {
        "session": reverse("games:session_detail", args=[session.pk]),
        "share": reverse("games:shared_session", args=[session.share_token]),
        "table view": reverse("games:shared_big", args=[session.share_token]),
    }
    for page, url in pages.items():
        text = " ".join(words_on(scorer.get(url).content.decode()).split())
        assert f"ceiling {MINUS}250" in text, page
    text = " ".join(words_on(scorer.get(pages["session"]).content.decode()).split())
    assert "372 to go" in text and "158 to go" in text


def test_a_net_leagues_ceiling_is_said_as_the_total_it_limits(scorer: Client, user: User) -> None:
    capped = create_league(user, name="Capped", preset="21-points", overrides={"ceiling": 250})
    pool = create_league(user, name="Pool", preset="13-pool-101", overrides={})
    for league, said in ((capped, f"ceiling {MINUS}250"), (pool, "ceiling 101")):
        page = scorer.get(reverse("games:league_detail", args=[league.slug])).content.decode()
        assert said in " ".join(words_on(page).split()), league
