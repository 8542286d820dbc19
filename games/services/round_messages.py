"""The words a round's check and save say to the person at the form, apart from the
logic that decides when to say them: the rules service words its own verdicts
(``RulesError.message`` and ``beside``); these are the app's, about the form and the
table around the rules. One place to read them, or to reword them, without reading
how a round is checked or saved.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from games.models import Round
from games.rules import all_cards, card_label

# Constants are lazy: said in the language of the request that reads them, not of the
# process that imported them. Where one leaves for the rules service or an exception,
# the caller makes it a str.

# The cut joker's field.
CUT_MISSING = gettext_lazy("Enter the cut joker, e.g. 8S.")
CUT_FIRST_TO_ARRANGE = gettext_lazy("Enter the cut joker first: the best grouping depends on it.")
NO_CARDS_TO_ARRANGE = gettext_lazy("Type the cards first, in any order.")


def cut_refused(reason: str) -> str:
    # Translators: {reason} is the rules' sentence on why the cut joker is refused.
    return _("Cut joker: {reason}").format(reason=reason)


def with_card_faces(message: str, names: Iterable[str] = ()) -> str:
    """A message of the rules service with each card it names as the card picker shows
    it: 5♠ 2♥ 10♦ (card_label), the printed joker PJ as on the picker's key. The rules
    write cards in their notation (5S 2H), which their command line and the stored
    rounds keep; a player checking a hand against the picker reads faces. ``names``:
    the round's players, whose names stay as written whatever card they spell (a
    player called KH). Only for the rules' own words: a typo quotes what was typed."""
    return _card_words(tuple(sorted(set(names), key=len, reverse=True))).sub(
        lambda found: found["name"] or _faces()[found["card"]], message
    )


@functools.cache
def _faces() -> dict[str, str]:
    return {
        card.code: card.code if card.is_printed_joker else card_label(card) for card in all_cards()
    }


@functools.lru_cache(maxsize=64)
def _card_words(names: tuple[str, ...]) -> re.Pattern[str]:
    """A player's name, or a card's code, as a whole word (a name first: "KH" the
    player; the longest code first: 10H before a 10)."""
    codes = sorted(_faces(), key=len, reverse=True)
    name = "|".join(map(re.escape, names)) or "(?!)"  # (?!): no name matches
    return re.compile(rf"(?<!\w)(?:(?P<name>{name})|(?P<card>{'|'.join(codes)}))(?!\w)")


def more_typos(more: int) -> str:
    """The line that counts the typos not said one by one."""
    # Translators: the last line of a list of words typed that are not cards.
    return ngettext(
        "and {count} more word that is not a card",
        "and {count} more words that are not cards",
        more,
    ).format(count=more)


# What a settlement waits for (round_checks.RoundCheck.waiting_for), as keys: the
# round form says each set of them as one whole sentence (settlement_waits), so that
# a translation never joins clauses the English joins with commas and "and".
WAITING_FOR_CUT = "cut"
WAITING_FOR_HANDS = "hands"
WAITING_FOR_FIXES = "fixes"

_SETTLEMENT_WAITS = {
    frozenset({WAITING_FOR_CUT}): gettext_lazy(
        "The settlement appears here once the cut joker is entered."
    ),
    frozenset({WAITING_FOR_HANDS}): gettext_lazy(
        "The settlement appears here once every hand is complete."
    ),
    frozenset({WAITING_FOR_FIXES}): gettext_lazy(
        "The settlement appears here once what is marked wrong is fixed."
    ),
    frozenset({WAITING_FOR_CUT, WAITING_FOR_HANDS}): gettext_lazy(
        "The settlement appears here once the cut joker is entered and every hand is complete."
    ),
    frozenset({WAITING_FOR_CUT, WAITING_FOR_FIXES}): gettext_lazy(
        "The settlement appears here once the cut joker is entered and what is marked "
        "wrong is fixed."
    ),
    frozenset({WAITING_FOR_HANDS, WAITING_FOR_FIXES}): gettext_lazy(
        "The settlement appears here once every hand is complete and what is marked wrong is fixed."
    ),
    frozenset({WAITING_FOR_CUT, WAITING_FOR_HANDS, WAITING_FOR_FIXES}): gettext_lazy(
        "The settlement appears here once the cut joker is entered, every hand is "
        "complete and what is marked wrong is fixed."
    ),
}


def settlement_waits(waits: Iterable[str]) -> str:
    """The line in the settlement's place while ``waits`` (WAITING_FOR_* keys) stop it."""
    line = _SETTLEMENT_WAITS.get(frozenset(waits))
    # Nothing named: a round that checks but is not scored yet says so plainly.
    return str(line) if line else gettext("The settlement appears here once the round is scored.")


# A round the admin rewrote, checked as a save checks it.
HAND_OF_NO_PLAYER = gettext_lazy(
    "A hand of a player who was not playing this round: seated elsewhere or out."
)
NOT_SCORED = gettext_lazy("The round could not be scored.")


def no_hand(name: str) -> str:
    return _("{name} has no hand: every player in the round needs one.").format(name=name)


def player_problem(name: str, problem: str) -> str:
    """A player's problem in a list of the whole round's: their name first, as the
    form's fields are headed by it."""
    # Translators: a player's name, then what is wrong with their hand.
    return _("{name}: {problem}").format(name=name, problem=problem)


# Why a new round is refused however it checks.
SESSION_OVER = gettext_lazy("This session is over: it takes no new rounds.")
TABLE_CHANGED = gettext_lazy(
    "The table changed while this round was typed: reload and enter it again."
)


def changed_on_another_device(theirs: Round | None, number: int) -> str:
    """Round ``number`` was changed by another device first: ``theirs`` is their
    version, None if they deleted it."""
    if theirs is None:
        return _(
            "Round {number} was deleted on another phone meanwhile. Nothing of yours was saved."
        ).format(number=number)
    if theirs.entered_by is None:
        return _(
            "Round {number} was saved on another phone by someone meanwhile: their version "
            "is shown. Nothing of yours was saved; what you typed is still here."
        ).format(number=number)
    return _(
        "Round {number} was saved on another phone by {who} meanwhile: their version is "
        "shown. Nothing of yours was saved; what you typed is still here."
    ).format(number=number, who=theirs.entered_by.get_username())


def repeats_saved(theirs: Round) -> str:
    """A round sent that is ``theirs`` again (services.round_clash.same_round)."""
    if theirs.entered_by is None:
        return _(
            "This is round {number} again, as someone saved it: the same cut joker and the "
            "same cards. It was not saved twice."
        ).format(number=theirs.number)
    return _(
        "This is round {number} again, as {who} saved it: the same cut joker and the same "
        "cards. It was not saved twice."
    ).format(number=theirs.number, who=theirs.entered_by.get_username())
