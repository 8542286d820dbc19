"""The admin is the back office: every model's pages must open for a superuser."""

from __future__ import annotations

import html

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    PlayerClaim,
    Rating,
    RatingChange,
    Round,
    RoundChange,
    Seat,
)
from tests.support.admin_pages import admin_form

pytestmark = pytest.mark.django_db

MODELS = [Player, League, Membership, GameSession, Seat, Round, HandEntry]
# Rounds and their hands are added where they are entered, the session page, which
# checks them; the admin changes them.
ADDED_ELSEWHERE = {Round, HandEntry}


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


@pytest.fixture
def played_round() -> Round:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    Membership.objects.create(league=league, user=User.objects.create_user("asha"))
    session = GameSession.objects.create(league=league, name="Friday")
    seats = [
        Seat.objects.create(session=session, player=Player.objects.create(name=name), position=i)
        for i, name in enumerate(["Asha", "Ben"], start=1)
    ]
    played = Round.objects.create(session=session, number=1, cut_joker="8S", dealer=seats[0])
    HandEntry.objects.create(round=played, player=seats[0].player, outcome="declared", score=64)
    HandEntry.objects.create(round=played, player=seats[1].player, outcome="shown", score=-64)
    return played


def _url(model: type, action: str, *args: object) -> str:
    return reverse(f"admin:games_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_has_a_searchable_list_an_add_and_a_change_page(
    admin_client: Client, played_round: Round, model: type
) -> None:
    assert admin_client.get(_url(model, "changelist")).status_code == 200
    assert admin_client.get(_url(model, "changelist"), {"q": "Asha"}).status_code == 200
    added = admin_client.get(_url(model, "add")).status_code
    assert added == (403 if model in ADDED_ELSEWHERE else 200)
    obj = model.objects.first()
    assert admin_client.get(_url(model, "change", obj.pk)).status_code == 200


def test_session_page_shows_seats_and_rounds_inline(
    admin_client: Client, played_round: Round
) -> None:
    html = admin_client.get(_url(GameSession, "change", played_round.session.pk)).content.decode()

    assert "seats-TOTAL_FORMS" in html
    assert "rounds-TOTAL_FORMS" in html
    assert played_round.session.share_token in html


def test_a_session_saved_from_its_page_keeps_its_seats_and_rounds(
    admin_client: Client, played_round: Round
) -> None:
    # The rounds are listed by a template of ours (round_list.html), which must still
    # send the formset's hidden fields; each date and time box has a name of its own.
    session = played_round.session
    url = _url(GameSession, "change", session.pk)
    page = admin_client.get(url).content.decode()
    assert 'aria-label="Closed at, date"' in page and 'aria-label="Closed at, time"' in page
    # A seat each, and the empty row "Add another Seat" copies.
    assert page.count('aria-label="Phone since, date"') == 3
    sent = admin_form(page) | {"name": ["Friday late"]}

    assert admin_client.post(url, sent).status_code == 302
    session.refresh_from_db()
    assert session.name == "Friday late"
    assert [seat.player.name for seat in session.seats.order_by("position")] == ["Asha", "Ben"]
    assert session.rounds.get() == played_round
    assert session.rounds.get().version == played_round.version


def test_a_session_added_from_its_page_has_no_rounds_yet(admin_client: Client) -> None:
    url = _url(GameSession, "add")
    page = admin_client.get(url).content.decode()
    assert "No rounds yet" in page
    sent = admin_form(page) | {"name": ["Saturday"], "preset": ["21-points"]}

    assert admin_client.post(url, sent).status_code == 302
    assert GameSession.objects.get(name="Saturday").rounds.count() == 0


def test_a_players_page_shows_who_claimed_them_and_finds_them_by_that_account(
    admin_client: Client, played_round: Round
) -> None:
    asha = Player.objects.get(name="Asha")
    akumar = User.objects.create_user("akumar")
    Membership.objects.create(league=played_round.session.league, user=akumar)
    PlayerClaim.objects.create(league=played_round.session.league, player=asha, user=akumar)

    html = admin_client.get(_url(Player, "change", asha.pk)).content.decode()
    assert "claims-TOTAL_FORMS" in html and 'value="1"' in html
    found = admin_client.get(_url(Player, "changelist"), {"q": "akumar"})
    assert list(found.context["cl"].result_list) == [asha]


def test_round_page_shows_hand_entries_inline(admin_client: Client, played_round: Round) -> None:
    html = admin_client.get(_url(Round, "change", played_round.pk)).content.decode()

    assert "entries-TOTAL_FORMS" in html
    assert 'value="declared" selected' in html


def test_the_history_list_names_every_author_as_the_history_page_does(
    admin_client: Client, played_round: Round
) -> None:
    session = played_round.session
    asha = User.objects.get(username="asha")
    for changed_by, name in ((asha, ""), (None, "table mode (saved by itself)"), (None, "")):
        RoundChange.objects.create(
            session=session, number=1, action="created", changed_by=changed_by, changed_by_name=name
        )

    html = admin_client.get(_url(RoundChange, "changelist")).content.decode()
    for said in ("asha", "table mode (saved by itself)", "someone no longer here"):
        assert f'<td class="field-said_by">{said}</td>' in html
    found = admin_client.get(_url(RoundChange, "changelist"), {"q": "saved by itself"})
    assert found.context["cl"].result_count == 1


def test_ratings_read_as_the_apps_pages_write_them_in_lists_and_on_their_pages(
    admin_client: Client, played_round: Round
) -> None:
    # As the player page writes them: one decimal rounded half up (-3.25 is -3.3, where
    # Python's own rounding says -3.2), the minus sign, not the stored float.
    session = played_round.session
    asha = Player.objects.get(name="Asha")
    figures = {"mu": 1512.3456789, "sigma": 8.0449, "ordinal": -3.25}
    rating = Rating.objects.create(league=session.league, player=asha, sessions=3, **figures)
    change = RatingChange.objects.create(
        league=session.league,
        player=asha,
        session=session,
        sequence=1,
        played_on=session.played_on,
        **figures,
    )

    for figure in (rating, change):
        model = type(figure)
        listed = admin_client.get(_url(model, "changelist")).content.decode()
        shown = admin_client.get(_url(model, "change", figure.pk)).content.decode()

        assert '<td class="field-rating">\u22123.3</td>' in listed
        assert '<div class="readonly">\u22123.3</div>' in shown
        assert '<div class="readonly">1,512.3</div>' in shown
        assert '<div class="readonly">8.0</div>' in shown
        # Its name (the page's title, the breadcrumb) writes the rating the same way.
        assert str(figure).endswith(": \u22123.3")
        assert f"<h2>{html.escape(str(figure))}</h2>" in shown
        for raw in ("1512.3456789", "8.0449", "-3.25", "-3.2"):
            assert raw not in listed and raw not in shown
    current = admin_client.get(_url(Rating, "changelist")).content.decode()
    assert '<td class="field-skill">1,512.3</td>' in current
    assert '<td class="field-uncertainty">8.0</td>' in current


def test_player_autocomplete_finds_players(admin_client: Client, played_round: Round) -> None:
    response = admin_client.get(
        reverse("admin:autocomplete"),
        {"app_label": "games", "model_name": "seat", "field_name": "player", "term": "as"},
    )

    assert [r["text"] for r in response.json()["results"]] == ["Asha"]


def test_admin_refuses_overrides_the_rules_service_would_refuse(
    admin_client: Client, played_round: Round
) -> None:
    session = played_round.session
    data = {
        "name": session.name,
        "preset": "21-points",
        "overrides": '{"hand_cap": -5}',
        "status": "active",
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
        "rounds-TOTAL_FORMS": "0",
        "rounds-INITIAL_FORMS": "0",
    }

    response = admin_client.post(_url(GameSession, "change", session.pk), data)

    assert response.status_code == 200  # the form again, with the error
    assert "hand_cap must be at least 1, not -5" in response.content.decode()
    session.refresh_from_db()
    assert session.overrides == {}


# Every model is in the admin now; a model added without one fails below.
NOT_YET_IN_ADMIN: set[str] = set()
# Not a club's data: the live cache's epoch (games/live.py), which an edit by hand
# could only break.
NOT_FOR_THE_ADMIN = {"LiveCacheEpoch"}


MISSING = pytest.mark.xfail(
    reason="games/admin.py registers no ModelAdmin for this model", strict=False
)


def _models() -> list:
    return [
        pytest.param(model, id=model.__name__, marks=[MISSING])
        if model.__name__ in NOT_YET_IN_ADMIN
        else pytest.param(model, id=model.__name__)
        for model in apps.get_app_config("games").get_models()
        if model.__name__ not in NOT_FOR_THE_ADMIN
    ]


@pytest.mark.parametrize("model", _models())
def test_every_model_of_the_app_has_an_admin_list(client: Client, model: type) -> None:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))

    assert admin.site.is_registered(model)
    url = reverse(f"admin:games_{model._meta.model_name}_changelist")
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("day", ["1900-01-01", "9999-12-31"])
def test_admin_refuses_a_day_the_session_form_and_the_import_refuse(
    admin_client: Client, played_round: Round, day: str
) -> None:
    session = played_round.session
    url = _url(GameSession, "change", session.pk)
    sent = admin_form(admin_client.get(url).content.decode()) | {"played_on": [day]}

    response = admin_client.post(url, sent)

    assert response.status_code == 200  # the form again, with the error
    assert "Pick a day from 1 Jan 1970 to" in response.content.decode()
    session.refresh_from_db()
    assert session.played_on.isoformat() != day
