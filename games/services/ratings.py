"""League skill ratings, one per game: OpenSkill (Plackett-Luce) updated from each
finished session's finishing order, in the order the league's sessions of that game
(preset) were played.

Per game: a place at a pool night and a place at a points night are different
skills, and a club that plays both reads two tables; a pool night moves only the
pool's ratings. A game is a preset, as the standings' tabs have it
(games/queries/standings.py).

A rating depends on every earlier session of its game, so when a finished session
changes (a round edited, the session reopened or deleted) its game's ratings are
replayed from that session on (or from where it was rated before, when the admin
moved it to another day, league or game). The history (RatingChange, one row per
player and session) is the rating over time; Rating keeps each player's latest for
the standings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Count, Min, OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from games.models import GameSession, League, Player, Rating, RatingChange, Seat

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative single number, mu − 3 sigma: 0 for a new player."""
        return self.mu - 3 * self.sigma


NEW_PLAYER = Skill(MODEL.mu, MODEL.sigma)


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """Each player's skill after one session; ``places`` 1 = best, ties share."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=places)
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


class RatedGame(NamedTuple):
    """One order of rated sessions: a league's sessions of one game (preset)."""

    league_id: int
    preset: str


def games_to_replay(session: GameSession, was_finished: bool, *, moved: bool) -> list[RatedGame]:
    """The games whose ratings a change to ``session`` moves: its own (its league's
    sessions of its preset) if it is or was finished; when it ``moved`` (to another
    league, day or game, in the admin), first those it was rated in and left, which
    its history names (their replays take its old rows away before its own game's
    writes the new ones)."""
    games = []
    own = RatedGame(session.league_id, session.preset) if session.league_id else None
    if moved:
        rated_in = RatingChange.objects.filter(session=session).order_by()
        left = {RatedGame(*pair) for pair in rated_in.values_list("league_id", "preset")}
        games = sorted(left - {own})
    finished = session.status == GameSession.Status.FINISHED
    if own and (finished or was_finished):
        games.append(own)
    return games


def rated_sessions(league_id: int, preset: str | None = None):
    """The league's finished sessions of one game (None: of every game) in the order
    they count: by the evening they were played, then as they were created."""
    finished = GameSession.objects.filter(league_id=league_id, status=GameSession.Status.FINISHED)
    if preset is not None:
        finished = finished.filter(preset=preset)
    return finished.order_by("played_on", "pk")


def replay_league(league_id: int) -> int:
    """Every game's ratings in the league from the start (a league imported, a
    session deleted in the admin): the games its finished sessions were played as,
    and those it holds ratings in (a game whose last session went loses them)."""
    played = rated_sessions(league_id).order_by()
    presets = set(played.values_list("preset", flat=True).distinct())
    rated = Rating.objects.filter(league_id=league_id).order_by()
    presets |= set(rated.values_list("preset", flat=True).distinct())
    return sum(replay(league_id, preset) for preset in sorted(presets))


def replay(
    league_id: int,
    preset: str | None = None,
    since: GameSession | None = None,
    *,
    moved: bool = False,
) -> int:
    """Recompute the ratings of the league's ``preset`` game from ``since`` on (from
    the start if None), in one transaction; returns how many sessions were rated.
    No ``preset``: ``since``'s game, or with neither every game of the league
    (`replay_league`). ``moved``: ``since`` may have been rated elsewhere in the
    game's order (re-dated) or be rated in it no more (moved to another league or
    game): the replay starts from the earlier place.

    What comes before that place stands: the replay starts from each player's latest
    rating before it, read with one query, and writes the history and current
    ratings of the players it touches only. Closing the newest session therefore
    costs one session's work however long the league's history is."""
    preset = preset or (since.preset if since is not None else None)
    if preset is None:
        return replay_league(league_id)
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league_id).first()  # one replay at a time
        sessions = rated_sessions(league_id, preset)
        if since is None:
            start, rest = 0, sessions
        else:
            # Replay from where the changed session sits now, or would have sat.
            before = Q(played_on__lt=since.played_on) | Q(
                played_on=since.played_on, pk__lt=since.pk
            )
            # The rest said as a range, not as NOT before: an index range then.
            since_on = Q(played_on__gt=since.played_on) | Q(
                played_on=since.played_on, pk__gte=since.pk
            )
            start, rest = sessions.filter(before).count(), sessions.filter(since_on)
            if moved:  # or from where it was rated, if that was earlier
                rated_at = RatingChange.objects.filter(
                    league_id=league_id, preset=preset, session_id=since.pk
                )
                was = rated_at.aggregate(first=Min("sequence"))["first"]
                if was is not None and was < start:
                    start, rest = was, sessions[was:]
        ordered = list(rest.values_list("pk", "played_on"))
        stale = RatingChange.objects.filter(league_id=league_id, preset=preset, sequence__gte=start)
        # order_by(): the model's ordering would join the league and player tables
        # and add their columns to the DISTINCT (every stale row, not every player).
        touched = set(stale.order_by().values_list("player_id", flat=True).distinct())
        stale.delete()
        seats = _seats_by_session([pk for pk, _ in ordered])
        touched |= {player for table in seats.values() for player, _ in table}
        if start == 0:  # and whoever holds a rating now, from whatever came before
            touched |= set(
                Rating.objects.filter(league_id=league_id, preset=preset).values_list(
                    "player_id", flat=True
                )
            )
        game = RatedGame(league_id, preset)
        skills, counts = _latest_before(game, start, touched)
        changes = []
        for sequence, (session_pk, played_on) in enumerate(ordered, start=start):
            table = seats.get(session_pk, [])
            if len(table) < 2:
                continue
            players = [player for player, _ in table]
            after = rate(
                [skills.get(p, NEW_PLAYER) for p in players],
                [place or len(table) for _, place in table],
            )
            on = connection.ops.adapt_datefield_value(played_on)
            for player, skill in zip(players, after, strict=True):
                skills[player] = skill
                counts[player] = counts.get(player, 0) + 1
                row = (*game, player, session_pk, sequence, on, skill.mu, skill.sigma)
                changes.append((*row, skill.ordinal))
        _insert_changes(changes)
        _store_current(game, touched, skills, counts)
        return len(ordered)


# Up to this many players are named in a query; beyond, the league's every player is
# read (a replay that touches that many reads most of the history anyway).
_NAMED = 500


def _of(queryset, players: set[int]):
    return queryset.filter(player_id__in=players) if len(players) <= _NAMED else queryset


def _latest_before(
    game: RatedGame, sequence: int, players: set[int]
) -> tuple[dict[int, Skill], dict[int, int]]:
    """Each of ``players``' skill after the game's sessions before ``sequence``, and
    how many of those sessions they were rated in, in one query: per player, their
    latest change is one step back along the (league, preset, player, sequence) index and
    the count a walk along their own entries of it. (Filtering every change of
    theirs on being their latest instead took 50 ms for six players of a
    100,000-change league: benchmarks/http.py.)"""
    if sequence == 0 or not players:
        return {}, {}
    earlier = RatingChange.objects.filter(
        league_id=game.league_id,
        preset=game.preset,
        player_id=OuterRef("pk"),
        sequence__lt=sequence,
    )
    latest = earlier.order_by("-sequence")
    if len(players) <= _NAMED:
        who = Player.objects.filter(pk__in=players)
    else:  # whoever holds a rating in the game: everyone with a change in it
        who = Player.objects.filter(ratings__league_id=game.league_id, ratings__preset=game.preset)
    rows = (
        who.annotate(
            mu=Subquery(latest.values("mu")[:1]),
            sigma=Subquery(latest.values("sigma")[:1]),
            rated=Subquery(
                earlier.order_by().values("player_id").annotate(n=Count("pk")).values("n")
            ),
        )
        .filter(rated__isnull=False)
        .order_by()
        .values_list("pk", "mu", "sigma", "rated")
    )
    skills, counts = {}, {}
    for player, mu, sigma, rated in rows:
        skills[player], counts[player] = Skill(mu, sigma), rated
    return skills, counts


def _seats_by_session(session_pks: Iterable[int]) -> dict[int, list[tuple[int, int | None]]]:
    """session id → its seats' (player id, place), in seat order: plain rows, not
    model instances (a replay from halfway back reads 50,000 of them)."""
    by_session: dict[int, list[tuple[int, int | None]]] = {}
    pks = list(session_pks)
    for start in range(0, len(pks), 2000):
        for session, player, place in (
            Seat.objects.filter(session_id__in=pks[start : start + 2000])
            .order_by("session_id", "position")
            .values_list("session_id", "player_id", "place")
        ):
            by_session.setdefault(session, []).append((player, place))
    return by_session


# The columns of a RatingChange, in the order replay builds its rows.
_CHANGE_FIELDS = (
    "league",
    "preset",
    "player",
    "session",
    "sequence",
    "played_on",
    "mu",
    "sigma",
    "ordinal",
)


def _insert_changes(rows: list[tuple]) -> None:
    """The new history rows, inserted as plain parameter rows. Building a model
    instance for each and preparing it field by field (bulk_create) was a third of
    the time of a replay from halfway back through a 100,000-change league
    (benchmarks/http.py); the rows here already hold what the columns take (the
    date adapted for the database by replay, once per session)."""
    if not rows:
        return
    meta, quote = RatingChange._meta, connection.ops.quote_name
    fields = [meta.get_field(name) for name in _CHANGE_FIELDS]
    insert = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # A column of values an array, as bulk_create sends them there: the
            # server reads 2,000 rows from nine parameters.
            arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
            for first in range(0, len(rows), 2000):
                columns = [list(column) for column in zip(*rows[first : first + 2000], strict=True)]
                cursor.execute(f"{insert} SELECT * FROM UNNEST({arrays})", columns)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"{insert} VALUES ({marks})", rows)


def _store_current(
    game: RatedGame, touched: set[int], skills: dict[int, Skill], counts: dict[int, int]
) -> None:
    """The Rating rows of the players a replay touched: their latest skill, or none
    for a player left with no rated session."""
    ratings = Rating.objects.filter(league_id=game.league_id, preset=game.preset)
    unrated = sorted(touched - skills.keys())
    for first in range(0, len(unrated), _NAMED):
        ratings.filter(player_id__in=unrated[first : first + _NAMED]).delete()
    existing = {r.player_id: r for r in _of(ratings, touched)}
    create, update = [], []
    for player in touched & skills.keys():
        skill = skills[player]
        rating = existing.get(player) or Rating(
            league_id=game.league_id, preset=game.preset, player_id=player
        )
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.sessions = counts[player]
        (update if rating.pk else create).append(rating)
    Rating.objects.bulk_create(create, batch_size=2000)
    Rating.objects.bulk_update(update, ["mu", "sigma", "ordinal", "sessions"], batch_size=2000)
