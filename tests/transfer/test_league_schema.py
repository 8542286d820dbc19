"""The league file's schema (games/transfer/league_schema.py): a file as the export
writes it is taken whole, and the first thing wrong is named at its place in the
app's words, never in the validation library's."""

from __future__ import annotations

import copy
import json

import pytest

from games.transfer.league_refusal import ImportRefused
from games.transfer.league_schema import checked_league_file
from tests.support.league_files import as_version_3, set_at

pytestmark = pytest.mark.django_db


def refusal(data: dict) -> str:
    with pytest.raises(ImportRefused) as caught:
        checked_league_file(json.loads(json.dumps(data)))
    return str(caught.value)


def test_a_file_as_the_export_writes_it_is_taken_whole(moved_eventful: dict) -> None:
    checked, reading = checked_league_file(moved_eventful)

    assert reading.history and not reading.earlier
    night = checked.sessions[6]
    assert [change.action for change in night.changes][:3] == ["created"] * 3
    assert night.rounds[0].entries[0].player == "Asha"
    assert str(checked.league.money_per_point) == "0.50"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("sessions.0.played_on", "Session 1: played on (sessions[0].played_on): This field"),
        ("sessions.0.overrides", 'Session 1: "overrides" must be an object, not None.'),
        ("sessions.0.seats.0.position", 'Session 1 (played 2024-01-05): "position" must be a'),
        ("members.0.username", 'Member 1: "username" must be text, not None.'),
        ("league", '"league" must be a JSON object.'),
    ],
)
def test_a_key_left_out_is_refused_as_a_null_is(moved: dict, path: str, message: str) -> None:
    # A hand-written file that leaves out a key hears what one that gives null does.
    *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
    left_out = copy.deepcopy(moved)
    place = left_out
    for key in parents:
        place = place[key]
    del place[last]
    set_at(path, None)(moved)

    assert refusal(left_out).startswith(message)
    assert refusal(moved) == refusal(left_out)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        # Strict: nothing is taken for what it is not.
        ("sessions.0.seats.0.position", True, '"position" must be a whole number, not True.'),
        ("sessions.0.rounds.0.number", 1.0, '"number" must be a whole number, not 1.0.'),
        ("sessions.0.table_auto_save", "yes", '"table_auto_save" must be true or false'),
        ("league.time_zone", 530, '"time_zone" must be text, not 530.'),
        ("members.0.username", 7, 'Member 1: "username" must be text, not 7.'),
    ],
)
def test_a_value_of_another_json_type_is_named_in_the_apps_words(
    moved: dict, path: str, value: object, message: str
) -> None:
    set_at(path, value)(moved)
    text = refusal(moved)
    assert message in text
    assert "Input should be" not in text  # pydantic's own words never reach the importer


def test_a_round_of_the_history_holding_another_key_is_named_for_it_first(
    moved_eventful: dict,
) -> None:
    # Something else than a round (no cut joker, no hands): what it holds that a round
    # does not says so better than what it lacks.
    set_at("sessions.6.changes.0.after", {"hands": []})(moved_eventful)

    assert refusal(moved_eventful) == (
        "Session 7 (“Long night”, played 2024-05-03), change 1: sessions[6].changes[0].after "
        'holds "hands", which a round\'s history does not; it holds cut_joker, dealer, '
        "version, entries."
    )


def test_a_file_before_version_4_has_no_history_to_check(moved: dict) -> None:
    data = as_version_3(moved)
    data["sessions"][0]["changes"] = "not a history"
    data["sessions"][0]["rounds"][0]["created_at"] = "not a time"

    checked, reading = checked_league_file(data)

    assert not reading.history
    assert checked.sessions[0].changes is None
    assert checked.sessions[0].rounds[0].created_at is None
