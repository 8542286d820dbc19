"""The house rules "Cards or counts" and "Trust the table's show" (docs/rules/options.md,
"Entering hands"): a league's owner sets them on its rules page, a new session of the
league starts with them and may set its own, and the session page says the rule in
force."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League
from games.services.leagues import create_league
from games.services.rulesets import ruleset_of
from tests.support.builders import rules_url, session_form_data
from tests.support.forms import forms_in

pytestmark = pytest.mark.django_db

NEW = reverse("games:session_new")
COUNTS_TRUSTED = {"hand_entry": "counts_first", "trust_show": True}


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="13-points", overrides=COUNTS_TRUSTED)


def chosen(html: str, name: str) -> str:
    """The words of the option a <select> named ``name`` shows chosen."""
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)[0]
    return re.search(r"<option[^>]*selected>([^<]*)</option>", select)[1]


def ticked(html: str, name: str) -> bool:
    return bool(re.search(rf'<input type="checkbox" name="{name}"[^>]*checked', html))


def sent_untouched(html: str, **typed: str) -> dict[str, list[str]]:
    """What the new-session form on ``html`` sends with only ``typed`` filled in."""
    (form,) = [form for form in forms_in(html) if form.action == NEW]
    return form.data() | {name: [value] for name, value in typed.items()}


def test_the_cards_or_counts_choices_read_as_a_club_says_them(scorer: Client, user: User) -> None:
    league = create_league(user, name="Fridays", preset="21-points", overrides={})

    html = scorer.get(rules_url(league)).content.decode()

    select = re.search(r'<select name="rule_hand_entry".*?</select>', html, re.S)[0]
    assert re.findall(r">([^<]+)</option>", select) == [
        "Cards only",
        "Counts allowed",
        "Counts first",
    ]
    assert chosen(html, "rule_hand_entry") == "Cards only"
    assert "Trust the table&#x27;s show" in html and not ticked(html, "rule_trust_show")


def test_an_owner_sets_counts_first_and_trusts_the_show(scorer: Client, user: User) -> None:
    league = create_league(user, name="Fridays", preset="21-points", overrides={})
    page = scorer.get(rules_url(league)).content.decode()
    (form,) = [form for form in forms_in(page) if form.action == rules_url(league)]
    data = form.data() | {"rule_hand_entry": ["counts_first"], "rule_trust_show": ["on"]}

    response = scorer.post(rules_url(league), data)

    assert response.status_code == 302
    league.refresh_from_db()
    assert league.overrides == COUNTS_TRUSTED
    html = scorer.get(rules_url(league)).content.decode()
    assert chosen(html, "rule_hand_entry") == "Counts first"
    assert ticked(html, "rule_trust_show")
    assert re.search(r"Entering hands <span[^>]*>· .*<span data-count>2</span> changed", html)


def test_a_new_session_of_the_league_starts_with_its_counts(scorer: Client, club: League) -> None:
    html = scorer.get(NEW, {"league": club.pk}).content.decode()
    assert chosen(html, "rule_hand_entry") == "Counts first"
    assert ticked(html, "rule_trust_show")

    scorer.post(NEW, sent_untouched(html, seat_1="Asha", seat_2="Ben"))

    session = GameSession.objects.get()
    assert session.league == club
    assert session.overrides == COUNTS_TRUSTED
    rules = ruleset_of(session)
    assert (rules.hand_entry, rules.trust_show) == ("counts_first", True)


def test_a_session_of_the_league_may_go_back_to_cards(scorer: Client, club: League) -> None:
    html = scorer.get(NEW, {"league": club.pk}).content.decode()
    data = sent_untouched(html, seat_1="Asha", seat_2="Ben", rule_hand_entry="cards")
    del data["rule_trust_show"]  # unticked

    scorer.post(NEW, data)

    session = GameSession.objects.get()
    assert session.overrides == {}
    rules = ruleset_of(session)
    assert (rules.hand_entry, rules.trust_show) == ("cards", False)
    club.refresh_from_db()
    assert club.overrides == COUNTS_TRUSTED  # the league's own rules stay


def test_the_session_page_says_the_rule_in_force(scorer: Client, club: League) -> None:
    data = session_form_data(
        "13-points",
        seat_1="Asha",
        seat_2="Ben",
        league=str(club.pk),
        rule_hand_entry="counts",
        rule_trust_show="on",
    )
    scorer.post(NEW, data)
    session = GameSession.objects.get()

    html = scorer.get(reverse("games:session_detail", args=[session.pk])).content.decode()

    rules = re.search(r"<p class=\"meta session-rules\"[^>]*>(.*?)</p>", html, re.S)[1]
    assert rules == (
        "House rules: Cards or counts: Counts allowed (preset Cards only) · "
        "Trust the table&#x27;s show: on (preset off)"
    )
