"""One small world for the security tests of access and bad input: a
league with an owner, a scorer and a viewer, its sessions with rounds saved (World
says each), and a second league whose only member is an outsider to the first; a client per
actor, and a fingerprint of every table (tests/security/conftest.py builds the world
once per module)."""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client, override_settings

from games.models import GameSession, League, LeagueInvite, Membership, Player, PlayerClaim, Round
from games.services.leagues import claim_player, create_invite, create_league
from games.services.sessions import close_session, join
from games.services.table import TypedHand, claim_seat, open_table, write_hand
from tests.support.builders import make_session, play, round_data
from tests.support.forms import form_on
from tests.support.hands import POOL_ROUNDS, ROUND_1, SHOWN_8S, WIN_8S

Role = Membership.Role
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

PASSWORD = "correct-horse-battery-staple"

# The second round of the table: Ben declares this time.
ROUND_2 = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("first_drop", "")}

# Who asks, from nobody to everybody: the order of the matrix's columns.
ACTORS = ("anonymous", "outsider", "viewer", "scorer", "owner")

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
    # 21-points, Asha, Ben and Chen, two rounds saved; in table mode, round 3's hands
    # all in (Asha's from a phone that holds her seat), ready to save
    table: GameSession
    round: Round  # the table's first round
    pool: GameSession  # 13-pool-101, Chen out: he may rejoin
    other_league: League
    other: GameSession  # the other league's session, one round saved
    other_round: Round
    # 21-points, one round saved and ended by hand: finished, ready for a rematch
    done: GameSession
    # 21-points, one round saved, then Kim joined: her join may still be taken back
    joined: GameSession
    # a scorer invite link to the league, made by the owner
    invite: LeagueInvite
    # Chen, claimed in the league by Wren, a viewer who is none of the actors
    claim: PlayerClaim
    # actor → the session cookie of their sign-in, made with the world
    signed_in: dict[str, str] = field(default_factory=dict)

    def user(self, actor: str) -> User | None:
        return None if actor == "anonymous" else getattr(self, actor)

    def client(self, actor: str, **kwargs) -> Client:
        """A client signed in as ``actor`` (anonymous: nobody). The sign-in is the
        one made with the world (`sign_everyone_in`): signing in anew for each of a
        thousand requests cost more than the requests (a session row, the last-login
        update, django-axes' log). A test that signs out deletes the session in its
        own savepoint, which is rolled back after it."""
        client = Client(**kwargs)
        if actor in self.signed_in:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.signed_in[actor]
        return client

    def sign_everyone_in(self) -> None:
        for actor in ACTORS:
            user = self.user(actor)
            if user is not None:
                client = Client()
                client.force_login(user)
                self.signed_in[actor] = client.cookies[settings.SESSION_COOKIE_NAME].value

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
    table_round_3(table)
    done = make_session(owner, name="Last week", league=league)
    play(done, "8S", ROUND_1)
    close_session(done)
    joined = make_session(owner, name="Late night", league=league)
    play(joined, "8S", ROUND_1)
    join(joined, "Kim", owner, random.Random(0))
    invite = create_invite(league, owner, role=Role.SCORER, days=7)
    wren = User.objects.create_user("wren", password=password)
    Membership.objects.create(league=league, user=wren, role=Role.VIEWER)
    claim = claim_player(league, Player.objects.get(name="Chen"), wren)
    world = World(
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
        done=done,
        joined=joined,
        invite=invite,
        claim=claim,
    )
    world.sign_everyone_in()
    return world


@contextmanager
def kept_world(django_db_blocker) -> Iterator[World]:
    """The world, built inside a transaction that is rolled back when the block ends:
    a module's tests share it (a conftest's module fixture), each in a savepoint of
    its own within it (pytest-django's ``db`` fixture), so what one test writes, the
    next one does not see."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = build_world(PASSWORD)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def table_round_3(table: GameSession) -> None:
    """Table mode on ``table``: a phone holds Asha's seat, and round 3's hands are in
    (round 1's hands again, each handed in on its own)."""
    open_table(table)
    claim_seat(table, table.seats.get(player__name="Asha"))
    for seat in table.seats.select_related("player"):
        outcome, text = ROUND_1[seat.player.name]
        typed = TypedHand(3, outcome=outcome, text=text, cut_text="8S", edit=1)
        written = write_hand(table, seat, typed, final=True)
        assert written.hand.status == "in", written.check.errors


# --- What the database holds -------------------------------------------------------------

# Bookkeeping that changes without anyone's data changing: when a user last signed in.
_IGNORED = {User: {"last_login"}}


def fingerprint() -> dict[str, str]:
    """A digest of every row of every model of the app, and of the users, per
    model: equal before and after a request exactly when that request changed no
    data (and where it differs, it names the tables that changed)."""
    digests = {}
    with connection.cursor() as cursor:
        for label, sql in _row_queries():
            cursor.execute(sql)
            digests[label] = hashlib.sha256(repr(cursor.fetchall()).encode()).hexdigest()
    return digests


@functools.cache
def _row_queries() -> tuple[tuple[str, str], ...]:
    """Each model's rows in plain SQL: the security tests take a fingerprint around
    every request, and building the ORM's queries cost more than running them."""
    queries = []
    for model in [*apps.get_app_config("games").get_models(), User]:
        skip = _IGNORED.get(model, set())
        names = [f.attname for f in model._meta.concrete_fields if f.name not in skip]
        sql, params = (
            model._default_manager.order_by("pk").values_list(*names).query.sql_with_params()
        )
        assert not params, sql
        queries.append((model._meta.label, sql))
    return tuple(queries)


def changed_tables(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(label for label in after if before.get(label) != after[label])


def round_form(world: World, page: str, action: str, hands: dict) -> dict:
    """The round form posting to ``action`` on ``page`` as the owner's browser has it
    (its hidden fields: version or number, form key, submission token), with the
    table's ``hands`` typed in under cut 8S. No CSRF token: the test client's own
    requests need none."""
    data = form_on(world.client("owner"), page, action).data()
    data.pop("csrfmiddlewaretoken")
    return data | round_data(world.table, "8S", hands)
