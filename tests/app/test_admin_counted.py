"""A hand counted at the table on its admin page: the page shows it counted with its
figures, and a save there of another count, or of the cards in its place, is checked
and scored by the rules service as the round page's save is."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import HandEntry, RoundChange
from tests.support.admin_pages import admin_form, cards
from tests.support.builders import make_session
from tests.support.counted import BEN_COUNT, COUNTS, play_counted
from tests.support.hands import ROUND_1, SHOWN_8S

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


def test_a_counted_hand_is_shown_and_saved_on_its_admin_page(
    admin_client: Client, user: User
) -> None:
    session = make_session(user, overrides=COUNTS)
    played = play_counted(session, "8S", ROUND_1, {"Ben": BEN_COUNT})
    ben = HandEntry.objects.get(round=played, player__name="Ben")
    url = reverse("admin:games_handentry_change", args=[ben.pk])

    sent = admin_form(admin_client.get(url).content.decode())

    assert sent["counted"] == ["on"]
    assert json.loads(sent["figures"][0]) == {"count": 102, "value_points": 10}

    # Ben said 96, not 102: corrected here, and scored by the rules.
    sent["figures"] = [json.dumps({"count": 96, "value_points": 10})]
    response = admin_client.post(url, sent)
    assert response.status_code == 302, response.content.decode()[:2000]
    ben.refresh_from_db()
    assert (ben.counted, ben.figures, ben.hand_points, ben.score) == (
        True,
        {"count": 96, "value_points": 10},
        96,
        -86,
    )
    change = RoundChange.objects.get(action="edited")
    assert change.after["entries"][1]["figures"] == {"count": 96, "value_points": 10}

    # A count that no hand makes is refused, in the rules' words, and nothing saved.
    sent = admin_form(admin_client.get(url).content.decode())
    sent["figures"] = [json.dumps({"count": 1, "value_points": 10})]
    response = admin_client.post(url, sent)
    assert response.status_code == 200
    assert "no 21 cards count 1" in response.content.decode()

    # Then his cards found: entered in place of the count.
    sent["figures"], sent["groups"] = ["{}"], [cards(SHOWN_8S)]
    del sent["counted"]
    response = admin_client.post(url, sent)
    assert response.status_code == 302, response.content.decode()[:2000]
    ben.refresh_from_db()
    assert (ben.counted, ben.figures, ben.score) == (False, {}, -92)
    assert len(ben.groups) == 7
