"""What the pages give the phone to say when the network or the database fails,
without a browser; tests/e2e/test_outages.py drives the rest.

A failed save leaves the form as typed, hidden submission token included, so the
retry is the same submission: the server answers it with the round it saved."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round
from games.services.sessions import close_session
from tests.support.builders import round_data
from tests.support.forms import hidden, opened_form
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, THREE_PURE

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ROUND_2 = {
    "Asha": ("middle_drop", ""),
    "Ben": ("declared", THREE_PURE),
    "Chen": ("shown", LOOSE_148),
}


def htmx_config(page: str) -> dict:
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    assert meta, "the page configures htmx"
    return json.loads(html.unescape(meta[1]))


def test_a_request_unanswered_for_15_seconds_is_given_up_and_a_5xx_never_swapped(
    scorer: Client, table: GameSession
) -> None:
    page = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()

    config = htmx_config(page)

    assert config["timeout"] == 15_000  # then the phone says the server took too long
    five_xx = next(rule for rule in config["responseHandling"] if rule["code"] == "[45]..")
    assert five_xx == {"code": "[45]..", "swap": False, "error": True}
    assert "{#" not in page and "#}" not in page  # no template comment leaks onto the page


def test_the_round_form_carries_what_a_failed_save_says(scorer: Client, table: GameSession) -> None:
    page = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()

    form = re.search(r'<form class="round-form"[^>]*>', page)[0]

    assert 'data-outage-lead="Not saved"' in form
    assert "Your round is still here — tap Save again (it cannot be saved twice)." in form
    # The background requests fail quietly: the live table's poll and the preview.
    assert re.search(r'<div id="scoreboard-live"[^>]*data-background', page)
    assert re.search(r'<section id="settlement"[^>]*data-background', page)
    assert "<script>" not in page.split("</head>")[1]  # all of it lives in static/js/outages.js


def test_a_form_sent_back_with_an_error_keeps_its_submission_token(
    scorer: Client, table: GameSession
) -> None:
    create = reverse("games:round_create", args=[table.pk])
    opened = opened_form(scorer, table)
    typo = ROUND_1 | {"Ben": ("shown", SHOWN_8S.removesuffix("8C") + "8X")}

    refused = scorer.post(create, round_data(table, "8S", typo, **opened), headers=HTMX)

    assert refused.status_code == 422
    assert hidden(refused.content.decode(), "submission") == opened["submission"]
    assert hidden(refused.content.decode(), "number") == "1"
    assert not Round.objects.exists()


def test_a_retry_after_the_table_moved_on_answers_with_the_round_it_saved(
    scorer: Client, table: GameSession
) -> None:
    """The first tap's answer was lost; another phone saved round 2 before the retry."""
    create = reverse("games:round_create", args=[table.pk])
    mine = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert scorer.post(create, mine, headers=HTMX).status_code == 200  # answer lost
    theirs = round_data(table, "5H", ROUND_2, **opened_form(scorer, table))
    assert scorer.post(create, theirs, headers=HTMX).status_code == 200  # round 2

    retried = scorer.post(create, mine, headers=HTMX)

    assert retried.status_code == 200
    assert "Round 1 saved." in retried.content.decode()
    assert list(Round.objects.values_list("number", "cut_joker")) == [(1, "8S"), (2, "5H")]
    assert HandEntry.objects.count() == 6


def test_a_retry_after_the_session_was_ended_answers_with_the_round_it_saved(
    scorer: Client, table: GameSession
) -> None:
    create = reverse("games:round_create", args=[table.pk])
    data = round_data(table, "8S", ROUND_1, **opened_form(scorer, table))
    assert scorer.post(create, data, headers=HTMX).status_code == 200  # answer lost
    close_session(table)  # the table called it a night meanwhile

    retried = scorer.post(create, data, headers=HTMX)

    assert retried.status_code == 200
    page = retried.content.decode()
    assert "Round 1 saved." in page and "No more rounds" in page
    assert Round.objects.count() == 1
