"""Table mode, a phone's side: the table link's pages, where each phone picks its seat
and enters that seat's hand (its live check, its status poll, Hand in, Leave). The
scorer's side is games/views/table_scorer.py; docs/inside/table-mode.md says what
each request is answered with, and which answers say where they go.

A phone is told apart by its signed seat cookie (games.access), never by an
account: the table link's pages need no sign-in, and give a phone nothing but its
own seat's hand of the round being entered. Over htmx, an answer that goes anywhere
but where its request put it says so itself (HX-Retarget, HX-Reswap): the page's
scripts never read an answer to decide where it goes.
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh, reswap, retarget

from games import live
from games.access import (
    drop_seat,
    give_seat,
    phone_seat,
    seat_for_phone,
    seat_named,
    seat_of_gone_link,
    seat_of_page,
    session_for_table_token,
)
from games.forms.rounds import problems_listed
from games.forms.table import HandForm
from games.http import nothing_new, posted_id, private, redirect_for
from games.ids import id_in
from games.models import GameSession, Seat
from games.services.errors import EntryRejected
from games.services.round_entries import new_round_entry
from games.services.scoreboard import latest_totals
from games.services.table import (
    RoundMovedOn,
    SeatReleased,
    SeatRound,
    SeatTaken,
    TableClosed,
    claim_seat,
    hand_preview,
    link_gone,
    release_seat,
    seat_round,
    write_hand,
)
from games.services.table_panel import seat_stamp
from games.statuses import CONFLICT, FORM_ERRORS, GONE

# How often a seat's phone asks whether its round moved on: every tap at the table
# shows within a couple of seconds.
SEAT_POLL_SECONDS = 3
# What became of a hand sent from a link gone.
NOT_HANDED_IN = gettext_lazy("Not handed in.")
# Where an answer about the whole seat goes over htmx, whichever region asked: the
# seat's status line (partials/seat_hand.html#status), swapped whole.
STATUS_TARGET = "#seat-status"


def _no_store(response: HttpResponse) -> HttpResponse:
    # The token is the key: keep it out of shared caches. (Referer: the site-wide
    # "same-origin" already keeps it from other sites; "no-referrer" would make the
    # browser send "Origin: null" with the forms, which CSRF checking refuses.)
    return private(response)


def _seat_urls(session: GameSession) -> dict:
    token = session.table_token
    return {
        "seats_url": reverse("games:table_seats", args=[token]),
        "hand_url": reverse("games:table_hand", args=[token]),
        "preview_url": reverse("games:table_hand_preview", args=[token]),
        "status_url": reverse("games:table_hand_status", args=[token]),
        "leave_url": reverse("games:table_leave", args=[token]),
    }


def _seat_context(session: GameSession, state: SeatRound) -> dict:
    """What every region of a seat's page reads: its addresses, the seat, the round
    and the hand, the table's cut, the score so far and the stamp its poll follows."""
    return _seat_urls(session) | {
        "session": session,
        "seat": state.seat,
        "entry": state.entry,
        "hand": state.hand,
        "table_cut": state.cut,
        "board": state.board,
        "totals": latest_totals(state.board),
        "stamp": seat_stamp(session, state.table_round, state.hand),
        "poll_seconds": SEAT_POLL_SECONDS,
    }


def _hand_form(state: SeatRound, data=None, *, final: bool) -> HandForm:
    """The seat's form: ``data`` as posted, else the hand as stored (None: empty).
    ``final``: checked as Hand in checks it."""
    args = () if data is None else (data,)
    return HandForm(
        *args,
        entry=state.entry,
        seat=state.seat,
        table_round=state.table_round,
        hand=state.hand,
        final=final,
    )


def _hand_context(
    session: GameSession, state: SeatRound, form: HandForm | None = None, **extra
) -> dict:
    """The seat's page (its ``hand`` region): the form as it was left (stored on the
    server, previewed at once) unless ``form`` is the one just posted. ``extra``: what
    the page says above the hand (moved, refused, just_in; closed, gone and fate at a
    link gone)."""
    if form is None and state.playing:
        # A Hand in refused, and not typed in since: shown as it was refused (what to
        # fix under the cards and above Hand in), a reload or a poll alike.
        refused = bool(state.hand and state.hand.problem)
        form = _hand_form(state, final=refused)
        if form.is_bound and form.is_valid():
            form.file_errors(
                hand_preview(
                    state.seat, state.entry, state.table_round, form.typed(), final=refused
                )
            )
    return (
        _seat_context(session, state)
        | {
            "playing": state.playing,
            "form": form if state.playing else None,
            "picker_done": _("Your hand is complete: tap Hand in."),
            "picker_one_hand": True,
        }
        | extra
    )


def _hand_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The seat's page, or over htmx its hand (which Hand in's form targets)."""
    template = "games/table_seat.html#hand" if request.htmx else "games/table_seat.html"
    return _no_store(TemplateResponse(request, template, context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def table_seats(request: HttpRequest, token: str) -> HttpResponse:
    """Pick your seat: the players still in, a seat taken on another phone said so.
    A phone that holds a seat here is taken to it: opening the table link again (its
    QR code scanned again, the tab reopened) is how a player comes back to their hand.
    It picks another seat after *Leave this seat*; a seat freed by the scorer, or a
    link replaced, holds nothing, and the list shows."""
    session = session_for_table_token(token)
    holding = phone_seat(request, session)
    if holding is not None and request.method != "POST":
        return _no_store(redirect("games:table_hand", token=token))
    entry = new_round_entry(session)
    error, status = "", 200
    if request.method == "POST":
        seat = entry.seat_playing(posted_id(request, "seat"))
        if seat is None:
            error, status = _("Pick the seat of a player still in."), FORM_ERRORS
        else:
            try:
                claim_seat(session, seat, holding=holding)
            except SeatTaken as taken:
                error, status = str(taken), CONFLICT
            else:
                response = redirect("games:table_hand", token=token)
                give_seat(response, session, seat)
                return _no_store(response)
    taken = set(session.seats.filter(phone_key__isnull=False).values_list("pk", flat=True))
    context = _seat_urls(session) | {
        "session": session,
        "entry": entry,
        "holding": holding,
        "taken": taken,
        "error": error,
    }
    return _no_store(TemplateResponse(request, "games/table_seats.html", context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def table_hand(request: HttpRequest, token: str) -> HttpResponse:
    """The phone's own hand of the round being entered; POST hands it in."""
    posted = request.method == "POST"
    try:
        session = session_for_table_token(token)
    except Http404:
        return _link_gone(request, token, fate=NOT_HANDED_IN if posted else "")
    if not posted:
        seat = phone_seat(request, session)
        if seat is None:
            return redirect("games:table_seats", token=token)
        return _hand_page(request, _hand_context(session, seat_round(session, seat)))
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat, str(NOT_HANDED_IN))
    return _hand_in(request, token, session, seat_round(session, seat))


def _hand_in(
    request: HttpRequest, token: str, session: GameSession, state: SeatRound
) -> HttpResponse:
    """Hand in: 200 (the hand's region) only for a hand handed in; every refusal
    is a 4xx, its page saying why (static/js/draft_queue.js keeps a hand answered
    200 on the phone as handed in)."""
    seat = state.seat
    form = _hand_form(state, request.POST, final=True)
    if not form.is_valid():
        return _hand_page(request, _hand_context(session, state, form), FORM_ERRORS)
    try:
        written = write_hand(session, seat, form.typed(), final=True)
    except RoundMovedOn as moved:
        # A late hand: nothing is stored; the phone gets the round that is open now.
        context = _hand_context(session, seat_round(session, seat), moved=str(moved))
        return _hand_page(request, context, CONFLICT)
    except TableClosed:  # closed or replaced after the checks above
        return _link_gone(request, token, fate=NOT_HANDED_IN)
    except SeatReleased as released:  # the hand stays on the screen as typed
        return _hand_page(
            request, _hand_context(session, state, form, refused=str(released)), CONFLICT
        )
    except EntryRejected as error:  # out of the session, or the session is over
        context = _hand_context(session, seat_round(session, seat), refused=str(error))
        return _hand_page(request, context, FORM_ERRORS)
    if written.saved is not None:
        messages.success(
            request,
            _("Every hand is in: round {number} saved itself.").format(number=written.saved.number),
        )
        return redirect_for(request, reverse("games:table_hand", args=[token]))
    if written.stale:
        # The scorer corrected this hand since the phone last changed it: show theirs.
        changed = _("Your hand was changed meanwhile (by the scorer): this is it now.")
        context = _hand_context(session, seat_round(session, seat), moved=changed)
        return _hand_page(request, context, CONFLICT)
    form.file_errors(written.check)
    form.hand = written.hand
    # The round and its table round as write_hand read them under its lock (the cut
    # joker may be new), the hand as written; the board as read above.
    state = replace(state, entry=written.entry, table_round=written.table_round, hand=written.hand)
    context = _hand_context(session, state, form, just_in=not form.errors)
    return _hand_page(request, context, FORM_ERRORS if form.errors else 200)


@require_POST
def table_hand_preview(request: HttpRequest, token: str) -> HttpResponse:
    """The live check of the phone's hand as it is typed, which also stores it (a
    reload or a dropped connection keeps it). Nothing else changes."""
    try:
        session = session_for_table_token(token)
    except Http404:
        return _link_gone(request, token)
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat)
    state = seat_round(session, seat)
    # While Hand in's list of problems is shown, the hand is checked as Hand in checks
    # it, so that the list follows the fixes (round_fields.html#problems), as on the
    # round form.
    listed = problems_listed(request.POST)
    form = _hand_form(state, request.POST, final=listed)
    if form.is_valid():
        try:
            written = write_hand(
                session, seat, form.typed(), final=False, checked_as_handed_in=listed
            )
        except RoundMovedOn:
            # The round was saved (or undone) meanwhile: nothing to check; the status
            # poll moves the page on (a refresh here could come from a form already
            # replaced, and wipe the message its replacement shows).
            return nothing_new(token=True)
        except TableClosed:
            return _link_gone(request, token)
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            form.file_errors(written.check)
            form.hand = written.hand
            # The cut joker this phone may just have set, and the hand as written.
            state = replace(state, table_round=written.table_round, hand=written.hand)
    context = _seat_context(session, state) | {
        "form": form,
        "seat_phone_status": True,  # "handed in" becomes "not handed in" at once
    }
    return _no_store(TemplateResponse(request, "partials/seat_hand.html#check", context))


@require_safe
def table_hand_status(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by the seat's phone: 204 while nothing changed for it; the page again
    once its round is saved or its seat released (or, for a page of a seat the phone
    gave up for another, the page of the one it holds); else its hand's state and the
    table's cut joker."""
    number, stamp = request.GET.get("number", ""), request.GET.get("v", "")
    pk = id_in(request.GET, "s")  # the session, as the phone's page names it
    if live.seat_unchanged(request, token, pk, (number, stamp)):
        return nothing_new(token=True)
    # Before the session (its live stamp is in the seat's), the seat and its hand are
    # read: a write after it gives a new generation, and the answer is not reused.
    generation = live.table_generation(pk) if pk is not None else None
    try:
        session = session_for_table_token(token)
    except Http404:
        return _link_gone(request, token)
    if pk != session.pk:
        generation = None  # read for another session: nothing is kept
    seat = phone_seat(request, session)
    if seat is None:
        messages.info(request, _("This phone no longer holds a seat: pick yours again."))
        return redirect_for(request, reverse("games:table_seats", args=[token]))
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat)
    context = _hand_context(session, seat_round(session, seat))
    if number != str(context["entry"].number):
        shown = id_in(request.GET, "number")  # the round this phone shows
        if shown is not None and shown < context["entry"].number:
            messages.success(request, _("Round {number} saved.").format(number=number))
        return HttpResponseClientRefresh() if request.htmx else redirect("games:table_hand", token)
    if stamp == context["stamp"]:
        live.remember_seat(request, session, generation, (number, stamp))
        return nothing_new(token=True)
    context["status_poll"] = True  # the table's cut joker comes along
    return _no_store(TemplateResponse(request, "partials/seat_hand.html#status", context))


@require_POST
def table_leave(request: HttpRequest, token: str) -> HttpResponse:
    """The phone gives its seat up (picked the wrong one, or handing over). Tapped on
    a page whose link the scorer closed or replaced since, it is told so in words, as
    a hand handed in there is (the seat cookie stays: it holds nothing at a link that
    is gone, and a reload is told the same again)."""
    try:
        session = session_for_table_token(token)
    except Http404:
        return _link_gone(request, token, leaving=True)
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        # Translators: Leave this seat was tapped on a seat the phone no longer holds.
        return _holds_another(request, token, seat, _("Not left."))
    release_seat(session, seat)
    messages.info(
        request, _("This phone no longer holds {player}'s seat.").format(player=seat.player.name)
    )
    response = redirect("games:table_seats", token=token)
    drop_seat(response, session)
    return _no_store(response)


def _link_gone(
    request: HttpRequest, token: str, *, fate: str = "", leaving: bool = False
) -> HttpResponse:
    """The one answer to a phone at a table link that no longer works (the scorer
    closed table mode or made a new link), whichever of its requests learnt it: its
    poll, its live check, Hand in (``fate``: what became of the hand), Leave
    (``leaving``), a reload. Nothing is stored. It says what became of the hand and
    of the link, and what to do next (partials/seat_hand.html#status, closed); which
    of closed or replaced comes from the seat this phone held there, if its cookie
    still says.

    Over htmx it is that status alone, declared to replace the seat's status line
    whichever region asked (HX-Retarget, HX-Reswap), with a 410 that htmx swaps
    (base.html's responseHandling): static/js/table_seat.js then closes the hand as
    typed, to be read out. A page loaded (a reload, Leave, a Hand in without
    JavaScript) is the seat's page, closed: its hand as sent, else empty for the
    phone's own keeping (static/js/drafts.js) to fill, never the hand stored since (the
    seat may be someone else's by then). A phone that held no seat there learns
    nothing: a 404."""
    seat = seat_of_gone_link(request, token)
    gone = str(link_gone(seat.session.table_token, leaving=leaving)) if seat else ""
    if request.htmx:
        context = {"closed": True, "gone": gone, "fate": fate}
        response = TemplateResponse(request, "partials/seat_hand.html#status", context, status=GONE)
        return _no_store(reswap(retarget(response, STATUS_TARGET), "outerHTML"))
    if seat is None:
        raise Http404("No such table.")
    session = seat.session
    # The page keeps the link it came by: a replaced link's phone is never shown the
    # new one (it opens it from the scorer, as after any new link).
    session.table_token = token
    state = seat_round(session, seat)
    # A hand sent from this seat's own page is shown as sent; any other page shows
    # the phone's seat, its hand from the phone's own keeping.
    sent = request.method == "POST" and not leaving and seat_of_page(request, seat) is not None
    form = _hand_form(replace(state, hand=None), request.POST if sent else None, final=sent)
    form.is_valid()
    context = _hand_context(session, state, form, closed=True, gone=gone, fate=fate if sent else "")
    return _hand_page(request, context, GONE)


def _holds_another(request: HttpRequest, token: str, seat: Seat, lead: str = "") -> HttpResponse:
    """A page of a seat this phone gave up for ``seat``, picked since in another tab
    (``seat_of_page``): nothing is written for it, and it moves on to the seat the
    phone holds. What was typed on it is kept (on the server as checked, and in the
    phone's draft of that seat, static/js/drafts.js) for when that seat is picked
    again. Over htmx a client redirect with a 409, the page's seat no longer being the
    phone's: a 2xx to Hand in would say the hand was handed in. ``lead``: a sentence
    said first, of what became of what was tapped ("Not handed in.")."""
    shown = seat.session.seats.select_related("player").filter(pk=seat_named(request)).first()
    if shown:
        message = _(
            "This phone holds {player}'s seat now, picked in another tab: a phone holds one "
            "seat at a time. What you typed for {other}'s seat stays on this phone, and comes "
            "back when that seat is picked on it again."
        )
    else:
        message = _(
            "This phone holds {player}'s seat now, picked in another tab: a phone holds one "
            "seat at a time. What you typed for the other seat stays on this phone, and comes "
            "back when that seat is picked on it again."
        )
    said = message.format(player=seat.player.name, other=shown.player.name if shown else "")
    messages.info(request, f"{lead} {said}" if lead else said)
    response = redirect_for(request, reverse("games:table_hand", args=[token]))
    if request.htmx:
        response.status_code = CONFLICT
    return response
