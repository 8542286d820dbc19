"""The session pages: your sessions, starting one (the toss, seating), the session page
with its live score table, and managing it (stakes, end, rejoins, joining and leaving and
taking either back, names corrected, share link, history).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import replace_url, reswap, retarget

from games import live
from games.access import (
    leagues_for_scorer,
    session_for,
    session_with_rights,
    sessions_visible_to,
)
from games.forms.sessions import MAX_SEATS, SessionForm, sign_toss
from games.http import (
    chart_response,
    first_round,
    nothing_new,
    posted_id,
    redirect_for,
    rules_reset,
)
from games.ids import id_in
from games.models import GameSession, League, Seat, SeatChange
from games.queries.players import my_players
from games.rules import DEFAULT_PRESET, PRESETS
from games.services.errors import EntryRejected
from games.services.night_end import night_looks_over
from games.services.round_history import changes_of
from games.services.rulesets import ruleset_of
from games.services.scoreboard import ChangeMade, live_stamp, load_scoreboard, read_snapshot
from games.services.seat_changes import rename, take_back_change
from games.services.sessions import (
    cancel_rejoin,
    close_session,
    create_session,
    join,
    known_names,
    leave,
    rejoin,
    rematch,
    reopen_session,
    replace_share_token,
    set_stakes,
    toss_seats,
)
from games.session_page import (
    TAKE_BACK_TAG,
    rename_form,
    scoreboard_context,
    session_page_context,
    stakes_form,
)
from games.statuses import FORM_ERRORS
from games.zones import session_zone

T = TypeVar("T")


@require_safe
def home(request: HttpRequest) -> TemplateResponse:
    sessions = (
        sessions_visible_to(request.user)
        .select_related("league")
        .prefetch_related("seats__player")[:50]
    )
    context = {"sessions": sessions, "my_players": my_players(request.user)}
    return TemplateResponse(request, "games/home.html", context)


def _session_form_context(request: HttpRequest, form: SessionForm, league: League | None) -> dict:
    # Only players this user has seen at a table (names from other leagues stay there),
    # the chosen league's first.
    return {"form": form, "known_players": known_names(request.user, league)}


def _chosen_league(request: HttpRequest, leagues: list[League]) -> League | None:
    """The league picked in the form (GET or POST), if it is one of ``leagues`` (those
    the user may start sessions in, read once for the page: the form's dropdown and
    its check take them too): its house rules and stakes are then the form's defaults,
    and its players the first names offered. Every form the request shows (as sent,
    tossed, rules reset) keeps that choice."""
    pk = id_in(request.POST if request.method == "POST" else request.GET, "league")
    return next((league for league in leagues if league.pk == pk), None)


def _session_form(
    request: HttpRequest, leagues: list[League], league: League | None
) -> SessionForm:
    defaults = ruleset_of(league) if league else None
    if request.method == "POST":
        return SessionForm(request.POST, leagues=leagues, defaults=defaults)
    initial: dict = {}
    if league is not None:
        initial = {"league": league.pk, "money_per_point": league.money_per_point}
    preset = request.GET.get("preset")
    if preset in PRESETS:
        initial |= {"preset": preset, "rules_preset": preset}
    return SessionForm(initial=initial, leagues=leagues, defaults=defaults)


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest) -> TemplateResponse | HttpResponse:
    leagues = list(leagues_for_scorer(request.user))  # read once: see _chosen_league
    league = _chosen_league(request, leagues)
    form = _session_form(request, leagues, league)
    if request.method == "GET":
        if request.htmx and request.GET.get("preset") in PRESETS:
            # A preset was picked: its ceiling, house rules and stakes replace the old
            # (with a league, the league's, and its players first).
            if request.GET.get("league"):
                return TemplateResponse(
                    request,
                    "games/session_new.html#preset_picked",
                    _session_form_context(request, form, league),
                )
            return TemplateResponse(
                request, "partials/ruleset_fields.html#preset_rules", {"form": form}
            )
        if request.htmx and "league" in request.GET:
            # A league was picked: its preset and house rules become the defaults, and
            # its players come first among the names offered.
            return TemplateResponse(
                request,
                "games/session_new.html#league_picked",
                _session_form_context(request, form, league),
            )
        return TemplateResponse(
            request, "games/session_new.html", _session_form_context(request, form, league)
        )

    if request.POST.get("action") == "reset_rules":
        context = _session_form_context(request, form.reset_rules(leagues=leagues), league)
        return rules_reset(request, "games/session_new.html", context)
    valid = form.is_valid()
    if request.POST.get("action") == "toss":
        return _toss(request, form, leagues, league)
    if not valid:
        return TemplateResponse(
            request,
            "games/session_new.html",
            _session_form_context(request, form, league),
            status=FORM_ERRORS,
        )
    session = create_session(
        request.user,
        name=form.cleaned_data["name"],
        preset=form.cleaned_data["preset"],
        overrides=form.ruleset.overrides_from(PRESETS[form.cleaned_data["preset"]]),
        ceiling=form.cleaned_data["ceiling"],
        players=form.players,
        first_dealer=form.dealer_index,
        league=form.cleaned_data["league"],
        played_on=form.cleaned_data["played_on"],
        money_per_point=form.cleaned_data["money_per_point"],
        buy_in=form.cleaned_data["buy_in"],
    )
    return redirect("games:session_detail", pk=session.pk)


def _toss(
    request: HttpRequest, form: SessionForm, leagues: list[League], league: League | None
) -> TemplateResponse:
    """Deal a card to each typed player, seat them by rank, the lowest deals first."""
    template = "games/session_new.html#seating" if request.htmx else "games/session_new.html"
    seat_errors = any(key.startswith("seat_") for key in form.errors)
    if seat_errors:
        return TemplateResponse(
            request, template, _session_form_context(request, form, league), status=FORM_ERRORS
        )
    preset = form.cleaned_data.get("preset") or DEFAULT_PRESET
    tossed = toss_seats(form.players, form.ruleset or PRESETS[preset])
    data = request.POST.copy()
    for number in range(1, MAX_SEATS + 1):
        data.pop(f"seat_{number}", None)
    for number, (name, _card) in enumerate(tossed.seats, start=1):
        data[f"seat_{number}"] = name
    data["first_dealer"] = str(len(tossed.seats))
    data["toss"] = sign_toss(tossed)  # the cards stay on the form through an error
    tossed = SessionForm(data, leagues=leagues, defaults=form.defaults)
    return TemplateResponse(request, template, _session_form_context(request, tossed, league))


@login_required
@require_safe
def session_detail(request: HttpRequest, pk: int) -> TemplateResponse:
    with read_snapshot():  # the session row (stamp, stakes) agrees with its table
        session, rights = session_with_rights(request.user, pk)
        board = load_scoreboard(session)
    context = session_page_context(request, session, board, rights=rights)
    # A points night left running: its scorer is asked at the top to end it.
    context["night_over"] = rights.write and night_looks_over(session, board)
    context["idle_hours"] = settings.SESSION_IDLE_HOURS
    return TemplateResponse(request, "games/session.html", context)


@require_safe
def session_scoreboard(request: HttpRequest, pk: int) -> HttpResponse:
    """The live score table: polled by the session page, answered 204 (htmx swaps
    nothing) while the session has not changed since the stamp the page holds,
    from the cache when it knows (games/live.py)."""
    if live.unchanged(request, pk, request.GET.get("v")):
        return nothing_new()
    # Read before the sign-in and the rights are: a change after it is not missed.
    return _session_scoreboard(request, pk, generation=live.access_generation())


@login_required
def _session_scoreboard(request: HttpRequest, pk: int, generation) -> HttpResponse:
    with read_snapshot():  # the stamp and the table are of one moment
        session, rights = session_with_rights(request.user, pk)
        live.grant(request, session, rights, generation)
        if request.GET.get("v") == live_stamp(session):
            live.heal(session, generation)
            return nothing_new()
        board = load_scoreboard(session)
    # A scorer's page also shows the totals line above the round form: it comes along.
    context = scoreboard_context(request, session, board, rights)
    context["strip"] = context["writer"]
    return TemplateResponse(request, "partials/score_table.html", context)


def _back_to_session(request: HttpRequest, session: GameSession) -> HttpResponse:
    return redirect_for(request, reverse("games:session_detail", args=[session.pk]))


def _try_change(
    request: HttpRequest,
    session: GameSession,
    change: Callable[[], T],
    done: str | Callable[[T], str],
    *,
    undo: bool = False,
) -> HttpResponse:
    """Make a change the rules may refuse: done, back to the session page saying so
    (``done``, or what it says of the change made); refused, the session page as it
    is now saying why (``_refused``). ``undo``: the message offers to take the change
    back (partials/take_back_change.html), while the page still may."""
    try:
        made = change()
    except EntryRejected as error:
        return _refused(request, session, str(error))
    said = done(made) if callable(done) else done
    messages.success(request, said, extra_tags=TAKE_BACK_TAG if undo else "")
    return _back_to_session(request, session)


def _refused(request: HttpRequest, session: GameSession, why: str) -> HttpResponse:
    """A change refused: the whole session page as it is now, ``why`` at its top,
    answered 422 so that htmx swaps it in (a boosted form's page stays the session's)."""
    messages.error(request, why)
    context = session_page_context(request, session, load_scoreboard(session))
    response = TemplateResponse(request, "games/session.html", context, status=FORM_ERRORS)
    session_url = reverse("games:session_detail", args=[session.pk])
    return replace_url(response, session_url) if request.htmx else response


@login_required
@require_POST
def session_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_for(request.user, pk, "manage")
    board = load_scoreboard(session)
    form = stakes_form(session, board, request.POST)
    if not form.is_valid():
        # The stakes as typed, each error beside its field: in place over htmx,
        # else the whole session page.
        if request.htmx:
            response = TemplateResponse(
                request,
                "games/session.html#stakes",
                {"stakes_form": form, "session": session},
                status=FORM_ERRORS,
            )
            return reswap(retarget(response, "#stakes"), "outerHTML")
        context = session_page_context(request, session, board, stakes=form)
        return TemplateResponse(request, "games/session.html", context, status=FORM_ERRORS)
    set_stakes(
        session,
        money_per_point=form.cleaned_data.get("money_per_point"),
        buy_in=form.cleaned_data.get("buy_in"),
    )
    messages.success(request, _("Stakes saved."))
    return _back_to_session(request, session)


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    """End a points game by hand (``reopen`` in the POST takes it back)."""
    session = session_for(request.user, pk, "write")
    if request.POST.get("reopen"):
        return _try_change(
            request, session, lambda: reopen_session(session), _("Session reopened: play on.")
        )
    return _try_change(
        request, session, lambda: close_session(session), _("Session ended: the best total wins.")
    )


@login_required
@require_POST
def session_rejoin(request: HttpRequest, pk: int) -> HttpResponse:
    """An eliminated player buys back in (pool rules), or a rejoin is taken back."""
    session = session_for(request.user, pk, "write")
    if "cancel" in request.POST:
        rejoin_pk = posted_id(request, "cancel")
        if rejoin_pk is None:
            return HttpResponseBadRequest(_("Say which rejoin to take back."))
        # Refused for a page left open past the next round, or a forged post.
        return _try_change(
            request, session, lambda: cancel_rejoin(session, rejoin_pk), _("Rejoin taken back.")
        )
    seat = _posted_seat(request, session)
    if seat is None:
        return HttpResponseBadRequest(_("Say who rejoins."))
    return _try_change(
        request,
        session,
        lambda: rejoin(session, seat, request.user),
        _("{player} rejoined.").format(player=seat.player.name),
    )


def _posted_seat(request: HttpRequest, session: GameSession) -> Seat | None:
    """The session's seat the form names, or None for a missing or foreign one."""
    seat_pk = posted_id(request, "seat")
    if seat_pk is None:
        return None
    return session.seats.select_related("player").filter(pk=seat_pk).first()


@login_required
@require_POST
def session_leave(request: HttpRequest, pk: int) -> HttpResponse:
    """A player goes home after the last round played: they keep their total."""
    session = session_for(request.user, pk, "write")
    seat = _posted_seat(request, session)
    if seat is None:
        return HttpResponseBadRequest(_("Say who leaves."))
    return _try_change(
        request,
        session,
        lambda: leave(session, seat, request.user),
        " ".join(
            [
                _("{player} left the table, keeping their total.").format(player=seat.player.name),
                *_toss_words(session),
            ]
        ),
        undo=True,
    )


@login_required
@require_POST
def session_join(request: HttpRequest, pk: int) -> HttpResponse:
    """A latecomer sits down before the next round, at the total the rules give."""
    session = session_for(request.user, pk, "write")
    name = " ".join(request.POST.get("name", "").split())
    if not name:
        return _refused(request, session, _("Say who joins."))
    return _try_change(
        request,
        session,
        lambda: join(session, name, request.user),
        " ".join([_("{player} joined the table.").format(player=name), *_toss_words(session)]),
        undo=True,
    )


@login_required
@require_POST
def session_take_back_change(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the latest join or leave, until the next round is played."""
    session = session_for(request.user, pk, "write")
    change_pk = posted_id(request, "change")
    if change_pk is None:
        return HttpResponseBadRequest(_("Say which join or leave to take back."))
    return _try_change(
        request, session, lambda: take_back_change(session, change_pk), _taken_back_words
    )


def _taken_back_words(made: ChangeMade) -> str:
    if made.kind == SeatChange.Kind.JOIN:
        return _("{player}'s join taken back: their seat is gone.").format(player=made.name)
    return _("{player}'s leave taken back: {player} plays on.").format(player=made.name)


@login_required
@require_POST
def session_rename(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct the name a player was seated under; a problem is said at the field."""
    session = session_for(request.user, pk, "write")
    board = load_scoreboard(session)
    form = rename_form(board, request.POST)
    if form.is_valid():
        seat = next(s for s in board.seats if s.pk == form.cleaned_data["seat"])
        was = seat.player.name
        try:
            made = rename(session, seat, form.cleaned_data["name"], request.user)
        except EntryRejected as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, _("{old} is now {new}.").format(old=was, new=made.new_name))
            return _back_to_session(request, session)
    if request.htmx:
        context = {"rename_form": form, "session": session}
        response = TemplateResponse(
            request, "partials/score_table.html#rename", context, status=FORM_ERRORS
        )
        return reswap(retarget(response, "#rename"), "outerHTML")
    context = session_page_context(request, session, board, rename=form)
    return TemplateResponse(request, "games/session.html", context, status=FORM_ERRORS)


def _toss_words(session: GameSession) -> list[str]:
    """The sentence a join or leave adds to its message where the rules deal a new
    toss; none otherwise."""
    if not ruleset_of(session).toss_on_change:
        return []
    return [_("A new toss seated the table: the lowest card deals next.")]


@login_required
@require_POST
def session_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """The same table again: a new session, seats rotated by one, same rules and stakes."""
    session = session_for(request.user, pk, "write")
    try:
        new, started = rematch(session, request.user)
    except EntryRejected as error:
        messages.error(request, str(error))
        return _back_to_session(request, session)
    if started:
        messages.success(request, _("Rematch started: everyone moved one seat on."))
    else:
        messages.info(request, _("The rematch was already started: here it is."))
    return redirect_for(request, reverse("games:session_detail", args=[new.pk]))


@login_required
@require_POST
def session_share_reset(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_for(request.user, pk, "manage")
    replace_share_token(session)
    messages.success(request, _("New share link made; the old one no longer works."))
    return _back_to_session(request, session)


@login_required
@require_safe
def session_history(request: HttpRequest, pk: int) -> TemplateResponse:
    """Every change to the session's rounds: who, when, and the round before and after."""
    session = session_for(request.user, pk)
    fold = changes_of(session, first=first_round(request))
    context = {"session": session, "fold": fold, "played": None, "zone": session_zone(session)}
    return TemplateResponse(request, "games/history.html", context)


@login_required
@require_safe
def session_totals_chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The session's running totals as an SVG image, for those who may see it."""
    return chart_response(session_for(request.user, pk))
