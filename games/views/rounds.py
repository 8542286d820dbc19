"""A session's rounds: entering one (preview, arrange, save), viewing, editing and
deleting it, and its history.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.access import can_write, rights_in, round_for, session_for, session_with_rights
from games.forms.rounds import RoundForm, problems_listed
from games.http import first_round, posted_id, redirect_for
from games.models import GameSession, Round
from games.rules import RulesError
from games.services.errors import EntryRejected, RoundConflict
from games.services.round_checks import arranged_text
from games.services.round_clash import Clash, clash_of
from games.services.round_entries import edit_form_data, new_round_entry, round_entry_for_edit
from games.services.round_history import changes_of
from games.services.round_saves import NewRound, RoundEdit, create_round, delete_round, edit_round
from games.services.scoreboard import load_scoreboard
from games.session_page import (
    SHOWN_STAMP,
    answers_in_place,
    round_entry_context,
    session_page_context,
)
from games.statuses import FORM_ERRORS
from games.zones import session_zone


@login_required
@require_POST
def round_create(request: HttpRequest, pk: int) -> TemplateResponse | HttpResponse:
    session, rights = session_with_rights(request.user, pk, "write")
    board = load_scoreboard(session)
    entry = new_round_entry(session, board)
    form = RoundForm(request.POST, entry=entry)
    clash, conflicted = None, False
    if form.is_valid():
        try:
            new = NewRound(
                entry,
                form.check,
                expected_number=form.expected_number,
                submission=form.submission_token,
                opened_number=form.opened_number,
                board=board,
            )
            saved = create_round(new, request.user)
        except RoundConflict as conflict:
            # Their round in the table, and beside mine at the Save button, with the
            # choice: discard mine, or save it as the next round, knowingly (never
            # when it is theirs again: services.round_saves refuses that).
            conflicted = True
            board = load_scoreboard(session)
            form.expected_number = len(board.rows) + 1
            if conflict.theirs is None:
                form.add_error(None, str(conflict))
            else:
                clash = ClashAnswer(str(conflict), clash_of(conflict.theirs, form.check))
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            if not request.htmx:
                messages.success(
                    request, _("Round {number} saved.").format(number=saved.round.number)
                )
                return redirect("games:session_detail", pk=saved.round.session_id)
            # The form comes back empty for the next round, with the next dealer; the
            # table changes out of band, by what the save changed when it can.
            board = saved.board
            context = round_entry_context(request, board.session, board, rights)
            context["saved"] = saved.round
            context["went_out"] = [
                column.name
                for column in board.columns
                if column.eliminated_in == saved.round.number
            ]
            if answers_in_place(saved, request.POST.get(SHOWN_STAMP)):
                context["new_row"] = board.rows[-1]
                return TemplateResponse(request, "games/session.html#saved_round", context)
            return TemplateResponse(request, "games/session.html#form_and_table", context)
    if not request.htmx:
        context = session_page_context(request, session, board, form, rights)
        context |= {"clash": clash}
        return TemplateResponse(request, "games/session.html", context, status=FORM_ERRORS)
    context = round_entry_context(request, session, board, rights, form=form)
    context["clash"] = clash
    # After a conflict the table has changed too: it comes along out of band.
    template = "games/session.html#" + ("form_and_table" if conflicted else "round_entry")
    return TemplateResponse(request, template, context, status=FORM_ERRORS)


@dataclass(frozen=True)
class ClashAnswer:
    """What the round form shows at its Save button when another device saved its
    round first: why nothing was saved, and their round beside mine. ``edit``: the
    form edits a saved round (its ways on: discard mine, or save mine over theirs)."""

    said: str
    rounds: Clash
    edit: bool = False


@login_required
@require_POST
def round_preview(request: HttpRequest, pk: int, round_pk: int | None = None) -> TemplateResponse:
    """The live preview while a round is typed: each hand's groups and points, the
    jokers, and the settlement once every hand is complete. Saves nothing."""
    if round_pk is None:
        session = session_for(request.user, pk, "write")
        entry = new_round_entry(session)
    else:
        played = round_for(request.user, pk, round_pk, "write")
        entry = round_entry_for_edit(played)
    # While Save's list of problems is shown, the round is checked as Save checks it,
    # so that the list follows the fixes (round_fields.html#problems).
    form = RoundForm(request.POST, entry=entry, final=problems_listed(request.POST))
    form.is_valid()
    return TemplateResponse(
        request, "partials/round_fields.html#preview", {"form": form, "entry": entry}
    )


@login_required
@require_POST
def round_arrange(request: HttpRequest, pk: int, round_pk: int | None = None) -> HttpResponse:
    """Replace one player's groups with the best grouping of their cards (the rules
    service's solver); the user may still edit it. Saves nothing."""
    if round_pk is None:
        session = session_for(request.user, pk, "write")
        board = load_scoreboard(session)
        entry, played = new_round_entry(session, board), None
    else:
        played = round_for(request.user, pk, round_pk, "write")
        session, board = played.session, None
        entry = round_entry_for_edit(played)
    seat = next((s for s in entry.seats if str(s.pk) == request.POST.get("arrange")), None)
    if seat is None:
        return HttpResponseBadRequest(_("Say whose cards to arrange."))
    data = request.POST.copy()
    field = f"groups_{seat.pk}"
    problem = None
    try:
        data[field] = arranged_text(
            entry.ruleset,
            str(data.get("cut_joker", "")),
            str(data.get(field, "")),
            on_deal=bool(data.get(f"on_deal_{seat.pk}")),
        )
    except RulesError as error:
        problem = error.message
    # Save's list of problems, if shown, is checked again as the preview does: it keeps
    # those left (it does not go, nor take the focus from the finger, with the fields).
    listed = problems_listed(request.POST)
    form = RoundForm(data, entry=entry, final=listed)
    form.is_valid()
    if problem and not form.has_error(field):
        form.add_error(field, problem)
    status = FORM_ERRORS if problem else 200
    if played is None:
        context = session_page_context(request, session, board, form)
        template = "partials/round_fields.html" if request.htmx else "games/session.html"
    else:
        context = _round_context(played, form, True)
        template = "partials/round_fields.html" if request.htmx else "games/round.html"
    context["problems_follow"] = listed
    return TemplateResponse(request, template, context, status=status)


def _round_context(played: Round, form: RoundForm | None, writer: bool) -> dict:
    session = played.session
    entries = _entries_in_seat_order(played)
    return {
        "session": session,
        "played": played,
        "entries": entries,
        # Words in the rules' explanation of a hand that stay words (cards.explained).
        "player_names": [entry.player.name for entry in entries],
        "form": form,
        "entry": form.entry if form else None,
        "writer": writer,
        # Whether deleting it moves later rounds up (the delete button asks first).
        "later_rounds": writer and session.rounds.filter(number__gt=played.number).exists(),
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
    played = round_for(request.user, pk, round_pk)
    writer = can_write(request.user, played.session)
    return TemplateResponse(request, "games/round.html", _round_context(played, None, writer))


@login_required
@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, pk: int, round_pk: int) -> TemplateResponse | HttpResponse:
    played = round_for(request.user, pk, round_pk, "write")
    board = load_scoreboard(played.session)
    entry = round_entry_for_edit(played, board)
    if request.method == "GET":
        # Bound to the saved values so the previews show at once.
        form = RoundForm(edit_form_data(played), entry=entry, final=False)
        form.is_valid()
        return TemplateResponse(request, "games/round.html", _round_context(played, form, True))

    form = RoundForm(request.POST, entry=entry)
    clash = None
    if form.is_valid():
        try:
            edit = RoundEdit(entry, form.check, version=form.posted_version, board=board)
            edit_round(edit, request.user)
        except RoundConflict as conflict:
            if conflict.theirs is None:  # deleted meanwhile: nothing left to edit
                messages.error(request, str(conflict))
                return redirect_for(request, reverse("games:session_detail", args=[pk]))
            # Their version beside mine at the Save button, shown as saved below, with
            # the choice: discard mine, or save it over theirs, knowingly (the form
            # now stands on their version).
            played = round_for(request.user, pk, round_pk, "write")
            rounds = clash_of(played, form.check)
            clash = ClashAnswer(str(conflict), rounds, edit=True)
            form.expected_version = played.version
        except EntryRejected as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Round {number} saved; later totals follow it.").format(number=played.number),
            )
            return redirect_for(request, reverse("games:session_detail", args=[pk]))
    context = _round_context(played, form, True) | {"clash": clash}
    return TemplateResponse(request, "games/round.html", context, status=FORM_ERRORS)


@login_required
@require_POST
def round_delete(request: HttpRequest, pk: int, round_pk: int) -> HttpResponse:
    try:
        played = round_for(request.user, pk, round_pk, "write")
    except Http404:
        # The session is there but the round is not: deleted already, perhaps by this
        # very tap whose answer was lost. Say so on the session page, not as a 404.
        session_for(request.user, pk, "write")
        messages.info(request, _("That round is already deleted."))
        return redirect_for(request, reverse("games:session_detail", args=[pk]))
    # The version the delete button was shown with: a round changed since is not
    # deleted unseen.
    version = posted_id(request, "version")
    if version is None:
        return HttpResponseBadRequest(_("Reload the round and delete it from there."))
    # Undo, right after Save: the round's cards go back into the form, to fix and save
    # again (Undo is mostly tapped for a mistake). Read them before they go.
    cards = edit_form_data(played) if request.htmx and request.POST.get("undo") == "1" else None
    try:
        moved = delete_round(played, request.user, version=version)
    except RoundConflict as conflict:
        messages.error(request, str(conflict))
        if conflict.theirs is not None:
            return redirect_for(request, reverse("games:round_edit", args=[pk, round_pk]))
        return redirect_for(request, reverse("games:session_detail", args=[pk]))
    if moved:
        deleted = _("Round {number} deleted; later rounds moved up.")
    else:
        deleted = _("Round {number} deleted.")
    deleted = deleted.format(number=played.number)
    if cards is not None:
        return _undone(request, played.session, cards, deleted)
    messages.success(request, deleted)
    return redirect_for(request, reverse("games:session_detail", args=[pk]))


def _undone(
    request: HttpRequest, session: GameSession, cards: dict, deleted: str
) -> TemplateResponse:
    """Undo's answer, in place: the table without the round, and the next round's form
    holding its cards as saved (``cards``: its edit form's values), previewed."""
    board = load_scoreboard(session)
    data = {name: value for name, value in cards.items() if name != "version"}
    form = RoundForm(data, entry=new_round_entry(session, board), final=False)
    form.is_valid()
    context = round_entry_context(
        request, session, board, rights_in(request.user, session), form=form
    )
    back = _("Its cards are back in the form below, to fix and save again.")
    context["undone"] = f"{deleted} {back}"
    return TemplateResponse(request, "games/session.html#form_and_table", context)


@login_required
@require_safe
def round_history(request: HttpRequest, pk: int, round_pk: int) -> TemplateResponse:
    played = round_for(request.user, pk, round_pk)
    fold = changes_of(played.session, played, first=first_round(request))
    zone = session_zone(played.session)
    context = {"session": played.session, "fold": fold, "played": played, "zone": zone}
    return TemplateResponse(request, "games/history.html", context)
