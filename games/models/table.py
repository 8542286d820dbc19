"""Table mode: the round being entered on the players' own phones, hand by hand."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from games import rules
from games.models.fields import (
    CARD_CHOICES,
    new_submission_token,
    optional_link,
    validate_figures,
)
from games.models.rounds import HandEntry
from games.models.sessions import GameSession, Seat


class TableRound(models.Model):
    """Table mode: the round being entered on the players' own phones, until it is
    saved as a Round (then it is deleted with its hands). Only the next round of a
    session has one."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="table_rounds")
    number = models.PositiveIntegerField()  # the round it becomes
    # The cut joker, as the first phone (or the scorer) entered it; "" until then.
    cut_joker = models.CharField(max_length=3, blank=True, choices=CARD_CHOICES)
    # The submission token create_round gets: a double tap on Save saves once.
    submission = models.CharField(max_length=32, default=new_submission_token, editable=False)
    # Bumped by every change of its hands or seats: the scorer's live view polls on it.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_round_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.session}, round {self.number} at the table"


class TableHand(models.Model):
    """One seat's hand of a table round, as its phone (or the scorer) entered it:
    kept on the server from the first card, so a reload or a dropped connection loses
    nothing. "in" once handed in and checked on its own; typing again takes it back."""

    class Status(models.TextChoices):
        TYPING = "typing", pgettext_lazy("a seat's hand in table mode", "Typing")
        IN = "in", pgettext_lazy("a seat's hand in table mode", "Hand in")

    table_round = models.ForeignKey(TableRound, on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="table_hands")
    outcome = models.CharField(max_length=20, blank=True, choices=HandEntry.Outcome.choices)
    text = models.CharField(max_length=400, blank=True)
    on_deal = models.BooleanField(default=False)  # marked as winning on the deal (kodai)
    # Typed as its figures, not its cards (HandEntry.counted and .figures): the text
    # is then kept, untouched, for a switch back to the cards.
    counted = models.BooleanField(default=False)
    figures = models.JSONField(default=dict, blank=True, validators=[validate_figures])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.TYPING)
    # What the rules service said when the hand was last handed in and refused.
    problem = models.CharField(max_length=500, blank=True)
    # The phone's count of edits: a write older than the one stored (a preview still
    # in flight when the hand was handed in) is ignored, never stored over it.
    edit = models.PositiveIntegerField(default=0)
    # The scorer who corrected the hand; NULL: the seat's own phone.
    entered_by = optional_link(settings.AUTH_USER_MODEL, "+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table_round", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["table_round", "seat"], name="table_hand_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.seat.player} in {self.table_round}: {self.get_status_display()}"

    @property
    def hand_figures(self) -> rules.HandFigures | None:
        """The figures a counted hand was typed as, as the rules take them; None for a
        hand entered by its cards (its figures, if any, kept for a switch back)."""
        return rules.HandFigures(**self.figures) if self.counted else None
