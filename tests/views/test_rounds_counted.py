"""A saved round with hands counted at the table, as its page shows it: each counted
hand's figures in words where its groups would stand, a trusted winner's show said
as such, and the hands entered by their cards as ever."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.rules import HandFigures
from tests.support.builders import make_session, play
from tests.support.counted import ASHA_SHOWN, BEN_COUNT, COUNTS, TRUSTED, edit_counted, play_counted
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


def what_changed(html: str) -> list[str]:
    """Each edit's lines of what it changed, newest first, as a reader reads them."""
    lists = re.findall(r"<ul class=\"what-changed\"[^>]*>(.*?)</ul>", html, re.S)
    lines = [line for found in lists for line in re.findall(r"<li[^>]*>(.*?)</li>", found, re.S)]
    return [unescape(" ".join(re.sub(r"<[^>]+>", "", line).split())) for line in lines]


def test_the_history_says_a_count_in_place_of_cards_and_each_count_changed(
    scorer: Client, user: User
) -> None:
    session = make_session(user, overrides=COUNTS)
    played = play(session, "8S", ROUND_1)
    played = edit_counted(played, "8S", ROUND_1, {"Ben": BEN_COUNT})
    played = edit_counted(played, "8S", ROUND_1, {"Ben": HandFigures(count=96, value_points=10)})
    edit_counted(played, "8S", ROUND_1, {})

    html = scorer.get(reverse("games:round_history", args=[session.pk, played.pk])).content
    assert what_changed(html.decode()) == [
        "Asha: score +116 → +122",
        "Ben: score −86 → −92, cards instead of counted at the table (count 96, value points 10)",
        "Asha: score +122 → +116",
        "Ben: score −92 → −86, count 102 → 96",
        # His count is what his cards counted: only how they were entered changed.
        "Ben: counted at the table (count 102, value points 10) instead of cards",
    ]
    # The whole rounds folded under each edit say the count where the cards would be.
    assert "Counted at the table (count 96, value points 10)" in html.decode()
