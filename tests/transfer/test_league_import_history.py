"""A league file's history of the rounds (format version 4,
games/transfer/league_import.py): checked like the rest of the file, and refused with
nothing written and a message naming where in the file it is wrong."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client

from games.models import League, RoundChange
from games.transfer.league_import import import_league
from tests.support.league_files import (
    as_version_3,
    counts,
    post_file,
    refused,
    round_then,
    set_at,
    tampered,
    with_history_written_out,
)

pytestmark = pytest.mark.django_db

# The long night (build_eventful_league): its changes, oldest first, are
# 0 round 1 created, 1 round 2 created (deleted since: "round" null), 2 round 3
# created (round 2 now), 3 and 4 round 1 edited, 5 round 2 deleted, 6 to 9 rounds 3
# to 6 created, 10 round 7 created in table mode.
NIGHT = "sessions.6"


def without(path: str):
    """A change to the export: the key at a dotted path taken out."""

    def change(data: dict) -> None:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        node = data
        for key in parents:
            node = node[key]
        del node[last]

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_at(f"{NIGHT}.changes", {}), '"changes" must be a list'),
        (set_at(f"{NIGHT}.changes.0", "created"), "change 1 must be a JSON object"),
        # Times: a date and time with its zone, 1970 to now, in the order made.
        (
            set_at(f"{NIGHT}.changes.0.changed_at", "yesterday"),
            "sessions[6].changes[0].changed_at: changed at must be a date and time",
        ),
        (
            set_at(f"{NIGHT}.changes.0.changed_at", "2024-05-03T20:00:00"),
            "sessions[6].changes[0].changed_at: changed at must be a date and time with its",
        ),
        (
            set_at(f"{NIGHT}.changes.0.changed_at", None),
            "sessions[6].changes[0].changed_at: a change needs the time it was made",
        ),
        (
            set_at(f"{NIGHT}.changes.10.changed_at", "2099-05-03T20:00:00+00:00"),
            "sessions[6].changes[10].changed_at: changed at is in the future",
        ),
        (
            set_at(f"{NIGHT}.changes.4.changed_at", "2024-05-03T20:00:00+00:00"),
            "change 5: sessions[6].changes[4].changed_at (2024-05-03T20:00:00+00:00) is "
            "earlier than the change before it",
        ),
        (
            set_at(f"{NIGHT}.rounds.0.created_at", "noon"),
            "sessions[6].rounds[0].created_at: created at must be a date and time",
        ),
        (
            set_at(f"{NIGHT}.rounds.1.updated_at", "2024-05-03T20:00:00+00:00"),
            "Long night”, played 2024-05-03), round 2: it was last changed "
            "(2024-05-03T20:00:00+00:00) before it was entered",
        ),
        (
            set_at("sessions.3.rejoins.0.created_at", "2024-13-01T00:00:00+00:00"),
            "sessions[3].rejoins[0].created_at: created at must be a date and time",
        ),
        (
            set_at("sessions.4.closed_at", "2100-01-01T00:00:00+00:00"),
            "sessions[4].closed_at: closed at is in the future",
        ),
        # The round a change is of: one of the session's, or none if deleted since.
        (
            set_at(f"{NIGHT}.changes.0.round", 8),
            'change 1: "round" must be the number of a round of the session (1 to 7), or '
            "null for a round deleted since; not 8.",
        ),
        (set_at(f"{NIGHT}.changes.0.round", "1"), '"round" must be a whole number'),
        (
            set_at(f"{NIGHT}.changes.5.round", 2),
            'change 6: a deleted round is no round of the file: "round" must be null, not 2.',
        ),
        (
            set_at(f"{NIGHT}.changes.3.action", "created"),
            "change 4: round 1 is created after a change of it.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.action", "undone"),
            "change 1: \"action\" must be one of created, edited, deleted, not 'undone'.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.number", 0),
            "sessions[6].changes[0].number must be a round's number, from 1",
        ),
        (
            set_at(f"{NIGHT}.changes.0.number", 2**31),
            "sessions[6].changes[0].number must be a whole number from 0 to 2147483647",
        ),
        (set_at(f"{NIGHT}.rounds.0.version", 0), "sessions[6].rounds[0].version must be 1"),
        # Who: printable names, as every name.
        (
            set_at(f"{NIGHT}.changes.0.changed_by", "asha\x00"),
            "change 1: changed by: A name may hold only printable text: U+0000",
        ),
        (
            set_at("sessions.3.rejoins.0.created_by", 5),
            'Ben\'s rejoin: "created_by" must be text',
        ),
        # The round before and after: as the history keeps a round, or null.
        (
            lambda data: data["sessions"][6]["changes"][0].update(
                before=data["sessions"][6]["changes"][0]["after"]
            ),
            'change 1: a creation has nothing before it: "before" must be null.',
        ),
        (
            set_at(f"{NIGHT}.changes.0.after", None),
            'change 1: a creation gives the round as it was entered in "after".',
        ),
        (
            set_at(f"{NIGHT}.changes.5.before", None),
            'change 6: a deletion gives the round deleted in "before".',
        ),
        (
            set_at(f"{NIGHT}.changes.5.after", {"cut_joker": "8S"}),
            'sessions[6].changes[5].after: "version" must be a whole number',
        ),
        (
            set_at(f"{NIGHT}.changes.0.after", "round 1"),
            "sessions[6].changes[0].after must be a JSON object or null, not 'round 1'.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.hands", []),
            'sessions[6].changes[0].after holds "hands", which a round\'s history does not; '
            "it holds cut_joker, dealer, version, entries.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.cut_joker", "8s"),
            "sessions[6].changes[0].after: the cut joker '8s' is not a card code.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.version", 0),
            "sessions[6].changes[0].after.version must be from 1",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries", {}),
            'sessions[6].changes[0].after: "entries" must be a list',
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.groups", [["2h"]]),
            "sessions[6].changes[0].after.entries[0]: Group 1: '2h' is not a card code",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.outcome", "won"),
            "sessions[6].changes[0].after.entries[0]: 'won' is not an outcome.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.score", "122"),
            'sessions[6].changes[0].after.entries[0]: "score" must be a whole number',
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.score", 2**31),
            "sessions[6].changes[0].after.entries[0]: the score is too large to store.",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.player", " "),
            'sessions[6].changes[0].after.entries[0]: "player" must name the player.',
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.entered_by", "a\u202eb"),
            "sessions[6].changes[0].after.entries[0]: entered by: A name may hold only",
        ),
        (
            set_at(f"{NIGHT}.changes.0.after.entries.0.on_deal", "yes"),
            'sessions[6].changes[0].after.entries[0]: "on_deal" must be true or false',
        ),
        # What a change may leave out: only what the rest of the file says.
        (
            without(f"{NIGHT}.changes.1.after"),
            'change 2: "after" is missing, and a change of a round deleted since gives the '
            "round before and after it.",
        ),
        (
            without(f"{NIGHT}.changes.0.after"),
            'change 1: "after" is missing, and only round 1\'s last change may leave it out.',
        ),
        (
            without(f"{NIGHT}.changes.0"),
            'change 3: "before" is missing, and no earlier change of round 1 says it.',
        ),
    ],
)
def test_a_history_that_does_not_hold_together_is_refused_naming_where(
    moved_eventful: dict, change, message: str
) -> None:
    assert message in refused(tampered(moved_eventful, change))


def test_the_import_page_names_the_change_and_writes_nothing(
    moved_eventful: dict, stranger: Client
) -> None:
    before = counts()
    text = tampered(moved_eventful, set_at(f"{NIGHT}.changes.2.round", 9))

    response = post_file(stranger, text)

    assert response.status_code == 422
    assert "Long night”, played 2024-05-03), change 3: " in response.content.decode()
    assert counts() == before


def test_a_change_may_give_what_the_rest_of_the_file_says(moved: dict) -> None:
    # What the export leaves out, written out in full, is the same history.
    session = moved["sessions"][4]
    (played,) = session["rounds"]
    session["changes"][0] |= {"before": None, "after": round_then(played)}
    session["rounds"][0] |= {
        "version": 1,
        "created_at": session["changes"][0]["changed_at"],
        "updated_at": session["changes"][0]["changed_at"],
    }
    # A file may say "on_deal": false; the app keeps a hand not won on the deal without it.
    for hand in session["changes"][0]["after"]["entries"]:
        hand["on_deal"] = False
    full = copy.deepcopy(moved)

    league = import_league(json.dumps(full)).league

    (change,) = RoundChange.objects.filter(session__league=league, session__name="Points night")
    assert change.after["entries"][2] == {
        "player": "Chen",
        "outcome": "first_drop",
        "groups": [],
        "score": -25,
    }


def test_a_file_before_version_4_reads_no_history_even_if_it_holds_one(moved: dict) -> None:
    # Version 3 had no history: keys of that name are not its, and are not read.
    data = as_version_3(moved)
    for session, exported in zip(data["sessions"], moved["sessions"], strict=True):
        session["changes"] = exported["changes"] + ["not a change"]
    data["sessions"][0]["rounds"][0]["version"] = "not a number"

    league = import_league(json.dumps(data)).league

    assert not RoundChange.objects.filter(session__league=league).exists()
    assert League.objects.get(slug="club") == league


def test_a_history_written_out_in_full_imports_as_it_says(moved: dict) -> None:
    data = with_history_written_out(moved)
    changes = data["sessions"][0]["changes"]

    league = import_league(json.dumps(data)).league

    session = league.sessions.get(played_on="2024-01-05")
    stored = session.changes.order_by("changed_at", "pk")
    assert [(c.action, c.round.number if c.round else None) for c in stored] == [
        (change["action"], change["round"]) for change in changes
    ]
    assert [(c.before, c.after) for c in stored[:3]] == [
        (change["before"], change["after"]) for change in changes[:3]
    ]
