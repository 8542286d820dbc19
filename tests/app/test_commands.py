"""`manage.py demo`: demo data entered through the services, scored by the rules."""

from __future__ import annotations

import io
import json
import zlib
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import RequestFactory

from games.management.commands import make_icons as icons
from games.management.commands.import_league import Command as ImportCommand
from games.models import (
    GameSession,
    HandEntry,
    League,
    RoundChange,
)
from games.rules import PlayerHand, get_ruleset, parse_card, score_round
from games.services.scoreboard import load_scoreboard
from games.transfer.league_import import BEFORE_HISTORY
from tests.support.league_files import (
    as_version_3,
    counts,
    snapshot,
    wipe,
)

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_a_user_and_two_sessions_scored_by_the_rules() -> None:
    output = run_demo()

    assert "Sign in as 'demo' with password 'rummy-at-the-table'." in output
    # django-axes checks every sign-in against a request, as the login view has one.
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username="demo", password="rummy-at-the-table") is not None
    pool = GameSession.objects.get(preset="13-pool-101")
    points = GameSession.objects.get(preset="21-points")
    pool_board = load_scoreboard(pool)
    assert pool_board.finished and pool_board.winners == ("Asha",)
    assert pool.status == GameSession.Status.FINISHED
    points_board = load_scoreboard(points)
    assert not points_board.finished and len(points_board.rows) == 3
    assert "Demo: pool 101: 3 rounds, won by Asha" in output

    # Every stored score is what the rules service gives for the stored hands.
    for played in [row.round for board in (pool_board, points_board) for row in board.rows]:
        ruleset = get_ruleset(played.session.preset, played.session.overrides)
        position = {s.player_id: s.position for s in played.session.seats.all()}
        entries = sorted(
            played.entries.select_related("player"), key=lambda e: position[e.player_id]
        )
        hands = [
            PlayerHand(
                e.player.name,
                e.outcome,
                tuple(tuple(parse_card(c) for c in group) for group in e.groups),
            )
            for e in entries
        ]
        result = score_round(ruleset, parse_card(played.cut_joker), hands)
        assert {p.name: p.score for p in result.players} == {
            e.player.name: e.score for e in entries
        }


def test_demo_can_run_again() -> None:
    run_demo()
    run_demo()

    assert GameSession.objects.count() == 2
    assert HandEntry.objects.filter(round__session__in=GameSession.objects.all()).exists()


def test_export_and_import_commands_round_trip_a_league(league: League, tmp_path) -> None:
    before = snapshot(league)
    target = tmp_path / "club.json"
    call_command("export_league", "club", "-o", str(target), stderr=io.StringIO())
    assert json.loads(target.read_text(encoding="utf-8"))["league"]["slug"] == "club"
    wipe()

    out = io.StringIO()
    call_command("import_league", str(target), "--keep-members", stdout=out)

    assert "Imported Friday club (club): 6 sessions." in out.getvalue()
    assert snapshot(League.objects.get(slug="club")) == before


def test_export_command_writes_to_standard_output(league: League) -> None:
    out = io.StringIO()
    call_command("export_league", "club", stdout=out)
    assert json.loads(out.getvalue())["sessions"][0]["played_on"] == "2024-01-05"


def test_the_commands_refuse_what_they_cannot_do(league: League, tmp_path) -> None:
    with pytest.raises(CommandError, match="no league with the slug 'nope'"):
        call_command("export_league", "nope")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_league", str(tmp_path / "missing.json"), "--keep-members")
    exported = tmp_path / "club.json"
    call_command("export_league", "club", "-o", str(exported), stderr=io.StringIO())
    before = counts()
    with pytest.raises(CommandError, match="The league's name: A name may hold only printable"):
        call_command("import_league", str(exported), "--keep-members", "--name", "Club\x07")
    assert counts() == before


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

    # The same file again: another league, under the name given, at that name's address.
    out = io.StringIO()
    call_command("import_league", str(target), "--keep-members", "--name", "Kept", stdout=out)
    kept = League.objects.get(slug="kept")
    assert kept.name == "Kept" and "Imported Kept (kept): 6 sessions." in out.getvalue()
    assert dict(kept.memberships.values_list("user__username", "role")) == {
        "asha": "owner",
        "ben": "scorer",
        "chen": "viewer",
    }


def test_the_import_command_says_when_a_file_holds_no_history(moved: dict, tmp_path) -> None:
    target = tmp_path / "club.json"
    for version, data in ((4, moved), (3, as_version_3(moved))):
        data["league"]["slug"] = f"club-{version}"
        target.write_text(json.dumps(data), encoding="utf-8")
        out = io.StringIO()

        call_command("import_league", str(target), "--keep-members", stdout=out)

        # A file before version 4 held no history: the sessions' history pages start
        # empty, and the importer is told so; a file of version 4 brings its own.
        assert (BEFORE_HISTORY in out.getvalue()) == (version == 3)
        changes = RoundChange.objects.filter(session__league__slug=f"club-{version}")
        assert changes.exists() == (version == 4)


def test_make_icons_draws_a_red_heart_on_a_white_card_on_the_felt(tmp_path) -> None:
    # The drawing at a small size (the command draws 180 to 512 pixels: seconds of CPU).
    plain, maskable = tmp_path / "plain.png", tmp_path / "maskable.png"
    for path, full_bleed in ((plain, False), (maskable, True)):
        pixels = icons.render(64, icons.card_on_felt(full_bleed=full_bleed))
        path.write_bytes(icons.png_bytes(64, 64, pixels))

    plain, maskable = DecodedPng(plain), DecodedPng(maskable)
    assert plain.size == maskable.size == 64
    red, card, felt = (0xC8, 0x10, 0x2E, 255), (0xFB, 0xFA, 0xF7, 255), (0x14, 0x53, 0x2D, 255)
    assert plain.at(32, 32) == maskable.at(32, 32) == red  # the heart
    assert plain.at(32, 14) == card  # the card above it
    assert plain.at(4, 32) == felt
    # The home screen rounds its own corners: only the plain icon leaves them clear;
    # a maskable icon is felt to its edges, its card inside the safe circle.
    assert plain.at(0, 0)[3] == 0
    assert maskable.at(0, 0) == maskable.at(32, 8) == felt


class DecodedPng:
    """The pixels of an 8-bit RGBA PNG with unfiltered rows, as make_icons writes."""

    def __init__(self, path) -> None:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        self.size = int.from_bytes(data[16:20], "big")
        chunks, at = b"", 8
        while at < len(data):
            length = int.from_bytes(data[at : at + 4], "big")
            if data[at + 4 : at + 8] == b"IDAT":
                chunks += data[at + 8 : at + 8 + length]
            at += length + 12
        self.raw = zlib.decompress(chunks)

    def at(self, x: int, y: int) -> tuple[int, ...]:
        row = y * (1 + self.size * 4)
        assert self.raw[row] == 0  # no filter
        start = row + 1 + x * 4
        return tuple(self.raw[start : start + 4])
