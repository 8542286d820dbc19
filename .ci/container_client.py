"""The container test's visitor (.ci/container-test): over HTTPS through Caddy, as a
club member's browser would, without a browser. Standard library only, so it runs on
the bare machine's python3 before any virtualenv exists.

    python3 .ci/container_client.py BASE_URL CA_FILE healthy
    python3 .ci/container_client.py BASE_URL CA_FILE play
    python3 .ci/container_client.py BASE_URL CA_FILE database-down

Forms are sent as the page gives them (every field with its value, the CSRF token,
the Referer a browser sends over HTTPS), filled in where a person would type.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import re
import secrets
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser

# One round of 21-card points under cut 8S (tests/support/hands.py's ROUND_1): Asha
# declares, Ben shows, Chen drops first.
PLAYERS = ("Asha", "Ben", "Chen")
CUT = "8S"
ASHA = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
BEN = "2D 3D 4D | 9C 10C JC | QD QS QH | KH KH | 5S 9D | AS 7S | 6H 6C 4C 2S JS 8C"
ROUND = {"Asha": ("declared", ASHA), "Ben": ("shown", BEN), "Chen": ("first_drop", "")}


class Failed(Exception):
    pass


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    # Radio buttons and select options: every value each name may take.
    choices: dict[str, list[str]] = field(default_factory=dict)

    def names(self) -> set[str]:
        return {name for name, _ in self.fields} | set(self.choices)

    def filled(self, **values: str) -> list[tuple[str, str]]:
        """The form as a browser sends it, with ``values`` typed over its fields."""
        sent = [(name, value) for name, value in self.fields if name not in values]
        return sent + list(values.items())


class Forms(HTMLParser):
    """Every form of a page: its fields as a browser would send them untouched."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.select_first: str | None = None
        self.select_chosen = False
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.current = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self.current)
        form = self.current
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in {"submit", "button", "image", "reset", "file"}:
                return
            if kind in {"radio", "checkbox"}:
                form.choices.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
                return
            form.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self.select, self.select_first, self.select_chosen = name, None, False
            form.choices.setdefault(name, [])
        elif tag == "option" and self.select:
            value = a.get("value", "")
            form.choices[self.select].append(value)
            if self.select_first is None:
                self.select_first = value
            if "selected" in a and not self.select_chosen:
                form.fields.append((self.select, value))
                self.select_chosen = True
        elif tag == "textarea" and name:
            self.textarea, self.text = name, ""

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select" and self.select and self.current:
            if not self.select_chosen and self.select_first is not None:
                self.current.fields.append((self.select, self.select_first))
            self.select = None
        elif tag == "textarea" and self.textarea and self.current:
            self.current.fields.append((self.textarea, self.text.removeprefix("\n")))
            self.textarea = None


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str

    def json(self) -> dict:
        return json.loads(self.body)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect is part of what is checked (a saved form answers 302).
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Browser:
    def __init__(self, base: str, ca_file: str) -> None:
        self.base = base.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        context = ssl.create_default_context(cafile=ca_file)
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(self.cookies),
            NoRedirects,
        )

    def request(self, method: str, path: str, data: list[tuple[str, str]] | None = None) -> Answer:
        url = urllib.parse.urljoin(self.base + "/", path)
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, method=method)
        if method == "POST":
            # What a browser sends with a form over HTTPS: Django's CSRF check reads them.
            request.add_header("Origin", self.base)
            request.add_header("Referer", url)
        try:
            with self.opener.open(request, timeout=30) as response:
                return Answer(response.status, dict(response.headers), response.read().decode())
        except urllib.error.HTTPError as error:
            return Answer(error.code, dict(error.headers), error.read().decode())

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def page_forms(self, path: str) -> tuple[Answer, list[Form]]:
        answer = self.get(path)
        expect(answer.status == 200, f"GET {path}: {answer.status}")
        parser = Forms()
        parser.feed(answer.body)
        return answer, parser.forms

    def submit(self, form: Form, page: str, **values: str) -> Answer:
        return self.request("POST", form.action or page, form.filled(**values))


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def form_with(forms: list[Form], name: str) -> Form:
    for form in forms:
        if name in form.names():
            return form
    raise Failed(f"no form with a field {name!r}")


def healthy(browser: Browser) -> None:
    answer = browser.get("/healthz")
    expect(answer.status == 200, f"/healthz answered {answer.status}: {answer.body}")
    state = answer.json()
    expect(state.get("status") == "ok", f"/healthz: {state}")
    expect(state.get("database") == "ok" and state.get("cache") == "ok", f"/healthz: {state}")
    print(f"/healthz 200: {answer.body}")


def database_down(browser: Browser) -> None:
    answer = browser.get("/healthz")
    expect(answer.status == 503, f"/healthz answered {answer.status}, not 503: {answer.body}")
    state = answer.json()
    expect(str(state.get("database", "")).startswith("error"), f"database not named: {state}")
    expect(state.get("cache") == "ok", f"/healthz blamed the cache too: {state}")
    print(f"/healthz 503: {answer.body}")


def play(browser: Browser) -> None:
    # Sign up: the form's page sets the CSRF cookie, the form carries its token.
    _, forms = browser.page_forms("/accounts/signup/")
    signup = form_with(forms, "password1")
    username, password = f"club-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    answer = browser.submit(
        signup, "/accounts/signup/", username=username, password1=password, password2=password
    )
    expect(answer.status == 302, f"sign-up answered {answer.status}")
    expect(
        any(cookie.name == "sessionid" and cookie.secure for cookie in browser.cookies),
        "no HTTPS-only sign-in cookie after signing up",
    )
    print(f"signed up as {username}")

    # Start a session of 21-card points with three players.
    _, forms = browser.page_forms("/sessions/new/")
    start = form_with(forms, "seat_1")
    seats = {f"seat_{n}": name for n, name in enumerate(PLAYERS, start=1)}
    answer = browser.submit(
        start, "/sessions/new/", preset="21-points", rules_preset="21-points", **seats
    )
    expect(answer.status == 302, f"starting the session answered {answer.status}")
    session_path = urllib.parse.urlsplit(answer.headers["Location"]).path
    expect(re.fullmatch(r"/sessions/\d+/", session_path) is not None, session_path)
    print(f"started {session_path}")

    # The page's live table polls with its stamp: unchanged, it answers 204.
    page, forms = browser.page_forms(session_path)
    poll = re.search(r'id="scoreboard-live"[^>]*?hx-get="([^"]+)"', page.body, re.S)
    expect(poll is not None, "no live poll on the session page")
    poll_path = html.unescape(poll.group(1))
    answer = browser.get(poll_path)
    expect(answer.status == 204, f"a poll of the unchanged table answered {answer.status}")

    # Save round 1: seats are numbered in seat order.
    entry = form_with(forms, "cut_joker")
    outcomes = [name for name in entry.names() if name.startswith("outcome_")]
    seat_ids = sorted(int(name.removeprefix("outcome_")) for name in outcomes)
    expect(len(seat_ids) == len(PLAYERS), f"round form seats: {seat_ids}")
    hands: dict[str, str] = {"cut_joker": CUT}
    for seat, name in zip(seat_ids, PLAYERS, strict=True):
        outcome, groups = ROUND[name]
        hands[f"outcome_{seat}"], hands[f"groups_{seat}"] = outcome, groups
    answer = browser.submit(entry, session_path, **hands)
    expect(answer.status == 302, f"saving round 1 answered {answer.status}")
    print("saved round 1")

    # The same poll, with the page's old stamp, now brings the new table.
    answer = browser.get(poll_path)
    expect(answer.status == 200, f"the poll after the save answered {answer.status}")
    expect(f"{session_path}rounds/" in answer.body, "the polled table has no round 1")
    print(f"a poll sees round 1 ({len(answer.body)} bytes)")


def main() -> int:
    base, ca_file, what = sys.argv[1:4]
    browser = Browser(base, ca_file)
    checks = {"healthy": healthy, "play": play, "database-down": database_down}
    try:
        checks[what](browser)
    except Failed as failure:
        print(f"container test, {what}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
