"""Forms on a page as a browser sees them: each form's method, action and the values
submitting it untouched sends, and the hidden fields a phone holds after opening a page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse

from games.models import GameSession


@dataclass
class Form:
    method: str
    action: str
    fields: list[tuple[str, str]]

    def data(self) -> dict[str, list[str]]:
        """What submitting the form untouched sends (repeated names kept)."""
        data: dict[str, list[str]] = {}
        for name, value in self.fields:
            data.setdefault(name, []).append(value)
        return data

    def names(self) -> set[str]:
        return {name for name, _ in self.fields}


class _FormParser(HTMLParser):
    """Collects each form's method, action and the values a browser would submit:
    text and hidden inputs, checked boxes and radios, selected options (a single
    select with none selected, its first), textareas. Submit buttons and disabled
    controls send nothing here."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._textarea: str | None = None
        self._text = ""
        self._select: str | None = None
        self._multiple = False
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value if value is not None else "" for key, value in attrs}
        if tag == "form":
            self._form = Form(attr.get("method", "get").lower(), attr.get("action", ""), [])
            self.forms.append(self._form)
            return
        if self._form is None or "disabled" in attr:
            return
        name = attr.get("name")
        if tag == "input" and name:
            kind = attr.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attr:
                    self._form.fields.append((name, attr.get("value", "on")))
                return
            self._form.fields.append((name, attr.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""
        elif tag == "select" and name:
            self._select, self._options = name, []
            self._multiple = "multiple" in attr
        elif tag == "option" and self._select is not None:
            self._options.append((attr.get("value", ""), "selected" in attr))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            # The HTML parser drops the newline right after <textarea>, as browsers do.
            self._form.fields.append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None
        elif tag == "select" and self._select is not None and self._form is not None:
            chosen = [value for value, selected in self._options if selected]
            if not chosen and self._options and not self._multiple:
                chosen = [self._options[0][0]]  # a single select shows its first
            self._form.fields.extend((self._select, value) for value in chosen)
            self._select = None


def forms_in(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


def form_on(client: Client, page: str, action: str, **matching: str) -> Form:
    """The form posting to ``action`` on ``page`` (the first one whose fields hold
    every ``matching`` name=value), as ``client`` sees it. An action's #fragment (where
    the answer opens) is not part of the address posted to."""
    response = client.get(page)
    assert response.status_code == 200, (page, response.status_code)
    for form in forms_in(response.content.decode()):
        if form.action.partition("#")[0] == action and all(
            (name, value) in form.fields for name, value in matching.items()
        ):
            return form
    raise AssertionError(f"no form posting to {action} on {page}")


def hidden(html: str, name: str) -> str:
    return re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)[1]


def opened_form(client: Client, session: GameSession) -> dict:
    """What a phone holds after opening the session page: the form's hidden fields."""
    html = client.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    return {name: hidden(html, name) for name in ("number", "opened", "submission", "key")}
