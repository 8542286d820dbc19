"""The top of the session page: what the scorer reaches for at the table (table mode,
the share link, the table view) right under the title, for those who may use each;
and the night in one message, written by the server for Share the night."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership
from games.services.sessions import close_session
from games.services.table import open_table
from tests.support.builders import make_session, play, round_data
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


def page_of(client: Client, session: GameSession) -> str:
    return client.get(reverse("games:session_detail", args=[session.pk])).content.decode()


def leads(html: str) -> dict[str, str]:
    """The actions under the title, each with where it goes (a link's href, a form's
    action; nothing for a button of the page's own)."""
    start = html.index("data-session-leads")
    top = html[start : html.index("</nav>", start)]
    found = {lead: href for href, lead in re.findall(r'href="([^"]*)" data-lead="([\w-]+)"', top)}
    for action, lead in re.findall(r'action="([^"]*)".*?data-lead="([\w-]+)"', top, flags=re.S):
        found[lead] = action
    for lead in re.findall(r'type="button"[^>]*data-lead="([\w-]+)"', top):
        found[lead] = ""
    return found


def night_on(html: str) -> str:
    return unescape(re.search(r'<template id="night-text">(.*?)</template>', html, re.S)[1])


def test_the_scorers_three_actions_come_right_under_the_title(
    scorer: Client, table: GameSession
) -> None:
    html = page_of(scorer, table)

    assert leads(html) == {
        "table-mode": reverse("games:table_link", args=[table.pk]),
        "share-link": "#share",
        "table-view": reverse("games:shared_big", args=[table.share_token]),
    }
    title = html.index("<h1>")
    assert title < html.index("data-session-leads") < html.index('id="round-entry"')
    assert 'id="share" data-share-panel' in html  # where Share link goes: its QR code


def test_once_table_mode_is_open_its_action_goes_to_it(scorer: Client, table: GameSession) -> None:
    open_table(table)
    html = page_of(scorer, table)
    assert leads(html)["table-mode"] == "#table"
    assert '<section id="table"' in html


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("owner", {"table-mode", "share-link", "table-view"}),
        ("scorer", {"table-mode"}),  # the share link is the managers'
        ("viewer", set()),
    ],
)
def test_each_member_sees_the_actions_they_may_use(
    client: Client, table: GameSession, role: str, expected: set[str]
) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    GameSession.objects.filter(pk=table.pk).update(league=league)
    member = User.objects.create_user("member")
    Membership.objects.create(league=league, user=member, role=role)
    client.force_login(member)

    html = page_of(client, table)

    assert set(leads(html)) == expected if expected else "data-session-leads" not in html
    if role != "owner":
        assert table.share_token not in html


def test_a_session_over_leads_with_sharing_the_night_and_no_table_mode(
    scorer: Client, user: User
) -> None:
    friday = make_session(user, name="Friday", money_per_point=Decimal("0.10"))
    play(friday, "8S", ROUND_1)
    close_session(friday)

    html = page_of(scorer, friday)

    assert set(leads(html)) == {"share-link", "table-view", "night"}
    assert 'data-share-night data-lead="night" hidden' in html  # shown by night.js
    assert "/js/night." in html  # loaded by this page alone


# --- The night in one message ---------------------------------------------------------------


def test_the_night_by_the_money_lines_holds_the_totals_the_money_and_the_share_link(
    scorer: Client, user: User
) -> None:
    friday = make_session(user, name="Friday", money_per_point=Decimal("0.10"))
    play(friday, "8S", ROUND_1)

    text = night_on(page_of(scorer, friday))

    assert text.splitlines()[1:5] == [
        "After round 1, still playing:",
        "1. Asha 122",
        "2. Chen −30",
        "3. Ben −92",
    ]
    assert "Ben pays Asha 9.20" in text
    assert text.endswith(f"Live scores: http://testserver/shared/{friday.share_token}/")


def test_there_is_no_night_to_share_before_the_first_round(
    scorer: Client, table: GameSession
) -> None:
    html = page_of(scorer, table)
    assert 'id="night-text"' not in html and "data-share-night" not in html


def test_a_saved_round_brings_the_night_up_to_date(scorer: Client, user: User) -> None:
    """The answer to a save redraws the money lines, the night's text with them."""
    friday = make_session(user, name="Friday")
    play(friday, "8S", ROUND_1)
    play(friday, "8S", ROUND_1)  # past the first round: an answer in place
    shown = re.search(r'name="shown" value="(\d+)"', page_of(scorer, friday))[1]
    data = round_data(friday, "8S", ROUND_1, shown=shown)

    answer = scorer.post(
        reverse("games:round_create", args=[friday.pk]), data, headers={"HX-Request": "true"}
    )

    assert answer.template_name == "games/session.html#saved_round"
    assert "After round 3, still playing:" in night_on(answer.content.decode())


def test_a_viewer_shares_the_night_without_the_share_link(client: Client, user: User) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    friday = make_session(user, name="Friday", league=league)
    play(friday, "8S", ROUND_1)
    viewer = User.objects.create_user("viewer")
    Membership.objects.create(league=league, user=viewer, role="viewer")
    client.force_login(viewer)

    text = night_on(page_of(client, friday))

    assert "1. Asha 122" in text and "Live scores" not in text
