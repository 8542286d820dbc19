"""Thin function views: parse the request, call services.py, render a page or, for
an HTMX request, the partial of that page it swaps.

Form errors answer 422 (Unprocessable Content) with the form re-rendered; base.html
tells htmx to swap 422 responses like 200s, and browsers without JavaScript show
them as ordinary pages.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games.access import can_manage, can_view, can_write, leagues_for_scorer, sessions_visible_to
from games.forms import MAX_SEATS, RoundForm, SessionForm, SignupForm, StakesForm
from games.models import GameSession, League, Player, Round
from games.rules import PRESETS, RulesError, is_net
from games.services.errors import EntryRejected
from games.services.money import money_of
from games.services.rounds import (
    RoundConflict,
    arranged_text,
    changes_of,
    delete_round,
    initial_values,
    new_round_entry,
    round_entry_for_edit,
    save_round,
)
from games.services.rulesets import ruleset_of
from games.services.scoreboard import Scoreboard, live_stamp, load_scoreboard, read_snapshot
from games.services.sessions import (
    can_close,
    cancel_rejoin,
    close_session,
    create_session,
    rejoin,
    reopen_session,
    replace_share_token,
    set_stakes,
    toss_seats,
)
from games.sharing import share_links
from scorekeeper import security

FORM_ERRORS = 422
TOO_MANY_REQUESTS = 429


def _get_session_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> GameSession:
    """The session, if this user may see it (and change it, with ``write``).

    A session the user may not see is a 404, so ids reveal nothing; one they may
    see but not score is a 403."""
    session = (
        GameSession.objects.select_related("league", "created_by", "first_dealer__player")
        .filter(pk=pk)
        .first()
    )
    if session is None or not can_view(request.user, session):
        raise Http404("No such session.")
    if write and not can_write(request.user, session):
        raise PermissionDenied("Only the session's creator or a league scorer may do that.")
    return session


def _get_round_for_user(
    request: HttpRequest, pk: int, round_pk: int, *, write: bool = False
) -> Round:
    session = _get_session_for_user(request, pk, write=write)
    played = session.rounds.select_related("dealer__player").filter(pk=round_pk).first()
    if played is None:
        raise Http404("No such round.")
    played.session = session  # already loaded, with the access check done
    return played


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    # htmx follows a 302 inside its own request; a client redirect loads the page.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


# --- Home and accounts -----------------------------------------------------------------


@require_safe
def home(request: HttpRequest) -> TemplateResponse:
    sessions = (
        sessions_visible_to(request.user)
        .select_related("league")
        .prefetch_related("seats__player")[:50]
    )
    return TemplateResponse(request, "games/home.html", {"sessions": sessions})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> TemplateResponse | HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            if not security.take_signup(security.client_ip(request)):
                context = {"form": form, "window": settings.SIGNUP_WINDOW_MINUTES}
                return TemplateResponse(
                    request, "registration/signup.html", context, status=TOO_MANY_REQUESTS
                )
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}. Start a session below.")
            return redirect("games:home")
        return TemplateResponse(
            request, "registration/signup.html", {"form": form}, status=FORM_ERRORS
        )
    return TemplateResponse(request, "registration/signup.html", {"form": form})


# --- Starting a session ----------------------------------------------------------------


def _session_form_context(request: HttpRequest, form: SessionForm) -> dict:
    # Only players this user has seen at a table: names from other leagues stay there.
    visible = sessions_visible_to(request.user).values("pk")
    known = Player.objects.filter(seats__session__in=visible).distinct().order_by("name")
    return {"form": form, "known_players": known[:200]}


def _chosen_league(leagues, data) -> League | None:
    """The league picked in the form (GET or POST), if the user may start sessions
    in it: its house rules and stakes are then the form's defaults."""
    value = data.get("league", "")
    if not (isinstance(value, str) and value.isdigit() and len(value) <= 18):
        return None
    return leagues.filter(pk=int(value)).first()


def _session_form(request: HttpRequest, leagues) -> SessionForm:
    league = _chosen_league(leagues, request.POST if request.method == "POST" else request.GET)
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
    leagues = leagues_for_scorer(request.user)
    form = _session_form(request, leagues)
    if request.method == "GET":
        if request.htmx and request.GET.get("preset") in PRESETS:
            # A preset was picked: its ceiling, house rules and stakes replace the old.
            return TemplateResponse(request, "games/session_new.html#preset_rules", {"form": form})
        if request.htmx and "league" in request.GET:
            # A league was picked: its preset and house rules become the defaults.
            return TemplateResponse(request, "games/session_new.html#game_rules", {"form": form})
        return TemplateResponse(
            request, "games/session_new.html", _session_form_context(request, form)
        )

    valid = form.is_valid()
    if request.POST.get("action") == "toss":
        return _toss(request, form, leagues)
    if not valid:
        return TemplateResponse(
            request,
            "games/session_new.html",
            _session_form_context(request, form),
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


def _toss(request: HttpRequest, form: SessionForm, leagues) -> TemplateResponse:
    """Deal a card to each typed player, seat them by rank, the lowest deals first."""
    template = "games/session_new.html#seating" if request.htmx else "games/session_new.html"
    seat_errors = any(key.startswith("seat_") for key in form.errors)
    if seat_errors:
        return TemplateResponse(
            request, template, _session_form_context(request, form), status=FORM_ERRORS
        )
    preset = form.cleaned_data.get("preset") or "21-points"
    dealt = toss_seats(form.players, form.ruleset or PRESETS[preset])
    data = request.POST.copy()
    for number in range(1, MAX_SEATS + 1):
        data.pop(f"seat_{number}", None)
    for number, (name, _card) in enumerate(dealt, start=1):
        data[f"seat_{number}"] = name
    data["first_dealer"] = str(len(dealt))
    tossed = SessionForm(data, leagues=leagues, toss_cards=dict(dealt), defaults=form.defaults)
    return TemplateResponse(request, template, _session_form_context(request, tossed))


# --- The session page ------------------------------------------------------------------


def _scoreboard_context(request: HttpRequest, session: GameSession, board) -> dict:
    """What the scoreboard partial needs, on the session page and in its live poll."""
    return {
        "session": session,
        "board": board,
        "writer": can_write(request.user, session),
        "money": money_of(board),
        "can_close": can_close(board),
        "stamp": live_stamp(session),
        "poll_url": reverse("games:session_scoreboard", args=[session.pk]),
    }


def _session_context(
    request: HttpRequest,
    session: GameSession,
    board: Scoreboard,
    form: RoundForm | None = None,
) -> dict:
    context = _scoreboard_context(request, session, board)
    writer = context["writer"]
    entry = new_round_entry(session, board) if writer else None
    if writer and form is None:
        form = RoundForm(entry=entry)
    manager = can_manage(request.user, session)
    return context | {
        "manager": manager,
        "share": share_links(request, session) if manager else None,
        "stakes_form": _stakes_form(session, board) if manager else None,
        "rejoins": session.rejoins.select_related("seat__player") if writer else (),
        "entry": form.entry if form else entry,
        "form": form,
        "preview_url": reverse("games:round_preview", args=[session.pk]),
        "arrange_url": reverse("games:round_arrange", args=[session.pk]),
    }


@login_required
@require_safe
def session_detail(request: HttpRequest, pk: int) -> TemplateResponse:
    with read_snapshot():  # the session row (stamp, stakes) agrees with its table
        session = _get_session_for_user(request, pk)
        board = load_scoreboard(session)
    return TemplateResponse(
        request, "games/session.html", _session_context(request, session, board)
    )


@login_required
@require_safe
def session_scoreboard(request: HttpRequest, pk: int) -> HttpResponse:
    """The live score table: polled by the session page, answered 204 (htmx swaps
    nothing) while the session has not changed since the stamp the page holds."""
    with read_snapshot():  # the stamp and the table are of one moment
        session = _get_session_for_user(request, pk)
        if request.GET.get("v") == live_stamp(session):
            return HttpResponse(status=204)
        board = load_scoreboard(session)
    context = _scoreboard_context(request, session, board)
    return TemplateResponse(request, "games/session.html#scoreboard", context)


def _posted_id(request: HttpRequest, name: str) -> int | None:
    """A database id posted in a form field, or None for anything else."""
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


def _back_to_session(request: HttpRequest, session: GameSession) -> HttpResponse:
    return _redirect(request, reverse("games:session_detail", args=[session.pk]))


def _manage_session(request: HttpRequest, pk: int) -> GameSession:
    session = _get_session_for_user(request, pk)
    if not can_manage(request.user, session):
        raise PermissionDenied("Only the session's creator or a league owner may do that.")
    return session


def _stakes_form(session: GameSession, board: Scoreboard, data: object = None) -> StakesForm:
    return StakesForm(
        data,
        initial={"money_per_point": session.money_per_point, "buy_in": session.buy_in},
        net=is_net(board.ruleset),
        pool=board.pool,
    )


@login_required
@require_POST
def session_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    session = _manage_session(request, pk)
    form = _stakes_form(session, load_scoreboard(session), request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else "Stakes"
            messages.error(request, f"{label}: {' '.join(errors)}")
        return _back_to_session(request, session)
    set_stakes(
        session,
        money_per_point=form.cleaned_data.get("money_per_point"),
        buy_in=form.cleaned_data.get("buy_in"),
    )
    messages.success(request, "Stakes saved.")
    return _back_to_session(request, session)


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    """End a points game by hand (``reopen`` in the POST takes it back)."""
    session = _get_session_for_user(request, pk, write=True)
    try:
        if request.POST.get("reopen"):
            reopen_session(session)
            messages.success(request, "Session reopened: play on.")
        else:
            close_session(session)
            messages.success(request, "Session ended: the best total wins.")
    except EntryRejected as error:
        messages.error(request, str(error))
    return _back_to_session(request, session)


@login_required
@require_POST
def session_rejoin(request: HttpRequest, pk: int) -> HttpResponse:
    """An eliminated player buys back in (pool rules), or a rejoin is taken back."""
    session = _get_session_for_user(request, pk, write=True)
    try:
        if "cancel" in request.POST:
            rejoin_pk = _posted_id(request, "cancel")
            if rejoin_pk is None:
                return HttpResponseBadRequest("Say which rejoin to take back.")
            cancel_rejoin(session, rejoin_pk)
            messages.success(request, "Rejoin taken back.")
        else:
            seat_pk = _posted_id(request, "seat")
            seat = session.seats.select_related("player").filter(pk=seat_pk).first()
            if seat_pk is None or seat is None:
                return HttpResponseBadRequest("Say who rejoins.")
            rejoin(session, seat, request.user)
            messages.success(request, f"{seat.player.name} rejoined.")
    except EntryRejected as error:
        messages.error(request, str(error))
    return _back_to_session(request, session)


@login_required
@require_POST
def session_share_reset(request: HttpRequest, pk: int) -> HttpResponse:
    session = _manage_session(request, pk)
    replace_share_token(session)
    messages.success(request, "New share link made; the old one no longer works.")
    return _back_to_session(request, session)


@login_required
@require_POST
def round_create(request: HttpRequest, pk: int) -> TemplateResponse | HttpResponse:
    session = _get_session_for_user(request, pk, write=True)
    board = load_scoreboard(session)
    entry = new_round_entry(session, board)
    form = RoundForm(request.POST, entry=entry)
    theirs = None
    if form.is_valid():
        try:
            played = save_round(
                entry,
                form.check,
                request.user,
                expected_number=form.expected_number,
                submission=form.submission_token,
            )
        except RoundConflict as conflict:
            # Show their round in the table and beside the form; saving again now
            # adds what was typed as the next round, knowingly.
            form.add_error(None, str(conflict))
            theirs = conflict.theirs
            board = load_scoreboard(session)
            form.expected_number = len(board.rows) + 1
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            if not request.htmx:
                messages.success(request, f"Round {played.number} saved.")
                return redirect("games:session_detail", pk=session.pk)
            # The scoreboard is swapped out of band; the form comes back empty for
            # the next round, with the next dealer.
            board = load_scoreboard(session)
            context = _session_context(request, session, board) | {"saved": played}
            return TemplateResponse(request, "games/session.html#form_and_table", context)
    context = _session_context(request, session, board, form) | {"theirs": theirs}
    if not request.htmx:
        return TemplateResponse(request, "games/session.html", context, status=FORM_ERRORS)
    # After a conflict the table has changed too: it comes along out of band.
    template = "games/session.html#" + ("form_and_table" if theirs else "round_entry")
    return TemplateResponse(request, template, context, status=FORM_ERRORS)


@login_required
@require_POST
def round_preview(request: HttpRequest, pk: int, round_pk: int | None = None) -> TemplateResponse:
    """The live preview while a round is typed: each hand's groups and points, the
    jokers, and the settlement once every hand is complete. Saves nothing."""
    if round_pk is None:
        session = _get_session_for_user(request, pk, write=True)
        entry = new_round_entry(session)
    else:
        played = _get_round_for_user(request, pk, round_pk, write=True)
        entry = round_entry_for_edit(played)
    form = RoundForm(request.POST, entry=entry, final=False)
    form.is_valid()
    return TemplateResponse(request, "games/round.html#preview", {"form": form, "entry": entry})


@login_required
@require_POST
def round_arrange(request: HttpRequest, pk: int, round_pk: int | None = None) -> HttpResponse:
    """Replace one player's groups with the best grouping of their cards (the rules
    service's solver); the user may still edit it. Saves nothing."""
    if round_pk is None:
        session = _get_session_for_user(request, pk, write=True)
        board = load_scoreboard(session)
        entry, played = new_round_entry(session, board), None
    else:
        played = _get_round_for_user(request, pk, round_pk, write=True)
        session, board = played.session, None
        entry = round_entry_for_edit(played)
    seat = next((s for s in entry.seats if str(s.pk) == request.POST.get("arrange")), None)
    if seat is None:
        return HttpResponseBadRequest("Say whose cards to arrange.")
    data = request.POST.copy()
    field = f"groups_{seat.pk}"
    problem = None
    try:
        data[field] = arranged_text(
            entry.ruleset, str(data.get("cut_joker", "")), str(data.get(field, ""))
        )
    except RulesError as error:
        problem = error.message
    form = RoundForm(data, entry=entry, final=False)
    form.is_valid()
    if problem and not form.has_error(field):
        form.add_error(field, problem)
    status = FORM_ERRORS if problem else 200
    if played is None:
        context = _session_context(request, session, board, form)
        template = "games/round.html#round_fields" if request.htmx else "games/session.html"
    else:
        context = _round_context(played, form, True)
        template = "games/round.html#round_fields" if request.htmx else "games/round.html"
    return TemplateResponse(request, template, context, status=status)


# --- Earlier rounds --------------------------------------------------------------------


def _round_context(played: Round, form: RoundForm | None, writer: bool) -> dict:
    session = played.session
    return {
        "session": session,
        "played": played,
        "entries": _entries_in_seat_order(played),
        "form": form,
        "entry": form.entry if form else None,
        "writer": writer,
        "preview_url": reverse("games:round_edit_preview", args=[session.pk, played.pk]),
        "arrange_url": reverse("games:round_edit_arrange", args=[session.pk, played.pk]),
    }


def _entries_in_seat_order(played: Round) -> list:
    position = {seat.player_id: seat.position for seat in played.session.seats.all()}
    entries = list(played.entries.select_related("player"))
    return sorted(entries, key=lambda entry: position.get(entry.player_id, 0))


@login_required
@require_safe
def round_detail(request: HttpRequest, pk: int, round_pk: int) -> TemplateResponse:
    played = _get_round_for_user(request, pk, round_pk)
    writer = can_write(request.user, played.session)
    return TemplateResponse(request, "games/round.html", _round_context(played, None, writer))


@login_required
@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, pk: int, round_pk: int) -> TemplateResponse | HttpResponse:
    played = _get_round_for_user(request, pk, round_pk, write=True)
    entry = round_entry_for_edit(played)
    if request.method == "GET":
        # Bound to the saved values so the previews show at once.
        cut, hands = initial_values(played)
        data = {"cut_joker": cut, "version": played.version}
        for seat_pk, (outcome, text) in hands.items():
            data[f"outcome_{seat_pk}"] = outcome
            data[f"groups_{seat_pk}"] = text
        form = RoundForm(data, entry=entry, final=False)
        form.is_valid()
        return TemplateResponse(request, "games/round.html", _round_context(played, form, True))

    form = RoundForm(request.POST, entry=entry)
    theirs = None
    if form.is_valid():
        try:
            save_round(entry, form.check, request.user, version=form.posted_version)
        except RoundConflict as conflict:
            if conflict.theirs is None:  # deleted meanwhile: nothing left to edit
                messages.error(request, str(conflict))
                return _redirect(request, reverse("games:session_detail", args=[pk]))
            # Their version is shown as saved; saving again now replaces it, knowingly.
            form.add_error(None, str(conflict))
            played = _get_round_for_user(request, pk, round_pk, write=True)
            theirs = played
            form.expected_version = played.version
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Round {played.number} saved; later totals follow it.")
            return _redirect(request, reverse("games:session_detail", args=[pk]))
    context = _round_context(played, form, True) | {"theirs": theirs}
    return TemplateResponse(request, "games/round.html", context, status=FORM_ERRORS)


@login_required
@require_POST
def round_delete(request: HttpRequest, pk: int, round_pk: int) -> HttpResponse:
    try:
        played = _get_round_for_user(request, pk, round_pk, write=True)
    except Http404:
        # The session is there but the round is not: deleted already, perhaps by this
        # very tap whose answer was lost. Say so on the session page, not as a 404.
        _get_session_for_user(request, pk, write=True)
        messages.info(request, "That round is already deleted.")
        return _redirect(request, reverse("games:session_detail", args=[pk]))
    # The version the delete button was shown with: a round changed since is not
    # deleted unseen.
    version = _posted_id(request, "version")
    if version is None:
        return HttpResponseBadRequest("Reload the round and delete it from there.")
    try:
        delete_round(played, request.user, version=version)
    except RoundConflict as conflict:
        messages.error(request, str(conflict))
        if conflict.theirs is not None:
            return _redirect(request, reverse("games:round_edit", args=[pk, round_pk]))
    else:
        messages.success(request, f"Round {played.number} deleted; later rounds moved up.")
    return _redirect(request, reverse("games:session_detail", args=[pk]))


@login_required
@require_safe
def session_history(request: HttpRequest, pk: int) -> TemplateResponse:
    """Every change to the session's rounds: who, when, and the round before and after."""
    session = _get_session_for_user(request, pk)
    changes = changes_of(session)[:500]
    return TemplateResponse(
        request, "games/history.html", {"session": session, "changes": changes, "played": None}
    )


@login_required
@require_safe
def round_history(request: HttpRequest, pk: int, round_pk: int) -> TemplateResponse:
    played = _get_round_for_user(request, pk, round_pk)
    changes = changes_of(played.session, played)
    context = {"session": played.session, "changes": changes, "played": played}
    return TemplateResponse(request, "games/history.html", context)
