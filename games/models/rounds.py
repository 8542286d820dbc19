"""A session's rounds, each player's hand in them, and the audit trail of every
change to a round."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import (
    get_language,
    gettext,
    gettext_lazy,
    gettext_noop,
    pgettext_lazy,
)

from games import rules
from games.models.fields import (
    CARD_CHOICES,
    CARD_CODES,
    WINNING_OUTCOMES,
    name_from_file,
    optional_link,
    validate_figures,
    validate_groups,
)
from games.models.leagues import Player
from games.models.sessions import GameSession, Seat

# Who a round that saved itself is by, as kept and as a league file names it (the
# round page and its history say it in the reader's language): nobody tapped Save.
SAVED_BY_ITSELF = gettext_noop("table mode (saved by itself)")


def kept_name(name: str) -> str:
    """An author's name as kept (a league file's, or nobody's), as a page says it."""
    return gettext(SAVED_BY_ITSELF) if name == SAVED_BY_ITSELF else name


class Round(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = optional_link(Seat, "dealt_rounds")
    cut_joker = models.CharField(max_length=3, choices=CARD_CHOICES)
    # Who saved the round last: its author until someone edits it (the history,
    # RoundChange, keeps who entered it and every edit since).
    entered_by = optional_link(settings.AUTH_USER_MODEL, "entered_rounds")
    # Who saved a round that came from an imported league file, where it is nobody's
    # account here (or table mode, when the round saved itself).
    entered_by_name = name_from_file()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Optimistic concurrency: an edit saves only if the version it started from is
    # still current, so two phones editing one round cannot silently overwrite.
    version = models.PositiveIntegerField(default=1)
    # The random token of the form that created the round: a double tap or a retried
    # request sends the same token again and finds this round instead of a second one.
    # NULL, not "", for rounds made elsewhere (admin, import): NULLs never collide in
    # the unique constraint below.
    submission = models.CharField(  # noqa: DJ001
        max_length=32, null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.UniqueConstraint(
                fields=["session", "submission"], name="round_submission_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1),
                name="round_number_positive",
                violation_error_message=gettext_lazy("Rounds are numbered from 1."),
            ),
            models.CheckConstraint(
                condition=models.Q(cut_joker__in=sorted(CARD_CODES)),
                name="round_cut_joker_card_code",
                violation_error_message=gettext_lazy(
                    "The cut joker must be a card code such as 8S or PJ."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}, round {self.number}"

    @property
    def author(self) -> str:
        """Who saved the round last (`entered_by`): their username, or the name an
        imported file gave."""
        return (
            self.entered_by.get_username() if self.entered_by else kept_name(self.entered_by_name)
        )

    def clean(self) -> None:
        if self.dealer_id and self.session_id and self.dealer.session_id != self.session_id:
            raise ValidationError(
                {"dealer": gettext("The dealer must sit at this session's table.")}
            )


class Explanation(NamedTuple):
    """A hand's working as the round page shows it: the rules service's lines, and
    the rule that replaced its count ("" where none did)."""

    lines: list[str]
    rule_applied: str


class HandEntry(models.Model):
    """One player's hand in one round, as entered and as the rules service scored it."""

    # What one hand records, in the order the admin and the league file list it: what
    # was entered, then the rules service's figures for it.
    ENTERED = ("player", "outcome", "on_deal", "groups", "counted", "figures")
    SCORED = ("declaration", "hand_points", "value_points", "claims", "score")
    RECORDED = ENTERED + SCORED

    # The rules service's outcomes, in its order, e.g. Outcome.FIRST_DROP = "first_drop",
    # labelled "First drop".
    Outcome = models.TextChoices(
        "Outcome",
        # Lazy: the rules name an outcome in the language of the page that shows it.
        [
            (outcome.upper(), (outcome, lazy(rules.outcome_label, str)(outcome)))
            for outcome in rules.OUTCOMES
        ],
    )

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    # The player rather than the seat: standings across a league group by player.
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hand_entries")
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    # A declared winner who held the winning hand as dealt (docs/rules §4, Kodai): part
    # of what was entered, since the rules then ask for fewer dublees or jokers.
    on_deal = models.BooleanField(default=False)
    groups = models.JSONField(default=list, blank=True, validators=[validate_groups])
    # A hand counted at the table (docs/rules §5, "A counted hand"): entered as the
    # figures its cards give ({"count": 34, "value_points": 5}), with no groups. A
    # winner trusted on the table's show is counted with no figures at all, so the
    # flag is kept apart from the figures.
    counted = models.BooleanField(default=False)
    figures = models.JSONField(default=dict, blank=True, validators=[validate_figures])
    # The way a declaration was valid ("three_pure", ...), blank otherwise.
    declaration = models.CharField(max_length=20, blank=True)
    hand_points = models.IntegerField(default=0)
    value_points = models.IntegerField(default=0)
    claims = models.IntegerField(default=0)
    score = models.IntegerField(default=0)
    # What the rules service said, kept so pages show it without recomputing:
    # {"lines": [readable lines], "groups": [{"cards", "kind", "counted", "left_out"}],
    # "value_cards": [codes]}, and "rule_applied" where a rule replaced the count;
    # "lines" and "rule_applied" in English, and under "said" in each other language
    # ({"hi": {"lines": [...], "rule_applied": ...}}: services/round_words.py).
    # Written by every save of a round (services/round_saves.py) and a league file's import
    # (which rebuilds it: a league file does not carry it). Hands saved earlier keep
    # a "label" per group too (the kind in words), which nothing reads: the round page
    # names a kind through the kind_label filter.
    breakdown = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "pk"]
        verbose_name_plural = gettext_lazy("hand entries")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="hand_entry_unique"),
            # A round has at most one winner; the rules service says so too, but a
            # second phone saving concurrently must not make two.
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(outcome__in=WINNING_OUTCOMES),
                name="hand_entry_one_winner",
                violation_error_message=gettext_lazy("A round has only one winner."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}: {self.get_outcome_display()}"

    @property
    def explanation(self) -> Explanation:
        """The rules service's working of this hand in the language of the page, as
        kept when its round was saved; in English where that language was not kept
        (a hand saved before, or a language added since)."""
        said = self.breakdown.get("said", {}).get(get_language(), self.breakdown)
        return Explanation(said.get("lines", []), said.get("rule_applied", ""))

    @property
    def hand_figures(self) -> rules.HandFigures | None:
        """The figures a counted hand was entered with, as the rules take them; None
        for a hand entered by its cards."""
        return rules.HandFigures(**self.figures) if self.counted else None

    @classmethod
    def outcome_words(cls, outcome: str) -> str:
        """An outcome as the pages name it ("Middle drop"); one this app does not
        know (stored by an older one, in a snapshot of the history) as it is."""
        try:
            return str(cls.Outcome(outcome).label)
        except ValueError:
            return outcome

    # A counted hand's figures (games.rules.FIGURES) as the pages name them.
    FIGURE_WORDS = {
        # Translators: the figure of a hand counted at the table: its points.
        "count": gettext_lazy("count"),
        "value_points": gettext_lazy("value points"),
        "claims": gettext_lazy("claims"),
        "two_point": gettext_lazy("two-point hand"),
        "free_hand": gettext_lazy("free hand"),
    }
    # A yes-or-no figure given, as the pages say it.
    FIGURE_GIVEN = {
        "two_point": gettext_lazy("a two-point hand"),
        "free_hand": gettext_lazy("a free hand"),
    }

    @classmethod
    def figures_words(cls, figures: Mapping[str, object]) -> str:
        """A counted hand's figures as the pages say them, in the rules' order: "count
        102, value points 10", "a two-point hand"; "" for none (a trusted winner's
        show). A figure this app does not know (in an older snapshot) is left out."""
        said = []
        for name in rules.FIGURES:
            value = figures.get(name)
            if value is True:
                said.append(str(cls.FIGURE_GIVEN[name]))
            elif isinstance(value, int) and value is not False:
                # Translators: a figure of a counted hand and its number ("count 102").
                said.append(
                    gettext("{figure} {value}").format(figure=cls.FIGURE_WORDS[name], value=value)
                )
        return rules.speech.list_words(said)

    @staticmethod
    def at_the_table(outcome: str) -> str:
        """How a hand entered without its cards was taken: a winner's show trusted as
        the table saw it, any other hand counted by its player."""
        if outcome == "declared":
            return gettext("shown at the table")
        return gettext("counted at the table")

    @classmethod
    def counted_words(cls, outcome: str, figures: Mapping[str, object]) -> str:
        """A hand counted at the table, as the history and the downloads say it in
        place of its cards: "counted at the table (count 102, value points 10)",
        "shown at the table" (a trusted winner with nothing to count)."""
        given = cls.figures_words(figures)
        if not given:
            return cls.at_the_table(outcome)
        if outcome == "declared":
            return gettext("shown at the table ({figures})").format(figures=given)
        return gettext("counted at the table ({figures})").format(figures=given)

    def clean(self) -> None:
        if (
            self.round_id
            and self.player_id
            and not Seat.objects.filter(
                session_id=self.round.session_id, player_id=self.player_id
            ).exists()
        ):
            raise ValidationError(
                {"player": gettext("This player has no seat at the session's table.")}
            )


class RoundChange(models.Model):
    """The audit trail: every round created, edited or deleted, by whom and when,
    with the round as it was before and after (None where it did not exist). Kept
    when the round itself is deleted."""

    class Action(models.TextChoices):
        # Translators: what was done to a round, in its history.
        CREATED = "created", pgettext_lazy("a round", "Created")
        EDITED = "edited", pgettext_lazy("a round", "Edited")
        DELETED = "deleted", pgettext_lazy("a round", "Deleted")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="changes")
    round = optional_link(Round, "changes")
    number = models.PositiveIntegerField()  # the round's number when it was changed
    action = models.CharField(max_length=10, choices=Action.choices)
    changed_by = optional_link(settings.AUTH_USER_MODEL, "+")
    changed_by_name = name_from_file()  # who made the change, from a league file
    changed_at = models.DateTimeField(default=timezone.now, db_index=True)
    # A round as round_then() shapes it: written by services/round_audit.py, and by a league
    # file's import as the file's history gives it.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["session", "changed_at", "pk"]
        indexes = [models.Index(fields=["session", "changed_at"])]

    def __str__(self) -> str:
        return f"Round {self.number} {self.get_action_display().lower()} in {self.session}"

    @staticmethod
    def round_then(
        cut_joker: str, dealer: str | None, version: int, hands: Iterable[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """A round as ``before`` and ``after`` keep it: enough to show what it was.
        ``hands`` in the round's order, each with its "player" (name), "outcome",
        "on_deal", "groups" and "score", "counted" and "figures" for a hand counted at
        the table, and "entered_by" where table mode knows who entered it."""
        return {
            "cut_joker": cut_joker,
            "dealer": dealer,
            "version": version,
            "entries": [
                {
                    "player": hand["player"],
                    "outcome": hand["outcome"],
                    # Only where it is so, so the trail of every other round is as it was.
                    **({"on_deal": True} if hand.get("on_deal") else {}),
                    "groups": hand["groups"],
                    **(
                        {"counted": True, "figures": hand.get("figures", {})}
                        if hand.get("counted")
                        else {}
                    ),
                    "score": hand["score"],
                    **({"entered_by": hand["entered_by"]} if "entered_by" in hand else {}),
                }
                for hand in hands
            ],
        }

    @property
    def author(self) -> str:
        """Who made the change (`changed_by`): their username, or the name an imported
        file gave; "" if neither is known."""
        return (
            self.changed_by.get_username() if self.changed_by else kept_name(self.changed_by_name)
        )

    @property
    def said_by(self) -> str:
        """Who made the change, as the history page and the admin say it: an author
        neither kept nor linked is an account deleted since."""
        return self.author or gettext("someone no longer here")
