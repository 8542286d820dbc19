"""The admin's pages as a browser sends them back: what tests of the admin post."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from games.models import Round


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


class _FormFields(HTMLParser):
    """The fields of a page's form with their values, as a browser would send the
    form untouched: checked boxes only, each select's chosen options (a single
    select with none chosen, its first), nothing of a disabled field."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, list[str]] = {}
        self._select: str | None = None
        self._single = True
        self._first_option: list[str] = []
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attr = {name: value or "" for name, value in attrs}
        name = None if "disabled" in attr else attr.get("name")
        if tag == "input" and name and attr.get("type") not in ("submit", "button", "file"):
            if attr.get("type") not in ("checkbox", "radio"):
                self.fields.setdefault(name, []).append(attr.get("value", ""))
            elif "checked" in attr:
                self.fields.setdefault(name, []).append(attr.get("value", "on"))
        elif tag == "select" and name:
            self._select, self._first_option = name, []
            self._single = "multiple" not in attr
            self.fields.setdefault(name, [])
        elif tag == "option" and self._select:
            self._first_option = self._first_option or [attr.get("value", "")]
            if "selected" in attr:
                self.fields[self._select].append(attr.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = [""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            if self._single and not self.fields[self._select]:
                self.fields[self._select] = self._first_option
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.fields[self._textarea][0] += data.removeprefix("\n")


def form_as_sent(html: str) -> dict[str, list[str]]:
    """The admin page's form sent back as it was shown (for the test client's post)."""
    parser = _FormFields()
    parser.feed(html)
    parser.fields.pop("csrfmiddlewaretoken", None)
    return parser.fields
