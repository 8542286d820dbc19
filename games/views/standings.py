"""League standings and player pages.

Every figure on these pages is read from what the app stored after the rules
service replayed each session (seat results, ratings; `games.queries`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import charts
from games.access import league_for, visible_player, visible_sessions
from games.currencies import league_currency
from games.forms.standings import StandingsFilter
from games.models import League, Player, Preset, Rating, RatingChange
from games.queries.players import (
    claimed_player,
    latest_hands,
    player_claims,
    player_groups,
    player_seats,
)
from games.queries.standings import (
    Game,
    RatingPoint,
    league_games,
    pick_game,
    rating_history,
    running_sessions,
    standings_of,
    table_lines,
)
from games.services.night_end import end_idle_sessions
from games.statuses import FORM_ERRORS

# Players whose rating history the standings page draws: more lines than this are
# not told apart on a phone.
CHART_PLAYERS = 5
SESSIONS_PER_PAGE = 20
RECENT_ROUNDS = 20


@login_required
@require_safe
def league_standings(request: HttpRequest, slug: str) -> TemplateResponse:
    league = league_for(request.user, slug)[0]
    # A points night nobody ended counts once it has idled long enough: ended first,
    # so that the table below has its winner and ratings (games/services/night_end.py).
    end_idle_sessions(league)
    form = StandingsFilter.from_query(request.GET)
    date_from, date_to = form.range
    games = league_games(league)
    game = pick_game(games, request.GET.get("game"))
    rows = standings_of(league, game=game.preset, date_from=date_from, date_to=date_to)
    running = running_sessions(league, game.preset, date_from=date_from, date_to=date_to)
    # The rating history of the best-rated players, over the same range.
    charted = [row for row in rows if row.rating is not None][:CHART_PLAYERS]
    history = rating_history(
        league,
        [row.player.pk for row in charted],
        game=game.preset,
        date_from=date_from,
        date_to=date_to,
    )
    chart = (
        charts.rating_history_svg(
            [(row.player.name, history[row.player.pk]) for row in charted],
            title=_("{game} ratings in {league} over time").format(
                game=game.label, league=league.name
            ),
            id_prefix="league-ratings",
        )
        if any(history.values())
        else None
    )
    # Each game's standings over the same dates (one tab each when there are two).
    tabs = [(other, standings_query(other, date_from, date_to)) for other in games]
    # The signed-in member's own row ("you"), if they claimed a player here.
    my_player = claimed_player(league, request.user)
    context = {
        "league": league,
        "form": form,
        "rows": rows,
        "lines": table_lines(
            rows,
            _urls("games:player_detail", (row.player.pk for row in rows)),
            my_player.pk if my_player else None,
            league_currency(league),
        ),
        "date_from": date_from,
        "date_to": date_to,
        "chart": chart,
        "charted": charted,
        "game": game,
        "net": game.net,
        "games": tabs,
        # The games besides the one shown: where an empty tab points to.
        "other_games": [(other, query) for other, query in tabs if other != game],
        "query": standings_query(game, date_from, date_to),
        "game_query": standings_query(game, None, None),  # all dates
        "my_player": my_player,
        # The game's sessions still running: not won by anyone nor rated yet.
        "running": list(
            zip(running, _urls("games:session_detail", (s.pk for s in running)), strict=True)
        ),
        "idle_hours": settings.SESSION_IDLE_HOURS,
    }
    template = "standings/league.html#standings" if request.htmx else "standings/league.html"
    status = FORM_ERRORS if form.is_bound and not form.is_valid() else 200
    return TemplateResponse(request, template, context, status=status)


def standings_query(
    game: Game, date_from: datetime.date | None, date_to: datetime.date | None
) -> str:
    """The query string of a game's standings over the dates (the league's own game
    needs none): what its tab, and the downloads, link to."""
    params = {} if game.own else {"game": game.preset}
    if date_from or date_to:
        params |= {
            "from": date_from.isoformat() if date_from else "",
            "to": date_to.isoformat() if date_to else "",
        }
    return f"?{urlencode(params)}" if params else ""


# Ids no database hands out for years: their places in a reversed URL.
_SOME_IDS = (987654321987654321, 987654321987654322)


def _urls(name: str, ids: Iterable[int | tuple[int, ...]]) -> list[str]:
    """``reverse(name, args=...)`` for each of ``ids`` (an id, or a tuple of them for
    a URL of several) at the cost of one: the URL is reversed once with ids no row
    has, which each row's ids then replace (a reverse for each of 200 rows was a
    quarter of the standings table's time)."""
    ids = [key if isinstance(key, tuple) else (key,) for key in ids]
    if not ids:
        return []
    arity = len(ids[0])
    pieces = [reverse(name, args=_SOME_IDS[:arity])]
    for mark in _SOME_IDS[:arity]:
        pieces[-1:] = pieces[-1].split(str(mark))
    urls = []
    for key in ids:
        parts = [pieces[0]]
        for value, piece in zip(key, pieces[1:], strict=True):
            parts += (str(value), piece)
        urls.append("".join(parts))
    return urls


class _Counted(Paginator):
    """Pages of a list counted already (the player's seats, with their results): the
    count query of a plain Paginator would read them again."""

    def __init__(self, object_list, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known = count

    @property
    def count(self) -> int:
        return self._known


@login_required
@require_safe
def player_detail(request: HttpRequest, pk: int) -> TemplateResponse:
    """A player's sessions, results per league, ratings over time and recent rounds,
    across the sessions this user may see (and only those)."""
    player, leagues = visible_player(request.user, pk)
    visible = visible_sessions(request.user, list(leagues), through="session__")
    results = player_groups(player, visible, leagues)
    seats = player_seats(player, visible)
    page = _Counted(seats, SESSIONS_PER_PAGE, results.seats).get_page(request.GET.get("page"))
    in_sight = visible_sessions(request.user, list(leagues), through="round__session__")
    rounds = latest_hands(player, in_sight, RECENT_ROUNDS)
    context = {
        "player": player,
        "page": page,
        # Each row with its links, reversed once for all (`_urls`).
        "sessions": list(
            zip(
                page.object_list,
                _urls("games:session_detail", (seat.session_id for seat in page.object_list)),
                strict=True,
            )
        ),
        "groups": results.groups,
        "ratings": _rating_charts(player, leagues),
        "rounds": list(
            zip(
                rounds,
                _urls("games:session_detail", (entry.round.session_id for entry in rounds)),
                _urls(
                    "games:round_detail",
                    ((entry.round.session_id, entry.round_id) for entry in rounds),
                ),
                strict=True,
            )
        ),
        "claims": player_claims(player, request.user, results.leagues),
    }
    return TemplateResponse(request, "standings/player.html", context)


def _rating_charts(player: Player, leagues: Mapping[int, League]) -> list[dict]:
    """The player's current rating and its history, per league the viewer is a
    member of (``leagues``, by id) and game played there: one chart each (sessions
    of different leagues or games are not one order, nor one skill)."""
    current = {
        (rating.league_id, rating.preset): rating
        for rating in Rating.objects.filter(player=player, league_id__in=list(leagues)).order_by()
    }
    history: dict[tuple[int, str], list[RatingPoint]] = {}
    for league, preset, sequence, played_on, ordinal, session in (
        RatingChange.objects.filter(player=player, league_id__in=list(leagues))
        .order_by("league_id", "preset", "sequence")
        .values_list("league_id", "preset", "sequence", "played_on", "ordinal", "session_id")
    ):
        point = RatingPoint(sequence, played_on, ordinal, session)
        history.setdefault((league, preset), []).append(point)
    order = {preset: number for number, preset in enumerate(Preset.values)}
    result = []
    for (league_id, preset), rating in sorted(
        current.items(), key=lambda item: (leagues[item[0][0]].name, order.get(item[0][1], 0))
    ):
        league, points = leagues[league_id], history.get((league_id, preset), [])
        label = rating.get_preset_display()
        result.append(
            {
                "league": league,
                "game": label,
                "preset": preset,
                "rating": rating,
                "chart": charts.rating_history_svg(
                    [(player.name, points)],
                    title=_("{player}'s {game} rating in {league}").format(
                        player=player.name, game=label, league=league.name
                    ),
                    id_prefix=f"rating-{league_id}-{preset}",
                ),
            }
        )
    return result
