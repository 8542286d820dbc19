"""Starting a session (players in seat order, the first dealer, rules, ceiling) and its
stakes.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core import signing
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from games.days import EARLIEST_PLAYED_ON, latest_played_on, validate_played_on
from games.forms.fields import NameField, buy_in_field, money_per_point_field
from games.forms.rulesets import HOUSE_RULES, RulesetForm
from games.models import League, Player
from games.rules import (
    TOSS_SUITS,
    Card,
    Redraw,
    RulesError,
    Toss,
    card_label,
    is_net,
    is_pool,
    parse_card,
    speech,
    suit_name,
    ties_by_suit,
)
from games.zones import today_in

# The toss travels with the form between requests, signed: a form sent back after an
# error shows the cards that decided the seating, and nobody can post a "toss" of
# their own choosing.
TOSS_SALT = "games.session-toss"

MAX_NAME = Player._meta.get_field("name").max_length
MAX_SEATS = 8


@dataclass(frozen=True)
class SeatRow:
    number: int
    name: forms.BoundField
    dealer: Any  # the radio button of `first_dealer` for this row
    card: Card | None  # the toss card, when the toss was just dealt


class SessionForm(RulesetForm):
    """Start a session: players in seat order, the evening it is played, a preset, a
    ceiling, house rules and the stakes; in a league, its rules are the defaults."""

    name = NameField(max_length=100, required=False, label=gettext_lazy("Name (optional)"))
    played_on = forms.DateField(
        required=False,
        label=gettext_lazy("Played on"),
        help_text=gettext_lazy("Empty: today."),
        validators=[validate_played_on],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    first_dealer = forms.TypedChoiceField(
        choices=[
            (n, format_lazy(gettext_lazy("Seat {number}"), number=n))
            for n in range(1, MAX_SEATS + 1)
        ],
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
        label=gettext_lazy("Deals first"),
    )
    # One of ``leagues`` (a League in cleaned_data), or none.
    league = forms.TypedChoiceField(
        choices=[],
        required=False,
        label=gettext_lazy("League"),
        empty_value=None,
        error_messages={"invalid_choice": gettext_lazy("Pick one of your leagues, or none.")},
    )
    money_per_point = money_per_point_field()
    buy_in = buy_in_field()
    toss = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, leagues: Sequence[League] = (), **kwargs: Any) -> None:
        """``leagues``: those the user may start the session in, read once for the page
        (its dropdown, this field's check and the view's chosen league)."""
        super().__init__(*args, **kwargs)
        source = self.data if self.is_bound else self.initial
        tossed = read_toss(source.get("toss"))
        self.toss_cards = dict(tossed.seats)
        self.toss_redraws = tossed.redraws
        self.leagues = leagues
        # Two leagues of one name (a league imported again beside itself) read apart
        # by their addresses.
        names = Counter(league.name.casefold() for league in leagues)
        field = self.fields["league"]
        field.choices = [("", "---------")] + [
            (
                str(league.pk),
                f"{league.name} ({league.slug})"
                if names[league.name.casefold()] > 1
                else league.name,
            )
            for league in leagues
        ]
        field.coerce = {str(league.pk): league for league in leagues}.__getitem__
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{number}"] = NameField(
                max_length=MAX_NAME,
                required=False,
                label=gettext("Seat {number}").format(number=number),
            )
        # In the page's order, as the list of errors at its top is.
        seats = [f"seat_{number}" for number in range(1, MAX_SEATS + 1)]
        rules = [f"rule_{name}" for name in HOUSE_RULES]
        top = ["first_dealer", *seats, "league", "preset", "rules_preset", "ceiling"]
        self.order_fields([*top, "money_per_point", "buy_in", *rules, "name", "played_on", "toss"])
        self.initial.setdefault("first_dealer", 1)
        self.initial.setdefault("played_on", self._today())
        # The phone's date picker offers only the days the form takes.
        self.fields["played_on"].widget.attrs.update(
            min=EARLIEST_PLAYED_ON.isoformat(), max=latest_played_on().isoformat()
        )
        self.players: list[str] = []
        self.dealer_index = 0

    def _today(self) -> datetime.date:
        """Today on the clock of the league the form starts in; with none picked, on
        the clock all the user's leagues share (one club, most often), else the
        site's (games/zones.py). Past midnight in India on a UTC site, yesterday's
        date offered would be kept by whoever does not look."""
        chosen = self.initial.get("league")
        league = next((league for league in self.leagues if league.pk == chosen), None)
        if league is not None:
            return today_in(league)
        days = {today_in(league) for league in self.leagues}
        return days.pop() if len(days) == 1 else today_in(None)

    def seat_rows(self) -> list[SeatRow]:
        radios = list(self["first_dealer"])
        rows = []
        for number in range(1, MAX_SEATS + 1):
            bound = self[f"seat_{number}"]
            typed = (bound.value() or "").strip()
            rows.append(SeatRow(number, bound, radios[number - 1], self.toss_cards.get(typed)))
        return rows

    def seated_by_toss(self) -> bool:
        """Whether the seats are still as the toss dealt them (not moved since)."""
        typed = [(self[f"seat_{n}"].value() or "").strip() for n in range(1, MAX_SEATS + 1)]
        return bool(self.toss_cards) and [name for name in typed if name] == list(self.toss_cards)

    def toss_ties(self) -> list[str]:
        """How each tie of the toss on rank was broken, in words (the rules' toss goes
        by suit: a tie was broken without a word, an A♥ seated before an A♣ unsaid)."""
        if not self.seated_by_toss():
            return []
        return [_tie_words(tie) for tie in ties_by_suit(list(self.toss_cards.items()))]

    def toss_redraws_said(self) -> list[str]:
        """Who drew the very same card (two decks) and drew again, in words: the
        toss redrew them, and a page must not do that without a word either."""
        if not self.seated_by_toss():
            return []
        return [_redraw_words(redraw) for redraw in self.toss_redraws]

    def seated(self) -> list[str]:
        """Players typed so far in seat order, checking names for duplicates; adds
        errors next to the seats at fault."""
        names: list[str] = []
        seen: dict[str, int] = {}
        for number in range(1, MAX_SEATS + 1):
            typed = self.cleaned_data.get(f"seat_{number}") or ""
            # NFKC: look-alike letters typed by some keyboards (the Kelvin sign for K,
            # full-width letters) become the letters they look like, so "Kim" is Kim.
            name = " ".join(unicodedata.normalize("NFKC", typed).split())
            if not name:
                continue
            # Both foldings: casefold() is how people read names, lower() how the
            # database's unique constraint compares them.
            keys = (name.casefold(), name.lower())
            clash = next((seen[key] for key in keys if key in seen), None)
            if clash is not None:
                self.add_error(
                    f"seat_{number}",
                    gettext("{name} already sits in seat {seat}.").format(name=name, seat=clash),
                )
                continue
            seen.update(dict.fromkeys(keys, number))
            names.append(name)
        if len(names) < 2:
            self.add_error("seat_1", gettext("Seat at least two players."))
        return names

    def clean(self) -> dict[str, Any]:
        dealer = self.cleaned_data.get("first_dealer") or 1
        # Read before seated() adds its errors, which take those seats out of
        # cleaned_data: a seat named twice is still a seat someone sits in.
        typed = [
            bool((self.cleaned_data.get(f"seat_{n}") or "").strip()) for n in range(1, dealer + 1)
        ]
        self.players = self.seated()
        cleaned = super().clean()
        if not typed[-1]:
            # With nobody seated, "Seat at least two players" says all there is to fix.
            if self.players:
                self.add_error(
                    "first_dealer", gettext("The first dealer must be one of the seated players.")
                )
        else:
            self.dealer_index = sum(typed) - 1  # empty rows before the dealer don't count
        if self.ruleset is not None:
            # Stakes only where the rules use them (the page offers only those): a
            # pot in a pool, money per point in a net-format game.
            ceiling = cleaned.get("ceiling") or self.ruleset.ceiling
            if not is_net(self.ruleset):
                cleaned["money_per_point"] = None
            if not is_pool(self.ruleset, ceiling):
                cleaned["buy_in"] = None
        return cleaned

    def stakes(self) -> list[forms.BoundField]:
        """The stakes the shown preset plays for (money per point, or a buy-in)."""
        shown = self.shown_ruleset(self._rules_preset())
        fields = []
        if is_net(shown):
            fields.append(self["money_per_point"])
        if is_pool(shown, shown.ceiling):
            fields.append(self["buy_in"])
        return fields


def _suits_in_order() -> str:
    """The toss's suits, as a page says their order: "clubs lowest, then diamonds,
    hearts, spades"."""
    return gettext("{lowest} lowest, then {others}").format(
        lowest=suit_name(TOSS_SUITS[0]),
        others=speech.list_words(suit_name(suit) for suit in TOSS_SUITS[1:]),
    )


def _tie_words(tie: list[tuple[str, Card]]) -> str:
    """``Asha's A♥ and Ben's A♣ are the same rank: the suit decides (clubs lowest, then
    diamonds, hearts, spades), so Asha sits before Ben.``"""
    # Translators: a player's card in the toss ("Asha's A♥").
    held = [
        gettext("{name}'s {card}").format(name=name, card=card_label(card)) for name, card in tie
    ]
    names = [name for name, _card in tie]
    said = {"cards": speech.join_words(held), "suits": _suits_in_order()}
    if len(tie) == 2:
        return gettext(
            "{cards} are the same rank: the suit decides ({suits}), so {first} sits before "
            "{second}."
        ).format(first=names[0], second=names[1], **said)
    return gettext(
        "{cards} are the same rank: the suit decides ({suits}), so they sit {names}."
    ).format(names=speech.list_words(names), **said)


def _redraw_words(redraw: Redraw) -> str:
    """``Asha and Ben both drew the A♥, the very same card: neither rank nor suit can
    split them, so they drew again.``"""
    names = list(redraw.players)
    card = card_label(redraw.card)
    if len(names) == 2:
        return gettext(
            "{first} and {second} both drew the {card}, the very same card: neither rank nor "
            "suit can split them, so they drew again."
        ).format(first=names[0], second=names[1], card=card)
    return gettext(
        "{names} all drew the {card}, the very same card: neither rank nor suit can split "
        "them, so they drew again."
    ).format(names=speech.join_words(names), card=card)


def sign_toss(tossed: Toss) -> str:
    """The toss as the form carries it: each name with its card, and who drew again
    on the very same card, signed."""
    return signing.dumps(
        {
            "cards": [[name, card.code] for name, card in tossed.seats],
            "redrawn": [[list(r.players), r.card.code] for r in tossed.redraws],
        },
        salt=TOSS_SALT,
    )


def read_toss(value: object) -> Toss:
    """A toss this server dealt; nothing for a value it did not sign (forged, or
    mangled on the way), which only loses the cards shown."""
    if not isinstance(value, str) or not value:
        return Toss(())
    try:
        dealt = signing.loads(value, salt=TOSS_SALT)
        if isinstance(dealt, list):  # signed before a toss said its redraws
            dealt = {"cards": dealt, "redrawn": []}
        seats = tuple((str(name), parse_card(code)) for name, code in dealt["cards"])
        redraws = tuple(
            Redraw(tuple(map(str, names)), parse_card(code)) for names, code in dealt["redrawn"]
        )
        return Toss(seats, redraws)
    except (signing.BadSignature, RulesError, KeyError, TypeError, ValueError):
        return Toss(())


class StakesForm(forms.Form):
    """What a session is played for: money per point (net-format games) or a buy-in
    (pools); only the one its rules use is offered."""

    money_per_point = money_per_point_field()
    buy_in = buy_in_field()

    def __init__(self, *args: Any, net: bool, pool: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not net:
            del self.fields["money_per_point"]
        if not pool:
            del self.fields["buy_in"]


class RenameForm(forms.Form):
    """Correct the name a player was seated under: which seat, and the name it should
    have been (games/services/seat_changes.py says what a rename does)."""

    seat = forms.TypedChoiceField(
        coerce=int,
        label=gettext_lazy("Player"),
        # One chip a player, as the round form's outcomes: a tap, not a list to scroll.
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": gettext_lazy("Pick a player at this table.")},
    )
    name = NameField(
        max_length=MAX_NAME,
        label=gettext_lazy("Their name is"),
        error_messages={"required": gettext_lazy("Say the name to seat them under.")},
    )

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        """``seats``: (seat id, name) of each player at the table, in seat order."""
        super().__init__(*args, auto_id="rename-%s", **kwargs)
        self.fields["seat"].choices = [(str(pk), name) for pk, name in seats]
        self.fields["name"].widget.attrs.update(autocomplete="off", spellcheck="false")
