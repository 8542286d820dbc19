"""Rounds with hands counted at the table (docs/rules §5, "A counted hand"), saved
through the services as the round form saves them: each counted player's figures
typed in place of their cards; and a league whose hands were all counted, beside the
same league entered by cards."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from django.contrib.auth.models import User

from games.models import GameSession, League, Membership, Round
from games.rules import HandFigures, PlayerHand, hand_figures, parse_card, parse_groups
from games.services.round_checks import TypedHand, check_round
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.round_saves import save_round
from tests.support.builders import Hands, make_session, seat_pks
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, THREE_PURE, WIN_8S

# House rules that take counts, and those that trust a winner's show besides.
COUNTS = {"hand_entry": "counts"}
TRUSTED = {"hand_entry": "counts", "trust_show": True}
# What SHOWN_8S gives in 21-points under cut 8S, as Ben would say it at the table.
BEN_COUNT = HandFigures(count=102, value_points=10)
# A trusted winner's show of WIN_8S under cut 8S: no value card.
ASHA_SHOWN = HandFigures(value_points=0)

Counted = Mapping[str, HandFigures]


def typed(session: GameSession, hands: Hands, counted: Counted) -> dict[int, TypedHand]:
    """A round's hands by seat, those in ``counted`` typed as their figures."""
    seats = seat_pks(session)
    return {
        seats[name]: TypedHand(outcome, "", counted[name])
        if name in counted
        else TypedHand(outcome, text)
        for name, (outcome, text) in hands.items()
    }


def play_counted(
    session: GameSession, cut: str, hands: Hands, counted: Counted, user: User | None = None
) -> Round:
    """Save a round whose ``counted`` players were counted at the table."""
    entry = new_round_entry(session)
    check = check_round(entry, cut, typed(session, hands, counted), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or session.created_by)


def edit_counted(
    played: Round, cut: str, hands: Hands, counted: Counted, user: User | None = None
) -> Round:
    """Save a round again, its ``counted`` players counted at the table, as the edit
    form does (at the version it was read at)."""
    entry = round_entry_for_edit(played)
    check = check_round(entry, cut, typed(played.session, hands, counted), final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    return save_round(entry, check, user or played.session.created_by, version=played.version)


def figures_of(session: GameSession, cut: str, hands: Hands) -> dict[str, HandFigures]:
    """What each hand holding cards gives under the session's rules, as its player
    would say it at the table (the rules' own hand_figures): counted with these, each
    scores as its cards do."""
    ruleset = new_round_entry(session).ruleset
    return {
        name: hand_figures(
            ruleset,
            parse_card(cut),
            PlayerHand(name, outcome, tuple(tuple(group) for group in parse_groups(text))),
        )
        for name, (outcome, text) in hands.items()
        if text
    }


# The evenings of counted_league, each (preset, day, rounds): 21-card points, the
# winner paid value points; Kodai, every loser paying the winner's claims.
EVENINGS = (
    (
        "21-points",
        datetime.date(2024, 1, 12),
        (
            ("8S", ROUND_1),
            (
                "8S",
                {
                    "Asha": ("shown", LOOSE_148),
                    "Ben": ("declared", THREE_PURE),
                    "Chen": ("middle_drop", ""),
                },
            ),
        ),
    ),
    ("21-kodai", datetime.date(2024, 1, 19), (("8S", ROUND_1),)),
)


def counted_league(user: User, *, counted: bool, slug: str = "club") -> League:
    """A league of EVENINGS under house rules that take counts and trust the table's
    show: each hand holding cards entered by them or, ``counted``, counted at the
    table as the figures they give (a winner's show trusted). The same rounds either
    way: their standings and ratings are the same."""
    league = League.objects.create(name="Counting club", slug=slug, preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    for preset, day, rounds in EVENINGS:
        session = make_session(user, preset=preset, league=league, overrides=TRUSTED)
        GameSession.objects.filter(pk=session.pk).update(played_on=day)
        for cut, hands in rounds:
            figures = figures_of(session, cut, hands) if counted else {}
            play_counted(session, cut, hands, figures, user)
    return league


def build_counted_league(user: User) -> League:
    """counted_league's counted hands, and what else a league file must carry of them:
    round 1 of the points evening edited into its cards and back into counts (the
    history keeps each), and a Paplu evening whose first drop gives only its value
    points, as Paplu's drop rules ask."""
    league = counted_league(user, counted=True)
    points = league.sessions.get(preset="21-points")
    cut, hands = EVENINGS[0][2][0]
    first = edit_counted(points.rounds.get(number=1), cut, hands, {}, user)
    edit_counted(first, cut, hands, figures_of(points, cut, hands), user)
    paplu = make_session(user, preset="21-paplu", league=league, overrides=COUNTS)
    GameSession.objects.filter(pk=paplu.pk).update(played_on=datetime.date(2024, 1, 26))
    hands = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}
    figures = figures_of(paplu, "8S", hands) | {"Chen": PAPLU_DROP}
    del figures["Asha"]  # these house rules do not trust the table's show
    play_counted(paplu, "8S", hands, figures, user)
    return league


# A Paplu drop's value points, as a player holding SHOWN_8S's cards says them.
PAPLU_DROP = HandFigures(value_points=40)
