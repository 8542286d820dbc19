"""Who may do what, at every URL of the app: every URL with
every method as every actor gets the status MATRIX (tests/support/access_matrix.py)
says, refused requests change nothing in the database and allowed writes really
write. A URL that is not in the matrix fails `test_every_url_has_a_row_in_the_matrix`:
add its row there."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.models import GameSession, Membership, TableHand
from tests.support.access_matrix import (
    ADMIN_LOGIN,
    LOGIN,
    MATRIX,
    METHODS,
    NAMESPACES_LEFT_OUT,
    Case,
    Status,
    link,
    path_of,
    reloaded,
    target,
)
from tests.support.builders import make_session, round_data, seat_pk
from tests.support.forms import form_on, forms_in
from tests.support.hands import LOOSE_148, ROUND_1
from tests.support.table import seat_phone
from tests.support.world import ACTORS, World, changed_tables, fingerprint

pytestmark = pytest.mark.django_db


def request(client: Client, method: str, path: str, data: dict | None = None, **extra):
    if method == "GET":
        return client.get(path, data or {}, **extra)
    if method == "POST":
        return client.post(path, data or {}, **extra)
    return client.generic(method, path, **extra)


def login_url(path: str) -> str:
    return "/accounts/login/?next=" + quote(path, safe="/")


def assert_status(response, expected: Status, path: str) -> None:
    if expected == LOGIN:
        assert response.status_code == 302, response.status_code
        assert response["Location"] == login_url(path)
    elif expected == ADMIN_LOGIN:
        assert response.status_code == 302, response.status_code
        assert response["Location"] == "/admin/login/?next=" + quote(path, safe="/")
    else:
        assert response.status_code == expected, _why(response)
        if expected == 302:
            assert not response["Location"].startswith("/accounts/login/")


def _why(response) -> str:
    text = response.content.decode(errors="replace")
    errors = re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', text, re.S)
    return f"{response.status_code}: {errors or text[:300]}"


# --- Which requests are known to go wrong (bugs found, reported; not fixed here) --------

# (URL name, method, actor): what goes wrong. The case is then expected to fail.
KNOWN_BUGS: dict[tuple[str, str, str], str] = {}


def known_bug(reason: str | None) -> list:
    return [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []


def _cases() -> Iterator:
    for key, spec in MATRIX.items():
        for method, cases in spec.methods.items():
            for case in cases:
                for actor in ACTORS:
                    label = f"{key}-{method}" + (f"-{case.label}" if case.label else "")
                    marks = known_bug(KNOWN_BUGS.get((key, method, actor)))
                    yield pytest.param(key, method, case, actor, id=f"{label}-{actor}", marks=marks)


# --- The tests ----------------------------------------------------------------------------


def _walk(resolver: URLResolver, namespace: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = entry.namespace or ""
            full = f"{namespace}:{inner}" if namespace and inner else inner or namespace
            yield from _walk(entry, full)
        else:
            name = entry.name or str(entry.pattern)  # an unnamed URL: its route
            yield (f"{namespace}:{name}" if namespace else name), entry


def _left_out(key: str) -> bool:
    return ":" in key and key.split(":")[0] in NAMESPACES_LEFT_OUT


def url_keys() -> set[str]:
    return {key for key, _ in _walk(get_resolver()) if not _left_out(key)}


def test_every_url_has_a_row_in_the_matrix() -> None:
    missing = sorted(url_keys() - set(MATRIX))
    assert not missing, (
        f"URLs without a row in MATRIX ({__file__}): {missing}. Add one saying what "
        "each actor gets for each method the view accepts."
    )


def test_every_row_of_the_matrix_is_a_url() -> None:
    known = url_keys()
    stale = sorted(key for key in MATRIX if key not in known and not _left_out(key))
    assert not stale, f"MATRIX rows for URLs that no longer exist: {stale}"


@pytest.mark.parametrize(("key", "method", "case", "actor"), list(_cases()))
def test_each_actor_gets_exactly_what_the_role_allows(
    world: World, key: str, method: str, case: Case, actor: str
) -> None:
    path = path_of(world, key, MATRIX[key].on)
    data = case.body(world) if case.body else None
    client = world.client(actor)
    before = fingerprint()

    response = request(client, method, path, data)

    assert_status(response, case.expect[actor], path)
    changed = changed_tables(before, fingerprint())
    if case.writes_as(actor):
        assert changed, "an allowed write changed nothing"
        if case.effect:
            assert case.effect(world)
    else:
        assert not changed, f"a refused request (or a read) changed {changed}"


def _wrong_methods() -> Iterator:
    for key, spec in MATRIX.items():
        if _left_out(key):
            continue
        for method in METHODS:
            if method not in spec.methods:
                yield pytest.param(key, method, id=f"{key}-{method}")


@pytest.mark.parametrize(("key", "method"), list(_wrong_methods()))
def test_a_method_the_view_does_not_take_is_a_405(world: World, key: str, method: str) -> None:
    # The owner may do everything, so only the method can be refused.
    path = path_of(world, key, MATRIX[key].on)
    before = fingerprint()
    response = request(world.client("owner"), method, path, round_data(world.table, "8S", ROUND_1))
    assert response.status_code == 405
    assert fingerprint() == before


# Each object the URLs name, replaced by one that does not exist.
MISSING = {
    "table": lambda w: [10**12],
    "pool": lambda w: [10**12],
    "round": lambda w: [w.table.pk, 10**12],
    "league": lambda w: ["no-such-league"],
    "member": lambda w: [w.league.slug, 10**12],
    "table seat": lambda w: [w.table.pk, 10**12],
    "player": lambda w: [10**12],
    "done": lambda w: [10**12],
    "joined": lambda w: [10**12],
    "invite": lambda w: [w.league.slug, 10**12],
    "league player": lambda w: [w.league.slug, 10**12],
    "claim": lambda w: [w.league.slug, 10**12],
}


def _outsider_404s() -> Iterator:
    for key, spec in MATRIX.items():
        for method, cases in spec.methods.items():
            if spec.on in MISSING and cases[0].expect["outsider"] == 404:
                yield pytest.param(key, method, id=f"{key}-{method}")


@pytest.mark.parametrize(("key", "method"), list(_outsider_404s()))
def test_another_leagues_ids_look_exactly_like_missing_ones(
    world: World, key: str, method: str
) -> None:
    spec = MATRIX[key]
    outsider = world.client("outsider")
    real = request(outsider, method, reverse(key, args=target(world, spec.on)))
    missing = request(outsider, method, reverse(key, args=MISSING[spec.on](world)))
    assert real.status_code == missing.status_code == 404
    assert real.content == missing.content


# What the league's pages would give away: its sessions, players and members.
LEAGUE_SECRETS = ("Friday", "Pool night", "Tuesday Club", "Asha", "Chen", "olga", "sami", "vera")
KNOWN_LEAKS: dict[str, str] = {}


def _outsider_pages() -> Iterator:
    for key, spec in MATRIX.items():
        cases = spec.methods.get("GET", ())
        # A share or table link is the key to its session: whoever holds it sees it;
        # an invite link shows its league's name (tested below).
        keys = ("token", "table link", "invite link")
        if cases and cases[0].expect["outsider"] == 200 and spec.on not in keys:
            yield pytest.param(key, id=key, marks=known_bug(KNOWN_LEAKS.get(key)))


@pytest.mark.parametrize("key", list(_outsider_pages()))
def test_pages_open_to_an_outsider_show_nothing_of_another_league(world: World, key: str) -> None:
    response = world.client("outsider").get(path_of(world, key, MATRIX[key].on))
    assert response.status_code == 200
    text = response.content.decode(errors="replace")
    shown = [secret for secret in LEAGUE_SECRETS if re.search(rf"\b{secret}\b", text)]
    assert not shown, f"an outsider sees {shown}"


def test_an_invite_link_shows_its_leagues_name_and_nothing_else_of_it(world: World) -> None:
    response = world.client("outsider").get(path_of(world, "games:invite", "invite link"))
    text = response.content.decode()
    assert "Join Tuesday Club as scorer" in text
    secrets_ = (*LEAGUE_SECRETS, "wren")
    shown = [secret for secret in secrets_ if re.search(rf"\b{secret}\b", text)]
    assert shown == ["Tuesday Club"], shown


# --- The share link -----------------------------------------------------------------------

TOKEN_URLS = [key for key, spec in MATRIX.items() if spec.on == "token"]


@pytest.mark.parametrize("key", TOKEN_URLS)
def test_a_wrong_share_token_is_a_404(world: World, key: str) -> None:
    real = world.table.share_token
    for token in (
        secrets.token_urlsafe(16),  # the shape of a real one
        real[:-1] + ("A" if real[-1] != "A" else "B"),  # one character off
        real[:16],  # a prefix
        real + "x",  # longer
    ):
        assert Client().get(reverse(key, args=[token])).status_code == 404


@pytest.mark.parametrize("key", TOKEN_URLS)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_the_share_link_cannot_write_even_with_a_round(world: World, key: str, method: str) -> None:
    before = fingerprint()
    path = reverse(key, args=[world.table.share_token])
    response = request(Client(), method, path, round_data(world.table, "8S", ROUND_1))
    assert response.status_code == 405
    assert fingerprint() == before


def _players(session: GameSession) -> set[str]:
    return set(session.seats.values_list("player__name", flat=True))


def _shows(text: str, session: GameSession, mine: GameSession) -> list[str]:
    """What of ``session`` (and not of ``mine``) the text shows: its name, players,
    share token, pages and rounds."""
    marks = [session.name, session.share_token, f"/sessions/{session.pk}/"]
    marks += sorted(_players(session) - _players(mine))
    marks += [f"/rounds/{pk}/" for pk in session.rounds.values_list("pk", flat=True)]
    return [mark for mark in marks if mark in text]


@pytest.mark.parametrize("key", TOKEN_URLS)
def test_a_share_token_opens_its_own_session_and_nothing_else(world: World, key: str) -> None:
    client = Client()
    for mine, others in ((world.table, (world.other, world.pool)), (world.other, (world.table,))):
        response = client.get(reverse(key, args=[mine.share_token]))
        assert response.status_code == 200
        text = response.content.decode()
        assert all(name in text for name in _players(mine))
        for other in others:
            shown = _shows(text, other, mine)
            assert not shown, f"{mine}'s link shows {other}: {shown}"
        # Read-only: the ids of its own pages are not given away either.
        assert f"/sessions/{mine.pk}/" not in text


@pytest.mark.parametrize(("actor", "sees"), [("viewer", False), ("scorer", False), ("owner", True)])
def test_only_those_who_may_replace_the_share_link_are_shown_it(
    world: World, actor: str, sees: bool
) -> None:
    for session in (world.table, world.pool):
        page = world.client(actor).get(link("session_detail", session.pk))
        assert (session.share_token in page.content.decode()) is sees


SHARE_LINK_LEAKS: dict[str, str] = {}


def _member_reads() -> Iterator:
    for key, spec in MATRIX.items():
        cases = spec.methods.get("GET", ())
        if cases and cases[0].expect["viewer"] == 200 and spec.on not in (None, "token"):
            for actor in ("viewer", "scorer"):
                marks = known_bug(SHARE_LINK_LEAKS.get(key))
                yield pytest.param(key, actor, id=f"{key}-{actor}", marks=marks)


@pytest.mark.parametrize(("key", "actor"), list(_member_reads()))
def test_no_page_gives_the_share_link_to_members_not_shown_it(
    world: World, key: str, actor: str
) -> None:
    response = world.client(actor).get(path_of(world, key, MATRIX[key].on))
    assert response.status_code == 200
    body = response.content
    assert world.table.share_token.encode() not in body
    assert world.pool.share_token.encode() not in body


# --- Former members ------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "refused"), [("removed", 404), ("made a viewer", 403)])
def test_a_scorer_who_leaves_the_league_can_no_longer_change_its_sessions(
    world: World, change: str, refused: int
) -> None:
    started = make_session(world.scorer, players=("Gil", "Hal"), name="Sami's night")
    started.league = world.league
    started.save(update_fields=["league"])
    membership = world.membership(world.scorer)
    if change == "removed":
        membership.delete()
    else:
        membership.role = Membership.Role.VIEWER
        membership.save(update_fields=["role"])
    client = world.client("scorer")
    before = fingerprint()

    share = client.post(link("session_share_reset", started.pk))
    stakes = client.post(link("session_stakes", started.pk), {"money_per_point": "5"})

    assert (share.status_code, stakes.status_code) == (refused, refused)
    assert not changed_tables(before, fingerprint())


def test_a_player_of_two_leagues_shows_each_member_only_their_leagues_sessions(
    world: World,
) -> None:
    # Asha also plays at the other league's table: one player in both, as players
    # seated before names resolved per user stay (the outsider typing "Asha" now
    # gets a new player of their own).
    shared = world.asha
    crossover = make_session(
        world.outsider,
        players=("Asha", "Dara"),
        name="Harbour crossover",
        league=world.other_league,
    )
    crossover.seats.filter(player__name="Asha").update(player=shared)
    asha = link("player_detail", shared.pk)

    mine = world.client("viewer").get(asha).content.decode()
    theirs = world.client("outsider").get(asha).content.decode()

    assert "Friday" in mine and "Harbour crossover" not in mine
    assert "Harbour crossover" in theirs and "Friday" not in theirs
    assert f"/sessions/{crossover.pk}/" not in mine
    assert f"/sessions/{world.table.pk}/" not in theirs


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example/"])
def test_signing_in_never_sends_the_browser_to_another_site(world: World, target: str) -> None:
    response = Client().post(
        f"{reverse('login')}?next={quote(target)}",
        {"username": world.owner.username, "password": world.password, "next": target},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")


# --- CSRF ---------------------------------------------------------------------------------


def _posts() -> Iterator:
    for key, spec in MATRIX.items():
        for case in spec.methods.get("POST", ()):
            yield pytest.param(key, case, id=f"{key}" + (f"-{case.label}" if case.label else ""))


@pytest.mark.parametrize(("key", "case"), list(_posts()))
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(
    world: World, key: str, case: Case
) -> None:
    data = case.body(world) if case.body else {}
    data.pop("csrfmiddlewaretoken", None)
    client = world.client("owner", enforce_csrf_checks=True)
    path = path_of(world, key, MATRIX[key].on)
    client.get("/")  # a CSRF cookie, but no token in the form or the headers
    before = fingerprint()

    response = client.post(path, data)

    assert response.status_code == 403
    assert b"CSRF" in response.content
    assert fingerprint() == before


def _hx_token(html: str) -> str:
    match = re.search(r"<body hx-headers='([^']*)'[^>]*>", html)
    assert match, "base.html's <body> sends no hx-headers"
    return json.loads(match[1])["x-csrftoken"]


def test_htmx_posts_carry_the_token_base_html_gives_them(world: World) -> None:
    client = world.client("owner", enforce_csrf_checks=True)
    page = client.get(reverse("games:session_detail", args=[world.table.pk])).content.decode()
    preview = reverse("games:round_preview", args=[world.table.pk])
    body = round_data(world.table, "8S", ROUND_1)
    htmx = {"HX-Request": "true"}

    without = client.post(preview, body, headers=htmx)
    with_token = client.post(preview, body, headers=htmx | {"X-CSRFToken": _hx_token(page)})

    assert without.status_code == 403
    assert with_token.status_code == 200 and "Asha" in with_token.content.decode()


def test_a_form_posted_with_its_own_token_goes_through(world: World) -> None:
    client = world.client("owner", enforce_csrf_checks=True)
    page = reverse("games:session_detail", args=[world.table.pk])
    stakes = reverse("games:session_stakes", args=[world.table.pk])
    data = form_on(client, page, stakes).data() | {"money_per_point": "0.50"}

    assert client.post(stakes, data).status_code == 302
    assert str(reloaded(world, "table").money_per_point) == "0.50"


def _bad_round_htmx(client: Client, world: World):
    url = reverse("games:round_create", args=[world.table.pk])
    return client.post(url, {"cut_joker": "ZZ"}, headers={"HX-Request": "true"})


@dataclass(frozen=True)
class Page:
    """A page with forms that post: who looks at it, how many post forms it holds
    at least (the sign-out button in the header is one), and whether it is one of
    ours, built on base.html (Django's password pages use the admin's templates)."""

    actor: str
    url: Callable[[World], str]
    forms: int
    base_html: bool = True


PAGES: dict[str, Page] = {
    "home": Page("owner", lambda w: "/", 1),
    "session page": Page("owner", lambda w: link("session_detail", w.table.pk), 5),
    "pool page (rejoin)": Page("owner", lambda w: link("session_detail", w.pool.pk), 4),
    "round edit": Page("owner", lambda w: link("round_edit", w.table.pk, w.round.pk), 3),
    "round page": Page("scorer", lambda w: link("round_detail", w.table.pk, w.round.pk), 1),
    "new session": Page("owner", lambda w: link("session_new"), 2),
    "league page": Page("owner", lambda w: link("league_detail", w.league.slug), 5),
    "league rules": Page("owner", lambda w: link("league_rules", w.league.slug), 2),
    "new league": Page("owner", lambda w: link("league_new"), 2),
    "league import": Page("owner", lambda w: link("league_import"), 2),
    "sign-up": Page("anonymous", lambda w: link("signup"), 1),
    "sign-in": Page("anonymous", lambda w: reverse("login"), 1),
    "password change": Page("owner", lambda w: reverse("password_change"), 1, base_html=False),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_every_form_that_posts_carries_a_csrf_token(world: World, name: str) -> None:
    page = PAGES[name]
    response = world.client(page.actor).get(page.url(world))
    assert response.status_code == 200
    html = response.content.decode()
    posts = [form for form in forms_in(html) if form.method == "post"]
    assert len(posts) >= page.forms, [form.action for form in posts]
    for form in posts:
        token = form.data().get("csrfmiddlewaretoken", [""])
        assert len(token) == 1 and len(token[0]) == 64, f"{form.action} has no CSRF token"
    if page.base_html:
        # And htmx requests get theirs from the page's <body>.
        assert len(_hx_token(html)) == 64


def test_a_round_form_swapped_in_by_htmx_carries_a_csrf_token(world: World) -> None:
    response = _bad_round_htmx(world.client("owner"), world)
    assert response.status_code == 422
    posts = [form for form in forms_in(response.content.decode()) if form.method == "post"]
    assert posts and all(len(f.data()["csrfmiddlewaretoken"][0]) == 64 for f in posts)


# --- Table mode: the table link and the seat phones -----------------------------------

TABLE_URLS = [key for key, spec in MATRIX.items() if spec.on == "table link"]
SCORER_TABLE_URLS = [
    key
    for key, spec in MATRIX.items()
    if key.startswith("games:table_") and spec.on != "table link"
]


@pytest.mark.parametrize("key", TABLE_URLS)
def test_a_wrong_table_token_is_a_404(world: World, key: str) -> None:
    real = world.table.table_token
    method = "GET" if "GET" in MATRIX[key].methods else "POST"
    for token in (
        world.table.share_token,  # the share link is no table link
        secrets.token_urlsafe(16),
        real[:-1] + ("A" if real[-1] != "A" else "B"),
        real[:16],
    ):
        before = fingerprint()
        assert request(Client(), method, reverse(key, args=[token])).status_code == 404
        assert fingerprint() == before


def _ben_phone(world: World) -> Client:
    return seat_phone(world.table, "Ben")


@pytest.mark.parametrize("key", SCORER_TABLE_URLS)
def test_a_seat_phone_gets_nothing_of_the_scorers_side(world: World, key: str) -> None:
    phone = _ben_phone(world)
    path = path_of(world, key, MATRIX[key].on)
    before = fingerprint()
    for method in MATRIX[key].methods:
        assert_status(request(phone, method, path), LOGIN, path)
    assert fingerprint() == before


def test_a_seat_phone_writes_only_its_own_hand_of_the_round_being_entered(world: World) -> None:
    phone = _ben_phone(world)
    asha_before = TableHand.objects.get(seat__player__name="Asha", seat__session=world.table)
    body = round_data(
        world.table,
        "8S",
        {"Asha": ("shown", LOOSE_148), "Ben": ("shown", LOOSE_148)},
        number="3",
        edit="7",
    )

    response = phone.post(link("table_hand", world.table.table_token), body)

    assert response.status_code == 200
    asha = TableHand.objects.get(pk=asha_before.pk)
    assert (asha.text, asha.status, asha.updated_at) == (
        asha_before.text,
        asha_before.status,
        asha_before.updated_at,
    )
    ben = TableHand.objects.get(seat__player__name="Ben", seat__session=world.table)
    assert ben.text == LOOSE_148


# What Hand in and the live check answer: a phone that holds no such seat is refused
# (403); a hand for a round that is not the one being entered is refused by Hand in
# (403 saved, 404 not open) and checked by nobody (204: the page moves on by itself).
@pytest.mark.parametrize(
    ("forgery", "statuses"),
    [
        ("another seat's id in the cookie", (403, 403)),
        ("the cookie of another session", (403, 403)),
        ("a seat released by the scorer", (403, 403)),
        ("a round already saved", (409, 204)),
        ("a round not open yet", (409, 204)),
    ],
)
def test_forged_seat_requests_are_refused_and_change_nothing(
    world: World, forgery: str, statuses: tuple[int, int]
) -> None:
    phone = _ben_phone(world)
    table = world.table
    number = "3"
    if forgery == "another seat's id in the cookie":
        ben, asha = seat_pk(table, "Ben"), seat_pk(table, "Asha")
        phone.cookies["seat"] = phone.cookies["seat"].value.replace(f"{ben}:", f"{asha}:", 1)
    elif forgery == "the cookie of another session":
        phone = seat_phone(world.other, "Eamon")
        phone.cookies["seat"]["path"] = "/"
    elif forgery == "a seat released by the scorer":
        table.seats.filter(player__name="Ben").update(phone_key=None)
    elif forgery == "a round already saved":
        number = "2"
    else:
        number = "4"
    body = round_data(table, "8S", {"Ben": ("shown", LOOSE_148)}, number=number, edit="9")
    before = fingerprint()

    for name, status in zip(("table_hand", "table_hand_preview"), statuses, strict=True):
        response = phone.post(link(name, table.table_token), body)
        assert response.status_code == status, (name, response.status_code)

    assert fingerprint() == before
