"""Issue 9, points 1-4: a league import cannot plant data nobody can read back, act
on other people or stall the site, and names are printable text everywhere (the
forms, the import, and the XML of the XLSX and SVG exports)."""

from __future__ import annotations

import copy
import io
import json
import os
import zipfile
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.forms.leagues import LeagueForm
from games.forms.sessions import SessionForm
from games.management.commands.import_league import Command as ImportCommand
from games.models import GameSession, League, Membership, Player, Round
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.security.conftest import forms_in

from .conftest import SHOWN_8S, WIN_8S, make_session, play, session_form_data
from .test_exports import _set, build_league, counts, tampered, upload, wipe

pytestmark = pytest.mark.django_db

IMPORT = "games:league_import"
MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # the documented limit (README, "Security")


@pytest.fixture
def moved(user: User) -> dict:
    """A league's export (pools, a rejoin, a hand-closed session, members of every
    role), with the league gone from this database."""
    data = export_league(build_league(user))
    wipe()
    return data


@pytest.fixture
def stranger(client: Client) -> Client:
    client.force_login(User.objects.create_user(username="zed", password="x"))
    return client


def post_file(client: Client, data: dict | str | bytes, **kwargs):
    text = json.dumps(data) if isinstance(data, dict) else data
    return client.post(reverse(IMPORT), upload(text), **kwargs)


# --- 1. Dates and numbers the databases store and read back -------------------------------


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("sessions.4.closed_at", "9999-12-31T23:00:00-12:00", "sessions[4].closed_at"),
        ("sessions.0.created_at", "0001-01-01T00:00:00+14:00", "sessions[0].created_at"),
        # 2101 in UTC, though not where it was written.
        ("sessions.0.created_at", "2100-12-31T23:30:00-01:00", "sessions[0].created_at"),
        ("sessions.0.created_at", "1969-12-31T23:59:59+00:00", "sessions[0].created_at"),
        # No time zone: which moment it is depends on the server's.
        ("sessions.4.closed_at", "2024-04-20T22:00:00", "sessions[4].closed_at"),
        ("sessions.0.played_on", "1969-12-31", "sessions[0].played_on"),
        ("sessions.0.played_on", "2101-01-01", "sessions[0].played_on"),
        ("sessions.0.ceiling", 2**31, "sessions[0].ceiling"),
        ("sessions.0.seats.0.position", 40_000, "sessions[0].seats[0].position"),
        ("league.overrides", {"first_drop": 10**12}, "league.overrides.first_drop"),
        ("sessions.4.overrides", {"first_drop": -(10**12)}, "sessions[4].overrides.first_drop"),
        ("league.money_per_point", "-1.00", "league.money_per_point"),
        ("sessions.3.buy_in", "0", "sessions[3].buy_in"),
    ],
)
def test_a_date_or_number_the_database_cannot_hold_is_refused_naming_the_field(
    moved: dict, stranger: Client, path: str, value: object, field: str
) -> None:
    before = counts()
    response = post_file(stranger, tampered(moved, _set(path, value)))

    assert response.status_code == 422
    assert field in response.content.decode()
    assert counts() == before


def test_dates_at_the_edges_import_and_every_page_reads_them(moved: dict, stranger: Client) -> None:
    moved["sessions"][0]["created_at"] = "1970-01-01T00:00:00+00:00"
    moved["sessions"][4]["closed_at"] = "2100-12-31T12:00:00+11:00"
    moved["sessions"][4]["played_on"] = "2100-12-31"

    response = post_file(stranger, moved)

    assert response.status_code == 302
    league = League.objects.get(slug="club")
    pages = [
        reverse("games:league_detail", args=[league.slug]),
        reverse("games:league_standings", args=[league.slug]),
        reverse("games:home"),
        *(
            reverse("games:session_detail", args=[pk])
            for pk in league.sessions.values_list("pk", flat=True)
        ),
    ]
    for page in pages:
        assert stranger.get(page).status_code == 200, page


# --- 2. An import acts on nobody but the user importing ---------------------------------------


def test_an_import_adds_nobody_and_the_owner_may_invite_the_files_members(
    moved: dict, stranger: Client
) -> None:
    ben = User.objects.create_user(username="ben", password="x")  # a scorer in the file

    response = post_file(stranger, moved, follow=True)

    league = League.objects.get(slug="club")
    assert dict(league.memberships.values_list("user__username", "role")) == {"zed": "owner"}
    ben_client = Client()
    ben_client.force_login(ben)
    assert ben_client.get(reverse("games:league_detail", args=["club"])).status_code == 404
    # The league's page lists the file's members; ben has an account: a form adds him.
    html = response.content.decode()
    assert 'data-invitable="ben"' in html and 'data-invitable="asha"' in html
    add = reverse("games:member_add", args=["club"])
    invite = next(f for f in forms_in(html) if f.action == add and ("username", "ben") in f.fields)
    assert ("role", "scorer") in invite.fields  # the role the file gave him, to start with
    data = invite.data()
    data.pop("csrfmiddlewaretoken")

    stranger.post(add, data)

    assert league.memberships.get(user=ben).role == Membership.Role.SCORER
    page = stranger.get(reverse("games:league_detail", args=["club"])).content.decode()
    assert 'data-invitable="ben"' not in page and 'data-invitable="chen"' in page


def test_share_links_in_the_file_are_never_used(moved: dict, stranger: Client) -> None:
    moved["sessions"][0]["share_token"] = "a"

    assert post_file(stranger, moved).status_code == 302

    assert not GameSession.objects.filter(share_token="a").exists()
    assert stranger.get("/shared/a/").status_code == 404
    tokens = list(GameSession.objects.values_list("share_token", flat=True))
    assert len(set(tokens)) == 6 and all(len(token) == 22 for token in tokens)


def test_round_authors_are_kept_as_text_and_linked_to_no_account(
    moved: dict, stranger: Client
) -> None:
    ben = User.objects.create_user(username="ben", password="x")  # entered a round in the file

    assert post_file(stranger, moved).status_code == 302

    league = League.objects.get(slug="club")
    rounds = Round.objects.filter(session__league=league)
    assert not ben.entered_rounds.exists() and not rounds.filter(entered_by__isnull=False)
    played = rounds.get(session__name="Points night")
    assert played.entered_by_name == "ben"
    page = stranger.get(reverse("games:round_detail", args=[played.session_id, played.pk]))
    assert "entered by ben" in page.content.decode()
    # The sessions are the importer's: they made them here.
    assert set(league.sessions.values_list("created_by__username", flat=True)) == {"zed"}


def test_the_import_command_adds_the_files_members_only_when_told(moved: dict, tmp_path) -> None:
    target = tmp_path / "club.json"
    target.write_text(json.dumps(moved), encoding="utf-8")
    User.objects.create_user(username="olga")
    parser = ImportCommand().create_parser("manage.py", "import_league")
    assert "--keep-members" in parser.format_help()
    with pytest.raises(CommandError, match="--keep-members"):
        call_command("import_league", str(target))

    out = io.StringIO()
    call_command("import_league", str(target), "--owner", "olga", stdout=out)
    league = League.objects.get(slug="club")
    assert list(league.memberships.values_list("user__username", flat=True)) == ["olga"]
    assert "Not added (listed on the league's page for its owners to invite): asha" in (
        out.getvalue()
    )

    moved["league"]["slug"] = "club-kept"
    target.write_text(json.dumps(moved), encoding="utf-8")
    call_command("import_league", str(target), "--keep-members", stdout=io.StringIO())
    kept = League.objects.get(slug="club-kept")
    assert dict(kept.memberships.values_list("user__username", "role")) == {
        "asha": "owner",
        "ben": "scorer",
        "chen": "viewer",
    }


# --- 3. Uploads: the size limit, temporary files and a bulk import -----------------------------


class Unreadable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def read(self, *args) -> bytes:
        raise AssertionError("the body of an oversized request was read")

    readline = readinto = read


def oversized(client: Client, url: str, **headers: str):
    return client.post(
        url,
        content_type="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(MAX_UPLOAD_BYTES + 1),
        headers=headers,
        **{"wsgi.input": Unreadable()},
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_an_upload_over_the_limit_is_refused_from_its_length_before_it_is_read(
    stranger: Client, htmx: bool
) -> None:
    stranger.handler.enforce_csrf_checks = True  # as a browser's request is checked
    response = oversized(stranger, reverse(IMPORT), **({"HX-Request": "true"} if htmx else {}))

    assert response.status_code == 422  # shown in place, as the import's other errors
    html = response.content.decode()
    assert "larger than 10 MB" in html and "manage.py import_league" in html
    assert 'enctype="multipart/form-data"' in html  # the form, to choose another file
    assert not League.objects.exists()


def test_any_other_request_over_the_limit_is_refused_unread(stranger: Client) -> None:
    response = oversized(stranger, reverse("games:session_new"))
    assert response.status_code == 413
    assert "larger than 10 MB" in response.content.decode()


def test_temporary_upload_files_never_outlive_the_request(
    moved: dict, stranger: Client, settings, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spool = tmp_path / "uploads"
    spool.mkdir()
    settings.FILE_UPLOAD_TEMP_DIR = str(spool)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024  # every league file goes to disk
    seen_during: list[list[str]] = []
    real_import = import_league

    def import_and_look(*args, **kwargs):
        # While the import runs, a worker could be killed (the gunicorn timeout):
        # nothing may then be left behind with a name.
        seen_during.append(os.listdir(spool))
        return real_import(*args, **kwargs)

    monkeypatch.setattr("games.views.transfer.import_league", import_and_look)
    text = json.dumps(moved)
    assert len(text) > 1024

    assert post_file(stranger, text).status_code == 302
    assert post_file(stranger, text).status_code == 422  # refused: the slug is taken
    assert post_file(stranger, "{" + " " * 5000).status_code == 422  # not JSON

    assert seen_during == [[], [], []]
    assert os.listdir(spool) == []


def test_a_file_of_more_rounds_than_the_page_takes_is_refused_before_scoring(
    moved: dict, stranger: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.views.transfer.MAX_IMPORT_ROUNDS", 11)  # the file has 12
    scored = []
    monkeypatch.setattr(
        "games.transfer.league_import.score_round", lambda *args: scored.append(args)
    )

    response = post_file(stranger, moved)

    assert response.status_code == 422
    html = response.content.decode()
    assert "This file holds 12 rounds; the import page takes at most 11" in html
    assert "manage.py import_league" in html
    assert not scored and not League.objects.exists()


def _sessions_times(doc: dict, times: int) -> dict:
    data = copy.deepcopy(doc)
    data["sessions"] = [copy.deepcopy(s) for _ in range(times) for s in doc["sessions"]]
    return data


def test_an_import_writes_in_bulk_whatever_the_number_of_sessions(moved: dict) -> None:
    queries = []
    # The first import creates the players; the next two find them.
    for times, slug in ((1, "first"), (1, "one"), (5, "five")):
        data = _sessions_times(moved, times)
        data["league"]["slug"] = slug
        with CaptureQueriesContext(connection) as captured:
            league = import_league(json.dumps(data)).league
        assert league.sessions.count() == 6 * times
        queries.append(len(captured))
    # 24 more sessions: at most a few more statements (inserts are batched, and SQLite
    # takes a limited number of values per statement), not a few per session.
    assert queries[2] - queries[1] <= 4, queries


# --- 4. One rule for names --------------------------------------------------------------------

UNPRINTABLE = ["Form\x01name", "Club\x00", "Club \ud800", "\u202eevil", "two\u2028lines", "\x7f"]


@pytest.mark.parametrize("name", UNPRINTABLE)
def test_every_name_field_refuses_what_is_not_printable_text(name: str) -> None:
    league = LeagueForm(data={"name": name, "preset": "21-points", "rules_preset": "21-points"})
    assert not league.is_valid() and "printable text" in str(league.errors["name"])
    session = SessionForm(
        data=session_form_data(name=name, seat_1=name, seat_2="Ben", seat_3="Chen")
    )
    assert not session.is_valid()
    for field in ("name", "seat_1"):
        assert "printable text" in str(session.errors[field]), field


@pytest.mark.parametrize("name", ["Form\x01name", "Club\x00", "\u202eevil"])
def test_a_name_with_a_control_character_is_a_form_error_on_every_page(
    scorer: Client, user: User, name: str
) -> None:
    before = counts()
    response = scorer.post(reverse("games:league_new"), {"name": name, "preset": "21-points"})
    assert response.status_code == 422 and "printable text" in response.content.decode()
    response = scorer.post(
        reverse("games:session_new"), session_form_data(seat_1=name, seat_2="Ben", name=name)
    )
    assert response.status_code == 422 and "printable text" in response.content.decode()
    assert counts() == before


def test_names_are_trimmed_to_single_spaces(scorer: Client, user: User) -> None:
    response = scorer.post(
        reverse("games:session_new"),
        session_form_data(name="  Friday \t night ", seat_1=" Asha  K ", seat_2="Ben"),
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.name == "Friday night"
    assert [seat.player.name for seat in session.seats.order_by("position")] == ["Asha K", "Ben"]


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("league.name", "league.name"),
        ("players.1.name", "players[1].name"),
        ("sessions.4.name", "sessions[4].name"),
        ("sessions.4.rounds.0.entered_by", "entered by"),
    ],
)
@pytest.mark.parametrize("name", ["Club \ud800", "Club\x00", "Form\x01name"])
def test_an_import_holds_names_to_the_same_rule(
    moved: dict, stranger: Client, path: str, field: str, name: str
) -> None:
    before = counts()
    response = post_file(stranger, tampered(moved, _set(path, name)))
    assert response.status_code == 422
    html = response.content.decode()
    assert field in html and "printable text" in html
    assert counts() == before


def test_exports_of_names_stored_before_the_rule_stay_well_formed_xml(
    scorer: Client, user: User
) -> None:
    session = make_session(user, players=("Asha", "Ben", "Chen"), name="Friday")
    hands = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}
    play(session, "8S", hands, user)
    # Written as an old version of the app could: no form, no validation.
    Player.objects.filter(name="Ben").update(name="Form\x01name")
    GameSession.objects.filter(pk=session.pk).update(name="Fri\x0bday")

    xlsx = scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content
    with zipfile.ZipFile(io.BytesIO(xlsx)) as book:
        for part in book.namelist():
            if part.endswith(".xml") or part.endswith(".rels"):
                ElementTree.fromstring(book.read(part))  # raises if malformed
    svg = scorer.get(reverse("games:session_totals_chart", args=[session.pk]))
    assert svg.status_code == 200
    drawn = ElementTree.fromstring(svg.content)
    assert "Formname" in "".join(drawn.itertext())
