"""Players and the clubs they play in: leagues, their members and roles, invite
links, and the players a member claims ("this is me")."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import rules
from games.models.fields import Preset, new_share_token, optional_link
from games.names import validate_name
from games.zones import validate_time_zone


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
    # The club's clock (games/zones.py): its history, exports and the day its sessions
    # are dated by read in this tz database zone. Empty: the site's (DJANGO_TIME_ZONE),
    # whatever that is at the time.
    time_zone = models.CharField(
        max_length=64, blank=True, default="", validators=[validate_time_zone]
    )
    # The language its pages open in for anyone who has not chosen one (the footer,
    # their account); empty: the browser's. One of settings.LANGUAGES.
    language = models.CharField(max_length=10, blank=True, default="")
    # The ISO 4217 code of the league's money (INR, GBP); empty: the default, INR for
    # a league whose language is Hindi, else no currency named (as a points table).
    currency = models.CharField(max_length=3, blank=True, default="")
    # The members an imported league file listed ({"username", "role"} each): an
    # import adds nobody, it shows them to the league's owners to invite.
    imported_members = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", gettext_lazy("Owner")
        SCORER = "scorer", gettext_lazy("Scorer")
        VIEWER = "viewer", gettext_lazy("Viewer")

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
    """A link that lets whoever holds it join a league with a role, so owners need not
    type exact usernames. Used by as many people as the owner hands it to until it
    expires or is revoked: a club posts one link in its group chat. Revoked links are
    kept (with when) so that opening one says so, not "not found"."""

    class Role(models.TextChoices):
        # Never owner: owners are made on the league page, by name.
        SCORER = "scorer", gettext_lazy("Scorer")
        VIEWER = "viewer", gettext_lazy("Viewer")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    # The secret in the link: unique, hence indexed; as long and random as a share link.
    token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_by = optional_link(settings.AUTH_USER_MODEL, "+")
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
                violation_error_message=gettext_lazy("An invite makes scorers or viewers."),
            ),
        ]

    def __str__(self) -> str:
        return f"Invite to {self.league} as {self.get_role_display()}"

    def is_active(self, now: datetime.datetime | None = None) -> bool:
        return self.revoked_at is None and self.expires_at > (now or timezone.now())


class PlayerClaim(models.Model):
    """A member saying "this is me" of a player of their league's sessions: per
    league, because a Player may play in several clubs, and each club's members vouch
    for their own. One account per player and one player per account in a league.
    The one link between a player and an account (migration 0012 turned the older,
    global ``Player.user`` into claims)."""

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
                violation_error_message=gettext_lazy(
                    "Someone in this league already claimed this player."
                ),
            ),
            models.UniqueConstraint(
                fields=["league", "user"],
                name="player_claim_one_player",
                violation_error_message=gettext_lazy(
                    "You already claimed a player in this league."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.player} in {self.league}"
