"""The history page of a session (games/views/sessions.py, rounds.py): the latest
changes first, a phone screen or so, and the older ones a link away; players joining
and leaving, and the new seatings after, among the rounds' changes in time order."""

from __future__ import annotations

import html as entities
import re
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import dateformat, timezone

from games.models import GameSession, League
from games.services import round_history, seat_changes
from tests.support.builders import make_session, play, round_data
from tests.support.hands import ROUND_1
from tests.support.league_files import build_changing_tables
from tests.support.reads import copies_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def hundred_rounds(user: User) -> GameSession:
    session = make_session(user, name="Marathon", ceiling=None)
    copies_of(play(session, "8S", ROUND_1), 99, recorded=True)
    return session


def _changed(html: str) -> list[str]:
    """The lines of what the latest edit changed, as a reader reads them."""
    found = re.search(r"<ul class=\"what-changed\"[^>]*>(.*?)</ul>", html, re.S)
    assert found, "no list of what changed"
    lines = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [entities.unescape(" ".join(re.sub(r"<[^>]+>", "", line).split())) for line in lines]


def _shown(html: str) -> list[str]:
    """The rounds whose changes the page shows, in page order."""
    return re.findall(r"<strong>Round (\d+) created</strong>", html)


def _earlier_link(html: str) -> str:
    match = re.search(r'<a [^>]*href="([^"]+)"[^>]*data-show-earlier>([^<]+)</a>', html)
    assert match, "no link to earlier changes"
    return match.group(1).replace("&amp;", "&")


def test_a_hundred_round_history_shows_the_latest_changes_first(
    scorer: Client, hundred_rounds: GameSession
) -> None:
    url = reverse("games:session_history", args=[hundred_rounds.pk])
    html = scorer.get(url).content.decode()

    assert _shown(html) == [str(n) for n in range(100, 90, -1)]
    # Bounded: ten changes of three hands each, not a hundred.
    assert html.count('<li class="change"') == 10
    assert html.count("<li>") <= 10 * 3
    assert "The 90 earlier changes are not shown." in html


def test_every_older_change_is_reachable_a_tap_at_a_time(
    scorer: Client, hundred_rounds: GameSession
) -> None:
    url = reverse("games:session_history", args=[hundred_rounds.pk])
    html = scorer.get(url).content.decode()
    seen = set(_shown(html))
    for _ in range(9):
        link = _earlier_link(html)
        path, anchor = link.split("#")
        html = scorer.get(url + path).content.decode()
        # The link lands on the first change it brings into sight.
        assert f'id="{anchor}"' in html
        assert "Latest changes only" in html
        seen |= set(_shown(html))
    assert seen == {str(n) for n in range(1, 101)}
    assert "data-show-earlier" not in html  # all shown: nothing further back


def test_a_round_number_out_of_range_shows_the_latest(
    scorer: Client, hundred_rounds: GameSession
) -> None:
    url = reverse("games:session_history", args=[hundred_rounds.pk])
    for bad in ("0", "500", "abc", "-3", "9" * 40):
        response = scorer.get(url, {"from": bad})
        assert response.status_code == 200
        assert _shown(response.content.decode())[0] == "100"


def test_all_changes_are_one_tap_away_beside_the_earlier_ten(
    scorer: Client, hundred_rounds: GameSession
) -> None:
    url = reverse("games:session_history", args=[hundred_rounds.pk])
    html = scorer.get(url).content.decode()

    link = re.search(r'<a [^>]*href="([^"]+)"[^>]*data-show-all>([^<]+)</a>', html)
    assert link and link.group(2) == "All 100 changes"
    path, anchor = link.group(1).replace("&amp;", "&").split("#")
    assert path == "?from=1"
    everything = scorer.get(url + path).content.decode()
    assert _shown(everything) == [str(n) for n in range(100, 0, -1)]
    assert f'id="{anchor}"' in everything  # lands on the first change it brings into sight
    assert "data-show-all" not in everything and "Latest changes only" in everything
    # Where one tap on "earlier" shows them all, it is the only link.
    last_ten = scorer.get(url, {"from": "11"}).content.decode()
    assert "Show 10 earlier changes" in last_ten and "data-show-all" not in last_ten


def test_a_round_saved_while_the_history_is_read_shifts_nothing_it_shows(
    scorer: Client, user: User
) -> None:
    """Another phone's round lands between the history's count of its changes and its
    fetch of the latest ten: the page still shows one state, the ten it counted as
    latest under the numbers and the count of that same state."""
    session = make_session(user, name="Friday", ceiling=None)
    copies_of(play(session, "8S", ROUND_1), 11, recorded=True)  # 12 changes
    counted = round_history.fold_start

    def another_phone_saves_meanwhile(*args, **kwargs):
        copies_of(session.rounds.get(number=1), 1, recorded=True)  # round 13's change
        return counted(*args, **kwargs)

    with mock.patch.object(round_history, "fold_start", another_phone_saves_meanwhile):
        html = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    assert _shown(html) == [str(n) for n in range(12, 2, -1)]  # rounds 12 to 3, not 13 to 4
    assert '<ol class="history" reversed start="12">' in html
    assert 'id="change-12"' in html and 'id="change-3"' in html
    assert "The 2 earlier changes are not shown." in html
    # A reload shows the round saved meanwhile, as the 13th of 13.
    reloaded = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()
    assert _shown(reloaded)[0] == "13" and "The 3 earlier changes are not shown." in reloaded


def test_an_edit_says_first_what_changed_and_folds_the_whole_rounds(
    scorer: Client, user: User
) -> None:
    session = make_session(user, name="Friday")
    played = play(session, "8S", ROUND_1)
    edited = ROUND_1 | {"Ben": ("middle_drop", "")}
    edit = reverse("games:round_edit", args=[session.pk, played.pk])
    assert scorer.post(edit, round_data(session, "8S", edited, version=1)).status_code == 302

    html = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    assert _changed(html) == [
        "Asha: score +122 → +100",
        "Ben: Shown → Middle drop, score −92 → −70",
    ]
    # The whole round before and after, a tap away (a <details>: no script needed).
    edit_html = html[html.index("Round 1 edited") : html.index("Round 1 created")]
    assert '<details class="change-full">' in edit_html
    assert "<summary>The whole round before and after</summary>" in edit_html
    assert "<h3>Before</h3>" in edit_html and "<h3>After</h3>" in edit_html
    # A creation is shown whole, as before: nothing to compare it with.
    created_html = html[html.index("Round 1 created") :]
    assert "what-changed" not in created_html and "<details" not in created_html
    # Each of a hand's groups is kept whole where it fits a line: Asha's seven.
    asha = created_html[created_html.index("<strong>Asha</strong>") :].split("</li>")[0]
    assert asha.count('<span class="cards-group">') == 7 and asha.count(" | ") == 6


def test_an_edit_names_the_cards_it_swapped_and_who_entered_them(
    scorer: Client, user: User
) -> None:
    session = make_session(user, name="Friday")
    hand = {"player": "Ben", "outcome": "shown", "score": -30}
    before = {
        "cut_joker": "8S",
        "dealer": "Asha",
        "entries": [
            hand
            | {"groups": [["2D", "3D", "4D"], ["KS", "KS", "7C"]], "entered_by": "Ben's phone"},
            hand | {"player": "Chen", "groups": [["5C", "6C", "7C"], ["9H"]]},
        ],
    }
    after = {
        "cut_joker": "8S",
        "dealer": "Chen",
        "entries": [
            hand | {"groups": [["2D", "3D", "4D"], ["KS", "9H", "7C"]]},
            hand | {"player": "Chen", "groups": [["5C", "6C", "7C", "9H"]]},
        ],
    }
    session.changes.create(number=1, action="edited", before=before, after=after)

    html = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    assert _changed(html) == [
        "Dealt by Asha → Chen",
        "Ben: cards K♠ → 9♥, entered by Ben's phone → the round form",
        "Chen: the same cards grouped otherwise",
    ]


def _titles(html: str) -> list[str]:
    """Each change's heading, as a reader reads it."""
    titles = re.findall(r'<h2 class="change-title">(.*?)</h2>', html, re.S)
    return [entities.unescape(" ".join(re.sub(r"<[^>]+>", "", t).split())) for t in titles]


def test_joins_leaves_and_new_seatings_stand_among_the_rounds_in_time_order(
    scorer: Client, user: User
) -> None:
    league = build_changing_tables(user)
    League.objects.filter(pk=league.pk).update(time_zone="Asia/Kolkata")
    session = league.sessions.get(name="Long table")
    changes = list(session.seat_changes.order_by("created_at", "pk"))
    seated = [[session.seats.get(pk=pk).player.name for pk in c.seats] for c in changes[1::2]]
    kolkata = ZoneInfo("Asia/Kolkata")

    def when(moment) -> str:
        return dateformat.format(timezone.localtime(moment, kolkata), "j M Y, H:i:s")

    rounds = {c.number: when(c.changed_at) for c in session.changes.all()}

    html = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    assert _titles(html) == [
        f"Round 4 created by asha, {rounds[4]}",
        f"The table was seated anew after round 3: {', '.join(seated[1])} by ben, "
        f"{when(changes[3].created_at)}",
        f"Ravi left after round 3 by ben, {when(changes[2].created_at)}",
        f"Round 3 created by asha, {rounds[3]}",
        f"The table was seated anew after round 2: {', '.join(seated[0])} by asha, "
        f"{when(changes[1].created_at)}",
        # Her total is the rules service's: 0, as a latecomer to a points game starts.
        f"Kim joined after round 2 (total 0) by asha, {when(changes[0].created_at)}",
        f"Round 2 created by asha, {rounds[2]}",
        f"Round 1 created by asha, {rounds[1]}",
    ]
    assert "Asia/Kolkata" in html and 'data-change="join"' in html
    # Numbered with the rounds' changes, newest first: eight lines in all.
    assert '<ol class="history" reversed start="8">' in html and 'id="change-8"' in html


def test_a_pool_latecomer_is_said_to_join_at_the_total_the_rules_gave(
    scorer: Client, user: User
) -> None:
    league = build_changing_tables(user)
    pool = league.sessions.get(preset="13-pool-101")

    html = scorer.get(reverse("games:session_history", args=[pool.pk])).content.decode()

    # Chen was out: Dev starts at Ben's 60, the worst total still in, plus one.
    assert any(t.startswith("Dev joined after round 2 (total 61) by asha") for t in _titles(html))


def test_a_name_corrected_mid_session_is_said_with_both_names(scorer: Client, user: User) -> None:
    # The change keeps the words it was made with: the history still says what the
    # scorer corrected, though the page now reads every name through the seat.
    session = make_session(user)
    play(session, "8S", ROUND_1)
    seat_changes.rename(session, session.seats.get(player__name="Ben"), "Benn", user)

    html = scorer.get(reverse("games:session_history", args=[session.pk])).content.decode()

    titles = _titles(html)
    assert titles[0].startswith("Ben was renamed Benn by ")
    assert 'data-change="rename"' in html
