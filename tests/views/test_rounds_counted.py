"""A saved round with hands counted at the table, as its page shows it: each counted
hand's figures in words where its groups would stand, a trusted winner's show said
as such, and the hands entered by their cards as ever."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.support.builders import make_session
from tests.support.counted import ASHA_SHOWN, BEN_COUNT, TRUSTED, play_counted
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


def saved_hand(html: str, name: str) -> str:
    return html.split(f'data-player="{name}"')[1].split("</article>")[0]


def test_a_counted_hand_shows_its_figures_where_its_groups_would(
    scorer: Client, user: User
) -> None:
    session = make_session(user, overrides=TRUSTED)
    played = play_counted(session, "8S", ROUND_1, {"Asha": ASHA_SHOWN, "Ben": BEN_COUNT})

    html = scorer.get(reverse("games:round_detail", args=[session.pk, played.pk])).content.decode()

    ben = saved_hand(html, "Ben")
    assert "Counted at the table, no cards entered: count 102, value points 10." in ben
    assert 'class="groups"' not in ben
    assert "Hand points 102" in ben
    asha = saved_hand(html, "Asha")
    assert "Shown at the table, no cards entered: value points 0." in asha
    # Chen's first drop was entered as ever: nothing is said of counting.
    assert "data-counted" not in saved_hand(html, "Chen")
