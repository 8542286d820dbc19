"""The scorekeeper's data: players, leagues, sessions, rounds and hand entries.

Only what was entered and what the rules service computed is stored, plus each
seat's result, which `games.services.results` writes after every change. Rulesets
are stored as a preset slug plus JSON overrides and validated by `games.rules` in
services and forms. The card codes and the outcomes (which of them win) that the
database checks come from `games.rules`, the one place that defines them.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from games import figures, rules
from games.days import validate_played_on
from games.names import validate_name
from games.rules import all_cards, card_label

# The ruleset presets of docs/rules, by slug, named as the rules service names them, e.g.
# Preset.P21_POINTS = "21-points", labelled "21-card points".
Preset = models.TextChoices(
    "Preset",
    [
        (f"P{slug.upper().replace('-', '_')}", (slug, name))
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
        raise ValidationError("Groups must be a list of lists of card codes.")
    for number, group in enumerate(value, start=1):
        for card in group:
            if card not in CARD_CODES:
                raise ValidationError(
                    "Group %(number)s: %(card)r is not a card code such as 7H, 10S or PJ.",
                    params={"number": number, "card": card},
                )


# Outcomes that win the round (docs/rules §5), in a fixed order for the
# database's check constraint.
WINNING_OUTCOMES = tuple(sorted(rules.WINNING_OUTCOMES))


def _optional_link(to: type[models.Model] | str, related_name: str) -> models.ForeignKey:
    """A link that may be empty, and is emptied rather than followed when what it
    names is deleted: a session's rounds and history outlive the account that entered
    them, a round its dealer's seat, and the audit trail the round."""
    return models.ForeignKey(
        to, on_delete=models.SET_NULL, null=True, blank=True, related_name=related_name
    )


def _name_from_file() -> models.CharField:
    """Who did something, as an imported league file names them where the import made
    them no member here: plain text, never linked to an account (issue 9)."""
    return models.CharField(max_length=150, blank=True, validators=[validate_name])


def new_share_token() -> str:
    # 16 random bytes: 128 bits, URL-safe, 22 characters. Guessing one is hopeless.
    return secrets.token_urlsafe(16)


def new_submission_token() -> str:
    return secrets.token_hex(16)


class _Named(models.Model):
    """Listed in the order of its name, and shown by it."""

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(_Named):
    """Someone at the table. Most players never sign in; a member who is this player
    says so per league (PlayerClaim, "this is me").

    Names are not unique: each club's "Asha" is its own player, and a name typed
    when seating resolves only among the players the user can already see
    (`services.sessions.players_for_seats`), so seating never reveals another club's
    players. Players that were shared before this rule stay shared."""

    name = models.CharField(max_length=60, validators=[validate_name])
    created_at = models.DateTimeField(auto_now_add=True)


class League(_Named):
    """A group that plays together; its ruleset is the default for its sessions."""

    name = models.CharField(max_length=100, validators=[validate_name])
    slug = models.SlugField(max_length=100, unique=True)
    preset = models.CharField(max_length=20, choices=Preset.choices, default=rules.DEFAULT_PRESET)
    overrides = models.JSONField(default=dict, blank=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="leagues"
    )
    # The money a point is worth in the league's net-format sessions (a default for
    # new sessions; empty: they play for points only).
    money_per_point = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    # Table mode: save a round by itself once every seat's hand is in and the round
    # checks clean (its sessions follow this unless they say otherwise).
    table_auto_save = models.BooleanField(default=False)
    # The members an imported league file listed ({"username", "role"} each): an
    # import adds nobody (issue 9), it shows them to the league's owners to invite.
    imported_members = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        SCORER = "scorer", "Scorer"
        VIEWER = "viewer", "Viewer"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "user"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.get_role_display()})"


class LeagueInvite(models.Model):
    """A link that lets whoever holds it join a league with a role (issue 15), so
    owners need not type exact usernames. Used by as many people as the owner hands
    it to until it expires or is revoked: a club posts one link in its group chat.
    Revoked links are kept (with when) so that opening one says so, not "not found"."""

    class Role(models.TextChoices):
        # Never owner: owners are made on the league page, by name.
        SCORER = "scorer", "Scorer"
        VIEWER = "viewer", "Viewer"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    # The secret in the link: unique, hence indexed; as long and random as a share link.
    token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_by = _optional_link(settings.AUTH_USER_MODEL, "+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    # How many people joined (or were raised to its role) through it.
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["league", "-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=["scorer", "viewer"]),
                name="league_invite_role",
                violation_error_message="An invite makes scorers or viewers.",
            ),
        ]

    def __str__(self) -> str:
        return f"Invite to {self.league} as {self.get_role_display()}"

    def is_active(self, now: datetime.datetime | None = None) -> bool:
        return self.revoked_at is None and self.expires_at > (now or timezone.now())


class PlayerClaim(models.Model):
    """A member saying "this is me" of a player of their league's sessions (issue 15):
    per league, because a Player may play in several clubs, and each club's members
    vouch for their own. One account per player and one player per account in a
    league. The one link between a player and an account (migration 0012 turned the
    older, global ``Player.user`` into claims)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"],
                name="player_claim_one_account",
                violation_error_message="Someone in this league already claimed this player.",
            ),
            models.UniqueConstraint(
                fields=["league", "user"],
                name="player_claim_one_player",
                violation_error_message="You already claimed a player in this league.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.player} in {self.league}"


class GameSession(models.Model):
    """One evening's game: a table of seats playing rounds toward a ceiling."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"

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
    created_by = _optional_link(settings.AUTH_USER_MODEL, "created_sessions")
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
    first_dealer = _optional_link("Seat", "+")
    # Table mode (issue 12): the link each player opens to enter their own hand on
    # their own phone. NULL while table mode is closed; unique, hence indexed; a
    # different secret from the share link, which shows and changes nothing.
    table_token = models.CharField(
        max_length=32, unique=True, null=True, blank=True, editable=False
    )
    # Save each round by itself once every hand is in and it checks clean; None
    # follows the league's choice (off outside a league).
    table_auto_save = models.BooleanField(null=True, blank=True)
    # The finished session this one is the rematch of (issue 15). One-to-one: a
    # second tap on Rematch (a double tap, a retried request, another phone) finds
    # this session instead of starting another.
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
                violation_error_message="The ceiling must be a positive number of points.",
            ),
        ]

    def __str__(self) -> str:
        # Unnamed: the game and the day, the same on every server (an id would change
        # with an import) and telling a club's evenings apart as an id never did.
        day = self.played_on
        return self.name or f"{self.get_preset_display()}, {day.day} {day:%b %Y}"

    def clean(self) -> None:
        if self.first_dealer_id and self.pk and self.first_dealer.session_id != self.pk:
            raise ValidationError({"first_dealer": "The first dealer must sit at this table."})


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


class Round(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = _optional_link(Seat, "dealt_rounds")
    cut_joker = models.CharField(max_length=3, choices=CARD_CHOICES)
    # Who saved the round last: its author until someone edits it (the history,
    # RoundChange, keeps who entered it and every edit since).
    entered_by = _optional_link(settings.AUTH_USER_MODEL, "entered_rounds")
    # Who saved a round that came from an imported league file, where it is nobody's
    # account here (or table mode, when the round saved itself).
    entered_by_name = _name_from_file()
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
                violation_error_message="Rounds are numbered from 1.",
            ),
            models.CheckConstraint(
                condition=models.Q(cut_joker__in=sorted(CARD_CODES)),
                name="round_cut_joker_card_code",
                violation_error_message="The cut joker must be a card code such as 8S or PJ.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}, round {self.number}"

    @property
    def author(self) -> str:
        """Who saved the round last (`entered_by`): their username, or the name an
        imported file gave."""
        return self.entered_by.get_username() if self.entered_by else self.entered_by_name

    def clean(self) -> None:
        if self.dealer_id and self.session_id and self.dealer.session_id != self.session_id:
            raise ValidationError({"dealer": "The dealer must sit at this session's table."})


class HandEntry(models.Model):
    """One player's hand in one round, as entered and as the rules service scored it."""

    # What one hand records, in the order the admin and the league file list it: what
    # was entered, then the rules service's figures for it.
    ENTERED = ("player", "outcome", "on_deal", "groups")
    SCORED = ("declaration", "hand_points", "value_points", "claims", "score")
    RECORDED = ENTERED + SCORED

    # The rules service's outcomes, in its order, e.g. Outcome.FIRST_DROP = "first_drop",
    # labelled "First drop".
    Outcome = models.TextChoices(
        "Outcome",
        [(outcome.upper(), (outcome, rules.outcome_label(outcome))) for outcome in rules.OUTCOMES],
    )

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    # The player rather than the seat: standings across a league group by player.
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hand_entries")
    outcome = models.CharField(max_length=20, choices=Outcome.choices)
    # A declared winner who held the winning hand as dealt (docs/rules §4, Kodai): part
    # of what was entered, since the rules then ask for fewer dublees or jokers.
    on_deal = models.BooleanField(default=False)
    groups = models.JSONField(default=list, blank=True, validators=[validate_groups])
    # The way a declaration was valid ("three_pure", ...), blank otherwise.
    declaration = models.CharField(max_length=20, blank=True)
    hand_points = models.IntegerField(default=0)
    value_points = models.IntegerField(default=0)
    claims = models.IntegerField(default=0)
    score = models.IntegerField(default=0)
    # What the rules service said, kept so pages show it without recomputing:
    # {"lines": [readable lines], "groups": [{"cards", "kind", "counted", "left_out"}],
    # "value_cards": [codes]}, and "rule_applied" where a rule replaced the count.
    # Written by every save of a round (services/round_saves.py) and a league file's import
    # (which rebuilds it: a league file does not carry it). Hands saved earlier keep
    # a "label" per group too (the kind in words), which nothing reads: the round page
    # names a kind through the kind_label filter.
    breakdown = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "pk"]
        verbose_name_plural = "hand entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="hand_entry_unique"),
            # A round has at most one winner; the rules service says so too, but a
            # second phone saving concurrently must not make two.
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(outcome__in=WINNING_OUTCOMES),
                name="hand_entry_one_winner",
                violation_error_message="A round has only one winner.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.round}: {self.get_outcome_display()}"

    @classmethod
    def outcome_words(cls, outcome: str) -> str:
        """An outcome as the pages name it ("Middle drop"); one this app does not
        know (stored by an older one, in a snapshot of the history) as it is."""
        try:
            return str(cls.Outcome(outcome).label)
        except ValueError:
            return outcome

    def clean(self) -> None:
        if (
            self.round_id
            and self.player_id
            and not Seat.objects.filter(
                session_id=self.round.session_id, player_id=self.player_id
            ).exists()
        ):
            raise ValidationError({"player": "This player has no seat at the session's table."})


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
        TYPING = "typing", "Typing"
        IN = "in", "Hand in"

    table_round = models.ForeignKey(TableRound, on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="table_hands")
    outcome = models.CharField(max_length=20, blank=True, choices=HandEntry.Outcome.choices)
    text = models.CharField(max_length=400, blank=True)
    on_deal = models.BooleanField(default=False)  # marked as winning on the deal (kodai)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.TYPING)
    # What the rules service said when the hand was last handed in and refused.
    problem = models.CharField(max_length=500, blank=True)
    # The phone's count of edits: a write older than the one stored (a preview still
    # in flight when the hand was handed in) is ignored, never stored over it.
    edit = models.PositiveIntegerField(default=0)
    # The scorer who corrected the hand; NULL: the seat's own phone.
    entered_by = _optional_link(settings.AUTH_USER_MODEL, "+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table_round", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["table_round", "seat"], name="table_hand_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.seat.player} in {self.table_round}: {self.get_status_display()}"


class Rejoin(models.Model):
    """An eliminated player bought back in (pool rules): the rules service checks the
    cutoff and sets the total; only the fact and when it happened are stored."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rejoins")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="rejoins")
    after_round = models.PositiveIntegerField()
    created_by = _optional_link(settings.AUTH_USER_MODEL, "+")
    created_by_name = _name_from_file()  # who rejoined the player, from a league file
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "after_round", "pk"]

    def __str__(self) -> str:
        return f"{self.seat.player} rejoined after round {self.after_round}"


class Rating(models.Model):
    """A player's current skill rating in a league (OpenSkill), after every finished
    session of the league in the order they were played."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()  # a conservative single number: mu - 3 sigma
    sessions = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="rating_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {figures.rating(self.ordinal)}"


class RatingChange(models.Model):
    """A player's rating after one finished session: the rating's history."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="rating_changes"
    )
    sequence = models.PositiveIntegerField()  # the session's place in the league's order
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["league", "sequence", "player"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="rating_change_unique"),
        ]
        indexes = [
            # A player's history in order, read from the index alone (the standings'
            # chart and the player page read thousands of rows; from the table they
            # were a page each: 16 ms to 3 for five players, benchmarks/http.py).
            models.Index(
                fields=["league", "player", "sequence"],
                include=["played_on", "ordinal", "session"],
                name="rating_change_history",
            ),
            # A replay from a session on finds and deletes the history after it
            # (sequence >= N) without reading the league's whole history.
            models.Index(fields=["league", "sequence"], name="rating_change_league_seq"),
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
    points = models.BigIntegerField()
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


class RoundChange(models.Model):
    """The audit trail: every round created, edited or deleted, by whom and when,
    with the round as it was before and after (None where it did not exist). Kept
    when the round itself is deleted."""

    class Action(models.TextChoices):
        CREATED = "created", "Created"
        EDITED = "edited", "Edited"
        DELETED = "deleted", "Deleted"

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="changes")
    round = _optional_link(Round, "changes")
    number = models.PositiveIntegerField()  # the round's number when it was changed
    action = models.CharField(max_length=10, choices=Action.choices)
    changed_by = _optional_link(settings.AUTH_USER_MODEL, "+")
    changed_by_name = _name_from_file()  # who made the change, from a league file
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
        "on_deal", "groups" and "score", and "entered_by" where table mode knows who
        entered it."""
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
        return self.changed_by.get_username() if self.changed_by else self.changed_by_name

    @property
    def said_by(self) -> str:
        """Who made the change, as the history page and the admin say it: an author
        neither kept nor linked is an account deleted since."""
        return self.author or "someone no longer here"


class LiveCacheEpoch(models.Model):
    """The generation of everything games/live.py keeps in the cache, in the one place
    every worker can read whatever the cache is doing. A write to the cache that fails
    (Redis down or hanging) could leave an entry there that the database has moved
    past: the writer then writes a new one here, every worker reads it within
    ``live.EPOCH_SECONDS`` and keys its entries by it, so the entries written before
    are never read again. One row, made by the first failure."""

    value = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"live cache epoch {self.value}"
