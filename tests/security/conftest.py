"""One small world for the security tests (issue 6, "Access" and "Bad input"): a
league with an owner, a scorer and a viewer, two of its sessions with rounds saved,
and a second league whose only member is an outsider to the first. Plus the tools
those tests share: a client per actor, a fingerprint of every table, and the fields
a browser would submit for a form on a page."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings

from games.models import GameSession, League, Membership, Player, Round
from games.services.leagues import create_league
from tests.web.conftest import SHOWN_8S, WIN_8S, WIN_13, make_session, play, round_data

Role = Membership.Role
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Who asks, from nobody to everybody: the order of the matrix's columns.
ACTORS = ("anonymous", "outsider", "viewer", "scorer", "owner")

# 21-points, cut 8S: one declares, one shows, one drops.
ROUND_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}
ROUND_2 = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("first_drop", "")}
# 13-pool-101, cut 7C: Chen reaches 120 and is out at 101 (tests/web/test_session_tools).
POOL_ROUNDS = [
    {"Asha": ("declared", WIN_13), "Ben": ("middle_drop", ""), "Chen": ("invalid_declaration", "")},
    {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")},
]
# The other league's table: players of its own, so a leak shows by name.
OTHER_ROUND = {
    "Dara": ("declared", WIN_8S),
    "Eamon": ("shown", SHOWN_8S),
    "Farah": ("first_drop", ""),
}


@dataclass
class World:
    password: str
    owner: User  # owns the league and created its sessions
    scorer: User
    viewer: User
    outsider: User  # owns another league, and is no member of this one
    league: League
    table: GameSession  # 21-points, Asha, Ben and Chen, two rounds saved
    round: Round  # the table's first round
    pool: GameSession  # 13-pool-101, Chen out: he may rejoin
    other_league: League
    other: GameSession  # the other league's session, one round saved
    other_round: Round

    def user(self, actor: str) -> User | None:
        return None if actor == "anonymous" else getattr(self, actor)

    def client(self, actor: str, **kwargs) -> Client:
        """A client signed in as ``actor`` (anonymous: nobody)."""
        client = Client(**kwargs)
        user = self.user(actor)
        if user is not None:
            client.force_login(user)
        return client

    def membership(self, user: User) -> Membership:
        return Membership.objects.get(league=self.league, user=user)

    @property
    def asha(self) -> Player:
        return Player.objects.get(name="Asha")


def build_world(password: str) -> World:
    owner, scorer, viewer, outsider = (
        User.objects.create_user(name, password=password)
        for name in ("olga", "sami", "vera", "otto")
    )
    league = create_league(owner, name="Tuesday Club", preset="21-points", overrides={})
    Membership.objects.create(league=league, user=scorer, role=Role.SCORER)
    Membership.objects.create(league=league, user=viewer, role=Role.VIEWER)
    table = make_session(owner, name="Friday", league=league)
    first = play(table, "8S", ROUND_1)
    play(table, "8S", ROUND_2)
    pool = make_session(owner, preset="13-pool-101", name="Pool night", league=league)
    for hands in POOL_ROUNDS:
        play(pool, "7C", hands)

    other_league = create_league(outsider, name="Harbour Club", preset="21-points", overrides={})
    other = make_session(
        outsider, players=("Dara", "Eamon", "Farah"), name="Harbour night", league=other_league
    )
    other_round = play(other, "8S", OTHER_ROUND)
    return World(
        password=password,
        owner=owner,
        scorer=scorer,
        viewer=viewer,
        outsider=outsider,
        league=league,
        table=table,
        round=first,
        pool=pool,
        other_league=other_league,
        other=other,
        other_round=other_round,
    )


PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world, built once per test module inside a transaction that is rolled
    back after the module; each test runs in a savepoint of its own within it (the
    ``db`` fixture), so what one test writes, the next one does not see."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build_world(PASSWORD)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


@pytest.fixture
def world(_module_world: World, db) -> World:
    return _module_world


# --- What the database holds -------------------------------------------------------------

# Bookkeeping that changes without anyone's data changing: when a user last signed in.
_IGNORED = {User: {"last_login"}}


def fingerprint() -> dict[str, str]:
    """A digest of every row of every model of the app, and of the users, per
    model: equal before and after a request exactly when that request changed no
    data (and where it differs, it names the tables that changed)."""
    digests = {}
    for model in [*apps.get_app_config("games").get_models(), User]:
        skip = _IGNORED.get(model, set())
        names = [f.attname for f in model._meta.concrete_fields if f.name not in skip]
        digest = hashlib.sha256()
        for row in model._default_manager.order_by("pk").values_list(*names):
            digest.update(repr(row).encode())
        digests[model._meta.label] = digest.hexdigest()
    return digests


def changed_tables(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(label for label in after if before.get(label) != after[label])


# --- Forms on a page, as a browser sees them ---------------------------------------------


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
    text and hidden inputs, checked boxes and radios, selected options, textareas.
    Submit buttons and disabled controls send nothing here."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._textarea: str | None = None
        self._text = ""
        self._select: str | None = None
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
            if not chosen and self._options:
                chosen = [self._options[0][0]]
            self._form.fields.extend((self._select, value) for value in chosen)
            self._select = None


def forms_in(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


def form_on(client: Client, page: str, action: str, **matching: str) -> Form:
    """The form posting to ``action`` on ``page`` (the first one whose fields hold
    every ``matching`` name=value), as ``client`` sees it."""
    response = client.get(page)
    assert response.status_code == 200, (page, response.status_code)
    for form in forms_in(response.content.decode()):
        if form.action == action and all(
            (name, value) in form.fields for name, value in matching.items()
        ):
            return form
    raise AssertionError(f"no form posting to {action} on {page}")


def round_form(world: World, page: str, action: str, hands: dict) -> dict:
    """The round form posting to ``action`` on ``page`` as the owner's browser has it
    (its hidden fields: version or number, form key, submission token), with the
    table's ``hands`` typed in under cut 8S. No CSRF token: the test client's own
    requests need none."""
    data = form_on(world.client("owner"), page, action).data()
    data.pop("csrfmiddlewaretoken")
    return data | round_data(world.table, "8S", hands)
