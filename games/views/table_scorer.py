"""Table mode, the scorer's side: opening, replacing or closing the table link, the
live view of the seats, releasing a seat, the cut joker, auto-save, correcting a
hand and saving the round the table entered. (The phones' side, where each picks its
seat and enters its own hand, is games/views/table.py; docs/inside/table-mode.md
says what each answers.)"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from games import live
from games.access import seat_for, session_for, session_with_rights
from games.forms.table import HandForm
from games.http import nothing_new, posted_id, redirect_for
from games.models import GameSession, Seat
from games.rules import CardError
from games.services.errors import EntryRejected
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.table import (
    RoundMovedOn,
    close_table,
    hand_of,
    hand_preview,
    open_table,
    release_seat,
    replace_table_link,
    save_table_round,
    set_auto_save,
    set_cut,
    table_round_of,
    write_hand,
)
from games.services.table_panel import table_stamp, table_view
from games.session_page import session_page_context
from games.statuses import FORM_ERRORS


def _back(request: HttpRequest, session: GameSession) -> HttpResponse:
    # No "#table": htmx's client redirect to the same page with a fragment would only
    # scroll, not load it (table mode sits at the top of the page anyway).
    return redirect_for(request, reverse("games:session_detail", args=[session.pk]))


@login_required
@require_POST
def table_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Open table mode (``action=open``), replace its link or close it."""
    session = session_for(request.user, pk, "write")
    action = request.POST.get("action")
    if action == "open":
        open_table(session)
        messages.success(request, _("Table mode is open: each player opens the table link."))
    elif action == "replace":
        replace_table_link(session)
        messages.success(request, _("New table link made: the old one no longer works."))
    elif action == "close":
        close_table(session)
        messages.success(request, _("Table mode closed."))
    else:
        return HttpResponseBadRequest(_("Say whether to open, replace or close the table link."))
    return _back(request, session)


@require_safe
def table_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer's live view of the seats, polled: 204 while nothing changed (from
    the cache when it knows, games/live.py), the whole page again once the round was
    saved elsewhere (it saved itself)."""
    if live.panel_unchanged(request, pk, request.GET.get("v")):
        return nothing_new()
    # Both read before the sign-in, the rights and the table are.
    access, table = live.access_generation(), live.table_generation(pk)
    return _table_panel(request, pk, access=access, table=table)


@login_required
def _table_panel(
    request: HttpRequest, pk: int, *, access: live.Reading | None, table: live.Reading | None
) -> HttpResponse:
    session, rights = session_with_rights(request.user, pk, "write")
    if not session.table_token:
        return HttpResponseClientRefresh() if request.htmx else _back(request, session)
    stamp = table_stamp(session)
    live.remember_panel(pk, table, stamp)
    live.grant(request, session, rights, access)
    if request.GET.get("v") == stamp:
        return nothing_new()
    number = request.GET.get("number")
    if request.htmx and number and number != stamp.split(".")[0]:
        return HttpResponseClientRefresh()
    context = {
        "session": session,
        "table": table_view(session),
        "table_poll_url": reverse("games:table_panel", args=[session.pk]),
        "oob": True,  # the cut joker above its field comes along
    }
    return TemplateResponse(request, "partials/table_panel.html", context)


@login_required
@require_POST
def table_release(request: HttpRequest, pk: int) -> HttpResponse:
    session_for(request.user, pk, "write")  # who may, before what they sent
    seat_pk = posted_id(request, "seat")
    if seat_pk is None:
        return HttpResponseBadRequest(_("Say whose seat to release."))
    seat = seat_for(request.user, pk, seat_pk, "write")
    if release_seat(seat.session, seat):
        messages.success(
            request,
            _("{player}'s seat is free: any phone may pick it.").format(player=seat.player.name),
        )
    else:
        messages.info(request, _("No phone held {player}'s seat.").format(player=seat.player.name))
    return _back(request, seat.session)


def _scorers_round(request: HttpRequest, pk: int) -> tuple[GameSession, int]:
    """The session a scorer acts on, and the number of the round their page showed
    (0 when none was sent: no round has that number)."""
    return session_for(request.user, pk, "write"), posted_id(request, "number") or 0


@login_required
@require_POST
def table_cut(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer enters the round's cut joker for every phone."""
    session, number = _scorers_round(request, pk)
    try:
        set_cut(session, number, str(request.POST.get("cut_joker", ""))[:12])
    except CardError as error:
        # Translators: {reason} is the rules' sentence on why the cut joker is refused.
        messages.error(request, _("Cut joker: {reason}").format(reason=error.message))
    except EntryRejected as error:
        messages.error(request, str(error))
    return _back(request, session)


@login_required
@require_POST
def table_auto_save(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_for(request.user, pk, "write")
    on = request.POST.get("auto_save") == "on"
    set_auto_save(session, on)
    messages.success(
        request,
        _("Rounds save themselves once every hand is in and they check.")
        if on
        else _("You save each round (one tap once every hand is in)."),
    )
    return _back(request, session)


@login_required
@require_POST
def table_save(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer's one tap: save the round the table entered."""
    session, number = _scorers_round(request, pk)
    try:
        played = save_table_round(session, number, request.user)
    except RoundMovedOn as moved:
        if moved.saved:
            messages.info(
                request, _("Round {number} is already saved.").format(number=moved.number)
            )
        else:
            messages.error(request, str(moved))
        return _back(request, session)
    except EntryRejected as error:  # RoundNotReady too: the view lists the problems
        messages.error(request, str(error))
        return _back(request, session)
    if not request.htmx:
        messages.success(request, _("Round {number} saved.").format(number=played.number))
        return _back(request, session)
    board = load_scoreboard(session)
    context = session_page_context(request, session, board) | {"saved": played}
    return TemplateResponse(request, "games/session.html#form_and_table", context)


def _correct_context(request: HttpRequest, seat: Seat, form: HandForm) -> dict:
    session = seat.session
    args = [session.pk, seat.pk]
    return {
        "session": session,
        "seat": seat,
        "form": form,
        "entry": form.entry,
        "table_cut": form.table_cut,
        "hand_url": reverse("games:table_correct", args=args),
        "preview_url": reverse("games:table_correct_preview", args=args),
        "picker_done": _("{player}'s hand is complete: tap Save hand.").format(
            player=seat.player.name
        ),
        "picker_one_hand": True,
    }


def _correct_form(request: HttpRequest, seat: Seat, *, final: bool = True) -> HandForm:
    session = seat.session
    entry = new_round_entry(session)
    table_round = table_round_of(session)
    hand = hand_of(table_round, seat)
    data = request.POST if request.method == "POST" else None
    if data is None:
        return HandForm(entry=entry, seat=seat, table_round=table_round, hand=hand, final=False)
    return HandForm(data, entry=entry, seat=seat, table_round=table_round, hand=hand, final=final)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_correct(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """The scorer enters or corrects one seat's hand (a player without a phone, a
    mistake the round check found); saving it hands it in."""
    seat = seat_for(request.user, pk, seat_pk, "write")
    session = seat.session
    form = _correct_form(request, seat)
    if request.method != "POST":
        if form.is_bound and form.is_valid():
            try:
                check = hand_preview(seat, form.entry, table_round_of(session), form.typed())
            except EntryRejected as error:
                messages.error(request, str(error))
                return _back(request, session)
            form.file_errors(check)
        return TemplateResponse(
            request, "games/table_correct.html", _correct_context(request, seat, form)
        )
    if form.is_valid():
        try:
            written = write_hand(session, seat, form.typed(), final=True, user=request.user)
        except RoundMovedOn as moved:
            messages.error(request, str(moved))
            return _back(request, session)
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            form.file_errors(written.check)
            if not form.errors:
                if written.saved is not None:
                    messages.success(
                        request,
                        _("Round {number} saved itself.").format(number=written.saved.number),
                    )
                else:
                    messages.success(
                        request, _("{player}'s hand is in.").format(player=seat.player.name)
                    )
                return _back(request, session)
    return TemplateResponse(
        request,
        "games/table_correct.html",
        _correct_context(request, seat, form),
        status=FORM_ERRORS,
    )


@login_required
@require_POST
def table_correct_preview(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """The live check of a hand the scorer is correcting. Stores nothing."""
    seat = seat_for(request.user, pk, seat_pk, "write")
    form = _correct_form(request, seat, final=False)
    if form.is_valid():
        try:
            check = hand_preview(seat, form.entry, table_round_of(seat.session), form.typed())
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            form.file_errors(check)
    context = _correct_context(request, seat, form)
    return TemplateResponse(request, "partials/seat_hand.html#check", context)
