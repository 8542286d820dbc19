"""Exports and imports: round histories and standings as CSV and XLSX, and a whole
league as JSON (issue 5). The URLs live here beside the views; games/urls.py
includes them.

The views only check access and name the file; `games/exports.py` builds every
export from what the app stored and does the import.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, re_path, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games.access import can_view
from games.models import GameSession, Membership
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import ImportRefused, import_league
from games.transfer.tables import Table, session_history, standings_table, to_csv, to_xlsx
from games.uploads import MAX_UPLOAD_BYTES, MAX_UPLOAD_MB
from games.views_leagues import get_league_and_role, get_league_for_member
from games.views_standings import StandingsFilter

FORM_ERRORS = 422
CSV = "text/csv; charset=utf-8"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
JSON = "application/json; charset=utf-8"
# A league file larger than this is refused before it is read (games/uploads.py
# refuses the request from its Content-Length): a club's years of evenings fit in a
# few megabytes.
MAX_IMPORT_BYTES = MAX_UPLOAD_BYTES
# Rounds per file on the import page: each is scored again by the rules service, and
# the page must answer well within gunicorn's worker timeout (30 s). 40,000 of the
# smallest rounds a file can hold import in about 14 s on the 2-core machine
# (benchmarks/import_league.py); larger leagues are for manage.py import_league.
MAX_IMPORT_ROUNDS = 40_000
TOO_LARGE = (
    f"This file is larger than {MAX_UPLOAD_MB} MB, the most an upload may be: nothing "
    "was read or saved. An administrator can import it with manage.py import_league."
)


def _download(content: bytes | str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # An export is a snapshot of private scores: neither shared caches nor stale.
    response["Cache-Control"] = "private, no-cache"
    return response


# --- A session's rounds ------------------------------------------------------------------


def _get_session_for_viewer(request: HttpRequest, pk: str) -> GameSession:
    """The session, if this user may see it: to anyone else it does not exist."""
    session = GameSession.objects.filter(pk=int(pk)).first()
    if session is None or not can_view(request.user, session):
        raise Http404("No such session.")
    return session


def _session_filename(session: GameSession, extension: str) -> str:
    name = slugify(session.name) or "session"
    return f"{name}-{session.pk}-rounds.{extension}"


@login_required
@require_safe
def session_rounds_csv(request: HttpRequest, pk: str) -> HttpResponse:
    session = _get_session_for_viewer(request, pk)
    table = session_history(session)
    return _download(to_csv(table), _session_filename(session, "csv"), CSV)


@login_required
@require_safe
def session_rounds_xlsx(request: HttpRequest, pk: str) -> HttpResponse:
    session = _get_session_for_viewer(request, pk)
    table = session_history(session)
    return _download(to_xlsx(table), _session_filename(session, "xlsx"), XLSX)


# --- A league's standings and the whole league -------------------------------------------


def _standings_table(request: HttpRequest, slug: str, extension: str) -> tuple[Table, str]:
    """The standings as the page shows them, with the same ?from=&to= range, and the
    name of the file."""
    league = get_league_for_member(request, slug)
    form = StandingsFilter(request.GET if ("from" in request.GET or "to" in request.GET) else None)
    if form.is_bound and not form.is_valid():
        raise BadRequest("The dates are not valid: use YYYY-MM-DD, the start before the end.")
    date_from, date_to = form.range
    table = standings_table(league, date_from=date_from, date_to=date_to)
    dates = "".join(
        f"-{label}-{day.isoformat()}"
        for label, day in (("from", date_from), ("to", date_to))
        if day
    )
    return table, f"{league.slug}-standings{dates}.{extension}"


@login_required
@require_safe
def league_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    table, filename = _standings_table(request, slug, "csv")
    return _download(to_csv(table), filename, CSV)


@login_required
@require_safe
def league_standings_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    table, filename = _standings_table(request, slug, "xlsx")
    return _download(to_xlsx(table), filename, XLSX)


@login_required
@require_safe
def league_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole league as JSON, for `import_league` here or on another server. The
    sessions' share links only for its owners: the session page shows them to no one
    else either."""
    league, role = get_league_and_role(request, slug)
    owner = role == Membership.Role.OWNER
    text = dumps(export_league(league, share_tokens=owner))
    filename = f"{league.slug}-{timezone.localdate().isoformat()}.json"
    return _download(text.encode(), filename, JSON)


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label="League file",
        help_text="A .json file exported from a league's standings page or by "
        "manage.py export_league.",
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(TOO_LARGE)
        return upload


@login_required
@require_http_methods(["GET", "POST"])
def league_import(request: HttpRequest) -> HttpResponse:
    """Upload a league file: the league is restored as a new league of which the
    user is the only member; the file's members are listed on the league's page for
    them to invite. Anything wrong with the file is a form error, nothing saved."""
    form = (
        LeagueImportForm(request.POST, request.FILES)
        if request.method == "POST"
        else LeagueImportForm()
    )
    if form.is_bound and form.is_valid():
        try:
            imported = import_league(
                form.cleaned_data["file"].read(), owner=request.user, max_rounds=MAX_IMPORT_ROUNDS
            )
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            league = imported.league
            messages.success(request, f"Imported {league.name}.")
            if imported.invitable:
                count = len(imported.invitable)
                messages.info(
                    request,
                    f"The file lists {count} member{'s' if count != 1 else ''}; nobody was "
                    "added. Invite those you want from the list below.",
                )
            url = reverse("games:league_detail", args=[league.slug])
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    status = FORM_ERRORS if form.errors else 200
    return TemplateResponse(
        request, "leagues/import.html", {"form": form, "max_mb": MAX_UPLOAD_MB}, status=status
    )


def league_import_too_large(request: HttpRequest) -> HttpResponse:
    """The import page, with the reason an upload over the limit was refused (by
    games/uploads.py, before the body was read)."""
    form = LeagueImportForm()
    form.errors["file"] = form.error_class([TOO_LARGE])
    response = TemplateResponse(
        request, "leagues/import.html", {"form": form, "max_mb": MAX_UPLOAD_MB}, status=FORM_ERRORS
    )
    return response.render()


# Ids as games/urls.py's "id" converter takes them (at most 18 digits); that
# converter is registered after this module is imported, hence regular expressions.
urlpatterns: list[URLPattern] = [
    re_path(
        r"^sessions/(?P<pk>[0-9]{1,18})/rounds\.csv$",
        session_rounds_csv,
        name="session_rounds_csv",
    ),
    re_path(
        r"^sessions/(?P<pk>[0-9]{1,18})/rounds\.xlsx$",
        session_rounds_xlsx,
        name="session_rounds_xlsx",
    ),
    path("leagues/<slug:slug>/standings.csv", league_standings_csv, name="league_standings_csv"),
    path("leagues/<slug:slug>/standings.xlsx", league_standings_xlsx, name="league_standings_xlsx"),
    path("leagues/<slug:slug>/export.json", league_export, name="league_export"),
    # Not under leagues/: a league's own pages are leagues/<slug>/..., and a league
    # slugged "import" must not meet this page.
    path("import/league/", league_import, name="league_import"),
]
