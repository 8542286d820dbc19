"""Table mode, a phone's side: the table link's pages, where each phone picks its seat
and enters that seat's hand. The scorer's side (opening the link, the live view of
the seats, releasing a seat, the cut joker, correcting a hand, saving the round) is
games/views/table_scorer.py.

A phone is told apart by its signed seat cookie (games.access), never by an
account: the table link's pages need no sign-in, and give a phone nothing but its
own seat's hand of the round being entered.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
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
from games.http import (
    CONFLICT,
    FORM_ERRORS,
    GONE,
    NOT_FOUND,
    SAVED_ROUND,
    id_in,
    nothing_new,
    posted_id,
    private,
    redirect_for,
)
from games.models import GameSession, Seat
from games.services.errors import EntryRejected
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.table import (
    RoundMovedOn,
    SeatReleased,
    SeatTaken,
    TableClosed,
    claim_seat,
    hand_of,
    hand_preview,
    link_gone,
    release_seat,
    seat_stamp,
    table_round_of,
    write_hand,
)

# How often a seat's phone asks whether its round moved on: every tap at the table
# shows within a couple of seconds.
SEAT_POLL_SECONDS = 3
NOT_HANDED_IN = "Not handed in."  # what became of a hand sent from a link gone


def _no_store(response: HttpResponse) -> HttpResponse:
    # The token is the key: keep it out of shared caches. (Referer: the site-wide
    # "same-origin" already keeps it from other sites; "no-referrer" would make the
    # browser send "Origin: null" with the forms, which CSRF checking refuses.)
    return private(response)


# --- A phone at the table ------------------------------------------------------------------


def _seat_urls(session: GameSession) -> dict:
    token = session.table_token
    return {
        "seats_url": reverse("games:table_seats", args=[token]),
        "hand_url": reverse("games:table_hand", args=[token]),
        "preview_url": reverse("games:table_hand_preview", args=[token]),
        "status_url": reverse("games:table_hand_status", args=[token]),
        "leave_url": reverse("games:table_leave", args=[token]),
    }


def _hand_state(session: GameSession, seat: Seat):
    """The round being entered and the seat's hand of it, as stored."""
    board = load_scoreboard(session)
    entry = new_round_entry(session, board)
    table_round = table_round_of(session)
    return board, entry, table_round, hand_of(table_round, seat)


def _hand_context(
    session: GameSession,
    seat: Seat,
    form: HandForm | None = None,
    state: tuple | None = None,
    **extra,
) -> dict:
    """The seat's hand of the round being entered: the form as it was left (stored on
    the server, previewed at once) unless ``form`` is the one just posted. ``state``:
    ``_hand_state`` as read already (nothing saved or undone since), else read here."""
    board, entry, table_round, hand = state or _hand_state(session, seat)
    playing = entry.seat_playing(seat.pk) is not None
    if form is None and playing:
        # A Hand in refused, and not typed in since: shown as it was refused (what to
        # fix under the cards and above Hand in), a reload or a poll alike.
        refused = bool(hand and hand.problem)
        form = HandForm(entry=entry, seat=seat, table_round=table_round, hand=hand, final=refused)
        if form.is_bound and form.is_valid():
            check = hand_preview(seat, entry, table_round, form.typed(), final=refused)
            form.file_errors(check)
    return (
        _seat_urls(session)
        | {
            "session": session,
            "seat": seat,
            "entry": entry,
            "board": board,
            "playing": playing,
            "form": form if playing else None,
            "hand": hand,
            "table_cut": table_round.cut_joker if table_round else "",
            "stamp": seat_stamp(session, table_round, hand),
            "poll_seconds": SEAT_POLL_SECONDS,
            "picker_done": "Your hand is complete: tap Hand in.",
            "picker_one_hand": True,
        }
        | extra
    )


def _hand_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    template = "games/table_seat.html#hand" if request.htmx else "games/table_seat.html"
    return _no_store(TemplateResponse(request, template, context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def table_seats(request: HttpRequest, token: str) -> HttpResponse:
    """Pick your seat: the players still in, a seat taken on another phone said so."""
    session = session_for_table_token(token)
    holding = phone_seat(request, session)
    board = load_scoreboard(session)
    entry = new_round_entry(session, board)
    error, status = "", 200
    if request.method == "POST":
        seat_pk = posted_id(request, "seat")
        seat = entry.seat_playing(seat_pk)
        if seat is None:
            error, status = "Pick the seat of a player still in.", FORM_ERRORS
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
        "board": board,
        "holding": holding,
        "taken": taken,
        "error": error,
    }
    return _no_store(TemplateResponse(request, "games/table_seats.html", context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def table_hand(request: HttpRequest, token: str) -> HttpResponse:
    """The phone's own hand of the round being entered; POST hands it in."""
    try:
        session = session_for_table_token(token)
    except Http404:
        return _hand_from_gone_link(request, token)
    if request.method != "POST":
        seat = phone_seat(request, session)
        if seat is None:
            return redirect("games:table_seats", token=token)
        return _hand_page(request, _hand_context(session, seat))
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat, f"{NOT_HANDED_IN} ")
    state = board, entry, table_round, hand = _hand_state(session, seat)
    form = HandForm(request.POST, entry=entry, seat=seat, table_round=table_round, hand=hand)
    if not form.is_valid():
        return _hand_page(request, _hand_context(session, seat, form, state), FORM_ERRORS)
    try:
        written = write_hand(session, seat, form.typed(), final=True)
    except RoundMovedOn as moved:
        # A late hand: nothing is stored; the phone gets the round that is open now.
        status = SAVED_ROUND if moved.saved else NOT_FOUND
        return _hand_page(request, _hand_context(session, seat, moved=str(moved)), status)
    except (TableClosed, SeatReleased) as gone:
        # Closed, replaced or released after the checks above: the hand stays on the
        # screen as typed, under what happened (and a closed table is no longer polled).
        if isinstance(gone, TableClosed):
            return _gone_page(request, seat, token, gone, form, NOT_HANDED_IN, state=state)
        return _hand_page(request, _hand_context(session, seat, form, refused=str(gone)), CONFLICT)
    except EntryRejected as error:  # out of the session, or the session is over
        return _hand_page(request, _hand_context(session, seat, refused=str(error)), FORM_ERRORS)
    if written.saved is not None:
        messages.success(request, f"Every hand is in: round {written.saved.number} saved itself.")
        return redirect_for(request, reverse("games:table_hand", args=[token]))
    if written.stale:
        # The scorer corrected this hand since the phone last changed it: show theirs.
        changed = "Your hand was changed meanwhile (by the scorer): this is it now."
        return _hand_page(request, _hand_context(session, seat, moved=changed), CONFLICT)
    form.file_errors(written.check)
    form.hand = written.hand
    # Not saved: the round and its table round as write_hand read them under its lock
    # (the cut joker may be new), the hand as written; the board read above.
    state = (board, written.entry, written.table_round, written.hand)
    context = _hand_context(session, seat, form, state, just_in=not form.errors)
    return _hand_page(request, context, FORM_ERRORS if form.errors else 200)


def _hand_from_gone_link(
    request: HttpRequest, token: str, *, leaving: bool = False
) -> HttpResponse:
    """A hand handed in from a table link closed or replaced before it was sent (the
    phone's page was older): as when that happens while it is on its way, the hand
    stays on the screen as typed under what became of the link, and nothing is
    stored. The page opened or reloaded at such a link shows the hand as it was
    kept, under the same words; so does "Leave this seat" tapped there (``leaving``),
    saying that there is no seat left to leave. A link that never existed (or a phone
    that held no seat there) is a 404. A page of another seat than the phone held
    there last (``seat_of_page``) is told by the status alone over htmx (its hand stays
    as typed, closed by static/js/app.js), else shown the phone's seat's page."""
    seat = seat_of_gone_link(request, token)
    if seat is None:
        raise Http404("No such table.")
    ours = seat_of_page(request, seat) is not None
    if not ours and request.htmx:
        # Not a 200: static/js/offline.js would take it for the hand handed in.
        fate = "" if leaving else NOT_HANDED_IN
        return reswap(_gone_by_status_alone(request, GONE, fate), "none")
    gone = link_gone(seat.session.table_token, leaving=leaving)
    if request.method == "POST" and not leaving and ours:
        sent, state = _as_sent(request, seat)
        return _gone_page(request, seat, token, gone, sent, NOT_HANDED_IN, state=state)
    return _gone_page(request, seat, token, gone)


def _as_sent(request: HttpRequest, seat: Seat) -> tuple[HandForm, tuple]:
    """The hand this phone sent (Hand in, or its live check), as typed, with what the
    form says of it: shown, not stored, once its link is gone; and ``_hand_state`` as
    read for it, for the page that shows it."""
    state = _board, entry, table_round, hand = _hand_state(seat.session, seat)
    form = HandForm(request.POST, entry=entry, seat=seat, table_round=table_round, hand=hand)
    form.is_valid()
    return form, state


def _gone_page(
    request: HttpRequest,
    seat: Seat,
    token: str,
    gone: TableClosed,
    form: HandForm | None = None,
    fate: str = "",
    status: int = GONE,
    state: tuple | None = None,
) -> HttpResponse:
    """The seat's page at its table link ``token``, gone: the hand (``form``, else as
    this phone kept it) only shown, under what became of it and of the link
    (games/table_seat.html, "closed"): the one place that says how such a page looks,
    whether a reload, Hand in or the phone's background requests learnt it.
    ``state``: ``_hand_state`` as read already for ``form``, else read here."""
    session = seat.session
    # The page keeps the link it came by: a replaced link's phone is never shown the
    # new one (it opens it from the scorer, as after any new link).
    session.table_token = token
    state = state or _hand_state(session, seat)
    if form is None:
        # Never the hand stored now: since the link went, the seat may be someone
        # else's. What this phone typed comes back from its own drafts (offline.js).
        _board, entry, table_round, _hand = state
        form = HandForm(entry=entry, seat=seat, table_round=table_round, hand=None, final=False)
    # What became of the hand (``fate``), of the link, and what to do next: said once,
    # by partials/seat_hand.html#status.
    context = _hand_context(session, seat, form, state, closed=True, gone=str(gone), fate=fate)
    return _hand_page(request, context, status)


def _gone_in_place(
    request: HttpRequest,
    seat: Seat,
    token: str,
    gone: TableClosed,
    form: HandForm | None = None,
    state: tuple | None = None,
) -> HttpResponse:
    """A seat phone's status poll or live check that finds its link gone: the page a
    reload there shows, swapped over the hand being typed, what happened scrolled into
    view above it (the finger was on the picker, below it). A live check's hand is
    the one it sent (``form``), so the cards stay on the screen even where the phone
    keeps no draft (storage blocked or full); after a poll, which sends no hand,
    offline.js puts back what was typed from the draft it kept."""
    response = _gone_page(request, seat, token, gone, form, status=200, state=state)
    return reswap(retarget(response, "#seat-hand"), "outerHTML show:#seat-status:top")


@require_POST
def table_hand_preview(request: HttpRequest, token: str) -> HttpResponse:
    """The live check of the phone's hand as it is typed, which also stores it (a
    reload or a dropped connection keeps it). Nothing else changes."""
    session = _session_of_link(request, token)
    if isinstance(session, HttpResponse):
        return session  # the link is gone: said in place
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat)
    entry = new_round_entry(session)
    table_round = table_round_of(session)
    hand = hand_of(table_round, seat)
    # While Hand in's list of problems is shown, the hand is checked as Hand in checks
    # it, so that the list follows the fixes (round_fields.html#problems), as on the
    # round form.
    listed = problems_listed(request.POST)
    form = HandForm(
        request.POST, entry=entry, seat=seat, table_round=table_round, hand=hand, final=listed
    )
    if form.is_valid():
        try:
            written = write_hand(
                session, seat, form.typed(), final=False, checked_as_handed_in=listed
            )
        except RoundMovedOn:
            # The round was saved (or undone) meanwhile: nothing to check; the status
            # poll moves the page on (a refresh here could come from a form already
            # replaced, and wipe the message its replacement shows).
            return HttpResponse(status=204)
        except TableClosed as gone:
            return _gone_in_place(request, seat, token, gone, form)  # closed as it was typed
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            form.file_errors(written.check)
            form.hand = written.hand
    table_round = table_round_of(session)  # the cut joker this phone may just have set
    hand = hand_of(table_round, seat)
    context = _seat_urls(session) | {
        "session": session,
        "form": form,
        "entry": entry,
        "seat": seat,
        "hand": hand,
        "table_cut": table_round.cut_joker if table_round else "",
        "stamp": seat_stamp(session, table_round, hand),
        "poll_seconds": SEAT_POLL_SECONDS,
        "seat_phone_status": True,  # "handed in" becomes "not handed in" at once
    }
    return _no_store(TemplateResponse(request, "partials/seat_hand.html#check", context))


def _session_of_link(request: HttpRequest, token: str) -> GameSession | HttpResponse:
    """The session of a phone's table link, or, for the page's own background request
    (htmx) at a link closed or replaced since, the answer that says so (`_link_gone`);
    a browser opening such an address gets the 404."""
    try:
        return session_for_table_token(token)
    except Http404:
        if not request.htmx:
            raise
        return _link_gone(request, token)


def _link_gone(request: HttpRequest, token: str) -> HttpResponse:
    """A phone's status poll or live check from a table link closed or replaced since
    it opened it: the page says so, as a reload there would, and stops polling (a 404
    would only show "offline" under the hand, which stays on the screen as typed). A
    phone whose seat there is not known (its seat cookie is another's by now, or gone)
    is told by its status alone (the live check brings that out of band), and
    static/js/app.js closes its hand as the page here would show it. So is a page of
    another seat than the phone held there last (``seat_of_page``)."""
    seat = seat_of_page(request, seat_of_gone_link(request, token))
    if seat is not None:  # which of closed or replaced, from the phone's own seat
        gone = link_gone(seat.session.table_token)
        sent, state = _as_sent(request, seat) if request.method == "POST" else (None, None)
        return _gone_in_place(request, seat, token, gone, sent, state)
    return _gone_by_status_alone(request)


def _gone_by_status_alone(request: HttpRequest, status: int = 200, fate: str = "") -> HttpResponse:
    """A link gone, said by the status alone (and what became of the hand, ``fate``):
    to a phone whose seat there is not known, or is not the seat of the page that asks
    (static/js/app.js closes its hand)."""
    context = {"closed": True, "oob": request.method == "POST", "fate": fate}
    template = "partials/seat_hand.html#status"
    return _no_store(TemplateResponse(request, template, context, status=status))


def _holds_another(request: HttpRequest, token: str, seat: Seat, lead: str = "") -> HttpResponse:
    """A page of a seat this phone gave up for ``seat``, picked since in another tab
    (``seat_of_page``): nothing is written for it, and it moves on to the seat the
    phone holds. What was typed on it is kept (on the server as checked, and in the
    phone's draft of that seat, static/js/offline.js) for when that seat is picked
    again. Over htmx a 409 (htmx follows its redirect all the same): a 200 to Hand
    in would be taken by offline.js for the hand handed in."""
    shown = seat.session.seats.select_related("player").filter(pk=seat_named(request)).first()
    other = f"{shown.player.name}'s seat" if shown else "the other seat"
    messages.info(
        request,
        f"{lead}This phone holds {seat.player.name}'s seat now, picked in another tab: a "
        f"phone holds one seat at a time. What you typed for {other} stays on this phone, "
        "and comes back when that seat is picked on it again.",
    )
    response = redirect_for(request, reverse("games:table_hand", args=[token]))
    if request.htmx:
        response.status_code = CONFLICT
    return response


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
    session = _session_of_link(request, token)
    if isinstance(session, HttpResponse):
        return session  # the link is gone: said in place
    if pk != session.pk:
        generation = None  # read for another session: nothing is kept
    seat = phone_seat(request, session)
    if seat is None:
        messages.info(request, "This phone no longer holds a seat: pick yours again.")
        return redirect_for(request, reverse("games:table_seats", args=[token]))
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat)
    context = _hand_context(session, seat)
    if number != str(context["entry"].number):
        shown = id_in(request.GET, "number")  # the round this phone shows
        if shown is not None and shown < context["entry"].number:
            messages.success(request, f"Round {number} saved.")
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
        return _hand_from_gone_link(request, token, leaving=True)
    seat = seat_for_phone(request, session)
    if seat_of_page(request, seat) is None:
        return _holds_another(request, token, seat, "Not left. ")
    release_seat(session, seat)
    messages.info(request, f"This phone no longer holds {seat.player.name}'s seat.")
    response = redirect("games:table_seats", token=token)
    drop_seat(response, session)
    return _no_store(response)
