"""Exports and imports: round histories and standings as CSV and XLSX, and a whole
league as JSON.

The views only check access and name the file; `games.transfer` builds every export
from what the app stored and does the import.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from games.access import league_for, league_rights, session_for
from games.forms.standings import StandingsFilter
from games.forms.transfer import TOO_LARGE, LeagueImportForm
from games.http import download, redirect_for
from games.models import GameSession
from games.queries.standings import league_games, pick_game
from games.services.night_end import end_idle_sessions
from games.statuses import FORM_ERRORS
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import BEFORE_HISTORY, ImportRefused, import_league
from games.transfer.league_naming import names_taken, renamed
from games.transfer.tables import Table, session_history, standings_table, to_csv, to_xlsx
from games.uploads import MAX_UPLOAD_MB, answers_too_large
from games.zones import today_in

CSV = "text/csv; charset=utf-8"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
JSON = "application/json; charset=utf-8"
FORMATS = {"csv": (to_csv, CSV), "xlsx": (to_xlsx, XLSX)}
# Rounds per file on the import page: each is scored again by the rules service, and
# the page must answer well within gunicorn's worker timeout (30 s). 40,000 of the
# smallest rounds a file can hold import in about 14 s on the 2-core machine
# (benchmarks/import_league.py); larger leagues are for manage.py import_league.
MAX_IMPORT_ROUNDS = 40_000


# --- A session's rounds ------------------------------------------------------------------


def _session_filename(session: GameSession, extension: str) -> str:
    """The session's name and its round count ("friday-night-6-rounds.csv"), as a player
    who downloads several evenings' files reads them. Where another session of its
    league (or, outside one, of its scorer) has the same name, the day it was played
    follows ("friday-night-6-rounds-2026-11-27.csv"), and where one of that name was
    played on that day too, which of them it was ("…-2026-11-27-2.csv"). No id: a
    number beside the round count read as one ("friday-night-1-3-rounds": 3 rounds?)."""
    name = slugify(session.name) or "session"
    rounds = session.rounds.count()
    filename = f"{name}-{rounds}-round{'s' if rounds != 1 else ''}"
    namesakes = GameSession.objects.filter(league=session.league, name__iexact=session.name)
    if session.league is None:
        namesakes = namesakes.filter(created_by=session.created_by)
    if namesakes.exclude(pk=session.pk).exists():
        filename += f"-{session.played_on.isoformat()}"
        same_day = namesakes.filter(played_on=session.played_on, pk__lt=session.pk).count()
        if same_day:
            filename += f"-{same_day + 1}"
    return f"{filename}.{extension}"


def _session_rounds(request: HttpRequest, pk: int, extension: str) -> HttpResponse:
    session = session_for(request.user, pk)
    write, content_type = FORMATS[extension]
    filename = _session_filename(session, extension)
    return download(write(session_history(session)), filename, content_type)


@login_required
@require_safe
def session_rounds_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return _session_rounds(request, pk, "csv")


@login_required
@require_safe
def session_rounds_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    return _session_rounds(request, pk, "xlsx")


def _standings_table(request: HttpRequest, slug: str, extension: str) -> tuple[Table, str]:
    """The standings as the page shows them, with the same ?game=&from=&to=, and the
    name of the file (which names a game other than the league's own)."""
    league = league_for(request.user, slug)[0]
    form = StandingsFilter.from_query(request.GET)
    if form.is_bound and not form.is_valid():
        raise BadRequest("The dates are not valid: use YYYY-MM-DD, the start before the end.")
    date_from, date_to = form.range
    end_idle_sessions(league)  # as the page does: a night idle long enough counts
    game = pick_game(league_games(league), request.GET.get("game"))
    table = standings_table(league, game=game, date_from=date_from, date_to=date_to)
    dates = "".join(
        f"-{label}-{day.isoformat()}"
        for label, day in (("from", date_from), ("to", date_to))
        if day
    )
    named = "" if game.own else f"-{game.preset}"
    return table, f"{league.slug}-standings{named}{dates}.{extension}"


@login_required
@require_safe
def league_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    table, filename = _standings_table(request, slug, "csv")
    return download(to_csv(table), filename, CSV)


@login_required
@require_safe
def league_standings_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    table, filename = _standings_table(request, slug, "xlsx")
    return download(to_xlsx(table), filename, XLSX)


@login_required
@require_safe
def league_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole league as JSON, for `import_league` here or on another server. The
    sessions' share links only for its owners: the session page shows them to no one
    else either."""
    league, role = league_for(request.user, slug)
    text = dumps(export_league(league, share_tokens=league_rights(role).manage))
    filename = f"{league.slug}-{today_in(league).isoformat()}.json"
    return download(text.encode(), filename, JSON)


def league_import_too_large(request: HttpRequest) -> HttpResponse:
    """The import page, with the reason an upload over the limit was refused (by
    games/uploads.py, before the body was read)."""
    form = LeagueImportForm()
    form.errors["file"] = form.error_class([TOO_LARGE])
    return _import_page(request, form).render()


def _import_page(request: HttpRequest, form: LeagueImportForm) -> TemplateResponse:
    status = FORM_ERRORS if form.errors else 200
    context = {
        "form": form,
        "max_mb": MAX_UPLOAD_MB,
        # Told before the import, once the name is known (static/js/league_import.js).
        "names_taken": names_taken(request.user) if request.user.is_authenticated else {},
    }
    return TemplateResponse(request, "leagues/import.html", context, status=status)


@answers_too_large(league_import_too_large)
@login_required
@require_http_methods(["GET", "POST"])
def league_import(request: HttpRequest) -> HttpResponse:
    """Upload a league file: the league is restored as a new league of which the
    user is the only member, under the name they give or the file's, at an address of
    its own; the file's members are listed on the league's page for them to invite.
    Anything wrong with the file is a form error, nothing saved."""
    form = (
        LeagueImportForm(request.POST, request.FILES)
        if request.method == "POST"
        else LeagueImportForm()
    )
    if form.is_bound and form.is_valid():
        try:
            imported = import_league(
                form.cleaned_data["file"].read(),
                owner=request.user,
                max_rounds=MAX_IMPORT_ROUNDS,
                name=form.cleaned_data["name"],
            )
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            league = imported.league
            if imported.renamed_from:
                messages.warning(request, renamed(imported.renamed_from, league.name))
            else:
                messages.success(request, _("Imported {league}.").format(league=league.name))
            if not imported.history:
                messages.info(request, _(BEFORE_HISTORY))
            if imported.invitable:
                count = len(imported.invitable)
                messages.info(
                    request,
                    ngettext(
                        "The file lists {count} member; nobody was added. Invite those you "
                        "want from the list below.",
                        "The file lists {count} members; nobody was added. Invite those you "
                        "want from the list below.",
                        count,
                    ).format(count=count),
                )
            return redirect_for(request, reverse("games:league_detail", args=[league.slug]))
    return _import_page(request, form)
