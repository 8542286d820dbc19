"""The language a page is in (scorekeeper/languages.py): the account's, else the
footer's choice, else the league's on its pages, else the browser's, else English;
a request htmx makes for a page in that page's language, without the database."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, League
from games.services.languages import save_account_language
from games.services.leagues import create_league
from scorekeeper import languages
from tests.support.builders import make_session
from tests.support.queries import beyond_the_sign_in

pytestmark = pytest.mark.django_db

HINDI_BROWSER = {"Accept-Language": "hi-IN,hi;q=0.9,en;q=0.5"}
ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.9"}


def language_of(response) -> str:
    """The language the page says it is in, checked against the header that says so."""
    found = re.search(r'<html lang="([^"]*)"', response.content.decode())
    assert found, "not a page"
    assert response["Content-Language"] == found[1]
    return found[1]


def footer_choice(client: Client, code: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


@pytest.fixture
def hindi_league(user: User) -> League:
    return create_league(user, name="Ghar", preset="21-points", overrides={}, language="hi")


def test_a_page_is_english_for_a_browser_that_asks_nothing(client: Client) -> None:
    assert language_of(client.get(reverse("login"))) == "en"


def test_a_hindi_browser_gets_hindi_pages(client: Client) -> None:
    response = client.get(reverse("login"), headers=HINDI_BROWSER)
    assert language_of(response) == "hi"
    assert "Accept-Language" in response["Vary"]


def test_a_hindi_page_speaks_hindi_from_its_catalogue(client: Client) -> None:
    html = client.get(reverse("login"), headers=HINDI_BROWSER).content.decode()
    assert ">साइन इन</a>" in html
    assert "भाषा" in html  # the footer's choice


def test_the_footer_choice_beats_the_browser(client: Client) -> None:
    response = footer_choice(client, "en").get(reverse("login"), headers=HINDI_BROWSER)
    assert language_of(response) == "en"
    assert "Cookie" in response["Vary"]


def test_the_account_beats_the_footer_choice(scorer: Client, user: User) -> None:
    save_account_language(user, "hi")
    response = footer_choice(scorer, "en").get(reverse("games:home"), headers=ENGLISH_BROWSER)
    assert language_of(response) == "hi"


def test_the_account_speaks_on_a_page_that_is_not_there(scorer: Client, user: User) -> None:
    save_account_language(user, "hi")
    assert language_of(scorer.get("/no-such-page/")) == "hi"


def test_a_league_page_opens_in_the_league_language_for_an_english_browser(
    scorer: Client, hindi_league: League
) -> None:
    page = reverse("games:league_detail", args=[hindi_league.slug])
    assert language_of(scorer.get(page, headers=ENGLISH_BROWSER)) == "hi"
    assert language_of(scorer.get(reverse("games:home"), headers=ENGLISH_BROWSER)) == "en"


def test_a_visitor_who_chose_english_in_the_footer_keeps_it_on_the_league_page(
    scorer: Client, hindi_league: League
) -> None:
    page = reverse("games:league_detail", args=[hindi_league.slug])
    assert language_of(footer_choice(scorer, "en").get(page)) == "en"


def test_a_share_link_of_a_league_session_opens_in_its_language(
    user: User, hindi_league: League, client: Client
) -> None:
    session = make_session(user, league=hindi_league)
    share = reverse("games:shared_session", args=[session.share_token])
    assert language_of(client.get(share, headers=ENGLISH_BROWSER)) == "hi"
    big = reverse("games:shared_big", args=[session.share_token])
    assert language_of(client.get(big, headers=ENGLISH_BROWSER)) == "hi"


def test_an_outsider_is_not_found_in_their_own_language(
    user: User, hindi_league: League, client: Client
) -> None:
    # The league's language would tell an outsider that the session exists.
    session = make_session(user, league=hindi_league)
    client.force_login(User.objects.create_user(username="mallory", password="x"))
    response = client.get(reverse("games:session_detail", args=[session.pk]))
    assert response.status_code == 404
    assert language_of(response) == "en"


def poll_address(client: Client, session: GameSession) -> str:
    html = client.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    stamp = re.search(r'data-stamp="(\d+)"', html)[1]
    return reverse("games:session_scoreboard", args=[session.pk]) + f"?v={stamp}"


def test_a_poll_is_answered_in_its_page_language_without_the_database(
    scorer: Client, user: User, hindi_league: League, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        session = make_session(user, league=hindi_league)
    address = poll_address(scorer, session)
    from_page = {"HX-Request": "true", "X-Page-Language": "hi"}
    scorer.get(address, headers=from_page)  # the first asks who may see the table
    with CaptureQueriesContext(connection) as queries:
        response = scorer.get(address, headers=from_page)
    assert response.status_code == 204
    assert response["Content-Language"] == "hi"
    assert "X-Page-Language" in response["Vary"]
    assert beyond_the_sign_in(queries) == []


def test_an_htmx_answer_follows_its_page_not_the_browser(
    scorer: Client, user: User, hindi_league: League
) -> None:
    session = make_session(user, league=hindi_league)
    address = reverse("games:session_scoreboard", args=[session.pk])
    answer = scorer.get(address, headers={"HX-Request": "true", "X-Page-Language": "en"})
    assert answer.status_code == 200
    assert answer["Content-Language"] == "en"
    page = scorer.get(reverse("games:session_detail", args=[session.pk]))
    assert '"x-page-language": "hi"' in page.content.decode()


def test_a_database_that_cannot_say_the_language_leaves_the_page_to_say_what_failed(
    client: Client, monkeypatch
) -> None:
    def down(*_: object) -> str:
        raise DatabaseError("the database is gone")

    monkeypatch.setattr(languages, "account_language", down)
    monkeypatch.setattr(languages, "league_language_for", down)
    response = client.get(reverse("login"), headers=HINDI_BROWSER)
    assert response.status_code == 200
    assert language_of(response) == "hi"  # the browser's, as nothing else could say
