"""The top of the session page: what the scorer reaches for at the table (table mode,
the share link, the table view) right under the title, for those who may use each."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership
from games.services.table import open_table

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
