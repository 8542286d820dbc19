"""What the league standings read instead of replaying every session: each
player's rating and its history, and their results summed by month."""

from __future__ import annotations

from django.db import models

from games import figures
from games.models.fields import Preset
from games.models.leagues import League, Player
from games.models.sessions import GameSession


class Rating(models.Model):
    """A player's current skill rating in one game (preset) of a league (OpenSkill),
    after every finished session of that game in the league, in the order they were
    played. Per game: a place at a pool night says nothing of a points night."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    preset = models.CharField(max_length=20, choices=Preset.choices)  # the sessions' game
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()  # a conservative single number: mu - 3 sigma
    sessions = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "preset", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["league", "preset", "player"], name="rating_unique")
        ]

    def __str__(self) -> str:
        rating = figures.rating(self.ordinal)
        return f"{self.player} in {self.league}, {self.get_preset_display()}: {rating}"


class RatingChange(models.Model):
    """A player's rating after one finished session: the rating's history, per game."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_changes")
    preset = models.CharField(max_length=20, choices=Preset.choices)  # the session's game
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="rating_changes"
    )
    # The session's place in the order of the league's sessions of its game.
    sequence = models.PositiveIntegerField()
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["league", "preset", "sequence", "player"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="rating_change_unique"),
        ]
        indexes = [
            # A player's history in order, read from the index alone (the standings'
            # chart and the player page read thousands of rows; from the table they
            # were a page each: 16 ms to 3 for five players, benchmarks/http.py).
            models.Index(
                fields=["league", "preset", "player", "sequence"],
                include=["played_on", "ordinal", "session"],
                name="rating_change_history",
            ),
            # A replay from a session on finds and deletes the history after it
            # (sequence >= N) without reading the league's whole history.
            models.Index(fields=["league", "preset", "sequence"], name="rating_change_league_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.session}: {figures.rating(self.ordinal)}"


class StandingMonth(models.Model):
    """One player's results in a league's sessions of one game (preset) and month (the
    seats in which they played a round): what the standings add up instead of every
    seat, so that their cost does not grow with the hands played. Kept by
    `services.results.refresh_session` and rebuilt by `services.standing_months`.
    Per game: a league may play other games than its own, and points of a net game
    and of a penalty one (a pool) never add up."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standing_months")
    preset = models.CharField(max_length=20, choices=Preset.choices)  # the sessions' game
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standing_months")
    month = models.DateField()  # its first day
    sessions = models.PositiveIntegerField()
    sessions_won = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()
    rounds_won = models.PositiveIntegerField()
    drops = models.PositiveIntegerField()
    points = models.BigIntegerField()  # the sum of their round scores
    totals = models.BigIntegerField(default=0)  # the sum of their sessions' totals
    # A round's best is the highest score in net totals and the lowest in penalty
    # totals: both ends are kept, the league's totals pick one when they are read.
    best_high = models.IntegerField(null=True)
    best_low = models.IntegerField(null=True)
    worst_high = models.IntegerField(null=True)
    worst_low = models.IntegerField(null=True)

    class Meta:
        ordering = ["league", "preset", "month", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "preset", "player", "month"], name="standing_month_unique"
            ),
        ]
        indexes = [models.Index(fields=["league", "preset", "month"], name="standing_month_game")]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}, {self.get_preset_display()}, {self.month:%B %Y}"
