"""A session (one evening's game), its seats and the rejoins of its players."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import figures, rules
from games.days import validate_played_on
from games.models.fields import Preset, name_from_file, new_share_token, optional_link
from games.models.leagues import League, Player
from games.names import validate_name


class GameSession(models.Model):
    """One evening's game: a table of seats playing rounds toward a ceiling."""

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("a session", "Active")
        FINISHED = "finished", pgettext_lazy("a session", "Finished")

        @classmethod
        def after(cls, finished: bool) -> GameSession.Status:
            """The status its rounds give a session: finished once the rules say so."""
            return cls.FINISHED if finished else cls.ACTIVE

    # PROTECT: a league's history must not vanish with a careless delete.
    league = models.ForeignKey(
        League, on_delete=models.PROTECT, null=True, blank=True, related_name="sessions"
    )
    name = models.CharField(max_length=100, blank=True, validators=[validate_name])
    preset = models.CharField(max_length=20, choices=Preset.choices, default=rules.DEFAULT_PRESET)
    overrides = models.JSONField(default=dict, blank=True)
    # Empty means the ruleset's own ceiling (or none): pools have one, points games don't.
    ceiling = models.PositiveIntegerField(null=True, blank=True)
    # A copy of what `session_state` says, refreshed by services/results.py in the same
    # transaction as every round write, so lists can filter on it without replaying
    # every session. The session page and the "no new rounds" guard replay instead.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_by = optional_link(settings.AUTH_USER_MODEL, "created_sessions")
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped with every round written: the share page's live view polls on it.
    updated_at = models.DateTimeField(auto_now=True)
    # The evening the session was played: standings filter on it. Within the days
    # its league's export can carry and import back (games/days.py).
    played_on = models.DateField(
        default=timezone.localdate, db_index=True, validators=[validate_played_on]
    )
    # Set when the table ends a session by hand (points games without a ceiling);
    # a session that reaches its ceiling ends by the rules instead.
    closed_at = models.DateTimeField(null=True, blank=True)
    # Net-format sessions: what a point is worth, to settle who pays whom.
    money_per_point = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    # Pool sessions: each player's stake; the pot is buy-in times players.
    buy_in = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    # The read-only link for spectators; unique, hence indexed.
    share_token = models.CharField(
        max_length=32, unique=True, default=new_share_token, editable=False
    )
    # Who dealt round 1 (by the toss, or chosen); later dealers follow from the rounds.
    # "+": a seat has no use for the reverse accessor, and the name would clash.
    first_dealer = optional_link("Seat", "+")
    # Table mode: the link each player opens to enter their own hand on their own
    # phone. NULL while table mode is closed; unique, hence indexed; a different
    # secret from the share link, which shows and changes nothing.
    table_token = models.CharField(
        max_length=32, unique=True, null=True, blank=True, editable=False
    )
    # Save each round by itself once every hand is in and it checks clean; None
    # follows the league's choice (off outside a league).
    table_auto_save = models.BooleanField(null=True, blank=True)
    # The finished session this one is the rematch of. One-to-one: a second tap on
    # Rematch (a double tap, a retried request, another phone) finds this session
    # instead of starting another.
    rematch_of = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="rematch",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["league", "played_on"]),
            # Who may see a session, by its id alone: a player's seats joined to
            # their sessions then look each one up in the index instead of reading
            # every session of the database (the player page at 22,000 sessions,
            # benchmarks/http.py). None of these columns changes with a save.
            models.Index(
                fields=["id"],
                include=["league", "created_by", "preset", "played_on"],
                name="session_visible_by_id",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ceiling__isnull=True) | models.Q(ceiling__gt=0),
                name="session_ceiling_positive",
                violation_error_message=gettext_lazy(
                    "The ceiling must be a positive number of points."
                ),
            ),
        ]

    def __str__(self) -> str:
        # Unnamed: the game and the day, the same on every server (an id would change
        # with an import) and telling a club's evenings apart as an id never did.
        return self.name or f"{self.get_preset_display()}, {figures.day(self.played_on)}"

    def clean(self) -> None:
        if self.first_dealer_id and self.pk and self.first_dealer.session_id != self.pk:
            raise ValidationError(
                {"first_dealer": gettext("The first dealer must sit at this table.")}
            )


class Seat(models.Model):
    """A player's place at a session's table, in dealing order."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The player's result in this session, as `session_state` replays it. Only
    # services/results.py writes these, in the same transaction as every round write, from
    # the rules service's own figures: league standings over thousands of sessions
    # then read one row per player and session instead of replaying them all
    # (benchmarks/http.py). The session page always replays the rounds instead.
    total = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # 1 = best so far
    won = models.BooleanField(default=False)  # a winner of a finished session
    rounds_played = models.PositiveIntegerField(default=0)
    rounds_won = models.PositiveIntegerField(default=0)
    drops = models.PositiveIntegerField(default=0)  # first, middle drops and timeouts
    points = models.IntegerField(default=0)  # the sum of the round scores
    # The player's best and worst round score (best: highest in net totals, lowest
    # in penalty totals); empty before their first round.
    best_round = models.IntegerField(null=True, blank=True)
    worst_round = models.IntegerField(null=True, blank=True)
    # Table mode: the secret of the phone that picked this seat (its signed cookie
    # holds it too); NULL while no phone holds the seat. Releasing the seat empties
    # it, and the old phone's cookie then matches nothing.
    phone_key = models.CharField(  # noqa: DJ001
        max_length=32, null=True, blank=True, editable=False
    )
    phone_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.position})"


class Rejoin(models.Model):
    """An eliminated player bought back in (pool rules): the rules service checks the
    cutoff and sets the total; only the fact and when it happened are stored."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rejoins")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="rejoins")
    after_round = models.PositiveIntegerField()
    created_by = optional_link(settings.AUTH_USER_MODEL, "+")
    created_by_name = name_from_file()  # who rejoined the player, from a league file
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "after_round", "pk"]

    def __str__(self) -> str:
        return f"{self.seat.player} rejoined after round {self.after_round}"


class SeatChange(models.Model):
    """A player joining the table (a latecomer, on a seat of their own) or leaving it
    after a round, or the new seating a toss gave the table after such a change: the
    rules service checks it, sets a latecomer's total and replays what follows; only
    the fact and when it happened are stored. Or a seat's player renamed (a name
    typed wrong, corrected): the names before and after are kept, as the seat
    reads only the latest; the rules never see a rename."""

    class Kind(models.TextChoices):
        JOIN = rules.JOIN, pgettext_lazy("a change of the table", "Joined")
        LEAVE = rules.LEAVE, pgettext_lazy("a change of the table", "Left")
        SEATING = "seats", pgettext_lazy("a change of the table", "Seated anew")
        RENAME = "rename", pgettext_lazy("a change of the table", "Renamed")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seat_changes")
    # Who joined or left; empty for a new seating.
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="changes"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    after_round = models.PositiveIntegerField()
    # A new seating: the ids of the seats from the first to the last (a toss's order).
    seats = models.JSONField(default=list, blank=True)
    # A rename: the seat's name before and after it (the player it then pointed at).
    old_name = models.CharField(max_length=60, blank=True)
    new_name = models.CharField(max_length=60, blank=True)
    created_by = optional_link(settings.AUTH_USER_MODEL, "+")
    created_by_name = name_from_file()  # who made the change, from a league file
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "after_round", "pk"]

    def __str__(self) -> str:
        return f"{self.words} after round {self.after_round}"

    @property
    def words(self) -> str:
        """What happened, as the history says it: "Ravee was renamed Ravi", "Kim joined"."""
        if self.kind == self.Kind.RENAME:
            return gettext("{old} was renamed {new}").format(old=self.old_name, new=self.new_name)
        if not self.seat_id:
            return gettext("The table seated anew")
        player = self.seat.player
        if self.kind == self.Kind.JOIN:
            return gettext("{player} joined").format(player=player)
        if self.kind == self.Kind.LEAVE:
            return gettext("{player} left").format(player=player)
        return gettext("{player} seated anew").format(player=player)

    @property
    def author(self) -> str:
        """Who made the change (`created_by`): their username, or the name an imported
        file gave; "" if neither is known."""
        return self.created_by.get_username() if self.created_by else self.created_by_name

    @property
    def said_by(self) -> str:
        """Who made the change, as the history page says it: an author neither kept
        nor linked is an account deleted since (only a signed-in member makes one)."""
        return self.author or gettext("someone no longer here")
