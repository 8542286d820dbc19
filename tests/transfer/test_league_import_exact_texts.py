"""League files and the presets that follow the rules' exact texts: a win on the deal
travels with its hand (format version 2), and a version-1 file is read with the presets
of its day, so its rounds score as they were played."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from games.models import HandEntry, League
from games.rules.rulesets import BEFORE_EXACT_TEXTS, as_stored_before_exact_texts
from games.services.leagues import create_league
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry
from games.services.round_saves import save_round
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.builders import make_session, play, seat_pk
from tests.support.hands import PAPLU_ROUND, PAPLU_SCORES_BEFORE, SEVEN_DOUBLES
from tests.support.league_files import refused, wipe

pytestmark = pytest.mark.django_db


def test_a_win_on_the_deal_is_exported_and_imported(user: User) -> None:
    club = create_league(user, name="Kodai Club", preset="21-kodai", overrides={})
    session = make_session(user, preset="21-kodai", league=club)
    # Through the services, as the form saves it with Asha's box ticked.
    entry = new_round_entry(session)
    hands = {
        seat_pk(session, "Asha"): ("declared", SEVEN_DOUBLES),
        seat_pk(session, "Ben"): ("middle_drop", ""),
        seat_pk(session, "Chen"): ("first_drop", ""),
    }
    check = check_round(entry, "8S", hands, final=True, on_deal=[seat_pk(session, "Asha")])
    save_round(entry, check, user)

    data = export_league(club)
    assert data["version"] == 6
    asha, ben, _ = data["sessions"][0]["rounds"][0]["entries"]
    assert (asha["on_deal"], asha["declaration"]) == (True, "dublees")
    assert "on_deal" not in ben
    wipe()

    imported = import_league(dumps(data)).league

    restored = HandEntry.objects.get(round__session__league=imported, player__name="Asha")
    assert (restored.on_deal, restored.declaration) == (True, "dublees")
    assert "on the deal: 7 dublees" in restored.breakdown["lines"]


def test_an_on_deal_that_is_not_true_or_false_is_refused(user: User) -> None:
    club = create_league(user, name="Paplu Club", preset="21-paplu", overrides={})
    play(make_session(user, preset="21-paplu", league=club), "8S", PAPLU_ROUND, user)
    data = export_league(club)
    data["sessions"][0]["rounds"][0]["entries"][0]["on_deal"] = "yes"
    wipe()
    assert '"on_deal" must be true or false' in refused(json.dumps(data))


def version_1(user: User) -> dict:
    """A Paplu league and session as a version-1 file wrote them: no override of the
    options the exact texts changed (the presets of then had those values), its round scored
    as Paplu was then."""
    earlier = as_stored_before_exact_texts("21-paplu", {})
    club = create_league(user, name="Paplu Club", preset="21-paplu", overrides=earlier)
    session = make_session(user, preset="21-paplu", league=club, overrides=earlier)
    played = play(session, "8S", PAPLU_ROUND, user)
    assert {e.player.name: e.score for e in played.entries.all()} == PAPLU_SCORES_BEFORE
    data = export_league(club)
    data["version"] = 1
    data["league"]["overrides"] = {}
    data["sessions"][0]["overrides"] = {}
    wipe()
    return data


def test_a_version_1_file_is_read_with_the_presets_of_its_day(user: User) -> None:
    imported = import_league(dumps(version_1(user))).league

    earlier = BEFORE_EXACT_TEXTS["21-paplu"]
    assert imported.overrides == earlier
    session = imported.sessions.get()
    assert session.overrides == earlier
    scores = {e.player.name: e.score for e in HandEntry.objects.filter(round__session=session)}
    assert scores == PAPLU_SCORES_BEFORE


def test_the_same_rounds_under_version_2_do_not_score_as_the_file_says(user: User) -> None:
    data = version_1(user)
    data["version"] = 2
    message = refused(json.dumps(data))
    assert "written under other rules" in message
    assert not League.objects.exists()
