"""Who may do what, at every URL of the app: the rule book that
tests/security/test_access_matrix.py checks and other security tests walk.

MATRIX is the rule book: one row per URL name, one entry per HTTP method the
view accepts, and for each the status every actor gets. The tests request every
URL with every method as every actor and check the status, that refused requests
change nothing in the database and that allowed writes really write. A URL that
is not in the matrix fails `test_every_url_has_a_row_in_the_matrix`: add its row.

Actors (tests/support/world.py): "anonymous" (signed out), "outsider" (signed
in, member of another league only), and the league's "viewer", "scorer" and
"owner" (the owner also created the sessions).

Adding a URL: one line in MATRIX, e.g.

    "games:round_history": row("round", GET=members(200)),
    "games:session_stakes": row("table", POST=managers(302, body=..., writes=True)),

``row``'s first argument names what the URL's arguments point at (see ``target``);
``everyone``, ``signed_in``, ``members``, ``scorers`` and ``managers`` are the
access levels (the status the allowed actors get is their argument), and ``_case``
spells out any other combination. A write needs a ``body`` a browser would send
and ``writes=True``; ``effect`` checks the change a user would see.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import (
    GameSession,
    League,
    LeagueInvite,
    Membership,
    PlayerClaim,
    Round,
    TableHand,
)
from games.transfer.league_file import FORMAT, VERSION
from tests.support.builders import round_data, seat_pk, session_form_data
from tests.support.forms import form_on
from tests.support.hands import LOOSE_148, ROUND_1
from tests.support.world import ACTORS, World, round_form

LOGIN = "sign-in page"  # a 302 to /accounts/login/?next=<the page asked for>
ADMIN_LOGIN = "admin sign-in page"  # a 302 to /admin/login/?next=<the page asked for>
Status = int | str
Body = Callable[[World], dict]

NEW_PASSWORD = "a-brand-new-passphrase-42"


@dataclass(frozen=True)
class Case:
    """One kind of request to a URL: what each actor gets, the body sent, and whether
    the request, where allowed, changes data (``effect`` says how a user sees it)."""

    expect: Mapping[str, Status]
    ok: Status
    body: Body | None = None
    writes: bool = False
    effect: Callable[[World], bool] | None = None
    label: str = ""
    # The allowed actors whose request writes, where not all do (None: all of them):
    # following an invite link changes nothing for someone already at its role.
    writers: tuple[str, ...] | None = None

    def allowed(self, actor: str) -> bool:
        return self.expect[actor] == self.ok

    def writes_as(self, actor: str) -> bool:
        """Whether ``actor``'s request must change data (and only then may)."""
        return (
            self.writes and self.allowed(actor) and (self.writers is None or actor in self.writers)
        )


def _case(expect: dict[str, Status], ok: Status, **kwargs) -> Case:
    assert set(expect) == set(ACTORS)
    return Case(expect=expect, ok=ok, **kwargs)


def everyone(ok: Status, **kwargs) -> Case:
    """Public: signed in or not."""
    return _case(dict.fromkeys(ACTORS, ok), ok, **kwargs)


def signed_in(ok: Status, **kwargs) -> Case:
    """Anyone signed in; anonymous users are sent to sign in."""
    return _case({"anonymous": LOGIN} | dict.fromkeys(ACTORS[1:], ok), ok, **kwargs)


def members(ok: Status, **kwargs) -> Case:
    """Reading a league's page or session: its members. To anyone else it does not
    exist (404), so ids reveal nothing."""
    expect = {"anonymous": LOGIN, "outsider": 404, "viewer": ok, "scorer": ok, "owner": ok}
    return _case(expect, ok, **kwargs)


def scorers(ok: Status, **kwargs) -> Case:
    """Scoring a session (rounds, rejoins, ending it): its creator, league owners and
    scorers; viewers see it but may not (403)."""
    expect = {"anonymous": LOGIN, "outsider": 404, "viewer": 403, "scorer": ok, "owner": ok}
    return _case(expect, ok, **kwargs)


def managers(ok: Status, **kwargs) -> Case:
    """Managing a session (stakes, share link) or a league (rules, members): the
    session's creator or the league's owners."""
    expect = {"anonymous": LOGIN, "outsider": 404, "viewer": 403, "scorer": 403, "owner": ok}
    return _case(expect, ok, **kwargs)


@dataclass(frozen=True)
class Row:
    """A URL: the object it names (see ``target``) and its cases per method."""

    on: str | None
    methods: dict[str, tuple[Case, ...]] = field(default_factory=dict)


def row(on: str | None = None, **methods: Case | tuple[Case, ...]) -> Row:
    return Row(on, {m: c if isinstance(c, tuple) else (c,) for m, c in methods.items()})


TARGETS: dict[str | None, Callable[[World], list]] = {
    None: lambda w: [],
    "table": lambda w: [w.table.pk],  # the 21-points session
    "pool": lambda w: [w.pool.pk],  # the pool, where Chen may rejoin
    "round": lambda w: [w.table.pk, w.round.pk],
    "league": lambda w: [w.league.slug],
    "member": lambda w: [w.league.slug, w.membership(w.viewer).pk],  # the viewer's
    "player": lambda w: [w.asha.pk],
    "token": lambda w: [w.table.share_token],
    "table seat": lambda w: [w.table.pk, seat_pk(w.table, "Ben")],
    "table link": lambda w: [w.table.table_token],  # table mode's link (no seat cookie)
    "reset link": lambda w: ["MQ", "not-a-valid-token"],
    "done": lambda w: [w.done.pk],  # finished: a rematch may start from it
    "joined": lambda w: [w.joined.pk],  # Kim's join may be taken back
    "invite": lambda w: [w.league.slug, w.invite.pk],
    "invite link": lambda w: [w.invite.token],
    "league player": lambda w: [w.league.slug, w.asha.pk],  # nobody claimed Asha
    "claim": lambda w: [w.league.slug, w.claim.player_id],  # Wren's claim of Chen
}


def target(world: World, on: str | None) -> list:
    """The URL arguments naming ``on`` in the world."""
    return TARGETS[on](world)


# --- Request bodies, as a browser would send them ----------------------------------------


def link(name: str, *args) -> str:
    return reverse(f"games:{name}", args=args)


def new_round(world: World) -> dict:
    t = world.table
    return round_form(world, link("session_detail", t.pk), link("round_create", t.pk), ROUND_1)


def arrange_new_round(world: World) -> dict:
    return new_round(world) | {"arrange": str(seat_pk(world.table, "Ben"))}


def edited_round(world: World) -> dict:
    t, r = world.table, world.round
    edit = link("round_edit", t.pk, r.pk)
    # Round 1 again, with Asha and Ben swapping hands.
    swapped = {"Asha": ROUND_1["Ben"], "Ben": ROUND_1["Asha"], "Chen": ROUND_1["Chen"]}
    return round_form(world, edit, edit, swapped)


def arrange_edited_round(world: World) -> dict:
    return edited_round(world) | {"arrange": str(seat_pk(world.table, "Ben"))}


def delete_round(world: World) -> dict:
    t, r = world.table, world.round
    owner = world.client("owner")
    form = form_on(owner, link("round_edit", t.pk, r.pk), link("round_delete", t.pk, r.pk))
    return {"version": form.data()["version"]}


def corrected_hand(world: World) -> dict:
    """The scorer corrects Ben's hand of round 3 (table mode) to another that checks."""
    t = world.table
    data = form_on(
        world.client("owner"),
        link("table_correct", t.pk, seat_pk(t, "Ben")),
        link("table_correct", t.pk, seat_pk(t, "Ben")),
    ).data()
    data.pop("csrfmiddlewaretoken")
    return data | {f"groups_{seat_pk(t, 'Ben')}": [LOOSE_148]}


def seat_hand(world: World) -> dict:
    """Ben's hand of round 3 as his phone would hand it in (no actor holds his seat)."""
    return round_data(world.table, "8S", {"Ben": ("shown", LOOSE_148)}, number="3", edit="5")


def ben_corrected(world: World) -> bool:
    hand = TableHand.objects.get(seat__session=world.table, seat__player__name="Ben")
    return hand.text == LOOSE_148 and hand.status == "in" and hand.entered_by is not None


def new_session(world: World) -> dict:
    return session_form_data(name="Saturday", seat_1="Gita", seat_2="Hugo")


def new_league_session(world: World) -> dict:
    return new_session(world) | {"league": str(world.league.pk)}


def league_rules(world: World) -> dict:
    page = link("league_rules", world.league.slug)
    data = form_on(world.client("owner"), page, page).data()
    return data | {"name": ["Tuesday Night Club"]}


def new_league(world: World) -> dict:
    page = link("league_new")
    data = form_on(world.client("owner"), page, page).data()
    return data | {"name": ["Wednesday Club"]}


def league_file(world: World) -> dict:
    text = json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "league": {
                "name": "Imported Club",
                "slug": "imported-club",
                "preset": "21-points",
                "overrides": {},
                "money_per_point": None,
            },
            "members": [],
            "players": [],
            "sessions": [],
        }
    )
    return {"file": SimpleUploadedFile("club.json", text.encode(), "application/json")}


def reloaded(world: World, name: str) -> GameSession:
    return GameSession.objects.get(pk=getattr(world, name).pk)


# --- The matrix ---------------------------------------------------------------------------

MATRIX: dict[str, Row] = {
    # Home and accounts.
    "games:home": row(GET=everyone(200)),
    "games:signup": row(
        GET=everyone(200),
        POST=everyone(
            302,
            body=lambda w: {
                "username": "newcomer",
                "password1": NEW_PASSWORD,
                "password2": NEW_PASSWORD,
            },
            writes=True,
        ),
    ),
    # Your account: your own e-mail, nobody else's.
    "games:account": row(
        GET=signed_in(200),
        POST=signed_in(302, body=lambda w: {"email": "someone@example.com"}, writes=True),
    ),
    # The footer's choice of language: anyone; signed in, the account keeps it too.
    "games:language": row(
        POST=everyone(
            302,
            body=lambda w: {"language": "hi", "next": "/"},
            writes=True,
            writers=("outsider", "viewer", "scorer", "owner"),
        ),
    ),
    # The installable app: public, and the same for everyone (the service worker keeps
    # the offline page on the phone).
    "games:manifest": row(GET=everyone(200)),
    "games:service_worker": row(GET=everyone(200)),
    "games:offline": row(GET=everyone(200)),
    # Starting a session: anyone signed in, in a league only as its owner or scorer
    # (to others the league is not a choice: the form says so).
    "games:session_new": row(
        GET=signed_in(200),
        POST=(
            signed_in(
                302,
                body=new_session,
                writes=True,
                effect=lambda w: GameSession.objects.filter(name="Saturday").exists(),
                label="own",
            ),
            _case(
                {"anonymous": LOGIN, "outsider": 422, "viewer": 422, "scorer": 302, "owner": 302},
                302,
                body=new_league_session,
                writes=True,
                effect=lambda w: w.league.sessions.filter(name="Saturday").exists(),
                label="in the league",
            ),
        ),
    ),
    # A session and its tools.
    "games:session_detail": row("table", GET=members(200)),
    "games:session_scoreboard": row("table", GET=members(200)),
    "games:session_history": row("table", GET=members(200)),
    "games:session_totals_chart": row("table", GET=members(200)),
    "games:session_rounds_csv": row("table", GET=members(200)),
    "games:session_rounds_xlsx": row("table", GET=members(200)),
    "games:session_stakes": row(
        "table",
        POST=managers(
            302,
            body=lambda w: {"money_per_point": "0.25"},
            writes=True,
            effect=lambda w: str(reloaded(w, "table").money_per_point) == "0.25",
        ),
    ),
    "games:session_share_reset": row(
        "table",
        POST=managers(
            302,
            writes=True,
            effect=lambda w: reloaded(w, "table").share_token != w.table.share_token,
        ),
    ),
    "games:session_close": row(
        "table",
        POST=scorers(302, writes=True, effect=lambda w: reloaded(w, "table").closed_at is not None),
    ),
    "games:session_rematch": row(
        "done",
        POST=scorers(
            302,
            writes=True,
            effect=lambda w: GameSession.objects.filter(rematch_of=w.done).exists(),
        ),
    ),
    "games:session_rejoin": row(
        "pool",
        POST=scorers(
            302,
            body=lambda w: {"seat": str(seat_pk(w.pool, "Chen"))},
            writes=True,
            effect=lambda w: w.pool.rejoins.exists(),
        ),
    ),
    "games:session_leave": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"seat": str(seat_pk(w.table, "Ben"))},
            writes=True,
            effect=lambda w: w.table.seat_changes.exists(),
        ),
    ),
    "games:session_join": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"name": "Latecomer"},
            writes=True,
            effect=lambda w: w.table.seats.filter(player__name="Latecomer").exists(),
        ),
    ),
    "games:session_take_back_change": row(
        "joined",
        POST=scorers(
            302,
            body=lambda w: {"change": str(w.joined.seat_changes.get(kind="join").pk)},
            writes=True,
            effect=lambda w: not w.joined.seats.filter(player__name="Kim").exists(),
        ),
    ),
    "games:session_rename": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"seat": str(seat_pk(w.table, "Ben")), "name": "Benny"},
            writes=True,
            effect=lambda w: w.table.seats.filter(player__name="Benny").exists(),
        ),
    ),
    # Rounds.
    "games:round_create": row(
        "table",
        POST=scorers(
            302, body=new_round, writes=True, effect=lambda w: w.table.rounds.count() == 3
        ),
    ),
    "games:round_preview": row("table", POST=scorers(200, body=new_round)),
    "games:round_arrange": row("table", POST=scorers(200, body=arrange_new_round)),
    "games:round_detail": row("round", GET=members(200)),
    "games:round_history": row("round", GET=members(200)),
    "games:round_edit": row(
        "round",
        GET=scorers(200),
        POST=scorers(
            302,
            body=edited_round,
            writes=True,
            effect=lambda w: Round.objects.get(pk=w.round.pk).version == 2,
        ),
    ),
    "games:round_edit_preview": row("round", POST=scorers(200, body=edited_round)),
    "games:round_edit_arrange": row("round", POST=scorers(200, body=arrange_edited_round)),
    "games:round_delete": row(
        "round",
        POST=scorers(
            302,
            body=delete_round,
            writes=True,
            effect=lambda w: not Round.objects.filter(pk=w.round.pk).exists(),
        ),
    ),
    # Table mode, the scorer's side: those who score the session.
    "games:table_panel": row("table", GET=scorers(200)),
    "games:table_link": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"action": "replace"},
            writes=True,
            effect=lambda w: reloaded(w, "table").table_token != w.table.table_token,
        ),
    ),
    "games:table_auto_save": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"auto_save": "on"},
            writes=True,
            effect=lambda w: reloaded(w, "table").table_auto_save is True,
        ),
    ),
    "games:table_cut": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"number": "3", "cut_joker": "9h"},
            writes=True,
            effect=lambda w: w.table.table_rounds.get().cut_joker == "9H",
        ),
    ),
    "games:table_release": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"seat": str(seat_pk(w.table, "Asha"))},
            writes=True,
            effect=lambda w: not w.table.seats.filter(phone_key__isnull=False).exists(),
        ),
    ),
    "games:table_save": row(
        "table",
        POST=scorers(
            302,
            body=lambda w: {"number": "3"},
            writes=True,
            effect=lambda w: w.table.rounds.count() == 3 and not w.table.table_rounds.exists(),
        ),
    ),
    "games:table_correct": row(
        "table seat",
        GET=scorers(200),
        POST=scorers(302, body=corrected_hand, writes=True, effect=ben_corrected),
    ),
    "games:table_correct_preview": row("table seat", POST=scorers(200, body=corrected_hand)),
    # Table mode, a phone's side: the table link is the key to pick a free seat; a
    # seat's hand only with that seat's cookie, which none of the actors holds (the
    # phones' own cases are in test_access_matrix.py's "Table mode" section).
    "games:table_seats": row(
        "table link",
        GET=everyone(200),
        POST=everyone(
            302,
            body=lambda w: {"seat": str(seat_pk(w.table, "Ben"))},
            writes=True,
            effect=lambda w: w.table.seats.get(player__name="Ben").phone_key is not None,
        ),
    ),
    "games:table_hand": row("table link", GET=everyone(302), POST=everyone(403, body=seat_hand)),
    "games:table_hand_preview": row("table link", POST=everyone(403, body=seat_hand)),
    "games:table_hand_status": row("table link", GET=everyone(302)),
    "games:table_leave": row("table link", POST=everyone(403)),
    # The share link: the token is the key, whoever holds it; read-only.
    "games:shared_session": row("token", GET=everyone(200)),
    "games:shared_scoreboard": row("token", GET=everyone(200)),
    "games:shared_totals_chart": row("token", GET=everyone(200)),
    "games:shared_big": row("token", GET=everyone(200)),
    # Leagues.
    "games:league_list": row(GET=signed_in(200)),
    "games:league_new": row(
        GET=signed_in(200),
        POST=signed_in(
            302,
            body=new_league,
            writes=True,
            effect=lambda w: League.objects.filter(name="Wednesday Club").exists(),
        ),
    ),
    "games:league_detail": row("league", GET=members(200)),
    "games:league_rules": row(
        "league",
        GET=members(200),
        POST=managers(
            302,
            body=league_rules,
            writes=True,
            effect=lambda w: League.objects.get(pk=w.league.pk).name == "Tuesday Night Club",
        ),
    ),
    "games:member_add": row(
        "league",
        GET=members(302),  # to the members on the league's page
        POST=managers(
            302,
            body=lambda w: {"username": w.outsider.username, "role": "viewer"},
            writes=True,
            effect=lambda w: w.league.memberships.filter(user=w.outsider).exists(),
        ),
    ),
    "games:member_change": row(
        "member",
        POST=managers(
            302,
            body=lambda w: {"role": "scorer"},
            writes=True,
            effect=lambda w: w.membership(w.viewer).role == Membership.Role.SCORER,
        ),
    ),
    # Invite links: owners make and revoke them; the link itself lets anyone signed in
    # join with its role (here scorer: the outsider joins, the viewer is raised, the
    # scorer and owner are already at it or above, and nothing changes for them).
    "games:invite_create": row(
        "league",
        POST=managers(
            302,
            body=lambda w: {"role": "viewer", "days": "7"},
            writes=True,
            effect=lambda w: w.league.invites.filter(role="viewer").exists(),
        ),
    ),
    "games:invite_revoke": row(
        "invite",
        POST=managers(
            302,
            writes=True,
            effect=lambda w: LeagueInvite.objects.get(pk=w.invite.pk).revoked_at is not None,
        ),
    ),
    "games:invite": row(
        "invite link",
        GET=signed_in(200),
        POST=signed_in(
            302,
            writes=True,
            writers=("outsider", "viewer"),
            effect=lambda w: w.league.memberships.filter(role="scorer").count() >= 2,
        ),
    ),
    # Claimed player names: any member claims one of the league's players as
    # themselves; the claimant or an owner undoes a claim (Wren's, here).
    "games:player_claim": row(
        "league player",
        POST=members(
            302,
            writes=True,
            effect=lambda w: PlayerClaim.objects.filter(league=w.league, player=w.asha).exists(),
        ),
    ),
    "games:player_unclaim": row(
        "claim",
        POST=_case(
            {"anonymous": LOGIN, "outsider": 404, "viewer": 403, "scorer": 403, "owner": 302},
            302,
            writes=True,
            effect=lambda w: not PlayerClaim.objects.filter(pk=w.claim.pk).exists(),
        ),
    ),
    "games:league_standings": row("league", GET=members(200)),
    "games:league_standings_csv": row("league", GET=members(200)),
    "games:league_standings_xlsx": row("league", GET=members(200)),
    "games:league_export": row("league", GET=members(200)),
    "games:player_detail": row("player", GET=members(200)),
    # Importing a league file makes a new league, owned by whoever imports it.
    "games:league_import": row(
        GET=signed_in(200),
        POST=signed_in(
            302,
            body=league_file,
            writes=True,
            effect=lambda w: League.objects.filter(slug="imported-club").exists(),
        ),
    ),
    # Django's sign-in pages. Their FormViews answer PUT like a POST whose form is
    # empty (Django parses no body for PUT): the form again, its problems answered 422
    # as every form of the app answers them, nothing done.
    "login": row(
        GET=everyone(200),
        POST=everyone(302, body=lambda w: {"username": "olga", "password": w.password}),
        PUT=everyone(422),
    ),
    "logout": row(POST=everyone(302)),
    "password_change": row(
        GET=signed_in(200),
        POST=signed_in(
            302,
            body=lambda w: {
                "old_password": w.password,
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
            writes=True,
        ),
        PUT=signed_in(422),  # its empty form's problems, as every form of the app answers them
    ),
    "password_change_done": row(GET=signed_in(200)),
    "password_reset": row(
        GET=everyone(200),
        POST=everyone(302, body=lambda w: {"email": "nobody@example.com"}),
        PUT=everyone(422),
    ),
    "password_reset_done": row(GET=everyone(200)),
    # A link that is not valid says so, whatever the method.
    "password_reset_confirm": row(
        "reset link",
        GET=everyone(200),
        POST=everyone(200),
        PUT=everyone(200),
        PATCH=everyone(200),
        DELETE=everyone(200),
    ),
    "password_reset_complete": row(GET=everyone(200)),
    # The framework's floor for the load benchmark (unnamed: keyed by its route), routed
    # outside production (settings.BENCHMARK_ROUTES), as in the tests.
    "hello/": row(GET=everyone(200)),
    # The health route: public, and tells nothing of anyone's data.
    "healthz": row(GET=everyone(200)),
    # The admin is for staff; none of the actors is (Django's own access rules: its
    # other URLs are left out of the coverage test below).
    "admin:index": row(GET=_case(dict.fromkeys(ACTORS, ADMIN_LOGIN), ADMIN_LOGIN)),
    "admin:login": row(GET=everyone(200)),
}

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
NAMESPACES_LEFT_OUT = {"admin"}


def path_of(world: World, key: str, on: str | None) -> str:
    return f"/{key}" if key.endswith("/") else reverse(key, args=target(world, on))
