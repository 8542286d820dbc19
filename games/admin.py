"""Django admin for every model: the back office for fixing data by hand.

What is entered is edited here; what is derived is shown, never typed. A round's
hands (its cut joker, each hand's outcome, cards and win on the deal) are checked
as the round page checks a save and, once saved, scored again by the rules service
(`games.services.round_rescores.rescore_round`), the change kept in the round's history.
What follows from the hands (each seat's result, the session's status, the league's
ratings) follows every save and delete made here, through the same function every
other write path calls (`games.services.results.refresh_session`); a round deleted
here is deleted as the round page deletes one (later rounds move up, the history
keeps it). Rounds are added on the session page, where they are entered.

The pages pass axe as the app's do (tests/e2e/test_accessibility.py checks a change
list, the pages of a session, a league, a round, a hand, a new seat, an account and
a group): rows edited inside a page are stacked, each field with its label, where
Django's tabular rows leave theirs unlabelled, and a session's rounds are a table to
read, each row headed by its link; a moment's date and time boxes are named each; the
accounts' pages list groups and permissions plainly. templates/admin/,
static/css/admin.css and static/js/admin.js mend the rest.
"""

from __future__ import annotations

from dataclasses import fields

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db import models
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy

from games import figures
from games.forms.admin import (
    CheckedHandsFormSet,
    HandAdminForm,
    LabelledSplitDateTime,
    NamedAutocomplete,
    RoundAdminForm,
    RulesetAdminForm,
)
from games.models import (
    AccountSettings,
    GameSession,
    HandEntry,
    League,
    LeagueInvite,
    Membership,
    Player,
    PlayerClaim,
    Rating,
    RatingChange,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    SeatChange,
    StandingMonth,
    TableHand,
    TableRound,
)
from games.services import standing_months
from games.services.results import (
    SeatResult,
    mark_shown_changed,
    refresh_league,
    refresh_session,
)
from games.services.round_rescores import begin_edit, rescore_round
from games.services.round_saves import delete_round
from games.services.table import league_auto_save_changed, touch


class _Labelled:
    """Every form field of the admin with a name of its own (axe): the date and time
    of a moment each named (Django names only the pair), a search-as-you-type box
    named while empty."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.DateTimeField):
            kwargs.setdefault("widget", LabelledSplitDateTime(db_field.verbose_name))
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):
            kwargs.setdefault(
                "widget", NamedAutocomplete(db_field, self.admin_site, using=kwargs.get("using"))
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ModelAdmin(_Labelled, admin.ModelAdmin):
    """An object's own page in the admin."""


class StackedInline(_Labelled, admin.StackedInline):
    """Rows edited inside another object's page, a field under another, each with its
    label: Django's tabular rows leave their inputs unlabelled and a header cell
    empty, and scroll sideways on a phone."""


class DeletedOnlyWithItsSource:
    """Rows deleted only with what they come from (a hand with its round, a league's
    figures with its sessions): not from their own page or list, where a delete would
    leave the figures that follow them stale. The delete permission stays: the admin
    asks it of every row a delete takes along."""

    not_deleted_here: str  # what the page says instead

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # No Delete link at the foot of the page: it would only say why not.
        extra_context = {**(extra_context or {}), "show_delete": False}
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(self, request, object_id, extra_context=None) -> HttpResponse:
        messages.error(request, str(self.not_deleted_here))
        opts = self.model._meta
        return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", object_id)

    def get_actions(self, request) -> dict:
        return {
            name: action
            for name, action in super().get_actions(request).items()
            if name != "delete_selected"
        }


class RefreshesResults:
    """Admin pages whose objects feed a session's derived figures: after a save (the
    object and its inlines) or a delete, the session is refreshed as by any other
    write. ``session_of`` names the session an object belongs to."""

    def session_of(self, obj) -> GameSession | None:
        raise NotImplementedError

    def leagues_of(self, form, session: GameSession) -> set[int | None]:
        """The leagues whose standings an edit on ``form`` may change."""
        return {session.league_id}

    def rescore(self, request, form, formsets) -> None:
        """Save the rules service's figures of a round whose hands the edit changed."""

    def moves(self, form) -> bool:
        """Whether the edit gives the session another league or day."""
        return False

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        self.rescore(request, form, formsets)
        session = self.session_of(form.instance)
        if session is not None:
            refresh_session(session, moved=self.moves(form))
            # An edit here may move a session, re-date it or give a seat to another
            # player: the league's standings months are rebuilt rather than patched.
            standing_months.rebuild(self.leagues_of(form, session) - {None})

    def delete_model(self, request, obj) -> None:
        session = self.session_of(obj)
        super().delete_model(request, obj)
        _refresh_after_delete(session)

    def delete_queryset(self, request, queryset) -> None:
        sessions = {self.session_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for session in sessions:
            _refresh_after_delete(session)


def _refresh_after_delete(session: GameSession | None) -> None:
    if session is None:
        return
    if GameSession.objects.filter(pk=session.pk).exists():
        refresh_session(GameSession.objects.get(pk=session.pk))
        standing_months.rebuild({session.league_id} - {None})
    elif session.league_id:
        refresh_league(session.league_id)  # the session itself went: its league's ratings


class _AccountsInline(StackedInline):
    """Rows that tie an account to something: the account picked by its id, as a
    select of every user would load them all."""

    extra = 0
    raw_id_fields = ["user"]


class PlayerClaimInline(_AccountsInline):
    """Who said "this is me" of the player, league by league."""

    model = PlayerClaim


@admin.register(Player)
class PlayerAdmin(ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name", "claims__user__username"]
    inlines = [PlayerClaimInline]
    date_hierarchy = "created_at"

    def save_model(self, request, obj: Player, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "name" in form.changed_data:
            # Every table the player sits at shows the name: pages following one live
            # ask for it again (their stamps move), as after any other write.
            mark_shown_changed(GameSession.objects.filter(seats__player=obj).distinct())


class MembershipInline(_AccountsInline):
    model = Membership


@admin.register(League)
class LeagueAdmin(ModelAdmin):
    form = RulesetAdminForm
    list_display = ["name", "slug", "preset", "created_at"]
    list_filter = ["preset"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_model(self, request, obj: League, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "table_auto_save" in form.changed_data:
            league_auto_save_changed(obj)  # the panels of its sessions at a table show it


@admin.register(Membership)
class MembershipAdmin(ModelAdmin):
    list_display = ["user", "league", "role", "created_at"]
    list_filter = ["role", "league"]
    search_fields = ["user__username", "league__name"]
    raw_id_fields = ["user"]
    list_select_related = ["user", "league"]


@admin.register(AccountSettings)
class AccountSettingsAdmin(ModelAdmin):
    list_display = ["user", "language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    list_select_related = ["user"]


@admin.register(LeagueInvite)
class LeagueInviteAdmin(ModelAdmin):
    """Invite links: revoke one by setting when (kept, so the link says "revoked")."""

    list_display = ["league", "role", "created_by", "expires_at", "revoked_at", "uses"]
    list_filter = ["role", "league"]
    search_fields = ["league__name", "created_by__username"]
    raw_id_fields = ["created_by"]
    readonly_fields = ["token", "uses"]
    list_select_related = ["league", "created_by"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ModelAdmin):
    list_display = ["player", "user", "league", "created_at"]
    list_filter = ["league"]
    search_fields = ["player__name", "user__username", "league__name"]
    raw_id_fields = ["player", "user"]
    list_select_related = ["player", "user", "league"]


# A seat's result, which refresh_session writes after every change: shown, not edited
# (an edit would be overwritten by the refresh that follows it).
SEAT_RESULT = tuple(field.name for field in fields(SeatResult))


class SeatInline(StackedInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = SEAT_RESULT


class RoundInline(admin.TabularInline):
    """The session's rounds, listed: each is changed on its own page, where its hands
    are checked and scored again, and deleted there, as the round page deletes one.
    A table to read (its template), each row headed by its round's link."""

    model = Round
    template = "admin/games/round_list.html"
    extra = 0
    fields = ["cut_joker", "dealer", "entered_by", "updated_at", "version"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameSession)
class GameSessionAdmin(RefreshesResults, ModelAdmin):
    form = RulesetAdminForm
    list_display = ["__str__", "league", "preset", "ceiling", "status", "created_by", "created_at"]
    list_filter = ["status", "preset", "league"]
    search_fields = ["name", "share_token", "seats__player__name"]
    # The status follows the rounds (refresh_session): finished once the rules say so.
    readonly_fields = ["share_token", "created_at", "status"]
    raw_id_fields = ["created_by", "first_dealer"]
    list_select_related = ["league", "created_by"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, RoundInline]

    def session_of(self, obj: GameSession) -> GameSession:
        return obj

    def leagues_of(self, form, session: GameSession) -> set[int | None]:
        # A session moved to another league leaves the one it was in, too.
        return {session.league_id, form.initial.get("league")}

    def moves(self, form) -> bool:
        return bool({"league", "played_on"} & set(form.changed_data))


@admin.register(Seat)
class SeatAdmin(RefreshesResults, ModelAdmin):
    list_display = ["session", "position", "player"]
    search_fields = ["player__name", "session__name"]
    autocomplete_fields = ["player"]
    raw_id_fields = ["session"]
    readonly_fields = SEAT_RESULT
    list_select_related = ["session", "player"]

    def session_of(self, obj: Seat) -> GameSession:
        return obj.session


class HandEntryInline(StackedInline):
    model = HandEntry
    formset = CheckedHandsFormSet
    extra = 0
    autocomplete_fields = ["player"]
    fields = list(HandEntry.RECORDED)
    readonly_fields = HandEntry.SCORED  # the rules service's, from what was entered


@admin.register(Round)
class RoundAdmin(RefreshesResults, ModelAdmin):
    form = RoundAdminForm
    list_display = ["session", "number", "cut_joker", "dealer", "entered_by", "updated_at"]
    list_filter = ["session__status", "session__preset"]
    search_fields = ["session__name", "session__share_token"]
    # The dealer must be one of the session's seats; Round.clean() enforces it.
    raw_id_fields = ["dealer", "entered_by"]
    # Its place: a round moves up only as an earlier one is deleted.
    readonly_fields = ["session", "number", "created_at", "updated_at", "version"]
    list_select_related = ["session", "dealer__player", "entered_by"]
    inlines = [HandEntryInline]

    def has_add_permission(self, request) -> bool:
        return False

    def save_model(self, request, obj: Round, form, change: bool) -> None:
        obj.before_admin_edit = begin_edit(obj)
        super().save_model(request, obj, form, change)

    def rescore(self, request, form, formsets) -> None:
        (hands,) = formsets  # HandEntryInline's, checked with the round's fields
        played = form.instance
        rescore_round(played, request.user, played.before_admin_edit, hands.checked)

    def session_of(self, obj: Round) -> GameSession:
        return obj.session

    def delete_model(self, request, obj: Round) -> None:
        delete_round(obj, request.user)  # renumbers, keeps the history, refreshes

    def delete_queryset(self, request, queryset) -> None:
        # Highest numbers first, so each delete moves up only rounds still to go.
        for played in queryset.select_related("session").order_by("session", "-number"):
            delete_round(played, request.user)


@admin.register(HandEntry)
class HandEntryAdmin(RefreshesResults, DeletedOnlyWithItsSource, ModelAdmin):
    """One hand, changed as on its round's page. Not added or deleted here: a round
    has a hand for each player in it (its page adds one; it goes with its round)."""

    form = HandAdminForm
    list_display = ["round", "player", "outcome", "declaration", "score"]
    list_filter = ["outcome"]
    search_fields = ["player__name", "round__session__name"]
    autocomplete_fields = ["player"]
    readonly_fields = ["round", *HandEntry.SCORED, "breakdown"]
    list_select_related = ["round__session", "player"]
    fieldsets = [
        (None, {"fields": ["round", *HandEntry.ENTERED, "opened_version"]}),
        (
            gettext_lazy("Computed by the rules service"),
            {"fields": [*HandEntry.SCORED, "breakdown"]},
        ),
    ]

    def has_add_permission(self, request) -> bool:
        return False

    not_deleted_here = gettext_lazy("A round has a hand for each player in it: delete the round.")

    def save_model(self, request, obj: HandEntry, form, change: bool) -> None:
        obj.before_admin_edit = begin_edit(obj.round)
        super().save_model(request, obj, form, change)

    def rescore(self, request, form, formsets) -> None:
        hand = form.instance
        rescore_round(hand.round, request.user, hand.before_admin_edit, form.checked)

    def session_of(self, obj: HandEntry) -> GameSession:
        return obj.round.session


@admin.register(Rejoin)
class RejoinAdmin(RefreshesResults, ModelAdmin):
    list_display = ["session", "seat", "after_round", "created_by", "created_at"]
    raw_id_fields = ["session", "seat", "created_by"]
    list_select_related = ["session", "seat__player", "created_by"]

    def session_of(self, obj: Rejoin) -> GameSession:
        return obj.session


@admin.register(SeatChange)
class SeatChangeAdmin(RefreshesResults, ModelAdmin):
    """A latecomer, a player who went home, the toss after either, or a name
    corrected: deleting a mistaken join or leave replays the session without it (the
    session page takes back only the latest, before the next round)."""

    list_display = ["session", "kind", "seat", "after_round", "created_by", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["session", "seat", "created_by"]
    list_select_related = ["session", "seat__player", "created_by"]

    def session_of(self, obj: SeatChange) -> GameSession:
        return obj.session


class ReadOnlyAdmin(ModelAdmin):
    """Records the app derives or keeps as evidence: shown, never edited by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class LeaguePlayerFigureAdmin(DeletedOnlyWithItsSource, ReadOnlyAdmin):
    """A figure per league and player, derived from the league's sessions: found by
    league or player name."""

    not_deleted_here = gettext_lazy(
        "Not deleted: worked out from the league's sessions, it changes as they change "
        "and goes with them."
    )

    list_filter = ["league"]
    search_fields = ["player__name"]
    list_select_related = ["league", "player"]


class RatingFigures:
    """A rating's figures as the app's pages write them (games/figures.py): one
    decimal, rounded half up, a minus sign, where the stored floats read 1512.3456789.
    In the lists and on each rating's page alike: the figures are shown by these and
    the raw fields left out (``fields``)."""

    columns = ["rating", "skill", "uncertainty"]

    @admin.display(description=gettext_lazy("Rating"), ordering="ordinal")
    def rating(self, figure: Rating | RatingChange) -> str:
        return figures.rating(figure.ordinal)

    @admin.display(description=gettext_lazy("Estimated skill"), ordering="mu")
    def skill(self, figure: Rating | RatingChange) -> str:
        return figures.rating(figure.mu)

    @admin.display(description=gettext_lazy("Uncertainty (±)"), ordering="sigma")
    def uncertainty(self, figure: Rating | RatingChange) -> str:
        return figures.fixed(figure.sigma)


@admin.register(Rating)
class RatingAdmin(RatingFigures, LeaguePlayerFigureAdmin):
    # Replayed from the league's finished sessions (games/services/ratings.py).
    list_display = ["league", "preset", "player", *RatingFigures.columns, "sessions", "updated_at"]
    fields = ["league", "preset", "player", *RatingFigures.columns, "sessions", "updated_at"]
    readonly_fields = [*RatingFigures.columns, "updated_at"]


@admin.register(RatingChange)
class RatingChangeAdmin(RatingFigures, LeaguePlayerFigureAdmin):
    list_display = ["league", "preset", "player", "session", "sequence", "played_on", "rating"]
    list_select_related = ["league", "player", "session"]
    fields = ["league", "preset", "player", "session", "sequence", "played_on"]
    fields += RatingFigures.columns
    readonly_fields = RatingFigures.columns


@admin.register(StandingMonth)
class StandingMonthAdmin(LeaguePlayerFigureAdmin):
    # Summed from the seats (games/services/standing_months.py).
    list_display = ["league", "month", "player", "sessions", "sessions_won", "rounds", "points"]


@admin.register(RoundChange)
class RoundChangeAdmin(ReadOnlyAdmin):
    # The audit trail: deleting an entry is allowed (e.g. by a data request), changing
    # one is not.
    list_display = ["session", "number", "action", "said_by", "changed_at"]
    list_filter = ["action"]
    search_fields = ["session__name", "changed_by__username", "changed_by_name"]
    list_select_related = ["session", "changed_by"]
    date_hierarchy = "changed_at"

    # An author kept as a name (an imported file's, a round that saved itself) has no
    # account: shown as the history page shows it.
    # Translators: the heading of the admin's column of who made a change.
    @admin.display(description=gettext_lazy("By"), ordering="changed_by__username")
    def said_by(self, change: RoundChange) -> str:
        return change.said_by


@admin.register(TableRound)
class TableRoundAdmin(ReadOnlyAdmin):
    # Table mode's round in progress: deleting one drops the hands the phones entered
    # (the scorer's "Close table mode" does the same); editing one by hand is not offered.
    list_display = ["session", "number", "cut_joker", "updated_at"]
    list_select_related = ["session"]


@admin.register(TableHand)
class TableHandAdmin(ReadOnlyAdmin):
    list_display = ["table_round", "seat", "outcome", "status", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["table_round__session", "seat__player"]

    # A hand deleted here is a table changed: the scorer's panel and the seat's phone
    # follow it (no signal covers a hand on its own, services.table.touch does).
    def delete_model(self, request, obj: TableHand) -> None:
        session = obj.table_round.session
        super().delete_model(request, obj)
        touch(session)

    def delete_queryset(self, request, queryset) -> None:
        sessions = {hand.table_round.session for hand in queryset}
        super().delete_queryset(request, queryset)
        for session in sessions:
            touch(session)


# Accounts and their groups, on the pages Django gives them, with the date boxes named
# and the groups and permissions as plain labelled lists: Django's two-pane picker puts
# an aria-label on an element with no role (axe, ``aria-prohibited-attr``).
admin.site.unregister([get_user_model(), Group])


@admin.register(get_user_model())
class AccountAdmin(_Labelled, UserAdmin):
    filter_horizontal = ()


@admin.register(Group)
class AccountGroupAdmin(GroupAdmin):
    filter_horizontal = ()
