"""League standings, player pages and charts (issue 5). The URLs live here beside the
views; games/urls.py includes them.

Every figure on these pages is read from what the app stored after the rules
service replayed each session (seat results, ratings; `games/standings.py`), or,
for a session's chart, replayed again by `load_scoreboard`.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, re_path
from django.views.decorators.http import require_safe

from games import charts
from games.access import can_view
from games.models import GameSession, HandEntry, Player, Rating, RatingChange, Seat
from games.queries.standings import (
    RatingPoint,
    league_is_net,
    member_league_ids,
    player_groups,
    rating_history,
    standings_of,
    visible_sessions,
)
from games.services.scoreboard import load_scoreboard
from games.views_leagues import get_league_for_member

FORM_ERRORS = 422
# Players whose rating history the standings page draws: more lines than this are
# not told apart on a phone.
CHART_PLAYERS = 5
SESSIONS_PER_PAGE = 20
RECENT_ROUNDS = 20


class StandingsFilter(forms.Form):
    """The standings' date range, from the query string (?from=...&to=...; both
    optional, both inclusive)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # "from" is a Python keyword, hence fields added here rather than declared.
        widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        self.fields["from"] = forms.DateField(required=False, label="From", widget=widget)
        self.fields["to"] = forms.DateField(required=False, label="To", widget=widget)

    def clean(self) -> dict:
        cleaned = super().clean()
        start, end = cleaned.get("from"), cleaned.get("to")
        if start and end and start > end:
            raise forms.ValidationError("The start date is after the end date.")
        return cleaned

    @property
    def range(self) -> tuple[datetime.date | None, datetime.date | None]:
        if not self.is_bound or not self.is_valid():
            return None, None
        return self.cleaned_data.get("from"), self.cleaned_data.get("to")


@login_required
@require_safe
def league_standings(request: HttpRequest, slug: str) -> TemplateResponse:
    league = get_league_for_member(request, slug)
    form = StandingsFilter(request.GET if ("from" in request.GET or "to" in request.GET) else None)
    date_from, date_to = form.range
    rows = standings_of(league, date_from=date_from, date_to=date_to)
    # The rating history of the best-rated players, over the same range.
    charted = [row for row in rows if row.rating is not None][:CHART_PLAYERS]
    history = rating_history(
        league, [row.player.pk for row in charted], date_from=date_from, date_to=date_to
    )
    chart = (
        charts.rating_history_svg(
            [(row.player.name, history[row.player.pk]) for row in charted],
            title=f"Ratings in {league.name} over time",
            id_prefix="league-ratings",
        )
        if any(history.values())
        else None
    )
    context = {
        "league": league,
        "form": form,
        "rows": rows,
        "date_from": date_from,
        "date_to": date_to,
        "chart": chart,
        "charted": charted,
        "net": league_is_net(league),
    }
    template = "standings/league.html#standings" if request.htmx else "standings/league.html"
    status = FORM_ERRORS if form.is_bound and not form.is_valid() else 200
    return TemplateResponse(request, template, context, status=status)


@login_required
@require_safe
def player_detail(request: HttpRequest, pk: str) -> TemplateResponse:
    """A player's sessions, results per league, ratings over time and recent rounds,
    across the sessions this user may see (and only those)."""
    player = Player.objects.filter(pk=int(pk)).first()
    if player is None:
        raise Http404("No such player.")
    leagues = member_league_ids(request.user)
    visible = GameSession.objects.filter(visible_sessions(request.user, leagues))
    seats = (
        Seat.objects.filter(player=player, session__in=visible.values("pk"))
        .select_related("session__league")
        .order_by("-session__played_on", "-session_id")
    )
    page = Paginator(seats, SESSIONS_PER_PAGE).get_page(request.GET.get("page"))
    if not page.paginator.count and player.user_id != request.user.pk:
        # Nothing of theirs this user may see: the id reveals nothing either.
        raise Http404("No such player.")
    rounds = (
        HandEntry.objects.filter(player=player, round__session__in=visible.values("pk"))
        .select_related("round__session")
        .order_by("-round__session__played_on", "-round__session_id", "-round__number")[
            :RECENT_ROUNDS
        ]
    )
    context = {
        "player": player,
        "page": page,
        "groups": player_groups(player, visible_sessions(request.user, leagues)),
        "ratings": _rating_charts(player, leagues),
        "rounds": list(rounds),
    }
    return TemplateResponse(request, "standings/player.html", context)


def _rating_charts(player: Player, leagues: list[int]) -> list[dict]:
    """The player's current rating and its history, per league the viewer is a
    member of: one chart each (sessions of different leagues are not one order)."""
    current = {
        rating.league_id: rating
        for rating in Rating.objects.filter(player=player, league_id__in=leagues).select_related(
            "league"
        )
    }
    history: dict[int, list[RatingPoint]] = {}
    for league, sequence, played_on, ordinal, session in (
        RatingChange.objects.filter(player=player, league_id__in=list(current))
        .order_by("league_id", "sequence")
        .values_list("league_id", "sequence", "played_on", "ordinal", "session_id")
    ):
        history.setdefault(league, []).append(RatingPoint(sequence, played_on, ordinal, session))
    result = []
    for league_id, rating in sorted(current.items(), key=lambda item: item[1].league.name):
        points = history.get(league_id, [])
        result.append(
            {
                "league": rating.league,
                "rating": rating,
                "chart": charts.rating_history_svg(
                    [(player.name, points)],
                    title=f"{player.name}'s rating in {rating.league.name}",
                    id_prefix=f"rating-{league_id}",
                ),
            }
        )
    return result


def _session_chart_response(session: GameSession) -> HttpResponse:
    board = load_scoreboard(session)
    svg = charts.running_totals_svg(
        board.state, board.ceiling, title=f"Running totals: {session}", id_prefix="totals"
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # The totals change with every round saved: always ask again. And an SVG opened
    # on its own is a document: it may load and run nothing.
    response["Cache-Control"] = "private, no-cache"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@login_required
@require_safe
def session_totals_chart(request: HttpRequest, pk: str) -> HttpResponse:
    """The session's running totals as an SVG image, for those who may see it."""
    session = GameSession.objects.filter(pk=int(pk)).first()
    if session is None or not can_view(request.user, session):
        raise Http404("No such session.")
    return _session_chart_response(session)


@require_safe
def shared_totals_chart(request: HttpRequest, token: str) -> HttpResponse:
    """The same chart for anyone holding the session's share link (read-only)."""
    session = GameSession.objects.filter(share_token=token).first()
    if session is None:
        raise Http404("No such session.")
    return _session_chart_response(session)


# Ids as games/urls.py's "id" converter takes them (at most 18 digits, so an absurd
# id is a 404, not an overflow in the database driver); that converter is registered
# after this module is imported, hence regular expressions here.
urlpatterns: list[URLPattern] = [
    path("leagues/<slug:slug>/standings/", league_standings, name="league_standings"),
    re_path(r"^players/(?P<pk>[0-9]{1,18})/$", player_detail, name="player_detail"),
    re_path(
        r"^sessions/(?P<pk>[0-9]{1,18})/totals\.svg$",
        session_totals_chart,
        name="session_totals_chart",
    ),
    re_path(
        r"^shared/(?P<token>[A-Za-z0-9_-]{1,32})/totals\.svg$",
        shared_totals_chart,
        name="shared_totals_chart",
    ),
]
