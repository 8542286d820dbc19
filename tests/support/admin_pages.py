"""The admin's pages as a browser sends them back: what tests of the admin post."""

from __future__ import annotations

import json

from games.models import Round
from tests.support.forms import forms_in


def round_form_data(played: Round, **hands: dict) -> dict:
    """A round's admin page as a browser sends it back untouched, but for ``hands``
    (a player's name: the fields of their hand that change)."""
    entries = list(played.entries.select_related("player").order_by("pk"))
    data = {
        "cut_joker": played.cut_joker,
        "dealer": played.dealer_id or "",
        "entered_by": played.entered_by_id or "",
        "opened_version": played.version,
        "entries-TOTAL_FORMS": len(entries),
        "entries-INITIAL_FORMS": len(entries),
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    for index, entry in enumerate(entries):
        fields = {
            "id": entry.pk,
            "round": played.pk,
            "player": entry.player_id,
            "outcome": entry.outcome,
            "groups": json.dumps(entry.groups),
        } | hands.get(entry.player.name, {})
        data |= {f"entries-{index}-{name}": value for name, value in fields.items()}
    return data


def cards(text: str) -> str:
    return json.dumps([group.split() for group in text.split("|")])


def admin_form(html: str) -> dict[str, list[str]]:
    """What sending an admin page's form untouched sends: the form that posts to the
    page's own address (Django's admin gives it no action)."""
    (form,) = [form for form in forms_in(html) if form.method == "post" and not form.action]
    return form.data()
