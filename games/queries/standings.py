"""League standings and players' results, read from what the app already stored.

Nothing here replays a session or scores a round: every figure is a sum, count,
minimum or maximum of the per-seat results that `services.results.refresh_session`
writes from the rules service's own replay after every round (`Seat.total`, `.won`,
`.rounds_played`, `.points`, `.best_round`, ...), or a rating `services.ratings`
computed. The standings add up those seats' monthly sums (`StandingMonth`, kept by
the same write), reading seats only for the days of a month a date range cuts into:
a fixed, small number of queries (two or three) whose cost grows with players and
months, not with the hands played.

Standings are per game (preset): a league may play other games than its own, and a
pool's penalty points added to a points game's net ones mean nothing. So is the
rating (`services.ratings`): each game's comes from the finishing places of that
game's finished sessions alone, and each game's table ranks by its own rating. A
pool night moves only the pool's table; the club's points table does not turn over
the evening someone plays a pool.

Beside the round figures stand each player's total points (their sessions' totals
summed) and net money (what the sessions played for stakes settled:
games/queries/money.py).

Queries here group and filter in the database; none is issued per player.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import reduce
from operator import or_
from typing import NamedTuple

from django.db.models import (
    F,
    FilteredRelation,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.utils.html import escape
from django.utils.safestring import SafeString

from games.figures import fixed, money, points, rating, whole
from games.models import (
    GameSession,
    League,
    Player,
    Preset,
    RatingChange,
    Seat,
    StandingMonth,
)
from games.queries.money import net_money
from games.queries.months import month_end, month_of, seat_figures
from games.rules import RulesError, best_and_worst, get_ruleset, is_net


class RoundFigures:
    """What is worked out from a player's ``rounds``, ``drops`` and ``points``,
    wherever they are listed (a mixin of the rows below and of the player page's)."""

    rounds: int
    drops: int
    points: int

    @property
    def average_points(self) -> float | None:
        """Points per round played: the sum of round scores over the rounds."""
        return self.points / self.rounds if self.rounds else None

    @property
    def drop_rate(self) -> float | None:
        """The share of their rounds that they dropped (0 to 1)."""
        return self.drops / self.rounds if self.rounds else None

    @property
    def drop_percent(self) -> float | None:
        return None if self.drop_rate is None else 100 * self.drop_rate


@dataclass(frozen=True)
class StandingRow(RoundFigures):
    """One player's line of a league's standings over a range of dates."""

    player: Player
    sessions: int  # sessions they played a round in (finished or still running)
    sessions_won: int  # finished sessions they won (or shared the win of)
    rounds: int
    rounds_won: int
    drops: int  # first drops, middle drops and timeouts
    points: int  # the sum of their round scores
    best_round: int | None  # in the league's terms: highest when net, lowest when penalty
    worst_round: int | None
    total_points: int  # the sum of their sessions' totals (penalty games: low is good)
    money: int | None  # what stakes won (+) or lost (−), in cents; None: never staked
    rating: float | None  # this game's OpenSkill ordinal (mu - 3 sigma); None if unrated
    mu: float | None  # the estimated skill ...
    sigma: float | None  # ... and its uncertainty


def table_lines(
    rows: Sequence[StandingRow], urls: Sequence[str], you: int | None, currency: str = ""
) -> list[dict[str, object]]:
    """The standings table's lines as the page prints them, one per row with its
    player's page (``urls``, in the rows' order) and whether it is the viewer's own
    (``you``: their claimed player's id), the money in the league's ``currency``
    (games/currencies.py). Each figure is grouped as the page's language groups
    digits (games/figures.py). Each cell is worked out here once, as HTML
    text escaped here: the template only places it. 200 lines of ten cells made the
    table the larger half of the page's time (benchmarks/http.py), most of it a
    template looking each cell up (a dict's key is found first, an object's
    attribute only after that fails) and escaping it (text already escaped is
    passed through)."""
    lines = []
    for row, url in zip(rows, urls, strict=True):
        average, drops = row.average_points, row.drop_percent
        lines.append(
            {
                "name": escape(row.player.name),
                "url": escape(url),
                "you": row.player.pk == you,
                "rating": _text("–" if row.rating is None else rating(row.rating)),
                "sessions": _text(whole(row.sessions)),
                "sessions_won": _text(whole(row.sessions_won)),
                "rounds": _text(whole(row.rounds)),
                "rounds_won": _text(whole(row.rounds_won)),
                "average": _text("–" if average is None else points(fixed(average))),
                "total": _text(points(row.total_points)),
                "money": escape(money_text(row.money, currency)),
                "drops": _text("–" if drops is None else f"{fixed(drops, 0)}%"),
                "best": _text(points(row.best_round)),
                "worst": _text(points(row.worst_round)),
            }
        )
    return lines


def _text(value: str) -> SafeString:
    """A figure, or a dash for none, as HTML: nothing in it to escape."""
    return SafeString(value)


def money_text(amount: int | None, currency: str = "") -> str:
    """An amount in cents as the standings write it, won (+) or lost (−): +12.50,
    −3.00, 0.00, +₹1,00,000.00 in a league counting in rupees; a dash for none (no
    stakes were set)."""
    if amount is None:
        return "–"
    return money(Decimal(amount).scaleb(-2), currency, sign=True)


@dataclass(frozen=True)
class Game:
    """A game (preset) played in a league: its standings are its own."""

    preset: str
    label: str
    net: bool  # net totals (a high score is good) or penalty totals (a low one is)
    own: bool  # the league's own preset


def league_games(league: League) -> list[Game]:
    """The games the league's standings show, each on its own: the league's own preset
    first (whether played yet or not), then every other preset one of its sessions
    was played under, in the presets' order. One query."""
    played = set(
        StandingMonth.objects.filter(league=league)
        .order_by()
        .values_list("preset", flat=True)
        .distinct()
    )
    presets = [league.preset] + [p for p in Preset.values if p in played and p != league.preset]
    labels = dict(Preset.choices)
    return [
        Game(
            preset, labels.get(preset, preset), net_totals(preset, league), preset == league.preset
        )
        for preset in presets
    ]


def running_sessions(
    league: League,
    preset: str,
    *,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> list[GameSession]:
    """The league's sessions of one game still running between the dates, oldest
    first: in the standings' sessions and rounds, not yet in their wins, ratings
    or money. One query."""
    running = GameSession.objects.filter(
        league=league, preset=preset, status=GameSession.Status.ACTIVE
    )
    if date_from is not None:
        running = running.filter(played_on__gte=date_from)
    if date_to is not None:
        running = running.filter(played_on__lte=date_to)
    return list(running.order_by("played_on", "pk").only("pk", "name", "preset", "played_on"))


def pick_game(games: Sequence[Game], preset: str | None) -> Game:
    """The game asked for (``?game=``), or the league's own (the first) when none is,
    or one the league never played (a link kept from before a session was deleted)."""
    return next((game for game in games if game.preset == preset), games[0])


def standings_of(
    league: League,
    *,
    game: str | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> list[StandingRow]:
    """Every player who played ``game`` (a preset; None: the league's own) in the
    league's sessions between ``date_from`` and ``date_to`` (``GameSession.played_on``,
    both inclusive; None: open-ended), best first: by that game's rating, then
    sessions won, then points per round (the highest first in net totals, the
    lowest in penalty ones), then name. Only that game's sessions count: points,
    places and money of another game never add up.

    The rating is the player's current one in the game (`Rating`), or with
    ``date_to`` the one they had after the last rated session played on or before
    that day (`RatingChange`). At most five queries (three here, two for the
    money), whatever the size of the league.
    """
    preset = game or league.preset
    net = net_totals(preset, league)
    summed = _summed(league, preset, date_from, date_to)
    money = net_money(league, preset, net=net, date_from=date_from, date_to=date_to)
    rows = [
        StandingRow(
            player=player,
            **figures(summed[player.pk], net),
            total_points=summed[player.pk]["totals"] or 0,
            money=money.get(player.pk),
            rating=player.r_ordinal,
            mu=player.r_mu,
            sigma=player.r_sigma,
        )
        for player in _rated_players(league, preset, list(summed), date_to)
    ]
    rows.sort(key=lambda row: _order(row, net))
    return rows


def figures(summed: dict, net: bool) -> dict:
    """The figures of a row (`RoundFigures` and its neighbours) from seats summed as
    `months.seat_figures` names them: sums of nothing are 0, and a round's
    best and worst are those of the seats' bests and worsts the totals call so."""
    best, _ = best_and_worst(summed["best_low"], summed["best_high"], net=net)
    _, worst = best_and_worst(summed["worst_low"], summed["worst_high"], net=net)
    return {
        "sessions": summed["sessions"],
        "sessions_won": summed["sessions_won"],
        "rounds": summed["rounds"] or 0,
        "rounds_won": summed["rounds_won"] or 0,
        "drops": summed["drops"] or 0,
        "points": summed["points"] or 0,
        "best_round": best,
        "worst_round": worst,
    }


def _summed(
    league: League, preset: str, date_from: datetime.date | None, date_to: datetime.date | None
) -> dict[int, dict]:
    """player id → their figures in the league's sessions of one game between the
    dates: the whole months inside the range from `StandingMonth`, the days of a month
    the range cuts into from the seats themselves (one query each, at most)."""
    months = StandingMonth.objects.filter(league=league, preset=preset)
    cut: list[Q] = []  # the days of the part-months, whose seats are read one by one
    if date_from is not None:
        first = month_of(date_from)
        if date_from == first:
            months = months.filter(month__gte=first)
        else:
            months = months.filter(month__gt=first)
            cut.append(Q(session__played_on__range=(date_from, month_end(first))))
    if date_to is not None:
        last = month_of(date_to)
        if date_to == month_end(last):
            months = months.filter(month__lte=last)
        else:
            months = months.filter(month__lt=last)
            cut.append(Q(session__played_on__range=(last, date_to)))
    summed = {
        row.pop("player_id"): row
        # order_by(): the model's ordering (by league, month, player) would join the
        # league and player tables into the sum, a third of its time.
        for row in months.order_by()
        .values("player_id")
        .annotate(
            sessions=Sum("sessions"),
            sessions_won=Sum("sessions_won"),
            rounds=Sum("rounds"),
            rounds_won=Sum("rounds_won"),
            drops=Sum("drops"),
            points=Sum("points"),
            totals=Sum("totals"),
            best_high=Max("best_high"),
            best_low=Min("best_low"),
            worst_high=Max("worst_high"),
            worst_low=Min("worst_low"),
        )
    }
    if cut:
        # Both ends may cut into one month: the range itself bounds both parts.
        seats = Seat.objects.filter(
            reduce(or_, cut),
            session__league=league,
            session__preset=preset,
            rounds_played__gt=0,
        )
        if date_from is not None:
            seats = seats.filter(session__played_on__gte=date_from)
        if date_to is not None:
            seats = seats.filter(session__played_on__lte=date_to)
        for row in seats.order_by().values("player_id").annotate(**seat_figures()):
            _add(summed.setdefault(row.pop("player_id"), {}), row)
    return summed


def _add(total: dict, more: dict) -> None:
    """Adds a group's figures to a player's: counts add up, the ends widen."""
    for name, value in more.items():
        kept = total.get(name)
        if kept is None or value is None:
            total[name] = value if kept is None else kept
        elif name.endswith("_high"):
            total[name] = max(kept, value)
        elif name.endswith("_low"):
            total[name] = min(kept, value)
        else:
            total[name] = kept + value


def _order(row: StandingRow, net: bool) -> tuple:
    """A row's place: by the game's rating, the unrated last, then as above."""
    average = row.average_points
    return (
        row.rating is None,
        -(row.rating or 0.0),
        -row.sessions_won,
        average is None,
        (-(average or 0.0) if net else (average or 0.0)),
        row.player.name.lower(),
        row.player.pk,
    )


def _rated_players(
    league: League, preset: str, player_ids: Sequence[int], date_to: datetime.date | None
) -> QuerySet[Player]:
    """The players, each with their rating in the league's ``preset`` game as
    ``r_ordinal``, ``r_mu`` and ``r_sigma`` (None if never rated): current, or as it
    was after ``date_to``.
    One query: the players and their ratings were two, each sending every id."""
    if not player_ids:
        return Player.objects.none()
    players = Player.objects.filter(pk__in=player_ids).order_by()
    if date_to is None:
        # Their one Rating row here, joined: (league, preset, player) is unique.
        here = Q(ratings__league=league, ratings__preset=preset)
        return players.annotate(
            here=FilteredRelation("ratings", condition=here),
            r_ordinal=F("here__ordinal"),
            r_mu=F("here__mu"),
            r_sigma=F("here__sigma"),
        )
    # The latest change up to that day, per player: one index probe each on
    # (league, preset, player, sequence), walking back from the newest.
    latest = RatingChange.objects.filter(
        league=league, preset=preset, player=OuterRef("pk"), played_on__lte=date_to
    ).order_by("-sequence")
    return players.annotate(
        r_ordinal=Subquery(latest.values("ordinal")[:1]),
        r_mu=Subquery(latest.values("mu")[:1]),
        r_sigma=Subquery(latest.values("sigma")[:1]),
    )


# --- Rating history ---------------------------------------------------------------------


class RatingPoint(NamedTuple):
    """A rating after one session. A named tuple: a standings page reads thousands
    (its chart's players' whole histories), and a frozen dataclass costs several
    times as much to make."""

    sequence: int  # the session's place in the order of the game's rated sessions
    played_on: datetime.date
    ordinal: float
    session_id: int


def rating_history(
    league: League,
    player_ids: Iterable[int],
    *,
    game: str | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> dict[int, list[RatingPoint]]:
    """player id → their rating after each rated session of the league's ``game`` (a
    preset; None: the league's own), in order. One query."""
    ids = list(player_ids)
    if not ids:
        return {}
    preset = game or league.preset
    changes = RatingChange.objects.filter(league=league, preset=preset, player_id__in=ids)
    if date_from is not None:
        changes = changes.filter(played_on__gte=date_from)
    if date_to is not None:
        changes = changes.filter(played_on__lte=date_to)
    history: dict[int, list[RatingPoint]] = {pk: [] for pk in ids}
    for player, sequence, played_on, ordinal, session in changes.order_by(
        "player_id", "sequence"
    ).values_list("player_id", "sequence", "played_on", "ordinal", "session_id"):
        history[player].append(RatingPoint(sequence, played_on, ordinal, session))
    return history


def net_totals(preset: str, league: League | None) -> bool:
    """Whether a preset keeps net totals, with the league's house rules when the
    league plays that preset (a house rule may change the totals)."""
    overrides = league.overrides if league is not None and league.preset == preset else {}
    try:
        return is_net(get_ruleset(preset, overrides))
    except RulesError:
        return is_net(get_ruleset(preset))
