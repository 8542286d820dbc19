"""Fixtures and builders for the web tests: sessions, hands and form data."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.forms.sessions import SessionForm
from games.models import GameSession
from games.rules import PlayerHand, get_ruleset, parse_card, parse_groups, score_round
from games.rules.totals import session_state
from games.services.rounds import check_round, new_round_entry, save_round
from games.services.sessions import create_session

# 21-points, cut 8S (RULES.md §7 and the rules tests): a three-pure declaration and a
# loser whose hand costs 102 with one value card (+10 each way).
WIN_8S = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
SHOWN_8S = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
# Three pure sequences and no joker under any cut: a valid declaration every round.
THREE_PURE = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
# 21 loose cards, no pure sequence: 148 under cut 8S, capped at 120.
LOOSE_148 = "2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD"
# 13-card (cut 7C): a show13 declaration.
WIN_13 = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7H | KC KD KS"

Hands = Mapping[str, tuple[str, str]]


@pytest.fixture
def scorer(user: User, client: Client) -> Client:
    """The signed-in client of the user who creates the sessions."""
    client.force_login(user)
    return client


def make_session(
    user: User | None,
    players: tuple[str, ...] = ("Asha", "Ben", "Chen"),
    preset: str = "21-points",
    **kwargs,
) -> GameSession:
    return create_session(
        user, preset=preset, overrides=kwargs.pop("overrides", {}), players=players, **kwargs
    )


@pytest.fixture
def table(user: User) -> GameSession:
    """A 21-points session for Asha, Ben and Chen (seated in that order), by `user`."""
    return make_session(user, name="Friday")


def seat_pk(session: GameSession, name: str) -> int:
    return session.seats.get(player__name=name).pk


def round_data(session: GameSession, cut: str, hands: Hands, **extra: object) -> dict:
    """The POST body of the round form: the cut joker and each player's hand."""
    data: dict = {"cut_joker": cut, **extra}
    for name, (outcome, groups) in hands.items():
        data[f"outcome_{seat_pk(session, name)}"] = outcome
        data[f"groups_{seat_pk(session, name)}"] = groups
    return data


def play(session: GameSession, cut: str, hands: Hands, user: User | None = None):
    """Save a round through the services, as the form does."""
    entry = new_round_entry(session)
    typed = {seat_pk(session, name): hand for name, hand in hands.items()}
    check = check_round(entry, cut, typed, final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or session.created_by)


def expected_totals(
    preset: str,
    players: tuple[str, ...],
    rounds: list[tuple[str, Hands]],
    ceiling: int | None = None,
):
    """What the rules service says about these rounds, computed without the app."""
    ruleset = get_ruleset(preset)
    scores = []
    for cut, hands in rounds:
        result = score_round(
            ruleset,
            parse_card(cut),
            [
                PlayerHand(name, outcome, tuple(tuple(g) for g in parse_groups(text)))
                for name, (outcome, text) in hands.items()
            ],
        )
        scores.append({player.name: player.score for player in result.players})
    return session_state(ruleset, players, scores, ceiling=ceiling)


def session_form_data(preset: str = "21-points", **fields: object) -> dict:
    """The new-session form as a browser submits it untouched: every house rule at
    the preset's value (unchecked boxes are left out, as browsers do)."""
    form = SessionForm(initial={"preset": preset})
    data: dict = {"preset": preset, "rules_preset": preset, "first_dealer": "1"}
    ceiling = form.initial["ceiling"]
    data["ceiling"] = "" if ceiling is None else str(ceiling)
    for key, value in form.initial.items():
        if not key.startswith("rule_") or value is False:
            continue
        data[key] = "on" if value is True else "" if value is None else value
    data.update(fields)
    return data
