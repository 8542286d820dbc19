"""What the models' fields share: the game presets, the card codes and the winning
outcomes the database checks (from `games.rules`, the one place that defines them),
the groups of a hand, optional links, names from a league file, and the random
tokens of links and forms.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from games import rules
from games.names import validate_name
from games.rules import all_cards, card_label

# The ruleset presets of docs/rules, by slug, named as the rules service names them, e.g.
# Preset.P21_POINTS = "21-points", labelled "21-card points".
# The rules mark their presets' names for the catalogue: each is read in the language
# of the page that shows it.
Preset = models.TextChoices(
    "Preset",
    [
        (f"P{slug.upper().replace('-', '_')}", (slug, gettext_lazy(name)))
        for slug, name in rules.PRESET_NAMES.items()
    ],
)


# Canonical card codes as the rules service prints them (docs/rules §1), so the
# database itself refuses a cut joker typed as "8s" or "T♠".
CARD_CHOICES = [(card.code, card_label(card)) for card in all_cards()]
CARD_CODES = frozenset(code for code, _ in CARD_CHOICES)


def validate_groups(value: object) -> None:
    """Groups are a list of lists of canonical card codes; the rules service judges them."""
    if not isinstance(value, list) or not all(isinstance(group, list) for group in value):
        raise ValidationError(gettext("Groups must be a list of lists of card codes."))
    for number, group in enumerate(value, start=1):
        for card in group:
            if card not in CARD_CODES:
                raise ValidationError(
                    gettext("Group %(number)s: %(card)r is not a card code such as 7H, 10S or PJ."),
                    params={"number": number, "card": card},
                )


def validate_figures(value: object) -> None:
    """A counted hand's figures are the rules' (games.rules.FIGURES): whole numbers
    for the numbers, yes or no for the others; the rules service judges them."""
    if not isinstance(value, dict) or not set(value) <= set(rules.FIGURES):
        raise ValidationError(
            gettext("Figures must map figure names (count, value_points, ...) to values.")
        )
    for name, figure in value.items():
        wanted = int if name in rules.NUMBER_FIGURES else bool
        if type(figure) is not wanted:
            if wanted is int:
                message = gettext("%(name)s must be a whole number.")
            else:
                message = gettext("%(name)s must be true or false.")
            raise ValidationError(message, params={"name": name})


# Outcomes that win the round (docs/rules §5), in a fixed order for the
# database's check constraint.
WINNING_OUTCOMES = tuple(sorted(rules.WINNING_OUTCOMES))


def optional_link(to: type[models.Model] | str, related_name: str) -> models.ForeignKey:
    """A link that may be empty, and is emptied rather than followed when what it
    names is deleted: a session's rounds and history outlive the account that entered
    them, a round its dealer's seat, and the audit trail the round."""
    return models.ForeignKey(
        to, on_delete=models.SET_NULL, null=True, blank=True, related_name=related_name
    )


def name_from_file() -> models.CharField:
    """Who did something, as an imported league file names them where the import made
    them no member here: plain text, never linked to an account."""
    return models.CharField(max_length=150, blank=True, validators=[validate_name])


def new_share_token() -> str:
    # 16 random bytes: 128 bits, URL-safe, 22 characters. Guessing one is hopeless.
    return secrets.token_urlsafe(16)


def new_submission_token() -> str:
    return secrets.token_hex(16)
