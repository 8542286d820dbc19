"""Builders for tests that need sessions and rounds in the database: a session, a
round saved through the services as the form saves it, the round form's and the
new-session form's POST bodies, and what the rules service says about the rounds
(worked out without the app)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.forms.sessions import SessionForm
from games.models import GameSession, League, Round
from games.rules import PlayerHand, get_ruleset, parse_card, parse_groups, score_round
from games.rules.totals import session_state
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.round_saves import save_round
from games.services.sessions import close_session, create_session, rejoin
from tests.support.hands import POOL_ROUNDS, ROUND_1, WIN_13

Hands = Mapping[str, tuple[str, str]]


def make_session(
    user: User | None,
    players: tuple[str, ...] = ("Asha", "Ben", "Chen"),
    preset: str = "21-points",
    **kwargs,
) -> GameSession:
    return create_session(
        user, preset=preset, overrides=kwargs.pop("overrides", {}), players=players, **kwargs
    )


def seat_pk(session: GameSession, name: str) -> int:
    return session.seats.get(player__name=name).pk


def seat_pks(session: GameSession) -> dict[str, int]:
    """Each player's seat, by name: one query for a whole round's hands."""
    return dict(session.seats.values_list("player__name", "pk"))


def round_data(session: GameSession, cut: str, hands: Hands, **extra: object) -> dict:
    """The POST body of the round form: the cut joker and each player's hand."""
    data: dict = {"cut_joker": cut, **extra}
    seats = seat_pks(session)
    for name, (outcome, groups) in hands.items():
        data[f"outcome_{seats[name]}"] = outcome
        data[f"groups_{seats[name]}"] = groups
    return data


def by_seat(session: GameSession, hands: Hands) -> dict:
    """Each player's hand keyed by their seat, as the services take a round's hands."""
    seats = seat_pks(session)
    return {seats[name]: hand for name, hand in hands.items()}


def play(session: GameSession, cut: str, hands: Hands, user: User | None = None) -> Round:
    """Save a round through the services, as the form does."""
    entry = new_round_entry(session)
    check = check_round(entry, cut, by_seat(session, hands), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or session.created_by)


def edit(played: Round, cut: str, hands: Hands, user: User | None = None) -> Round:
    """Save a round again with other hands through the services, as the edit form does
    (at the version it was read at)."""
    entry = round_entry_for_edit(played)
    check = check_round(entry, cut, by_seat(played.session, hands), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or played.session.created_by, version=played.version)


def expected_totals(
    preset: str,
    players: tuple[str, ...],
    rounds: list[tuple[str, Hands]],
    ceiling: int | None = None,
    dealers: list[str] | None = None,
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
    return session_state(ruleset, players, scores, ceiling=ceiling, dealers=dealers)


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


def pool_with_chen_out(user: User, **kwargs) -> GameSession:
    """A 13-pool-101 session after POOL_ROUNDS: Chen is out at 120, Asha and Ben in."""
    pool = make_session(user, preset="13-pool-101", **kwargs)
    for hands in POOL_ROUNDS:
        play(pool, "7C", hands)
    return pool


# The score table of pool_with_chen_rejoined, each row's cells after its heading, as
# a player reads them: round 2 keeps the total that put Chen out (80 + 40 = 120); his
# rejoin at 61 is a line of its own, and round 3 adds to it (61 + 20 = 81).
CHEN_REJOINED_CELLS = [
    ["0 0", "40 +40", "80 +80"],
    ["0 0", "60 +20", "120 +40 out"],
    ["", "", "61 rejoined"],
    ["0 0", "80 +20", "81 +20"],
]


def pool_with_chen_rejoined(user: User, **kwargs) -> GameSession:
    """pool_with_chen_out, then Chen rejoins at 61 (Ben's 60, plus one) and round 3 is
    played: Asha declares, Ben and Chen drop first (+20): Asha 0, Ben 80, Chen 81."""
    pool = pool_with_chen_out(user, **kwargs)
    rejoin(pool, pool.seats.get(player__name="Chen"), user)
    third = {name: ("first_drop", "") for name in ("Ben", "Chen")}
    play(pool, "7C", {"Asha": ("declared", WIN_13), **third})
    return pool


def pool_won_by_asha(user: User, **kwargs) -> GameSession:
    """pool_with_chen_rejoined, then round 4: Asha declares, Ben and Chen middle-drop
    (+40) to 120 and 121, both out: the pool is over and Asha, at 0, won it."""
    pool = pool_with_chen_rejoined(user, **kwargs)
    fourth = {name: ("middle_drop", "") for name in ("Ben", "Chen")}
    play(pool, "7C", {"Asha": ("declared", WIN_13), **fourth})
    return pool


# Chen's rejoin after round 2, played on: each builder with why it may no longer be
# taken back (the rules service's words).
PLAYED_ON_REJOINS = [
    pytest.param(pool_with_chen_rejoined, "round 3 has been played since", id="next-round"),
    pytest.param(pool_won_by_asha, "the session is over", id="over"),
]


def finished_session(user: User | None, **kwargs) -> GameSession:
    """A 21-points session of Asha, Ben and Chen (in that order) with round 1 played
    (Asha declared) and ended by hand: finished, Asha won."""
    session = make_session(user, **kwargs)
    play(session, "8S", ROUND_1)
    close_session(session)
    session.refresh_from_db()
    return session


def league_form_data(preset: str = "21-points", **fields: object) -> dict:
    """The league form as a browser submits it untouched (the preset's rules)."""
    data = session_form_data(preset)
    data.pop("first_dealer")
    return data | {"name": "Tuesday Club", **fields}


def rules_url(league: League) -> str:
    """The league's house rules page."""
    return reverse("games:league_rules", args=[league.slug])
