"""Importing a league file (games/transfer/league_import.py): the league restored
exactly, or refused with nothing written and a message naming what is wrong."""

from __future__ import annotations

import copy
import datetime
import gc
import json
import re
import weakref

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.days import latest_played_on
from games.models import (
    GameSession,
    League,
    Membership,
    Player,
    PlayerClaim,
    Round,
)
from games.services import leagues
from games.services.leagues import create_league
from games.transfer import league_import as importer
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.forms import forms_in
from tests.support.league_files import (
    as_version_3,
    counts,
    post_file,
    refused,
    set_at,
    snapshot,
    tampered,
    wipe,
)

pytestmark = pytest.mark.django_db


def test_import_restores_the_league_exactly_into_an_empty_database(league: League) -> None:
    before = snapshot(league)
    # What is compared covers what matters: ratings, a rejoin, a hand-closed session,
    # a rematch and the members' "this is me".
    assert before["rating_changes"] and before["sessions"][3]["rejoins"][0][:2] == ("Ben", 2)
    assert before["rematches"][3] == 0
    assert before["claims"] == [("Asha", "asha"), ("Ben", "ben")]
    statuses = [session["columns"][4] for session in before["sessions"]]
    assert statuses == ["finished", "finished", "active", "finished", "finished", "active"]
    text = dumps(export_league(league))
    wipe()
    assert counts() == (0,) * 12

    imported = import_league(text, keep_members=True).league

    assert snapshot(imported) == before
    # And the restored league exports as the same file, but for the new share links
    # and who created the sessions here (nobody: no user imported it).
    again, original = export_league(imported), json.loads(text)
    for data in (again, original):
        data["exported_at"] = None
        for session in data["sessions"]:
            session["share_token"] = session["created_by"] = None
    assert again == original


def test_imported_accounts_exist_but_cannot_sign_in(moved: dict) -> None:
    import_league(json.dumps(moved), keep_members=True)
    users = User.objects.order_by("username")
    assert [u.username for u in users] == ["asha", "ben", "chen"]
    assert not any(u.has_usable_password() for u in users)
    assert PlayerClaim.objects.get(player__name="Asha").user == users[0]


def test_import_matches_users_already_here_but_makes_its_own_players(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="secret")
    ben = Player.objects.create(name="BEN")  # another club's: never attached by name

    league = import_league(json.dumps(moved), keep_members=True).league

    assert league.memberships.get(user=asha).role == Membership.Role.OWNER
    assert User.objects.get(pk=asha.pk).check_password("secret")  # untouched
    assert Player.objects.count() == 4
    assert ben.pk not in set(league.sessions.values_list("seats__player", flat=True))
    # The other club's player of the same name is nobody's by this file.
    assert not PlayerClaim.objects.filter(player=ben).exists()


@pytest.mark.parametrize(
    ("importer", "invitable"),
    [
        # A viewer in the file who imports it owns the new league, alone.
        ("chen", [("asha", "owner"), ("ben", "scorer")]),
        # Someone the file does not name too; every member listed may be invited.
        ("dev", [("asha", "owner"), ("ben", "scorer"), ("chen", "viewer")]),
    ],
)
def test_the_importing_user_becomes_the_only_owner(
    moved: dict, importer: str, invitable: list
) -> None:
    for username in ("asha", "ben", "chen", "dev"):
        User.objects.create_user(username=username)
    owner = User.objects.get(username=importer)
    imported = import_league(json.dumps(moved), owner=owner)
    league = imported.league
    assert dict(league.memberships.values_list("user__username", "role")) == {importer: "owner"}
    assert list(imported.invitable) == invitable
    # Each with the player they said "this is me" of: theirs to make again.
    claimed = {"asha": {"claimed": "Asha"}, "ben": {"claimed": "Ben"}}
    assert league.imported_members == [
        {"username": u, "role": r, **claimed.get(u, {})} for u, r in invitable
    ]
    assert not league.claims.exists()


def test_an_import_checks_and_writes_with_the_cycle_collector_paused(
    moved: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An import holds the whole file and every round it scored until it writes them:
    # the cycle collector walking them all again and again took a third of the time of
    # a 10,000-round import. It runs again once the import is over.
    collector_on = []

    def noting_the_collector(step):
        def noted(*args):
            collector_on.append(gc.isenabled())
            return step(*args)

        return noted

    monkeypatch.setattr(importer, "plan_league", noting_the_collector(importer.plan_league))
    monkeypatch.setattr(importer, "write_plan", noting_the_collector(importer.write_plan))

    league = importer.import_league(json.dumps(moved), keep_members=True).league

    assert league.sessions.count() == 6
    assert collector_on == [False, False]
    assert gc.isenabled()


def test_the_plan_is_gone_before_the_cycle_collector_is_back_on(
    moved: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The collector's first pass once it is back on walks whatever the import still
    # holds: the file's plan (every round it scored) would cost a 10,000-round import
    # half a second more.
    plans: list[weakref.ref] = []
    alive_when_enabled = []
    enable, plan_league = gc.enable, importer.plan_league

    def planned(*args):
        plan = plan_league(*args)
        plans.append(weakref.ref(plan))
        return plan

    def enabled() -> None:
        alive_when_enabled.append(plans[0]() is not None)
        enable()

    monkeypatch.setattr(importer, "plan_league", planned)
    monkeypatch.setattr(gc, "enable", enabled)

    importer.import_league(json.dumps(moved), keep_members=True)

    assert alive_when_enabled == [False]
    assert gc.isenabled()


def test_a_round_that_does_not_score_is_refused(moved: dict) -> None:
    def swap_hands(data: dict) -> None:
        # Round 1 of January: Asha's declaration replaced by Ben's loose hand.
        entries = data["sessions"][0]["rounds"][0]["entries"]
        entries[0]["groups"] = entries[1]["groups"]

    message = refused(tampered(moved, swap_hands))
    assert message.startswith("Session 1 (played 2024-01-05), round 1 does not score")
    assert "Asha's declaration is not valid" in message
    assert gc.isenabled()  # on again after a refusal too


def test_a_refusal_that_names_its_player_names_them_once(moved: dict) -> None:
    def three_aces(data: dict) -> None:
        # Round 1 of January: Ben's first group made of Asha's first card, three times.
        entries = data["sessions"][0]["rounds"][0]["entries"]
        groups = [list(group) for group in entries[0]["groups"]]
        groups[0] = [groups[0][0]] * len(groups[0])
        entries[1]["groups"] = groups

    message = refused(tampered(moved, three_aces))

    # Asha's AH and Ben's three: four in all.
    assert message == (
        "Session 1 (played 2024-01-05), round 1 does not score under its rules: AH is "
        "entered 4 times in this round, but 2 decks hold only 2: check Ben's group 1."
    )


def test_figures_that_are_not_the_rules_services_are_refused(moved: dict) -> None:
    def more_points(data: dict) -> None:
        data["sessions"][4]["rounds"][0]["entries"][1]["score"] += 1

    message = refused(tampered(moved, more_points))
    assert "Session 5 (“Points night”, played 2024-04-20), round 1, Ben" in message
    assert "the rules service scores" in message


def test_a_league_imported_again_is_a_copy_with_its_own_links(
    league: League, exported: dict
) -> None:
    copied = import_league(json.dumps(exported)).league
    tokens = set(copied.sessions.values_list("share_token", flat=True))
    assert len(tokens) == 6 and not tokens & set(
        league.sessions.values_list("share_token", flat=True)
    )


@pytest.mark.parametrize(
    ("slug", "name", "address"),
    [
        (None, "", "friday-club"),  # a file that gives none: the name's
        ("new", "", "friday-club"),  # the new-league page's address: never a league's
        ("club", "Friday club", "club"),  # the file's name, as typed: its address
        ("club", "Ciné-club du vendredi", "cine-club-du-vendredi"),
    ],
)
def test_a_league_keeps_its_address_unless_it_gets_another_name(
    moved: dict, slug: str | None, name: str, address: str
) -> None:
    moved["league"]["slug"] = slug
    assert import_league(json.dumps(moved), name=name).league.slug == address


def test_a_league_whose_address_is_taken_is_numbered_as_a_new_league_would_be(
    moved: dict, user: User
) -> None:
    create_league(user, name="Club", preset="21-points", overrides={})
    text = json.dumps(moved)  # its address "club", as the league made by hand has

    assert import_league(text).league.slug == "club-2"
    assert create_league(user, name="Club", preset="21-points", overrides={}).slug == "club-3"
    # An address as long as the column keeps its number within it.
    long = "c" * League._meta.get_field("slug").max_length
    moved["league"]["slug"] = long
    assert import_league(json.dumps(moved)).league.slug == long
    assert import_league(json.dumps(moved)).league.slug == long[:-2] + "-2"


def test_a_league_that_finds_no_free_address_is_refused_whole(
    moved: dict, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_league(user, name="Club", preset="21-points", overrides={})
    # Another league takes each address picked between the pick and the write.
    monkeypatch.setattr(leagues, "fresh_slug", lambda name, wanted="": "club")

    message = refused(json.dumps(moved))

    assert message == "No free address was found for this league; nothing was imported. Try again."


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Friday\x00club", "The league's name: A name may hold only printable text: U+0000"),
        ("F" * 101, "The league's name: A name may be at most 100 characters long"),
    ],
)
def test_a_league_name_that_the_league_form_would_refuse_is_refused(
    moved: dict, name: str, message: str
) -> None:
    before = counts()
    with pytest.raises(importer.ImportRefused, match=re.escape(message)):
        import_league(json.dumps(moved), name=name)
    assert counts() == before


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "not valid JSON"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage\x80", "not"),
        (b"[" * 100_000, "not valid JSON"),
        (b'{"format": "scorekeeper-league", "version": NaN}', "not valid JSON"),
        (b"[]", "must be a JSON object"),
        (b'{"version": 1}', 'no "format"'),
        (b'{"format": "scorekeeper-league", "version": 7}', "version 7"),
        (b'{"format": "scorekeeper-league", "version": "1"}', "version '1'"),
        (b'{"format": "scorekeeper-league", "version": 1}', '"league" must be a JSON object'),
    ],
)
def test_a_file_that_is_not_a_league_file_is_refused(raw: bytes, message: str) -> None:
    assert message in refused(raw)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("league.name", "", "League: name"),
        ("league.slug", "not a slug!", "League: slug"),
        ("league.preset", "poker", "League: preset"),
        ("league.overrides", {"no_such_rule": 1}, "house rules are not valid"),
        ("league.money_per_point", "lots", "money per point"),
        ("members.0.role", "boss", "Member 1: role"),
        ("members.0.username", "no spaces allowed", "User: username"),
        ("players.0.name", "x" * 61, "Player 1: name"),
        ("players.1.name", "asha", "listed twice"),
        ("sessions", {}, '"sessions" must be a list'),
        ("sessions.0.played_on", "yesterday", "played on"),
        ("sessions.0.played_on", 20240105, '"played_on" must be text'),
        ("sessions.0.created_at", ["2024"], '"created_at" must be text'),
        ("sessions.0.buy_in", {"amount": 1}, '"buy_in" must be an amount'),
        ("sessions.0.ceiling", 0, "ceiling must be a positive"),
        ("sessions.0.ceiling", 10**30, "Session 1"),
        ("sessions.0.closed_at", "never", "closed at"),
        ("sessions.0.seats.0.position", "1", '"position" must be a whole number'),
        ("sessions.0.seats.0.player", "Zed", "not in the players list"),
        ("sessions.0.first_dealer", "Chen", "no seat at this table"),
        ("sessions.0.rounds.0.number", True, '"number" must be a whole number'),
        ("sessions.0.rounds.1.number", 3, "numbered 1, 2, 3"),
        ("sessions.0.rounds.0.cut_joker", "8s", "not a card code"),
        ("sessions.0.rounds.0.dealer", "Chen", "no seat at this table"),
        ("sessions.0.rounds.0.entries.0.outcome", "won", "outcome"),
        ("sessions.0.rounds.0.entries.0.groups", "2H 3H 4H", '"groups" must be a list'),
        ("sessions.0.rounds.0.entries.0.groups", [["2h"]], "not a card code"),
        ("sessions.0.rounds.0.entries.0.groups", [[["2H"]]], "lists of card codes"),
        ("sessions.0.rounds.0.entries.0.groups", [{"2H": 1}], "lists of card codes"),
        ("sessions.0.rounds.0.entries.1.player", "Asha", "two hands"),
        ("sessions.0.rounds.0.entries", [], "does not score"),
        ("sessions.0.rounds.0.entries.0.declaration", "three_pure", "declaration"),
        ("sessions.3.rejoins.0.after_round", 9, "not played"),
        ("sessions.0.rematch_of", 1, "the number of another session of the file (1 to 6)"),
        ("sessions.0.rematch_of", 7, "the number of another session"),
        ("sessions.0.rematch_of", "1", '"rematch_of" must be a whole number'),
        ("sessions.4.rematch_of", 1, "Session 5: session 1 already has a rematch"),
        ("league.time_zone", "Mars/Olympus", "“Mars/Olympus” is not a time zone."),
        ("league.currency", "XYZ", 'League: currency: "XYZ" is not a currency code'),
        ("league.currency", "RUPEE", "League: currency: "),
        ("league.currency", 356, '"currency" must be text, not 356.'),
        ("claims", {}, '"claims" must be a list'),
        ("claims.0.player", "Zed", "Claim 1: 'Zed' is not in the players list"),
        ("claims.0.user", "dev", "'dev' claims Asha, but is not in the members list"),
        ("claims.1.player", "Asha", "Claim 2: Asha is claimed twice"),
        ("claims.1.user", "asha", "Claim 2: asha claims two players"),
    ],
)
def test_a_file_with_a_bad_value_is_refused_naming_it(
    moved: dict, path: str, value: object, message: str
) -> None:
    assert message in refused(tampered(moved, set_at(path, value)))


def test_a_hand_written_file_may_leave_out_names_and_figures(moved: dict) -> None:
    session = moved["sessions"][4]
    scores = [entry["score"] for entry in session["rounds"][0]["entries"]]
    del session["name"]
    for entry in session["rounds"][0]["entries"]:
        for figure in ("declaration", "hand_points", "value_points", "claims", "score"):
            entry.pop(figure, None)

    league = import_league(json.dumps(moved)).league

    imported = league.sessions.get(name="", preset="21-points")
    assert imported.name == ""
    assert [e.score for e in imported.rounds.get().entries.order_by("pk")] == scores


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
    response = post_file(stranger, tampered(moved, set_at(path, value)))

    assert response.status_code == 422
    assert field in response.content.decode()
    assert counts() == before


def test_dates_at_the_edges_import_and_every_page_reads_them(moved: dict, stranger: Client) -> None:
    # A file before version 4 takes any time from 1970 to 2100; version 4 refuses one
    # in the future (test_league_import_history).
    moved = as_version_3(moved)
    moved["sessions"][0]["created_at"] = "1970-01-01T00:00:00+00:00"
    moved["sessions"][4]["closed_at"] = "2100-12-31T12:00:00+11:00"
    # The days a session may be played on (games/days.py), at both ends.
    moved["sessions"][1]["played_on"] = "1970-01-01"
    moved["sessions"][4]["played_on"] = latest_played_on().isoformat()

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


def test_a_time_with_an_offset_no_database_takes_is_kept_as_its_moment(
    moved: dict, stranger: Client
) -> None:
    # Python reads offsets up to a day; PostgreSQL refuses any beyond 15:59 (a server
    # error before). The moment is what counts: kept in UTC, shown in the club's zone.
    moved = as_version_3(moved)
    moved["sessions"][0]["created_at"] = "2024-01-05T20:00:00-23:59"

    response = post_file(stranger, moved)

    assert response.status_code == 302
    session = League.objects.get(slug="club").sessions.order_by("pk").first()
    assert session.created_at == datetime.datetime(2024, 1, 6, 19, 59, tzinfo=datetime.UTC)


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


def test_a_file_of_more_rounds_than_the_page_takes_is_refused_before_scoring(
    moved: dict, stranger: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.views.transfer.MAX_IMPORT_ROUNDS", 11)  # the file has 12
    scored = []
    monkeypatch.setattr("games.transfer.league_plan.score_round", lambda *args: scored.append(args))

    response = post_file(stranger, moved)

    assert response.status_code == 422
    html = response.content.decode()
    assert "This file holds 12 rounds; the import page takes at most 11" in html
    assert "manage.py import_league" in html
    assert not scored and not League.objects.exists()


def _sessions_times(doc: dict, times: int) -> dict:
    data = copy.deepcopy(doc)
    data["sessions"] = [copy.deepcopy(s) for _ in range(times) for s in doc["sessions"]]
    # Each copy's rematch follows its own copy's session.
    size = len(doc["sessions"])
    for number, session in enumerate(data["sessions"]):
        if session["rematch_of"] is not None:
            session["rematch_of"] += number // size * size
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
