"""Bad input, property-based: random and malformed data posted to every
form and HTMX endpoint, and random query strings sent to the pages that read
them. Whatever arrives, the answer is a 4xx or the form again with its errors,
never a server error (the test client re-raises any exception a view lets
escape, which fails the test); and a request the app refuses changes no data.

Inputs: wrong cards, huge values (tens of KB), numbers where text belongs and the
reverse, missing and repeated fields, unicode (right-to-left marks, emoji, NUL),
lone surrogates and bytes that are not UTF-8 (sent url-encoded, as only a hostile
client can), JSON bodies, with and without ``HX-Request``. Everything is sent by
the owner of the league, who may do everything, so the input alone decides.

Each example runs in a savepoint that is rolled back, so every one starts from
the same world (tests/security/conftest.py).
"""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote_from_bytes

import pytest
from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import resolve, reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.forms.fields import CardListField, NumbersField
from games.forms.sessions import SessionForm
from games.ids import an_id
from games.models import League, Membership, Round
from games.rules import CardError, parse_card
from games.transfer.league_export import dumps, export_league
from tests.support.builders import round_data, seat_pk, session_form_data
from tests.support.forms import form_on
from tests.support.hands import LOOSE_148, ROUND_1
from tests.support.league_files import with_history_written_out
from tests.support.profiles import examples
from tests.support.world import World, changed_tables, fingerprint, round_form

pytestmark = pytest.mark.django_db

FUZZ = settings(
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
# Examples in CI (make test runs a tenth, tests/support/profiles.py). Fewer for the
# endpoints that render the long house-rules form or replay a session, and for the
# session's tools (a field or two each; a saved change is then shown on the session
# page, which is fetched too).
HEAVY = 15
TOOLS = 20

FORM_ERRORS = 422

# --- Values ---------------------------------------------------------------------------------

# Card codes as people mistype them, and things that are no card at all.
CARDS_VALID = ["2H", "10S", "QD", "AC", "KH", "PJ", "8S", "7C", "JD", "3S", "8s", "T♠", "JK", "A♥"]
CARDS_WRONG = ["1H", "11C", "0S", "ZZ", "XJ", "10X", "AAH", "🃏", "♠", "K", "-5H", "T10", "P", "Ａ"]
CARDS_WRONG += ["\u212aH", "7\u017f"]  # a Kelvin sign for K, a long s for S
NASTY = [
    "",
    " ",
    "\t\n",
    "\x00",
    "8S\x00",
    "a\x00b",
    "\u202eSJ8",  # right-to-left override
    "\u200f\u200e",
    "مرحبا",
    "שלום",
    "👍🏽",
    "🂡🂱",
    "𝔄𝔰𝔥𝔞",
    "\ufeff",
    "Ａｓｈａ",
    "<script>alert(1)</script>",
    "'; DROP TABLE games_round; --",
    "%00",
    "../../etc/passwd",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e309",
    "-0",
    "0x10",
    "1_000",
    "９",
    "٣",
    "²",
    "99999999999999999999999999",
    "-1",
    "0",
    "1.5",
    "0.001",
    "  7  ",
    "null",
    "true",
    "[]",
    "{}",
    '{"a": 1}',
    "\\",
    '"',
]
NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
)
DATES = st.one_of(
    st.dates().map(lambda d: d.isoformat()),
    st.sampled_from(
        ["0001-01-01", "9999-12-31", "2024-02-30", "2024-13-01", "10000-01-01", "-2024-01-01"]
    ),
    st.tuples(st.integers(-99999, 99999), st.integers(-99, 99), st.integers(-99, 99)).map(
        lambda t: f"{t[0]}-{t[1]}-{t[2]}"
    ),
)
HUGE = st.builds(
    lambda piece, n: (piece * n)[:n],
    st.sampled_from(["A", "é", "👍", "\u202e", "9", "|", " ", "8S ", "8S | ", "\x00"]),
    st.integers(min_value=10_000, max_value=60_000),
)
CARD_TEXT = st.lists(
    st.lists(st.sampled_from(CARDS_VALID + CARDS_WRONG), max_size=8), max_size=5
).map(lambda groups: " | ".join(" ".join(group) for group in groups))
TEXT = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=40),
    NUMBERS,
    DATES,
    CARD_TEXT,
    st.sampled_from(CARDS_VALID + CARDS_WRONG),
    HUGE,
)
# Only a hand-made request carries these: lone surrogates, and bytes that are not UTF-8.
RAW = st.one_of(
    TEXT,
    st.text(alphabet=st.characters(categories=["Cs"]), min_size=1, max_size=4),
    st.binary(max_size=40),
)


def rarely() -> st.SearchStrategy[bool]:
    """True about one time in ten."""
    return st.sampled_from([False] * 9 + [True])


def _keys(names: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(names), st.text(max_size=12)) if names else st.text()


@dataclass(frozen=True)
class Sent:
    """One request's body (or query) as pairs, repeated names allowed, and how it
    travels."""

    pairs: tuple[tuple[str, str | bytes], ...]
    encoding: str  # "form" (the test client's multipart), "raw" (url-encoded by hand), "json"
    htmx: bool

    def multipart(self) -> dict[str, list[str]]:
        data: dict[str, list[str]] = {}
        for name, value in self.pairs:
            data.setdefault(name, []).append(str(value))
        return data

    def urlencoded(self) -> str:
        def encode(part: str | bytes) -> str:
            raw = part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass")
            return quote_from_bytes(raw, safe="")

        return "&".join(f"{encode(name)}={encode(value)}" for name, value in self.pairs)


@st.composite
def sent(draw, base: dict, names: list[str]) -> Sent:
    """A request body: perhaps the valid ``base`` with fields dropped, changed,
    repeated and added; perhaps garbage alone; perhaps thousands of fields."""
    encoding = draw(st.sampled_from(["form", "form", "raw", "json"]))
    value = RAW if encoding == "raw" else TEXT
    pairs: list[tuple[str, str | bytes]] = []
    if base and draw(st.booleans()):
        dropped = set(draw(st.lists(st.sampled_from(sorted(base)), max_size=3)))
        for name, values in base.items():
            if name not in dropped:
                values = values if isinstance(values, list) else [values]
                pairs += [(name, str(v)) for v in values]
    for _ in range(draw(st.integers(min_value=0, max_value=5))):
        name = draw(_keys(names))
        if draw(st.booleans()):
            pairs = [(n, v) for n, v in pairs if n != name]  # replaced, not repeated
        pairs += [(name, draw(value)) for _ in range(draw(st.integers(1, 3)))]
    if draw(rarely()):
        pairs += [(f"f{i}", "x") for i in range(1200)]  # more than Django reads
    if encoding == "form":
        pairs = [(n, v) for n, v in pairs if isinstance(v, str)]
    return Sent(tuple(pairs), encoding, draw(st.booleans()))


# --- The endpoints --------------------------------------------------------------------------


def _url(name: str, *args) -> str:
    return reverse(f"games:{name}", args=args)


def _table_page(w: World) -> str:
    return _url("session_detail", w.table.pk)


def _edit(w: World) -> str:
    return _url("round_edit", w.table.pk, w.round.pk)


def _round_fields(w: World) -> list[str]:
    seats = [seat_pk(w.table, name) for name in ("Asha", "Ben", "Chen")]
    return [
        "cut_joker",
        "version",
        "number",
        "submission",
        "key",
        "arrange",
        *(f"outcome_{pk}" for pk in seats),
        *(f"groups_{pk}" for pk in seats),
        f"groups_{w.other.seats.first().pk}",  # another session's seat
    ]


def _hand_fields(w: World) -> list[str]:
    """A seat phone's hand form (Ben's), with another seat's fields slipped in."""
    ben, asha = seat_pk(w.table, "Ben"), seat_pk(w.table, "Asha")
    return ["cut_joker", "number", "edit", f"outcome_{ben}", f"groups_{ben}", f"groups_{asha}"]


def _ben_hand(w: World) -> dict:
    return round_data(w.table, "8S", {"Ben": ("shown", LOOSE_148)}, number="3", edit="5")


def _corrected(w: World) -> dict:
    data = _page_form(lambda w: _url("table_correct", w.table.pk, seat_pk(w.table, "Ben")))(w)
    return data | {f"groups_{seat_pk(w.table, 'Ben')}": [LOOSE_148]}


def _table(name: str, *args: Callable[[World], object]) -> Callable[[World], str]:
    return lambda w: _url(name, w.table.pk, *(arg(w) for arg in args))


def _at_table(name: str) -> Callable[[World], str]:
    return lambda w: _url(name, w.table.table_token)


def _ben(w: World) -> int:
    return seat_pk(w.table, "Ben")


def _new_round(w: World) -> dict:
    return round_form(w, _table_page(w), _url("round_create", w.table.pk), ROUND_1)


def _edited_round(w: World) -> dict:
    return round_form(w, _edit(w), _edit(w), ROUND_1)


def _arranged(base: Callable[[World], dict]) -> Callable[[World], dict]:
    return lambda w: base(w) | {"arrange": str(seat_pk(w.table, "Ben"))}


def _page_form(page: Callable[[World], str]) -> Callable[[World], dict]:
    def base(w: World) -> dict:
        data = form_on(w.client("owner"), page(w), page(w)).data()
        data.pop("csrfmiddlewaretoken")
        return data

    return base


SESSION_FIELDS = [
    "name",
    "played_on",
    "first_dealer",
    "league",
    "preset",
    "rules_preset",
    "ceiling",
    "money_per_point",
    "buy_in",
    "action",
    *(f"seat_{n}" for n in range(1, 10)),
    "rule_hand_size",
    "rule_decks",
    "rule_value_cards",
    "rule_first_drop",
    "rule_rejoin_cutoff",
    "rule_declarations",
]
LEAGUE_FIELDS = [f for f in SESSION_FIELDS if not f.startswith("seat_")]


# What table mode stores of a hand as it is typed, refused or not.
KEPT_AS_TYPED = frozenset({"games.TableHand", "games.TableRound"})


@dataclass(frozen=True)
class Endpoint:
    """A URL that takes input: the valid request to start garbling from, and the
    names of the fields worth garbling."""

    url: Callable[[World], str]
    base: Callable[[World], dict] = lambda w: {}
    fields: Callable[[World], list[str]] = lambda w: []
    examples: int = 40
    # Sent from the phone holding this player's seat in table mode (no sign-in);
    # None: by the league's owner.
    phone: str | None = None
    # Table mode keeps a hand as typed, refused or not, so that a reload loses
    # nothing: a refusal may still change these tables.
    kept_when_refused: frozenset[str] = frozenset()


POSTS: dict[str, Endpoint] = {
    "session_new": Endpoint(
        lambda w: _url("session_new"),
        lambda w: session_form_data(name="Saturday", seat_1="Gita", seat_2="Hugo"),
        lambda w: SESSION_FIELDS,
        examples=HEAVY,
    ),
    "session_new (toss)": Endpoint(
        lambda w: _url("session_new"),
        lambda w: session_form_data(seat_1="Gita", seat_2="Hugo", seat_3="Ida", action="toss"),
        lambda w: SESSION_FIELDS,
        examples=HEAVY,
    ),
    "round_create": Endpoint(
        lambda w: _url("round_create", w.table.pk), _new_round, _round_fields, examples=HEAVY
    ),
    "round_preview": Endpoint(
        lambda w: _url("round_preview", w.table.pk), _new_round, _round_fields, examples=HEAVY
    ),
    "round_arrange": Endpoint(
        lambda w: _url("round_arrange", w.table.pk),
        _arranged(_new_round),
        _round_fields,
        examples=HEAVY,
    ),
    "round_edit": Endpoint(_edit, _edited_round, _round_fields, examples=HEAVY),
    "round_edit_preview": Endpoint(
        lambda w: _url("round_edit_preview", w.table.pk, w.round.pk),
        _edited_round,
        _round_fields,
        examples=HEAVY,
    ),
    "round_edit_arrange": Endpoint(
        lambda w: _url("round_edit_arrange", w.table.pk, w.round.pk),
        _arranged(_edited_round),
        _round_fields,
        examples=HEAVY,
    ),
    "round_delete": Endpoint(
        lambda w: _url("round_delete", w.table.pk, w.round.pk),
        lambda w: {"version": "1"},
        lambda w: ["version"],
        examples=TOOLS,
    ),
    "session_stakes (net)": Endpoint(
        lambda w: _url("session_stakes", w.table.pk),
        lambda w: {"money_per_point": "0.25"},
        lambda w: ["money_per_point", "buy_in"],
        examples=TOOLS,
    ),
    "session_stakes (pool)": Endpoint(
        lambda w: _url("session_stakes", w.pool.pk),
        lambda w: {"buy_in": "10.00"},
        lambda w: ["money_per_point", "buy_in"],
        examples=TOOLS,
    ),
    "session_close": Endpoint(
        lambda w: _url("session_close", w.table.pk), fields=lambda w: ["reopen"], examples=TOOLS
    ),
    "session_rejoin": Endpoint(
        lambda w: _url("session_rejoin", w.pool.pk),
        lambda w: {"seat": str(seat_pk(w.pool, "Chen"))},
        lambda w: ["seat", "cancel"],
        examples=TOOLS,
    ),
    "session_leave": Endpoint(
        lambda w: _url("session_leave", w.table.pk),
        lambda w: {"seat": str(seat_pk(w.table, "Chen"))},
        lambda w: ["seat"],
        examples=TOOLS,
    ),
    "session_join": Endpoint(
        lambda w: _url("session_join", w.table.pk),
        lambda w: {"name": "Kim"},
        lambda w: ["name"],
        examples=TOOLS,
    ),
    "session_take_back_change": Endpoint(
        lambda w: _url("session_take_back_change", w.joined.pk),
        lambda w: {"change": str(w.joined.seat_changes.get(kind="join").pk)},
        lambda w: ["change"],
        examples=TOOLS,
    ),
    "session_rename": Endpoint(
        lambda w: _url("session_rename", w.table.pk),
        lambda w: {"seat": str(seat_pk(w.table, "Ben")), "name": "Benny"},
        lambda w: ["seat", "name"],
        examples=TOOLS,
    ),
    "session_share_reset": Endpoint(
        lambda w: _url("session_share_reset", w.table.pk), examples=TOOLS
    ),
    # Table mode, the scorer's side: world.table has round 3's hands all in.
    "table_link": Endpoint(
        _table("table_link"), lambda w: {"action": "replace"}, lambda w: ["action"], TOOLS
    ),
    "table_cut": Endpoint(
        _table("table_cut"),
        lambda w: {"number": "3", "cut_joker": "8S"},
        lambda w: ["number", "cut_joker"],
        TOOLS,
    ),
    "table_auto_save": Endpoint(
        _table("table_auto_save"), lambda w: {"auto_save": "on"}, lambda w: ["auto_save"], TOOLS
    ),
    "table_release": Endpoint(
        _table("table_release"),
        lambda w: {"seat": str(seat_pk(w.table, "Asha"))},
        lambda w: ["seat"],
        TOOLS,
    ),
    "table_save": Endpoint(
        _table("table_save"), lambda w: {"number": "3"}, lambda w: ["number"], HEAVY
    ),
    "table_correct": Endpoint(
        _table("table_correct", _ben),
        _corrected,
        _hand_fields,
        HEAVY,
        kept_when_refused=KEPT_AS_TYPED,
    ),
    "table_correct_preview": Endpoint(
        _table("table_correct_preview", _ben), _corrected, _hand_fields, HEAVY
    ),
    # A phone's side: Ben's phone, holding his seat.
    "table_seats": Endpoint(
        _at_table("table_seats"),
        lambda w: {"seat": str(seat_pk(w.table, "Chen"))},
        lambda w: ["seat"],
        TOOLS,
        phone="Ben",
    ),
    "table_hand": Endpoint(
        _at_table("table_hand"),
        _ben_hand,
        _hand_fields,
        HEAVY,
        phone="Ben",
        kept_when_refused=KEPT_AS_TYPED,
    ),
    "table_hand_preview": Endpoint(
        _at_table("table_hand_preview"),
        _ben_hand,
        _hand_fields,
        HEAVY,
        phone="Ben",
        kept_when_refused=KEPT_AS_TYPED,
    ),
    "table_leave": Endpoint(_at_table("table_leave"), phone="Ben", examples=TOOLS),
    "league_new": Endpoint(
        lambda w: _url("league_new"),
        lambda w: _page_form(lambda w: _url("league_new"))(w) | {"name": ["Wednesday Club"]},
        lambda w: LEAGUE_FIELDS,
        examples=HEAVY,
    ),
    "league_rules": Endpoint(
        lambda w: _url("league_rules", w.league.slug),
        _page_form(lambda w: _url("league_rules", w.league.slug)),
        lambda w: LEAGUE_FIELDS,
        examples=HEAVY,
    ),
    "member_add": Endpoint(
        lambda w: _url("member_add", w.league.slug),
        lambda w: {"username": "otto", "role": "viewer"},
        lambda w: ["username", "role"],
    ),
    "member_change": Endpoint(
        lambda w: _url("member_change", w.league.slug, w.membership(w.viewer).pk),
        lambda w: {"role": "scorer"},
        lambda w: ["role", "remove"],
    ),
    "signup": Endpoint(
        lambda w: _url("signup"),
        lambda w: (
            {"username": "newcomer", "password1": "a-long-passphrase-42"}
            | {"password2": "a-long-passphrase-42"}
        ),
        lambda w: ["username", "password1", "password2"],
    ),
    "account": Endpoint(
        lambda w: _url("account"),
        lambda w: {"email": "owner@example.com"},
        lambda w: ["email"],
    ),
    "login": Endpoint(
        lambda w: reverse("login"),
        lambda w: {"username": "olga", "password": "wrong horse"},
        lambda w: ["username", "password", "next"],
    ),
}

GETS: dict[str, Endpoint] = {
    "league_standings": Endpoint(
        lambda w: _url("league_standings", w.league.slug), fields=lambda w: ["from", "to"]
    ),
    "league_standings_csv": Endpoint(
        lambda w: _url("league_standings_csv", w.league.slug),
        fields=lambda w: ["from", "to"],
    ),
    "league_standings_xlsx": Endpoint(
        lambda w: _url("league_standings_xlsx", w.league.slug),
        fields=lambda w: ["from", "to"],
    ),
    "session_scoreboard": Endpoint(
        lambda w: _url("session_scoreboard", w.table.pk), fields=lambda w: ["v"]
    ),
    "shared_scoreboard": Endpoint(
        lambda w: _url("shared_scoreboard", w.table.share_token), fields=lambda w: ["v"]
    ),
    "player_detail": Endpoint(
        lambda w: _url("player_detail", w.asha.pk), fields=lambda w: ["page"]
    ),
    "session_new (league, preset)": Endpoint(
        lambda w: _url("session_new"), fields=lambda w: ["league", "preset"], examples=HEAVY
    ),
    "league_new (preset)": Endpoint(
        lambda w: _url("league_new"), fields=lambda w: ["preset"], examples=HEAVY
    ),
    "league_rules (preset)": Endpoint(
        lambda w: _url("league_rules", w.league.slug), fields=lambda w: ["preset"], examples=HEAVY
    ),
    "table_hand_status": Endpoint(
        _at_table("table_hand_status"), fields=lambda w: ["number", "v"], phone="Ben"
    ),
    "table_panel": Endpoint(_table("table_panel"), fields=lambda w: ["v", "number"]),
    "exports": Endpoint(
        lambda w: _url("session_rounds_csv", w.table.pk), fields=lambda w: ["from", "to"]
    ),
    "league_export": Endpoint(
        lambda w: _url("league_export", w.league.slug), fields=lambda w: ["format"]
    ),
}

# Statuses a refusal may have; and those of a request that went through.
REFUSED = {400, 403, 404, 405, 413, FORM_ERRORS, 429}
FINE = {200, 204, 302}


def _send(client: Client, method: str, path: str, request: Sent):
    headers = {"HX-Request": "true"} if request.htmx else {}
    if method == "GET":
        if request.encoding == "form":
            return client.get(path, request.multipart(), headers=headers)
        return client.get(path, QUERY_STRING=request.urlencoded(), headers=headers)
    if request.encoding == "form":
        return client.post(path, request.multipart(), headers=headers)
    if request.encoding == "json":
        body = json.dumps(dict((n, str(v)) for n, v in request.pairs))
        return client.post(path, body, content_type="application/json", headers=headers)
    return client.post(
        path,
        request.urlencoded(),
        content_type="application/x-www-form-urlencoded",
        headers=headers,
    )


def _follow(client: Client, response) -> str | None:
    """Where a redirect (or htmx's client redirect) sends the browser."""
    return response.headers.get("HX-Redirect") or response.headers.get("Location")


def _refused(response) -> bool:
    """The app said no: a 4xx, the form again with its errors, or an error message."""
    if response.status_code in REFUSED:
        return True
    request = getattr(response, "wsgi_request", None)
    stored = messages.get_messages(request) if request is not None else []
    return any(message.level >= messages.ERROR for message in stored)


@dataclass(frozen=True)
class Outcome:
    status: int
    refused: bool
    changed: list[str]  # the tables whose rows changed
    then: int | None = None  # the status of the page a redirect led to


def exchange(
    client: Client, method: str, path: str, request: Sent, before: dict[str, str]
) -> Outcome:
    """Send the request inside a savepoint that is rolled back afterwards, and give
    the client its cookies back (its session, no messages pending): every example
    starts where the first one did, from the data ``before`` fingerprints."""
    cookies = copy.deepcopy(client.cookies)
    try:
        with transaction.atomic():
            response = _send(client, method, path, request)
            refused, changed = _refused(response), changed_tables(before, fingerprint())
            target = _follow(client, response)
            # Where the browser goes next must work too: what was saved is shown there.
            then = client.get(target).status_code if target else None
            outcome = Outcome(response.status_code, refused, changed, then)
            event(f"status {outcome.status}" + (", changed data" if outcome.changed else ""))
            transaction.set_rollback(True)
    finally:
        client.cookies = cookies
    return outcome


def _never_a_server_error(outcome: Outcome) -> None:
    assert outcome.status < 500, outcome
    assert outcome.status in REFUSED | FINE, outcome
    assert outcome.then is None or outcome.then in FINE, outcome


_BASES: dict[tuple[int, str], object] = {}


def _once(world: World, name: str, build: Callable[[World], object]):
    """Built once per module: it reads pages, and every example starts from the
    same world anyway."""
    key = (id(world), name)
    if key not in _BASES:
        _BASES[key] = build(world)
    return _BASES[key]


def fuzz(in_ci: int | None, test: Callable) -> None:
    """Run ``test(data)`` on as many examples as the Hypothesis profile gives a test
    that runs ``in_ci`` of them in CI (endpoints differ in cost; make test runs a
    tenth, tests/support/profiles.py); None: the profile's max_examples."""
    count = settings.default.max_examples if in_ci is None else examples(in_ci)
    settings(FUZZ, max_examples=count)(given(data=st.data())(test))()


def _client(world: World, endpoint: Endpoint) -> Client:
    """The owner's client, or a phone that picked ``endpoint.phone``'s seat (its
    cookie, which exchange() keeps across the examples)."""
    if endpoint.phone is None:
        return world.client("owner")
    phone = Client()
    seat = seat_pk(world.table, endpoint.phone)
    picked = phone.post(_url("table_seats", world.table.table_token), {"seat": str(seat)})
    assert picked.status_code == 302, picked.status_code
    return phone


@pytest.mark.parametrize("name", list(POSTS))
def test_garbage_posted_to_a_form_is_refused_or_saved_never_a_server_error(
    world: World, name: str
) -> None:
    endpoint = POSTS[name]
    base, fields = _once(world, name, endpoint.base), endpoint.fields(world)
    client, path = _client(world, endpoint), endpoint.url(world)

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        outcome = exchange(client, "POST", path, data.draw(sent(base, fields)), before)
        _never_a_server_error(outcome)
        changed = set(outcome.changed) - endpoint.kept_when_refused
        assert not (outcome.refused and changed), f"refused, yet changed: {outcome}"

    fuzz(endpoint.examples, test)


@pytest.mark.parametrize("name", list(GETS))
def test_any_query_string_gets_a_page_or_a_4xx_and_changes_nothing(world: World, name: str) -> None:
    endpoint = GETS[name]
    fields, client, path = endpoint.fields(world), _client(world, endpoint), endpoint.url(world)

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        outcome = exchange(client, "GET", path, data.draw(sent({}, fields)), before)
        _never_a_server_error(outcome)
        assert not outcome.changed, f"a GET changed data: {outcome}"

    fuzz(endpoint.examples, test)


# --- Inputs that are surely wrong: refused, and nothing changes ------------------------------


def test_the_wrong_cards_are_wrong() -> None:
    # The strategies below rely on it: every one of these is refused by the rules.
    for code in CARDS_WRONG:
        with pytest.raises(CardError):
            parse_card(code)


@st.composite
def wrong_round(draw, world: World, base: dict) -> dict:
    """A round as typed, with at least one card that is no card (or no cut joker)."""
    data = dict(base)
    seats = [seat_pk(world.table, name) for name in ("Asha", "Ben", "Chen")]
    if draw(rarely()):
        data["cut_joker"] = draw(st.sampled_from(["", " ", *CARDS_WRONG, "8S 9S", "\x00"]))
    else:
        field = f"groups_{draw(st.sampled_from(seats))}"
        good = draw(st.lists(st.sampled_from(CARDS_VALID), max_size=20))
        wrong = draw(st.lists(st.sampled_from(CARDS_WRONG), min_size=1, max_size=3))
        cards = draw(st.permutations(good + wrong))
        data[field] = draw(st.sampled_from([" ", " | ", ",", ";"])).join(cards)
    return data


@pytest.mark.parametrize("name", ["round_create", "round_edit"])
def test_a_round_with_a_card_that_is_no_card_is_refused_and_nothing_is_saved(
    world: World, name: str
) -> None:
    endpoint = POSTS[name]
    base, client, path = (
        _once(world, name, endpoint.base),
        world.client("owner"),
        endpoint.url(world),
    )

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        body = data.draw(wrong_round(world, base))
        request = Sent(tuple(_pairs(body)), "form", data.draw(st.booleans()))
        outcome = exchange(client, "POST", path, request, before)
        assert outcome.status == FORM_ERRORS, outcome
        assert not outcome.changed, outcome

    fuzz(HEAVY, test)


def _pairs(body: dict) -> list[tuple[str, str]]:
    return [(n, v) for n, vs in body.items() for v in (vs if isinstance(vs, list) else [vs])]


MONEY_WRONG = [
    "-1",
    "0",
    "0.001",
    "abc",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e309",
    "999999999999",
    "1,5",
    "\x00",
    "1\x00",
    "\u202e5",
    "5€",
    "0x10",
]


def _not_a_username(text: str) -> bool:
    if len(text) > 150 or "\x00" in text:  # no username is (the form says so first)
        return True
    return not User.objects.filter(username__iexact=text.strip()).exists()


# Requests that are wrong whatever else they carry: the endpoint, and a strategy of
# bodies each of which must be refused with no data changed.
WRONG: dict[str, tuple[str, Callable[[World], st.SearchStrategy[dict]]]] = {
    "stakes that are no amount of money": (
        "session_stakes (net)",
        lambda w: st.fixed_dictionaries({"money_per_point": st.sampled_from(MONEY_WRONG)}),
    ),
    "a buy-in that is no amount of money": (
        "session_stakes (pool)",
        lambda w: st.fixed_dictionaries({"buy_in": st.sampled_from(MONEY_WRONG)}),
    ),
    "a member who has not signed up": (
        "member_add",
        lambda w: st.fixed_dictionaries(
            {"username": TEXT.filter(_not_a_username)},
            optional={"role": st.sampled_from(["viewer", "scorer", "owner", "admin", ""])},
        ),
    ),
    "a role that is no role": (
        "member_change",
        lambda w: st.fixed_dictionaries(
            {"role": TEXT.filter(lambda t: t not in Membership.Role.values)}
        ),
    ),
    "a session with fewer than two players": (
        "session_new",
        lambda w: st.builds(
            lambda seat, text, toss: session_form_data(
                **{f"seat_{seat}": text}, **({"action": "toss"} if toss else {})
            ),
            st.integers(1, 8),
            TEXT,
            st.booleans(),
        ),
    ),
    "a league without a name": (
        "league_new",
        lambda w: st.builds(
            lambda base, name: base | {"name": [name]},
            st.just(_page_form(lambda w: _url("league_new"))(w)),
            st.sampled_from(["", " ", "\t\n", "\x00", "Club\x00"]) | HUGE,
        ),
    ),
    "house rules without a name": (
        "league_rules",
        lambda w: st.builds(
            lambda base, name: base | {"name": [name]},
            st.just(_page_form(lambda w: _url("league_rules", w.league.slug))(w)),
            st.sampled_from(["", " ", "\t\n", "\x00", "Club\x00"]) | HUGE,
        ),
    ),
    "passwords that do not match": (
        "signup",
        lambda w: st.builds(
            lambda name, one, two: {"username": name, "password1": one, "password2": two},
            TEXT,
            TEXT,
            TEXT,
        ).filter(lambda d: d["password1"] != d["password2"]),
    ),
    "a rejoin of nobody at the table": (
        "session_rejoin",
        lambda w: st.one_of(
            st.fixed_dictionaries(
                {"seat": TEXT.filter(lambda t: t.strip() != str(seat_pk(w.pool, "Chen")))}
            ),
            st.just({"seat": str(w.other.seats.first().pk)}),
            st.fixed_dictionaries({"cancel": TEXT}),
        ),
    ),
    "a rename to no name, or to one already at the table": (
        "session_rename",
        lambda w: st.fixed_dictionaries(
            {
                "seat": st.just(str(seat_pk(w.table, "Ben"))),
                "name": st.sampled_from(["", " ", "\t\n", "\x00", "B\x00n", "\u202eX"])
                | st.sampled_from(["Asha", "chen", "ＡＳＨＡ", " BEN "])
                | HUGE,
            }
        ),
    ),
    "a leave of nobody at this table": (
        "session_leave",
        lambda w: st.one_of(
            st.fixed_dictionaries({"seat": TEXT.filter(lambda t: an_id(t) not in _seats_of(w))}),
            st.just({"seat": str(w.other.seats.first().pk)}),
        ),
    ),
    "a join of no name, or of one already at the table": (
        "session_join",
        lambda w: st.fixed_dictionaries(
            {
                "name": st.sampled_from(["", " ", "\t\n", "\x00", "B\x00n", "\u202eX"])
                | st.sampled_from(["Asha", "chen", "ＡＳＨＡ", " BEN "])
                | HUGE,
            }
        ),
    ),
    "a take-back of no change of this table": (
        "session_take_back_change",
        lambda w: st.fixed_dictionaries(
            {"change": TEXT.filter(lambda t: an_id(t) != w.joined.seat_changes.get(kind="join").pk)}
        ),
    ),
}


def _seats_of(world: World) -> set[int]:
    return set(world.table.seats.values_list("pk", flat=True))


@pytest.mark.parametrize("case", list(WRONG))
def test_input_that_is_surely_wrong_is_refused_and_changes_nothing(world: World, case: str) -> None:
    name, bodies = WRONG[case]
    endpoint = POSTS[name]
    strategy, client, path = bodies(world), world.client("owner"), endpoint.url(world)

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        request = Sent(tuple(_pairs(data.draw(strategy))), "form", data.draw(st.booleans()))
        outcome = exchange(client, "POST", path, request, before)
        _never_a_server_error(outcome)
        assert outcome.refused, f"not refused: {outcome}"
        assert not outcome.changed, outcome

    fuzz(endpoint.examples, test)


# --- League files -----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _league_file(world: World) -> dict:
    """The league's own export, as a new league: another slug, new share links, and a
    history holding every kind of change, written out in full (the export leaves out
    what the rest of the file says), so that rounds before and after can be damaged."""
    doc = with_history_written_out(json.loads(dumps(export_league(world.league))))
    doc["league"]["slug"] = "imported-club"
    for number, session in enumerate(doc["sessions"]):
        session["share_token"] = f"imported-token-{number:08d}"
    return doc


@st.composite
def mutated(draw, doc: object) -> object:
    """The document with one value somewhere in it replaced, or removed."""
    if isinstance(doc, dict) and doc and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(doc)))
        copy = dict(doc)
        if draw(rarely()):
            del copy[key]
        else:
            copy[key] = draw(mutated(doc[key]))
        return copy
    if isinstance(doc, list) and doc and draw(st.integers(0, 3)):
        index = draw(st.integers(0, len(doc) - 1))
        copy = list(doc)
        copy[index] = draw(mutated(doc[index]))
        return copy
    return draw(JSON | st.sampled_from(NASTY) | NUMBERS.map(float))


# Dates and times as a hand-written or hostile file may give them (some used to
# import, and then every page of the league answered 500).
_MINUTE = datetime.timedelta(minutes=1)
OFFSETS = st.timedeltas(
    min_value=datetime.timedelta(hours=-23, minutes=-59),
    max_value=datetime.timedelta(hours=23, minutes=59),
).map(lambda delta: datetime.timezone(datetime.timedelta(minutes=delta // _MINUTE)))
MOMENTS = st.one_of(
    st.sampled_from(
        [
            "9999-12-31T23:00:00-12:00",
            "0001-01-01T00:00:00+14:00",
            "2100-12-31T23:30:00-01:00",
            "1969-12-31T23:59:59+00:00",
            "1970-01-01T00:00:00Z",
            "2024-01-05T20:00:00",
            "2024-02-30T20:00:00+00:00",
            "2024-01-05T20:00:00+24:00",
            "2024-01-05",
            "never",
            "",
        ]
    ),
    st.datetimes(timezones=st.none() | OFFSETS).map(lambda moment: moment.isoformat()),
)
DAYS = st.one_of(
    st.sampled_from(["0001-01-01", "9999-12-31", "1969-12-31", "2101-01-01", "2024-02-30"]),
    st.dates().map(lambda day: day.isoformat()),
)
# Names no form takes: lone surrogates, NUL, control and invisible formatting
# characters, alone or inside an ordinary name.
BAD_NAME_CHARACTERS = st.characters(categories=["Cc", "Cs", "Cf", "Co", "Zl", "Zp"])
NAMES = st.one_of(
    st.sampled_from(["Club \ud800", "Club\x00", "Form\x01name", "\u202eevil", "a\u2028b", " "]),
    st.tuples(st.text(max_size=8), st.text(BAD_NAME_CHARACTERS, min_size=1, max_size=3)).map(
        lambda parts: parts[0] + parts[1] + "Asha"
    ),
    st.text(max_size=120),
)
HUGE_NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([2**31, 2**31 - 1, -(2**31) - 1, 2**63, 32768, 0, -1]),
    st.floats(allow_nan=False),
)


@st.composite
def edited(draw, doc: dict) -> dict:
    """The league file with one date, name or number of it replaced by one a file
    may hold but the app must refuse or store safely."""
    data = copy.deepcopy(doc)
    session = draw(st.sampled_from(data["sessions"]))
    kind = draw(st.sampled_from(["date", "moment", "name", "number", "history"]))
    if kind == "date":
        session["played_on"] = draw(DAYS)
    elif kind == "moment":
        session[draw(st.sampled_from(["created_at", "closed_at"]))] = draw(MOMENTS)
    elif kind == "name":
        where = draw(st.sampled_from(["league", "player", "session", "author"]))
        name = draw(NAMES)
        if where == "league":
            data["league"]["name"] = name
        elif where == "player":
            draw(st.sampled_from(data["players"]))["name"] = name
        elif where == "session":
            session["name"] = name
        elif session["rounds"]:
            draw(st.sampled_from(session["rounds"]))["entered_by"] = name
    elif kind == "history":
        _edit_history(draw, session)
    else:
        number = draw(HUGE_NUMBERS)
        target = draw(st.sampled_from(["ceiling", "position", "override", "money", "buy_in"]))
        if target == "position":
            draw(st.sampled_from(session["seats"]))["position"] = number
        elif target == "override":
            session["overrides"] = {"first_drop": number}
        elif target == "money":
            data["league"]["money_per_point"] = number
        else:
            session[target] = number
    return data


def _edit_history(draw, session: dict) -> None:
    """One time, name or number of a session's record of its rounds (format version 4)
    replaced: a change's, a round's or a rejoin's, or a round in a change's before or
    after."""
    records = [
        *(("change", change) for change in session["changes"]),
        *(("round", played) for played in session["rounds"]),
        *(("rejoin", rejoin) for rejoin in session["rejoins"]),
    ]
    if not records:
        return
    kind, record = draw(st.sampled_from(records))
    times = {"change": ["changed_at"], "round": ["created_at", "updated_at"]}
    names = {"change": "changed_by", "round": "entered_by", "rejoin": "created_by"}
    numbers = {"change": ["round", "number"], "round": ["version"], "rejoin": ["after_round"]}
    what = draw(st.sampled_from(["moment", "name", "number", "round then"]))
    if what == "moment":
        record[draw(st.sampled_from(times.get(kind, ["created_at"])))] = draw(MOMENTS)
    elif what == "name":
        record[names[kind]] = draw(NAMES)
    elif what == "number":
        record[draw(st.sampled_from(numbers[kind]))] = draw(HUGE_NUMBERS)
    elif kind == "change" and isinstance(record.get("after"), dict):
        hand = draw(st.sampled_from(record["after"]["entries"] or [{}]))
        key = draw(st.sampled_from(["player", "entered_by", "score", "groups", "outcome"]))
        hand[key] = draw(NAMES | HUGE_NUMBERS | st.sampled_from([[["2h"]], "won", None]))


@st.composite
def league_files(draw, doc: dict) -> bytes:
    kind = draw(st.sampled_from(["mutated", "edited", "edited", "json", "bytes", "huge"]))
    if kind == "mutated":
        return json.dumps(draw(mutated(doc))).encode()
    if kind == "edited":
        return json.dumps(draw(edited(doc))).encode()
    if kind == "json":
        return json.dumps(draw(JSON)).encode()
    if kind == "huge":
        return draw(HUGE).encode("utf-8", "surrogatepass")
    return draw(st.binary(max_size=200))


def test_a_damaged_league_file_is_refused_or_imported_whole_never_a_server_error(
    world: World,
) -> None:
    doc, client, path = (
        _once(world, "league file", _league_file),
        world.client("owner"),
        _url("league_import"),
    )

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        raw = data.draw(league_files(doc))
        htmx = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
        cookies = copy.deepcopy(client.cookies)
        with transaction.atomic():
            upload = SimpleUploadedFile("league.json", raw, "application/json")
            response = client.post(path, {"file": upload}, headers=htmx)
            changed = changed_tables(before, fingerprint())
            # Imported: every page of the new league reads back what was stored.
            pages = _league_pages() if "games.League" in changed else []
            shown = [client.get(page).status_code for page in pages]
            transaction.set_rollback(True)
        client.cookies = cookies
        event(f"status {response.status_code}")
        assert response.status_code in {200, 302, FORM_ERRORS}, response.status_code
        if response.status_code == FORM_ERRORS:
            assert not changed, changed
        else:
            assert "games.League" in changed  # imported whole: a new league
            assert shown and set(shown) == {200}, shown

    fuzz(None, test)  # as many as the profile says: 200 in CI


def _league_pages() -> list[str]:
    """The pages of the league imported just now: its page, its standings, its
    sessions' pages, charts, histories and round downloads, and its rounds' pages."""
    league = League.objects.order_by("-pk").first()
    pages = [_url("league_detail", league.slug), _url("league_standings", league.slug)]
    for pk in league.sessions.values_list("pk", flat=True):
        pages += [_url("session_detail", pk), _url("session_totals_chart", pk)]
        # What the file's history shows: its changes, its rounds and their downloads.
        pages += [_url("session_history", pk) + "?from=1", _url("session_rounds_csv", pk)]
        pages.append(_url("session_rounds_xlsx", pk))
    for session, played in Round.objects.filter(session__league=league).values_list(
        "session", "pk"
    ):
        pages.append(_url("round_detail", session, played))
    return pages


# --- House rules that are well-formed but extreme -------------------------------------------


def _rule_values(field: forms.Field) -> st.SearchStrategy:
    """Values of the right shape for one house-rule field, from its edges too."""
    if isinstance(field, forms.BooleanField):
        return st.sampled_from(["on", ""])
    if isinstance(field, forms.MultipleChoiceField):
        return st.lists(st.sampled_from([c for c, _ in field.choices]), unique=True)
    if isinstance(field, forms.ChoiceField):
        return st.sampled_from([str(c) for c, _ in field.choices])
    if isinstance(field, forms.IntegerField):
        edges = st.sampled_from([field.min_value, field.max_value, 0, -1, 1])
        return st.one_of(st.integers(-3, 40), edges, st.integers(-(10**6), 10**6)).map(str)
    if isinstance(field, NumbersField):
        number = st.one_of(st.integers(-3, 200), st.integers(-9_999_999, 9_999_999))
        return st.lists(number, min_size=0, max_size=4).map(lambda ns: ", ".join(map(str, ns)))
    if isinstance(field, CardListField):
        return st.lists(st.sampled_from(CARDS_VALID), max_size=6).map(" ".join)
    raise AssertionError(f"no strategy for {type(field).__name__}")


@st.composite
def house_rules(draw, base: dict) -> dict:
    """The form as a browser sends it, with some house rules and the ceiling changed."""
    fields = SessionForm().fields
    data = dict(base)
    for name in draw(st.lists(st.sampled_from(sorted(fields)), max_size=8, unique=True)):
        if not name.startswith("rule_"):
            continue
        value = draw(_rule_values(fields[name]))
        if value == "" or value == []:
            data.pop(name, None)  # an unchecked box, nothing ticked: not sent
        else:
            data[name] = value
    if draw(st.booleans()):
        data["ceiling"] = draw(st.sampled_from(["", "1", "2", "101", "1000000"]))
    return data


@pytest.mark.parametrize("name", ["session_new", "league_new", "league_rules"])
def test_extreme_house_rules_are_refused_or_give_pages_that_work(world: World, name: str) -> None:
    endpoint = POSTS[name]
    base, client, path = (
        _once(world, name, endpoint.base),
        world.client("owner"),
        endpoint.url(world),
    )

    before = fingerprint()  # every example starts from this

    def test(data) -> None:
        body = data.draw(house_rules(base))
        cookies = copy.deepcopy(client.cookies)
        with transaction.atomic():
            response = client.post(path, body)
            changed = changed_tables(before, fingerprint())
            event(f"status {response.status_code}")
            assert response.status_code in {302, FORM_ERRORS}, response.status_code
            if response.status_code == FORM_ERRORS:
                assert not changed, changed
            else:
                # Saved: every page that shows these rules works.
                for page in _pages_showing_rules(world, _follow(client, response)):
                    shown = client.get(page)
                    assert shown.status_code == 200, (page, shown.status_code)
            transaction.set_rollback(True)
        client.cookies = cookies

    fuzz(HEAVY, test)


def _pages_showing_rules(world: World, target: str) -> list[str]:
    """The page a save leads to; for a league, also its rules, its standings and a
    new session in it (which starts from its rules)."""
    pages = [target]
    match = resolve(target)
    if match.url_name == "league_detail":
        league = League.objects.get(slug=match.kwargs["slug"])
        pages += [
            _url("league_rules", league.slug),
            _url("league_standings", league.slug),
            f"{_url('session_new')}?league={league.pk}",
        ]
    return pages
