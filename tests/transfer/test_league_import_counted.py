"""Hands counted at the table, moved by league file (format version 6): each hand
comes back counted, with the figures it was entered with, every round scoring as it
did, the history saying each count it changed, and the league exporting as the same
file; a count the rules refuse, a figure that is none, figures beside cards are
refused by name; and a version-5 file, which has no counted hands, is read as before.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from games.models import HandEntry
from games.services.round_audit import round_changed
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.counted import build_counted_league
from tests.support.league_files import refused, set_at, snapshot, tampered, wipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted_file(user: User) -> dict:
    """The counted league's file, as its export writes it."""
    return export_league(build_counted_league(user))


def hands_of(data: dict, session: int, round_: int = 0) -> dict[str, dict]:
    entries = data["sessions"][session]["rounds"][round_]["entries"]
    return {hand["player"]: hand for hand in entries}


def test_counted_hands_come_back_as_they_were_entered(user: User) -> None:
    league = build_counted_league(user)
    before = snapshot(league)
    original = export_league(league)
    points = hands_of(original, 0)
    assert points["Ben"]["counted"] and points["Ben"]["figures"] == {
        "count": 102,
        "value_points": 10,
    }
    assert points["Ben"]["groups"] == [] and "counted" not in points["Chen"]
    assert points["Asha"]["figures"] == {"value_points": 0}  # the winner's show, trusted
    assert hands_of(original, 2)["Chen"]["figures"] == {"value_points": 40}  # a Paplu drop

    wipe()
    imported = import_league(dumps(original), keep_members=True).league

    # Every hand, counted or not, its figures, its scores, the totals, standings and
    # ratings, and the history of each change: all as they were.
    assert snapshot(imported) == before
    assert HandEntry.objects.filter(counted=True).count() == 8
    first = imported.sessions.get(preset="21-points").changes.order_by("changed_at", "pk")
    edits = [round_changed(c.before, c.after) for c in first if c.before and c.after]
    assert [hand.entered for edit in edits for hand in edit.hands if hand.entered] == [
        ("shown at the table (value points 0)", "cards"),
        ("counted at the table (count 102, value points 10)", "cards"),
        ("cards", "shown at the table (value points 0)"),
        ("cards", "counted at the table (count 102, value points 10)"),
    ]
    # And the league exports as the same file, but for its new share links.
    again = export_league(imported)
    for data in (again, original):
        data["exported_at"] = None
        for session in data["sessions"]:
            session["share_token"] = session["created_by"] = None
    assert again == original


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            set_at("sessions.0.rounds.0.entries.1.figures", {"count": 102, "points": 10}),
            "Session 1 (played 2024-01-12), round 1, Ben: \"figures\" holds 'points', which is "
            "no figure: a counted hand gives count, value_points, claims, two_point, free_hand.",
        ),
        (
            set_at("sessions.0.rounds.0.entries.1.figures", {"count": "102"}),
            "Session 1 (played 2024-01-12), round 1, Ben: figures: count must be a whole "
            "number, not '102'.",
        ),
        (
            set_at("sessions.0.rounds.0.entries.1.figures", {"count": 102, "two_point": 1}),
            "Session 1 (played 2024-01-12), round 1, Ben: figures: two_point must be true or "
            "false, not 1.",
        ),
        (
            set_at("sessions.0.rounds.0.entries.1.groups", [["2D", "3D", "4D"]]),
            "Session 1 (played 2024-01-12), round 1 does not score under its rules: Ben: "
            "entered both by cards and by a count: give one or the other.",
        ),
        (
            set_at("sessions.0.rounds.0.entries.1.counted", False),
            'Session 1 (played 2024-01-12), round 1, Ben: "figures" are given, but the hand is '
            'not "counted": true.',
        ),
        (
            set_at("sessions.0.rounds.0.entries.1.figures", {"count": 1, "value_points": 10}),
            "Session 1 (played 2024-01-12), round 1 does not score under its rules: Ben: no 21 "
            "cards count 1: a card counts 2 to 10, a joker 0.",
        ),
        (
            set_at("sessions.0.overrides", {"trust_show": True}),
            "Session 1 (played 2024-01-12), round 1 does not score under its rules: Ben: hands "
            "are entered by their cards: the house rules allow no counts (Cards or counts: "
            "Cards only).",
        ),
        (
            set_at("sessions.0.changes.0.after.entries.1.figures", {"count": "none"}),
            "Session 1 (played 2024-01-12), change 1: sessions[0].changes[0].after.entries[1]: "
            "figures: count must be a whole number, not 'none'.",
        ),
    ],
)
def test_a_count_the_rules_or_the_schema_refuse_is_named(
    counted_file: dict, change, said: str
) -> None:
    assert refused(tampered(counted_file, change)) == said


def test_a_version_5_file_holds_no_counted_hands(counted_file: dict) -> None:
    # A reader of version 5 takes a counted hand for one with no cards, and its
    # history for one holding keys it does not hold: the reason the version moved on.
    # Such a file is read as that reader read it, and refused.
    old = counted_file | {"version": 5}
    said = refused(json.dumps(old))
    assert said.startswith("Session 1 (played 2024-01-12), change 1: ")
    assert 'holds "counted", which a round\'s history does not' in said
    for session in old["sessions"]:
        for change in session["changes"]:
            for side in (change.get("before"), change.get("after")):
                for hand in (side or {}).get("entries", ()):
                    for key in ("counted", "figures"):
                        hand.pop(key, None)
    said = refused(json.dumps(old))
    assert said.startswith("Session 1 (played 2024-01-12), round 1 does not score")
    assert said.endswith("Ben must show all 21 cards, not 0.")


def test_a_file_before_version_6_imports_as_it_always_did(moved_eventful: dict) -> None:
    # A league where every hand was entered by its cards: the same from either version.
    current = snapshot(import_league(json.dumps(moved_eventful)).league)
    wipe()
    assert snapshot(import_league(json.dumps(moved_eventful | {"version": 5})).league) == current
