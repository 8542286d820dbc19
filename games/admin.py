"""Django admin for every model: the back office for fixing data by hand.

Scores are normally computed by the rules service; editing figures here does not
recompute anything, which is why the computed fields are grouped apart.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    Rating,
    RatingChange,
    Rejoin,
    Round,
    RoundChange,
    Seat,
)
from games.rules import RulesError, get_ruleset


class RulesetAdminForm(forms.ModelForm):
    """Preset and overrides must make a ruleset the rules service accepts: every page
    of a session replays it, so a typo here would break them all."""

    def clean(self) -> dict:
        cleaned = super().clean()
        if "preset" in cleaned and "overrides" in cleaned:
            try:
                get_ruleset(cleaned["preset"], cleaned["overrides"])
            except RulesError as error:
                self.add_error("overrides", error.message)
        return cleaned


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username", "user__email"]
    raw_id_fields = ["user"]
    date_hierarchy = "created_at"


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = RulesetAdminForm
    list_display = ["name", "slug", "preset", "created_at"]
    list_filter = ["preset"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "league", "role", "created_at"]
    list_filter = ["role", "league"]
    search_fields = ["user__username", "league__name"]
    raw_id_fields = ["user"]
    list_select_related = ["user", "league"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "cut_joker", "dealer", "entered_by", "updated_at", "version"]
    readonly_fields = ["updated_at"]
    raw_id_fields = ["dealer", "entered_by"]
    show_change_link = True


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    form = RulesetAdminForm
    list_display = ["__str__", "league", "preset", "ceiling", "status", "created_by", "created_at"]
    list_filter = ["status", "preset", "league"]
    search_fields = ["name", "share_token", "seats__player__name"]
    readonly_fields = ["share_token", "created_at"]
    raw_id_fields = ["created_by", "first_dealer"]
    list_select_related = ["league", "created_by"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, RoundInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["session", "position", "player"]
    search_fields = ["player__name", "session__name"]
    autocomplete_fields = ["player"]
    raw_id_fields = ["session"]
    list_select_related = ["session", "player"]


class HandEntryInline(admin.TabularInline):
    model = HandEntry
    extra = 0
    autocomplete_fields = ["player"]
    fields = [
        "player",
        "outcome",
        "groups",
        "declaration",
        "hand_points",
        "value_points",
        "claims",
        "score",
    ]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "cut_joker", "dealer", "entered_by", "updated_at"]
    list_filter = ["session__status", "session__preset"]
    search_fields = ["session__name", "session__share_token"]
    # The dealer must be one of the session's seats; Round.clean() enforces it.
    raw_id_fields = ["session", "dealer", "entered_by"]
    readonly_fields = ["created_at", "updated_at", "version"]
    list_select_related = ["session", "dealer__player", "entered_by"]
    inlines = [HandEntryInline]

    def save_model(self, request, obj: Round, form, change: bool) -> None:
        # A hand edit also changes the round: phones holding the old version must
        # not save over it (optimistic concurrency, see Round.version).
        if change:
            obj.version += 1
        super().save_model(request, obj, form, change)


@admin.register(HandEntry)
class HandEntryAdmin(admin.ModelAdmin):
    list_display = ["round", "player", "outcome", "declaration", "score"]
    list_filter = ["outcome"]
    search_fields = ["player__name", "round__session__name"]
    autocomplete_fields = ["player"]
    raw_id_fields = ["round"]
    list_select_related = ["round__session", "player"]
    fieldsets = [
        (None, {"fields": ["round", "player", "outcome", "groups"]}),
        (
            "Computed by the rules service",
            {
                "fields": [
                    "declaration",
                    "hand_points",
                    "value_points",
                    "claims",
                    "score",
                    "breakdown",
                ]
            },
        ),
    ]


@admin.register(Rejoin)
class RejoinAdmin(admin.ModelAdmin):
    list_display = ["session", "seat", "after_round", "created_by", "created_at"]
    raw_id_fields = ["session", "seat", "created_by"]
    list_select_related = ["session", "seat__player", "created_by"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records the app derives or keeps as evidence: shown, never edited by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    # Replayed from the league's finished sessions (games/ratings.py).
    list_display = ["league", "player", "ordinal", "mu", "sigma", "sessions", "updated_at"]
    list_filter = ["league"]
    search_fields = ["player__name"]
    list_select_related = ["league", "player"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["league", "player", "session", "sequence", "played_on", "ordinal"]
    list_filter = ["league"]
    search_fields = ["player__name"]
    list_select_related = ["league", "player", "session"]


@admin.register(RoundChange)
class RoundChangeAdmin(ReadOnlyAdmin):
    # The audit trail: deleting an entry is allowed (e.g. by a data request), changing
    # one is not.
    list_display = ["session", "number", "action", "changed_by", "changed_at"]
    list_filter = ["action"]
    search_fields = ["session__name", "changed_by__username"]
    list_select_related = ["session", "changed_by"]
    date_hierarchy = "changed_at"
