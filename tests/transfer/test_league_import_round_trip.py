"""What a club would miss after moving its league by file: the rematch links between
sessions, the members' "this is me" claims (format version 3), standings that read
the same, and each session's record of its rounds (version 4): its history page, its
round pages and its round history downloads say what the original's did; and files
written before versions 3 and 4 still import. (That the whole league comes back
exactly, and exports as the same file, is test_league_import's first test.)"""

from __future__ import annotations

import datetime
import json
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games.days import latest_played_on
from games.models import GameSession, League, Membership, Player, Rejoin, Round, RoundChange
from games.services.leagues import create_league
from games.transfer.league_export import dumps, export_league
from games.transfer.league_file import SAME_SAVE
from games.transfer.league_import import BEFORE_HISTORY, import_league
from games.zones import league_zone
from tests.support.builders import play, session_form_data
from tests.support.forms import forms_in
from tests.support.league_files import (
    POINTS_ROUNDS,
    as_version_3,
    build_eventful_league,
    post_file,
    read_xlsx,
    snapshot,
    standings_snapshot,
    upload,
    wipe,
)

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def player_page(client: Client, name: str) -> str:
    player = Player.objects.get(name=name)
    return client.get(reverse("games:player_detail", args=[player.pk])).content.decode()


def test_a_rematch_shows_its_first_game_again_after_an_import(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    client = signed_in(asha)

    assert post_file(client, moved).status_code == 302

    league = League.objects.get(slug="club")
    rematch = league.sessions.get(rematch_of__isnull=False)
    first = rematch.rematch_of
    assert (first.played_on.isoformat(), rematch.played_on.isoformat()) == (
        moved["sessions"][0]["played_on"],
        moved["sessions"][3]["played_on"],
    )
    page = client.get(reverse("games:session_detail", args=[rematch.pk])).content.decode()
    link = reverse("games:session_detail", args=[first.pk])
    assert f'rematch of <a href="{link}">{first}</a>' in page
    # And the first game leads to its rematch instead of offering another.
    page = client.get(link).content.decode()
    rematch_link = reverse("games:session_detail", args=[rematch.pk])
    assert f'<a class="button" href="{rematch_link}">Go to the rematch</a>' in page


def test_the_importers_claim_is_made_and_the_others_make_theirs_with_one_tap(
    moved: dict,
) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    ben = User.objects.create_user(username="ben", password="x")
    owner = signed_in(asha)

    response = post_file(owner, moved, follow=True)

    # The importer said "this is me" of Asha in the file: it is theirs again at once.
    assert "claimed by <strong>you (asha)</strong>" in player_page(owner, "Asha")
    # Ben's claim is his own word: the file cannot make it for him. His owner sees it.
    html = response.content.decode()
    assert "(“this is me”: Ben)" in html and 'data-invitable="ben"' in html
    assert "claimed by" not in player_page(owner, "Ben")
    add = reverse("games:member_add", args=["club"])
    invite = next(f for f in forms_in(html) if f.action == add and ("username", "ben") in f.fields)
    owner.post(add, {k: v for k, v in invite.data().items() if k != "csrfmiddlewaretoken"})

    # Once a member, Ben is offered his name back on the league's page.
    player = signed_in(ben)
    page = player.get(reverse("games:league_detail", args=["club"])).content.decode()
    assert "The imported league file says you are" in page
    claim = reverse("games:player_claim", args=["club", Player.objects.get(name="Ben").pk])
    assert any(form.action == claim for form in forms_in(page))
    player.post(claim)

    assert "claimed by <strong>you (ben)</strong>" in player_page(player, "Ben")
    page = player.get(reverse("games:league_detail", args=["club"])).content.decode()
    assert "The imported league file says" not in page and "My player page (Ben)" in page


def test_a_file_claim_is_not_offered_once_someone_else_has_that_player(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    ben = User.objects.create_user(username="ben", password="x")
    league = import_league(json.dumps(moved), owner=asha).league
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    # Asha (the owner) moved her claim to Ben's player before Ben joined.
    league.claims.update(player=Player.objects.get(name="Ben"))

    page = signed_in(ben).get(reverse("games:league_detail", args=["club"])).content.decode()

    assert "The imported league file says" not in page


def test_every_member_and_claim_comes_back_with_keep_members(league: League) -> None:
    text = dumps(export_league(league))
    wipe()

    imported = import_league(text, keep_members=True).league

    assert "claimed by <strong>you (ben)</strong>" in player_page(
        signed_in(User.objects.get(username="ben")), "Ben"
    )
    assert sorted(imported.claims.values_list("player__name", "user__username")) == [
        ("Asha", "asha"),
        ("Ben", "ben"),
    ]


def test_a_league_imported_again_on_its_own_server_is_a_whole_copy_at_an_address_of_its_own(
    league: League,
) -> None:
    before = snapshot(league)
    # What is compared covers table mode's choices: the league's, and a session's own.
    assert before["league"][-1] is True and before["sessions"][5]["columns"][10] is False
    text = dumps(export_league(league))

    copied = import_league(text, keep_members=True).league

    assert copied.slug == "club-2"  # numbered, as a second league made by hand would be
    assert snapshot(copied) == before | {
        "league": (before["league"][0], copied.slug, *before["league"][2:])
    }
    assert snapshot(League.objects.get(slug="club")) == before  # the original as it was
    # And the copy exports as the same file, but for its address and new share links.
    again, original = export_league(copied), json.loads(text)
    for data in (again, original):
        data["exported_at"] = data["league"]["slug"] = None
        for session in data["sessions"]:
            session["share_token"] = session["created_by"] = None
    assert again == original


def test_the_importer_names_the_league_and_no_message_says_another_has_that_name(
    moved: dict,
) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    theirs = create_league(asha, name="Club", preset="21-points", overrides={})
    client = signed_in(User.objects.create_user(username="zed", password="x"))

    # The file's address is another club's here: zed is told nothing of it.
    response = post_file(client, moved, follow=True)
    html = response.content.decode()
    ours = League.objects.exclude(pk=theirs.pk).get(memberships__user__username="zed")
    assert ours.name == "Friday club" and ours.slug not in ("club", theirs.slug)
    assert "Imported Friday club." in html
    assert not re.search(r"slug|already exists|another league", html, re.IGNORECASE)

    # A name typed on the page is the league's, and its address is the name's.
    response = client.post(
        reverse("games:league_import"), {"name": "  Tuesday   club ", **upload(json.dumps(moved))}
    )
    renamed = League.objects.get(name="Tuesday club")
    assert response["Location"] == reverse("games:league_detail", args=["tuesday-club"])
    assert renamed.sessions.count() == 6 and renamed.slug == "tuesday-club"


def test_a_league_imported_beside_one_of_its_name_is_named_by_the_day_it_came(
    moved: dict,
) -> None:
    zed = User.objects.create_user(username="zed", password="x")
    create_league(zed, name="FRIDAY CLUB", preset="21-points", overrides={})
    # Another club's league of the name is no reason: zed does not see it.
    create_league(
        User.objects.create_user(username="olga"),
        name="Tuesday club",
        preset="21-points",
        overrides={},
    )
    text = json.dumps(moved)

    beside = import_league(text, owner=zed).league
    today = timezone.localdate()
    assert beside.name == f"Friday club (imported {today.day} {today:%b %Y})"
    assert beside.slug.startswith("friday-club-imported-")
    elsewhere = import_league(text.replace('"Friday club"', '"Tuesday club"'), owner=zed).league
    assert elsewhere.name == "Tuesday club"
    # A name typed on the import page that is one of zed's leagues' is no way round it
    # (and the day's name is taken now: the import above's, whatever the case).
    typed = import_league(text, owner=zed, name="Friday Club").league
    assert typed.name == f"Friday Club (imported {today.day} {today:%b %Y}, 2)"


def test_each_import_of_a_file_on_one_day_gets_a_name_of_its_own(
    moved: dict,
) -> None:
    zed = User.objects.create_user(username="zed", password="x")
    text = json.dumps(moved)

    names = [import_league(text, owner=zed).league.name for _ in range(4)]

    today = timezone.localdate()
    assert names == [
        "Friday club",
        f"Friday club (imported {today.day} {today:%b %Y})",
        f"Friday club (imported {today.day} {today:%b %Y}, 2)",
        f"Friday club (imported {today.day} {today:%b %Y}, 3)",
    ]
    # Each at an address of its own, as its name reads.
    slugs = League.objects.filter(memberships__user=zed).values_list("slug", flat=True)
    assert len(set(slugs)) == 4


def test_an_imported_leagues_standings_equal_the_exported_leagues(
    league: League, client: Client, user: User
) -> None:
    client.force_login(user)
    urls = [
        reverse("games:league_standings_csv", args=["club"]),
        reverse("games:league_standings_csv", args=["club"]) + "?date_from=2024-02-01",
    ]
    before = [client.get(url).content for url in urls]
    figures = standings_snapshot(league)
    assert figures and any(row[4] for row in figures)  # rounds won counted
    text = dumps(export_league(league))
    wipe()

    imported = import_league(text, keep_members=True).league

    assert standings_snapshot(imported) == figures
    client.force_login(User.objects.get(username="asha"))
    assert [client.get(url).content for url in urls] == before


def test_a_file_before_version_3_imports_without_claims_or_rematches(moved: dict) -> None:
    moved["version"] = 2
    del moved["claims"]
    for session in moved["sessions"]:
        del session["rematch_of"]
    owner = User.objects.create_user(username="asha", password="x")

    league = import_league(json.dumps(moved), owner=owner).league

    assert league.sessions.count() == 6
    assert not GameSession.objects.filter(rematch_of__isnull=False).exists()
    assert not league.claims.exists()
    assert all("claimed" not in item for item in league.imported_members)


def test_a_players_account_in_a_file_before_claims_is_read_as_that_members_claim(
    moved: dict,
) -> None:
    # Before version 3 a player could name its account; claims did not exist.
    moved["version"] = 2
    del moved["claims"]
    for session in moved["sessions"]:
        del session["rematch_of"]
    for player in moved["players"]:
        player["user"] = {"Asha": "asha", "Ben": "ben", "Chen": "nobody"}[player["name"]]
    owner = User.objects.create_user(username="asha", password="x")

    league = import_league(json.dumps(moved), owner=owner).league

    # The importer's own link is their claim at once; Ben's is offered to him once he
    # joins; a name that is no member of the file claims nothing.
    assert list(league.claims.values_list("player__name", "user__username")) == [("Asha", "asha")]
    assert "claimed by <strong>you (asha)</strong>" in player_page(signed_in(owner), "Asha")
    listed = {item["username"]: item.get("claimed") for item in league.imported_members}
    assert listed["ben"] == "Ben"
    assert "nobody" not in listed


def test_a_claim_by_someone_no_longer_a_member_is_left_out_and_the_file_imports(
    league: League,
) -> None:
    # Leaving the league takes a claim away; the admin can still leave one behind.
    league.memberships.filter(user__username="ben").delete()
    text = dumps(export_league(league))
    assert json.loads(text)["claims"] == [{"player": "Asha", "user": "asha"}]
    wipe()

    imported = import_league(text, keep_members=True).league

    assert list(imported.claims.values_list("user__username", flat=True)) == ["asha"]


# --- Each session's record of its rounds (version 4) ----------------------------------------


def record_pages(client: Client, league: League) -> dict[str, object]:
    """What a club reads of its sessions' rounds: each session's history page (the
    latest changes, and all of them), each round's page and history, and the round
    history as CSV and XLSX; with the ids, which differ from one database to another,
    named by the session's place in the league and the round's number (an unnamed
    session is called by its id: "Session 12")."""
    pages: dict[str, object] = {}
    for place, session in enumerate(league.sessions.order_by("played_on", "pk"), start=1):
        ids = {f"/sessions/{session.pk}/": f"/sessions/s{place}/"}
        for played in session.rounds.all():
            ids[f"/sessions/{session.pk}/rounds/{played.pk}/"] = (
                f"/sessions/s{place}/rounds/r{played.number}/"
            )
        urls = {"history": reverse("games:session_history", args=[session.pk])}
        urls["all changes"] = urls["history"] + "?from=1"
        for played in session.rounds.order_by("number"):
            urls[f"round {played.number}"] = reverse(
                "games:round_detail", args=[session.pk, played.pk]
            )
            urls[f"round {played.number} history"] = (
                reverse("games:round_history", args=[session.pk, played.pk]) + "?from=1"
            )
        for name, url in urls.items():
            response = client.get(url)
            assert response.status_code == 200, url
            main = _main(response.content.decode(), ids)
            pages[f"session {place}, {name}"] = re.sub(
                rf"\bSession {session.pk}\b", f"Session s{place}", main
            )
        csv = client.get(reverse("games:session_rounds_csv", args=[session.pk])).content
        xlsx = client.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content
        pages[f"session {place}, csv"] = csv
        pages[f"session {place}, xlsx"] = [
            [cell.value for cell in row] for row in read_xlsx(xlsx, "Rounds").iter_rows()
        ]
    return pages


def _main(html: str, ids: dict[str, str]) -> str:
    main = html[html.index("<main") : html.index("</main>")]
    # The longest first: a round's address begins with its session's.
    for old in sorted(ids, key=len, reverse=True):
        main = main.replace(old, ids[old])
    return main


def test_an_imported_leagues_history_round_pages_and_downloads_say_what_the_originals_did(
    user: User, client: Client
) -> None:
    league = build_eventful_league(user)
    client.force_login(user)
    before = record_pages(client, league)
    # What is compared covers what matters: edits by a member and by one since gone, a
    # deleted round, hands entered on the players' phones, a player renamed since.
    history = before["session 7, all changes"]
    assert "Round 1 edited</strong> by ben" in history
    assert "by someone no longer here" in history and "Round 2 deleted" in history
    assert "entered by Ben&#x27;s phone" in history and "<strong>Chen</strong>" in history
    assert "entered by table mode (saved by itself)" in before["session 7, round 7"]
    assert "Round 7 created</strong> by table mode (saved by itself)," in history
    assert "last changed by ben" in before["session 7, round 2"]  # in the admin
    assert "Show 1 earlier change" in before["session 7, history"]
    # Round 1 in the download: entered by Asha, when; edited twice, last by Dev (gone).
    entered_by, entered_at, edits, edited_by, edited_at = before["session 7, xlsx"][1][3:8]
    assert (entered_by, edits, edited_by) == ("asha", 2, None)
    assert entered_at and edited_at  # to the second, as a spreadsheet takes them
    text = dumps(export_league(league))
    wipe()

    imported = import_league(text, keep_members=True).league

    client.force_login(User.objects.get(username="asha"))
    assert record_pages(client, imported) == before


def test_history_authors_are_accounts_of_members_the_import_adds_names_otherwise(
    moved_eventful: dict,
) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    ben = User.objects.create_user(username="ben", password="x")  # not added: a name
    # The file's own word on who did what, name by name.
    sessions = moved_eventful["sessions"]
    said = sorted(c["changed_by"] or "" for s in sessions for c in s["changes"])
    entered = sorted(r["entered_by"] or "" for s in sessions for r in s["rounds"])
    # "": Dev's, gone since; and a round that saved itself says so in both.
    assert set(said) == set(entered) == {"", "asha", "ben", "chen", "table mode (saved by itself)"}

    league = import_league(json.dumps(moved_eventful), owner=asha).league

    # The importer's own are their account's; everyone else's are names.
    changes = RoundChange.objects.filter(session__league=league)
    assert sorted(change.author for change in changes) == said
    assert set(changes.filter(changed_by=asha).values_list("changed_by_name", flat=True)) == {""}
    assert changes.filter(changed_by=asha).count() == said.count("asha")
    assert not changes.filter(changed_by__isnull=True, changed_by_name="asha").exists()
    rounds = Round.objects.filter(session__league=league)
    assert sorted(played.author for played in rounds) == entered
    assert rounds.filter(entered_by=asha).count() == entered.count("asha")
    assert set(rounds.exclude(entered_by=asha).values_list("entered_by", flat=True)) == {None}
    assert not ben.entered_rounds.exists()
    assert Rejoin.objects.get(session__league=league).created_by_name == "ben"

    # An administrator's import with the file's members makes Ben's his own.
    wipe()
    league = import_league(json.dumps(moved_eventful), keep_members=True).league
    ben = User.objects.get(username="ben")
    assert RoundChange.objects.filter(changed_by=ben).count() == said.count("ben")
    assert Rejoin.objects.get(session__league=league).created_by == ben


def test_a_rounds_times_are_the_files_or_those_of_its_history(user: User) -> None:
    league = build_eventful_league(user)
    times = {
        (played.session.played_on, played.session.name, played.number): (
            played.created_at,
            played.updated_at,
        )
        for played in Round.objects.filter(session__league=league).select_related("session")
    }
    data = export_league(league)
    # Round 2 of the long night was changed in the admin, after its history: the file
    # says when. Every other round's times are its history's.
    long_night = data["sessions"][-1]["rounds"]
    assert [("created_at" in r, "updated_at" in r) for r in long_night] == [
        (False, False),
        (False, True),
        *[(False, False)] * 5,
    ]
    wipe()

    imported = import_league(json.dumps(data), keep_members=True).league

    for played in Round.objects.filter(session__league=imported).select_related("session"):
        created, updated = times[played.session.played_on, played.session.name, played.number]
        assert abs(played.created_at - created) < SAME_SAVE
        assert abs(played.updated_at - updated) < SAME_SAVE
        trail = list(played.changes.order_by("changed_at", "pk"))
        assert played.created_at == trail[0].changed_at
        if (played.session.name, played.number) != ("Long night", 2):
            assert played.updated_at == trail[-1].changed_at
    changed = Round.objects.get(session__league=imported, session__name="Long night", number=2)
    assert changed.updated_at == times[changed.session.played_on, "Long night", 2][1]


def test_a_file_before_version_4_imports_as_before_and_says_it_has_no_history(
    moved: dict, stranger: Client
) -> None:
    response = post_file(stranger, as_version_3(moved), follow=True)

    assert escape(BEFORE_HISTORY) in response.content.decode()
    league = League.objects.get(slug="club")
    assert not RoundChange.objects.exists()
    # Table mode's "save rounds by themselves" was not kept then: off, as for a new league.
    assert not league.table_auto_save
    assert set(league.sessions.values_list("table_auto_save", flat=True)) == {None}
    rounds = Round.objects.filter(session__league=league)
    assert set(rounds.values_list("version", "entered_by")) == {(1, None)}
    session = league.sessions.get(name="Points night")
    page = stranger.get(reverse("games:session_history", args=[session.pk])).content.decode()
    assert "No changes recorded yet." in page
    # A file of version 4 says nothing of the kind.
    response = post_file(stranger, moved, follow=True)
    assert escape(BEFORE_HISTORY) not in response.content.decode()
    assert RoundChange.objects.filter(session__league=League.objects.latest("pk")).count() == 12


def test_a_league_imported_from_a_file_before_version_4_exports_its_rounds_times(
    moved: dict,
) -> None:
    # Its rounds have no history: their times (the import's) are all the file can
    # say, and an import of that file keeps them.
    league = import_league(json.dumps(as_version_3(moved))).league
    data = export_league(league)
    assert all(
        "created_at" in played and "updated_at" in played and not session["changes"]
        for session in data["sessions"]
        for played in session["rounds"]
    )
    before = snapshot(league)["sessions"]
    times = sorted(Round.objects.values_list("created_at", "updated_at"))
    wipe()

    again = import_league(json.dumps(data)).league

    assert snapshot(again)["sessions"] == before
    assert sorted(Round.objects.values_list("created_at", "updated_at")) == times


# --- The days a session may be played on ---------------------------------------------------


def _league_with_a_session_on(client: Client, user: User, *days: str) -> tuple[League, list]:
    """A league, and what the session form answered for a session in it on each day."""
    league = create_league(user, name="Edges", preset="21-points", overrides={})
    answers = [
        client.post(
            reverse("games:session_new"),
            session_form_data(
                seat_1="Asha", seat_2="Ben", seat_3="Chen", league=str(league.pk), played_on=day
            ),
        ).status_code
        for day in days
    ]
    return league, answers


def _exported(client: Client, league: League) -> bytes:
    response = client.get(reverse("games:league_export", args=[league.slug]))
    assert response.status_code == 200
    return response.content


@pytest.mark.parametrize(
    "day", ["1900-01-01", "1969-12-31", "1970-01-01", "the last day", "9999-12-31"]
)
def test_a_day_the_session_form_takes_its_leagues_export_imports_back(
    scorer: Client, user: User, day: str
) -> None:
    day = latest_played_on().isoformat() if day == "the last day" else day
    league, (answer,) = _league_with_a_session_on(scorer, user, day)

    response = post_file(scorer, _exported(scorer, league))

    assert answer in {302, 422}  # the session stored, or the form refused the day
    assert response.status_code == 302, response.context["form"].errors
    imported = League.objects.exclude(pk=league.pk).get()
    stored = [session.played_on.isoformat() for session in league.sessions.all()]
    assert [session.played_on.isoformat() for session in imported.sessions.all()] == stored


def test_sessions_on_the_first_and_the_last_day_come_back_as_they_were(
    scorer: Client, user: User
) -> None:
    latest = latest_played_on()
    league, answers = _league_with_a_session_on(scorer, user, "1970-01-01", latest.isoformat())
    assert answers == [302, 302]
    for session in league.sessions.all():
        play(session, *POINTS_ROUNDS[0], user)

    assert post_file(scorer, _exported(scorer, league)).status_code == 302

    imported = League.objects.exclude(pk=league.pk).get()
    assert snapshot(imported)["sessions"] == snapshot(league)["sessions"]
    days = [session.played_on for session in imported.sessions.order_by("played_on")]
    assert days == [datetime.date(1970, 1, 1), latest]


def test_a_league_keeps_its_clock_when_it_moves(league: League, settings) -> None:
    league.time_zone = "Asia/Kolkata"
    league.save(update_fields=["time_zone"])
    session = league.sessions.get(name="Points night")
    change = session.changes.order_by("pk").first()
    assert change is not None
    data = export_league(league)
    # The file keeps UTC whatever the league's clock: the zone is said beside it.
    assert data["league"]["time_zone"] == "Asia/Kolkata"
    assert data["sessions"][0]["changes"][0]["changed_at"].endswith("+00:00")
    wipe()
    settings.TIME_ZONE = "America/New_York"  # the new server's own clock

    imported = import_league(dumps(data)).league

    assert imported.time_zone == "Asia/Kolkata"
    moved_session = imported.sessions.get(name="Points night")
    asha = User.objects.create_user(username="zoe", password="x")
    imported.memberships.create(user=asha, role="viewer")
    page = signed_in(asha).get(reverse("games:session_history", args=[moved_session.pk]))
    shown = timezone.localtime(change.changed_at, ZoneInfo("Asia/Kolkata"))
    assert f"{shown.day} {shown:%b %Y, %H:%M:%S}" in page.content.decode()
    zone_line = 'Times are in <span data-zone="Asia/Kolkata">Kolkata time</span>.'
    assert zone_line in page.content.decode()


def test_a_file_written_before_the_zone_was_kept_reads_on_the_sites_clock(
    moved: dict, settings
) -> None:
    del moved["league"]["time_zone"]
    settings.TIME_ZONE = "Europe/Lisbon"

    imported = import_league(json.dumps(moved)).league

    assert imported.time_zone == ""  # follows the site's, as a league that picked none
    assert league_zone(imported).key == "Europe/Lisbon"


def test_a_league_keeps_its_language_and_currency_when_it_moves(league: League) -> None:
    league.language, league.currency = "hi", "GBP"
    league.save(update_fields=["language", "currency"])
    data = export_league(league)
    assert (data["league"]["language"], data["league"]["currency"]) == ("hi", "GBP")
    wipe()

    imported = import_league(dumps(data)).league

    assert (imported.language, imported.currency) == ("hi", "GBP")


def test_a_file_written_before_language_and_currency_follows_the_defaults(
    moved: dict,
) -> None:
    del moved["league"]["language"], moved["league"]["currency"]

    imported = import_league(json.dumps(moved)).league

    assert (imported.language, imported.currency) == ("", "")


def test_a_language_this_site_does_not_have_is_read_as_the_browsers(moved: dict) -> None:
    moved["league"] |= {"language": "ta", "currency": "INR"}

    imported = import_league(json.dumps(moved)).league

    assert (imported.language, imported.currency) == ("", "INR")
