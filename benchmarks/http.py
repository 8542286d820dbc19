"""Server time of the standings, player and session pages and of two writes over a
big league, on PostgreSQL.

    .venv/bin/python benchmarks/http.py --json          # 200 players, 20,000 sessions,
                                                        # 1,000,000 hand entries
    .venv/bin/python benchmarks/http.py --sessions 400 --entries 20000 --requests 10
                                                        # a quick look (seconds)

Creates a database of its own (``scorekeeper_bench`` on 127.0.0.1, dropped and
recreated; never the dev or test database: --database picks another name, which
must start with ``scorekeeper_bench`` or ``scorekeeper_NAME_bench``), migrates it
and fills it with one league ("Big club") of 200 players, 20,000 sessions of
21-card points and about 1,000,000 hand entries, plus a league a tenth of its size
("Small club") sharing the players.

The data is real: a pool of rounds is dealt from a shuffled shoe and scored by the
rules service (`score_round`; the winner's hand is built to declare, the losers'
hands are dealt at random and grouped by the arrangement solver, some drop), and
sessions reuse those rounds with players drawn from the 200, the dealer moving
round by round. Each session's seat results (total, place, won, rounds, drops,
points, best and worst round) come from `session_state` as `services.results`
stores them, most sessions are closed by hand (the best total wins), and then the
league's standings months are rebuilt (`standing_months.rebuild`) and its ratings
replayed (`ratings.replay`) by the app's own code. Rows go in with COPY, each
named by column, every column a row leaves out taking the model field's default,
so a column added later does not break the fill; the fill takes minutes.

Then it measures, in-process through Django's test client (server time, no
network), the standings page (all dates, and a date range), a typical session page
(5 players, 10 rounds, as its scorer: the score table and the round form), a
player page and a session's chart: median and p95 milliseconds over --requests
requests, and the SQL queries of one request (CaptureQueriesContext). The small
league's standings show that the query count does not grow with the data. And it
times two writes POSTed as the pages send them, --repeats times each: closing the
league's latest session, and saving a round of a session halfway back in its
history (which replays half the league's ratings).

The floor, measured in the same run by the same client: the bare "hello" view
(benchmarks/floor.py), under ``"floor"``; each page and write carries its
``"ratio"`` to it (median to median) and its ``"cpu_ratio"`` (CPU to CPU), which
another machine can compare. One JSON object goes to stdout, with the targets and
whether they were met; --explain also prints EXPLAIN ANALYZE of the standings'
queries to stderr.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import secrets
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on sys.path, and this file's name
# would hide the standard library's http package (which Django imports): the
# folder makes way for the project root.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from benchmarks.floor import hello_in_process, ratio  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"
PRESET = "21-points"
# Each page's target median in ms, on the big league the fill makes.
TARGETS_MS = {"standings": 50, "player": 40, "session": 30, "close": 100}


def log(message: str) -> None:
    print(f"[http-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def set_up_django(database: str) -> None:
    """Django on ``database``: a name on the local server, or a whole DATABASE_URL."""
    os.environ["DATABASE_URL"] = database if "://" in database else f"{PG}/{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    # Measured as production runs: DEBUG off (no query log kept), templates cached.
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    import django

    django.setup()


# --- A pool of real rounds, scored by the rules service -------------------------------------


class JsonText(str):
    """A JSON field's value encoded once: a pooled round's hands are copied into
    about a million rows, and encoding each again would add seconds to the fill."""

    @classmethod
    def of(cls, value) -> JsonText:
        return cls(json.dumps(value))


@dataclass(frozen=True)
class Hand:
    """One player's part of a pooled round, as save_round stores it."""

    outcome: str
    groups: JsonText
    declaration: str
    hand_points: int
    value_points: int
    claims: int
    score: int
    breakdown: JsonText


@dataclass(frozen=True)
class PooledRound:
    cut: str
    hands: tuple[Hand, ...]  # by position at the table, the winner anywhere


def shoe(decks: int) -> Counter:
    from games.rules.cards import all_cards

    return Counter({card: decks for card in all_cards()})


def take(available: Counter, cards) -> bool:
    need = Counter(cards)
    if any(available[card] < n for card, n in need.items()):
        return False
    available.subtract(need)
    return True


def declaring_hand(rng: random.Random, available: Counter, ruleset) -> list[list] | None:
    """Seven groups of three that declare the three-pure way: three to five pure
    sequences and sets of three suits for the rest (None if the shoe runs short)."""
    from games.rules.cards import KING, SUITS, Card

    groups = []
    pure = rng.randint(ruleset.pure_needed, 5)
    for number in range(ruleset.hand_size // 3):
        if number < pure:
            suit, start = rng.choice(SUITS), rng.randint(1, KING - 2)
            group = [Card(rank, suit) for rank in range(start, start + 3)]
        else:
            rank = rng.randint(1, KING)
            group = [Card(rank, suit) for suit in rng.sample(SUITS, 3)]
        if not take(available, group):
            return None
        groups.append(group)
    rng.shuffle(groups)
    return groups


def pooled_round(rng: random.Random, ruleset, players: int) -> PooledRound | None:
    from games.rules import PlayerHand, RulesError, score_round
    from games.rules.arrange import arrange
    from games.services.round_saves import breakdown_of
    from games.services.round_words import said_in_each_language

    available = shoe(ruleset.decks)
    winner_groups = declaring_hand(rng, available, ruleset)
    if winner_groups is None:
        return None
    deck = list(available.elements())
    rng.shuffle(deck)
    cut = deck.pop()
    winner = rng.randrange(players)
    hands = []
    for position in range(players):
        name = f"P{position}"
        if position == winner:
            hands.append(PlayerHand(name, "declared", tuple(tuple(g) for g in winner_groups)))
            continue
        cards = [deck.pop() for _ in range(ruleset.hand_size)]
        roll = rng.random()
        if roll < 0.15:
            hands.append(PlayerHand(name, "first_drop"))
        elif roll < 0.27:
            hands.append(PlayerHand(name, "middle_drop"))
        else:
            # A loser shows their cards grouped as well as the rules allow.
            best = arrange(ruleset, cut, cards)
            outcome = "declared" if best.declaration else "shown"
            if outcome == "declared":
                return None  # a second declaration: deal again
            hands.append(PlayerHand(name, "shown", best.groups))
    try:
        result = score_round(ruleset, cut, hands)
    except RulesError:
        return None
    # What a save keeps: the working in each language (services/round_words.py).
    said = said_in_each_language(lambda: score_round(ruleset, cut, hands), result)
    stored = []
    for hand, player, words in zip(hands, result.players, said, strict=True):
        stored.append(
            Hand(
                outcome=player.outcome,
                groups=JsonText.of([[card.code for card in group] for group in hand.groups]),
                declaration=player.declaration or "",
                hand_points=player.hand_points,
                value_points=player.value_points,
                claims=player.claims,
                score=player.score,
                # What the app keeps of the rules service's explanation.
                breakdown=JsonText.of(breakdown_of(player, words)),
            )
        )
    return PooledRound(cut.code, tuple(stored))


def round_pool(rng: random.Random, ruleset, sizes, per_size: int) -> dict[int, list[PooledRound]]:
    pool: dict[int, list[PooledRound]] = {}
    for size in sizes:
        rounds: list[PooledRound] = []
        while len(rounds) < per_size:
            played = pooled_round(rng, ruleset, size)
            if played is not None:
                rounds.append(played)
        pool[size] = rounds
    return pool


# --- Filling the database with COPY ------------------------------------------------------


class Table:
    """Rows of one model for COPY, each given by field name (``league_id=...``):
    every concrete column goes in, and one a row does not name takes the field's
    default (``auto_now`` fields: now; nullable fields: NULL). A column added to a
    model later is thus filled as the app would fill it, rather than shifting every
    value after it; a new required column without a default stops the fill with its
    name. Primary keys are handed out here, so rows can refer to each other before
    they are copied."""

    def __init__(self, model, now: datetime.datetime) -> None:
        from django.db.models import JSONField

        self.model = model
        self.fields = model._meta.concrete_fields
        self.names = {field.attname for field in self.fields}
        self.rows: list[tuple] = []
        self.last_pk = 0
        self.made = 0
        # Worked out once per column, not once per row of a million.
        self._columns = [
            (field.attname, self._default_of(field, now), isinstance(field, JSONField))
            for field in self.fields
        ]

    def _default_of(self, field, now: datetime.datetime):
        """A function giving the field's value in a row that does not name it: what
        Django would save for it (its default, "" for text, None where null is
        allowed; now for ``auto_now`` fields)."""
        if field.has_default():
            return field.get_default  # a callable default (a token) runs per row
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            return lambda: now
        value = field.get_default()
        if value is not None or field.null:
            return lambda: value

        def required():
            raise TypeError(
                f"{self.model.__name__}.{field.name} is required and has no default: "
                "give it in the benchmark's fill"
            )

        return required

    def add(self, **values) -> int:
        """One row; returns its primary key."""
        unknown = values.keys() - self.names
        if unknown:
            raise TypeError(f"{self.model.__name__} has no column {sorted(unknown)}")
        self.last_pk += 1
        values.setdefault(self.model._meta.pk.attname, self.last_pk)
        row = []
        for name, default, is_json in self._columns:
            value = values[name] if name in values else default()
            if is_json and value is not None and not isinstance(value, JsonText):
                # COPY's text format takes JSON as text; psycopg does not adapt a dict.
                value = json.dumps(value)
            row.append(value)
        self.rows.append(tuple(row))
        return self.last_pk

    def copy(self, conn) -> None:
        """Sends the rows held so far, by column name, and forgets them."""
        columns = ", ".join(field.column for field in self.fields)
        with conn.cursor() as cursor:
            statement = f"COPY {self.model._meta.db_table} ({columns}) FROM STDIN"
            with cursor.copy(statement) as copy:
                for row in self.rows:
                    copy.write_row(row)
        self.made += len(self.rows)
        self.rows = []


@dataclass
class Fill:
    sessions: int = 0
    seats: int = 0
    rounds: int = 0
    entries: int = 0


def fill_league(
    tables: dict[str, Table],
    flush,
    rng: random.Random,
    *,
    league_id: int,
    user_id: int,
    player_ids: list[int],
    sessions: int,
    entries: int,
    pool: dict[int, list[PooledRound]],
    start: datetime.date,
    days: int,
    ruleset,
) -> tuple[Fill, list[tuple]]:
    """Rows for a league's sessions; returns the counts and, per session, (session
    id, players, rounds) to pick a typical one from."""
    from games.rules.totals import session_state
    from games.services.results import one_hand, seat_results

    done = Fill()
    typical: list[tuple] = []
    # Some players come every week, some now and then.
    weights = [rng.choice((1, 1, 2, 3, 5)) for _ in player_ids]
    sizes = sorted(pool)
    now = datetime.datetime.now(datetime.UTC)
    session_table, seat_table = tables["session"], tables["seat"]
    round_table, entry_table = tables["round"], tables["entry"]
    for index in range(sessions):
        size = rng.choices(sizes, weights=[3, 4, 3][: len(sizes)] or None)[0]
        left_sessions = sessions - index
        per_session = (entries - done.entries) / left_sessions
        if left_sessions == 1:
            count = max(1, round((entries - done.entries) / size))
        else:
            count = max(1, round(per_session / size + rng.uniform(-4, 4)))
        played_on = start + datetime.timedelta(days=index * days // sessions)
        at = datetime.datetime.combine(played_on, datetime.time(19), tzinfo=datetime.UTC)
        # The league's latest evenings are still being played: not closed yet.
        closed = index < sessions - max(1, sessions // 200)
        # Weighted sampling without replacement: the k largest of u ** (1 / weight).
        players = [
            pk
            for _, pk in sorted(
                ((rng.random() ** (1 / w), pk) for pk, w in zip(player_ids, weights, strict=True)),
                reverse=True,
            )[:size]
        ]
        names = [f"p{pk}" for pk in players]
        chosen = [rng.choice(pool[size]) for _ in range(count)]
        # Each round is dealt by the next seat; its hands are turned to start there.
        scores, dealers = [], []
        for number, played in enumerate(chosen):
            turn = number % size
            scores.append({names[(turn + i) % size]: h.score for i, h in enumerate(played.hands)})
            dealers.append(names[turn])
        state = session_state(ruleset, names, scores, dealers=dealers, closed=closed)
        ended = at + datetime.timedelta(hours=3)
        session_id = session_table.add(
            league_id=league_id,
            name=f"Evening {index + 1}",
            preset=PRESET,
            status="finished" if state.finished else "active",
            created_by_id=user_id,
            created_at=at,
            updated_at=ended if closed else now,
            played_on=played_on,
            closed_at=ended if closed else None,
        )
        # The seat results as services.results works them out (the standings read these).
        results = seat_results(
            state,
            (
                one_hand(names[(number + i) % size], hand.outcome, hand.score)
                for number, played in enumerate(chosen)
                for i, hand in enumerate(played.hands)
            ),
        )
        seat_of = {}
        for position, (pk, name) in enumerate(zip(players, names, strict=True), start=1):
            seat_of[name] = seat_table.add(
                session_id=session_id,
                player_id=pk,
                position=position,
                **vars(results[name]),
            )
        for number, played in enumerate(chosen, start=1):
            turn = (number - 1) % size
            saved_at = at + datetime.timedelta(minutes=5 * number)
            round_id = round_table.add(
                session_id=session_id,
                number=number,
                dealer_id=seat_of[names[turn]],
                cut_joker=played.cut,
                entered_by_id=user_id,
                created_at=saved_at,
                updated_at=saved_at,
            )
            for i, hand in enumerate(played.hands):
                entry_table.add(
                    round_id=round_id,
                    player_id=players[(turn + i) % size],
                    outcome=hand.outcome,
                    groups=hand.groups,
                    declaration=hand.declaration,
                    hand_points=hand.hand_points,
                    value_points=hand.value_points,
                    claims=hand.claims,
                    score=hand.score,
                    breakdown=hand.breakdown,
                )
        done.sessions += 1
        done.seats += size
        done.rounds += count
        done.entries += count * size
        typical.append((session_id, size, count))
        if len(entry_table.rows) > 200_000 or index == sessions - 1:
            flush()
            log(f"league {league_id}: {done.sessions} sessions, {done.entries} hand entries")
    return done, typical


def fill(database: str, args) -> dict:
    """Users, players, two leagues and their sessions; then the standings' months
    and the ratings, as the app's own rebuild and replay make them."""
    import psycopg
    from django.contrib.auth.models import User

    from games.models import GameSession, HandEntry, League, Membership, Player, Round, Seat
    from games.rules import get_ruleset
    from games.services.ratings import replay
    from games.services.standing_months import rebuild

    rng = random.Random(args.seed)
    ruleset = get_ruleset(PRESET)
    started = time.perf_counter()
    log(f"scoring a pool of {args.pool} rounds per table size with the rules service")
    pool = round_pool(rng, ruleset, (4, 5, 6), args.pool)
    pool_seconds = time.perf_counter() - started

    user = User.objects.create_user("bench", password=None)
    big = League.objects.create(name="Big club", slug="big-club", preset=PRESET)
    small = League.objects.create(name="Small club", slug="small-club", preset=PRESET)
    for league in (big, small):
        Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    Player.objects.bulk_create(Player(name=f"Player {n:03d}") for n in range(1, args.players + 1))
    player_ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))

    now = datetime.datetime.now(datetime.UTC)
    tables = {
        "session": Table(GameSession, now),
        "seat": Table(Seat, now),
        "round": Table(Round, now),
        "entry": Table(HandEntry, now),
    }
    with psycopg.connect(f"{PG}/{database}") as conn:

        def flush() -> None:
            # In this order: each table's rows refer to the ones before.
            for table in tables.values():
                table.copy(conn)

        start = datetime.date(2022, 1, 1)
        made = {}
        typical = []
        for league, sessions, entries in (
            (big, args.sessions, args.entries),
            (small, max(1, args.sessions // 10), max(1, args.entries // 10)),
        ):
            made[league.slug], found = fill_league(
                tables, flush, rng, league_id=league.pk, user_id=user.pk,
                player_ids=player_ids, sessions=sessions, entries=entries, pool=pool,
                start=start, days=4 * 365, ruleset=ruleset,
            )  # fmt: skip
            if league is big:
                typical = found
        with conn.cursor() as cursor:
            # Who dealt first: seat 1, as sessions are started.
            cursor.execute(
                "UPDATE games_gamesession AS s SET first_dealer_id = seat.id "
                "FROM games_seat AS seat WHERE seat.session_id = s.id AND seat.position = 1"
            )
            for table in tables.values():
                name = table.model._meta.db_table
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT max(id) FROM {name}))"
                )
        conn.commit()
    copy_seconds = time.perf_counter() - started - pool_seconds
    log("the leagues' standings months and ratings")
    rebuild([big.pk, small.pk])
    for league in (big, small):
        replay(league.pk)
    ratings_seconds = time.perf_counter() - started - pool_seconds - copy_seconds
    with psycopg.connect(f"{PG}/{database}", autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return {
        "made": {slug: vars(counts) for slug, counts in made.items()},
        "typical": typical,
        "seconds": {
            "pool": round(pool_seconds, 1),
            "copy": round(copy_seconds, 1),
            "months_and_ratings": round(ratings_seconds, 1),
            "total": round(time.perf_counter() - started, 1),
        },
    }


# --- Measuring -----------------------------------------------------------------------


def measure(client, url: str, requests: int, warmup: int = 5) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(warmup):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    times, cpu = [], []
    for _ in range(requests):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    times.sort()
    return {
        "url": url,
        "requests": requests,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[min(len(times) - 1, round(0.95 * (len(times) - 1)))], 2),
        "min_ms": round(times[0], 2),
        "max_ms": round(times[-1], 2),
        # This process's CPU alone: less moved by other work on a shared machine
        # than the wall time (the database's share is in neither).
        "cpu_median_ms": round(statistics.median(cpu), 2),
        "queries": len(queries),
        "sql_ms": round(sum(float(q["time"]) for q in queries.captured_queries) * 1000, 2),
    }


def measure_writes(client, league, repeats: int) -> dict:
    """What a change costs through the app's own write path, POSTed by the test
    client as the session and round pages send them (server time, wall ms, and the
    SQL queries of one run):

    - closing the league's latest session by hand: its seats' results, its
      standings month and its ratings (one session's replay) are written; it is
      reopened before each next run, untimed;
    - saving a round of a session halfway back in the league's history, as its
      edit page sends it: the session's results are written again and the
      league's ratings replayed from that session on (half the league's history).
    """
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.models import GameSession
    from games.services.ratings import rated_sessions
    from games.services.round_entries import edit_form_data

    def timed(action, before=None) -> dict:
        times, cpu, queries = [], [], 0
        for _ in range(repeats):
            if before is not None:
                before()  # not timed
            with CaptureQueriesContext(connection) as captured:
                began, began_cpu = time.perf_counter(), time.process_time()
                action()
                times.append((time.perf_counter() - began) * 1000)
                cpu.append((time.process_time() - began_cpu) * 1000)
            queries = len(captured)
        return {
            "median_ms": round(statistics.median(times), 1),
            "max_ms": round(max(times), 1),
            "cpu_median_ms": round(statistics.median(cpu), 1),
            "queries": queries,
            "runs": repeats,
        }

    def posted(url: str, data: dict) -> None:
        response = client.post(url, data)
        # Both answer a redirect to the session page; a refusal is a form again.
        assert response.status_code == 302, (url, response.status_code)

    latest = GameSession.objects.filter(league=league).order_by("-played_on", "-pk").first()
    close_url = reverse("games:session_close", args=[latest.pk])
    if latest.closed_at is not None:
        posted(close_url, {"reopen": "1"})

    def close() -> None:
        posted(close_url, {})

    def reopen() -> None:
        latest.refresh_from_db()
        if latest.closed_at is not None:
            posted(close_url, {"reopen": "1"})

    rated = rated_sessions(league.pk)
    halfway = rated[rated.count() // 2]
    played = halfway.rounds.order_by("number").last()
    edit_url = reverse("games:round_edit", args=[halfway.pk, played.pk])

    def edit() -> None:
        # The edit page's form as it is first shown: the round as saved, at the
        # version it was shown with (each save moves the version on).
        played.refresh_from_db()
        posted(edit_url, edit_form_data(played))

    log(f"writes: closing session {latest.pk}; saving round {played.pk} of session {halfway.pk}")
    result = {"close_latest": timed(close, reopen)}
    closed = GameSession.objects.get(pk=latest.pk)
    assert closed.closed_at is not None and closed.status == "finished", "the close did not save"
    first_version = played.version
    result["edit_halfway_back"] = timed(edit)
    played.refresh_from_db()
    assert played.version == first_version + repeats, "the edit did not save"
    return result


def explain(league, date_from, date_to) -> None:
    """EXPLAIN ANALYZE of the standings' queries, to stderr."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.queries.standings import standings_of

    for label, kwargs in (
        ("all dates", {}),
        ("date range", {"date_from": date_from, "date_to": date_to}),
    ):
        with CaptureQueriesContext(connection) as queries:
            standings_of(league, **kwargs)
        for query in queries.captured_queries:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + query["sql"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
            print(f"--- standings, {label}:\n{query['sql'][:300]}...\n{plan}\n", file=sys.stderr)


def count_rows() -> dict:
    from games.models import (
        GameSession,
        HandEntry,
        League,
        Player,
        Rating,
        RatingChange,
        Round,
        Seat,
        StandingMonth,
    )

    by_league = {}
    for league in League.objects.order_by("pk"):
        by_league[league.slug] = {
            "sessions": GameSession.objects.filter(league=league).count(),
            "finished_sessions": GameSession.objects.filter(
                league=league, status=GameSession.Status.FINISHED
            ).count(),
            "seats": Seat.objects.filter(session__league=league).count(),
            "rounds": Round.objects.filter(session__league=league).count(),
            "hand_entries": HandEntry.objects.filter(round__session__league=league).count(),
            "rating_changes": RatingChange.objects.filter(league=league).count(),
            "rated_players": Rating.objects.filter(league=league).count(),
            "standing_months": StandingMonth.objects.filter(league=league).count(),
        }
    return {
        "players": Player.objects.count(),
        "leagues": by_league,
        "total_hand_entries": HandEntry.objects.count(),
    }


def run(args) -> dict:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from games.models import GameSession, League

    if args.reuse and League.objects.filter(slug="big-club").exists():
        filled = {"reused": True}
        typical_pk = None
        # The last run's writes left dead rows (editing halfway back rewrites half
        # the rating history): vacuumed, as after the fill, every run starts alike.
        import psycopg

        with psycopg.connect(f"{PG}/{args.database}", autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
    else:
        filled = fill(args.database, args)
        # A typical evening: five players, ten rounds (the middle of the league's).
        candidates = [pk for pk, size, count in filled.pop("typical") if (size, count) == (5, 10)]
        typical_pk = candidates[len(candidates) // 2] if candidates else None
    big = League.objects.get(slug="big-club")
    small = League.objects.get(slug="small-club")
    if typical_pk is None:
        typical_pk = (
            GameSession.objects.filter(league=big, status="finished")
            .order_by("pk")
            .values_list("pk", flat=True)[args.sessions // 2]
        )
    session = GameSession.objects.get(pk=typical_pk)
    last = GameSession.objects.filter(league=big).order_by("-played_on").first().played_on
    date_from, date_to = last - datetime.timedelta(days=365), last - datetime.timedelta(days=90)
    player = session.seats.order_by("position").first().player

    client = Client()
    client.force_login(User.objects.get(username="bench"))
    log("measuring")
    standings_url = reverse("games:league_standings", args=[big.slug])
    pages = {
        "standings": measure(client, standings_url, args.requests),
        "standings_date_range": measure(
            client, f"{standings_url}?from={date_from}&to={date_to}", args.requests
        ),
        "standings_small_league": measure(
            client, reverse("games:league_standings", args=[small.slug]), args.requests
        ),
        "session": measure(
            client, reverse("games:session_detail", args=[session.pk]), args.requests
        ),
        "session_chart_svg": measure(
            client, reverse("games:session_totals_chart", args=[session.pk]), args.requests
        ),
        "player": measure(client, reverse("games:player_detail", args=[player.pk]), args.requests),
    }
    writes = measure_writes(client, big, args.repeats)
    floor = hello_in_process(client)
    for figures in (*pages.values(), *writes.values()):
        figures["ratio"] = ratio(figures["median_ms"], floor["median_ms"])
        figures["cpu_ratio"] = ratio(figures["cpu_median_ms"], floor["cpu_median_ms"])
    if args.explain:
        explain(big, date_from, date_to)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        size = cursor.fetchone()[0]
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    data = count_rows()
    return {
        "database": args.database,
        "postgresql": server,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        # What else the machine was doing: the 1, 5 and 15-minute load averages.
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "data": data | {"database_mb": round(size / 2**20)},
        "typical_session": {
            "id": session.pk,
            "players": session.seats.count(),
            "rounds": session.rounds.count(),
        },
        "date_range": [date_from.isoformat(), date_to.isoformat()],
        "fill": filled,
        "floor": floor,
        "pages": pages,
        "writes": writes,
        "standings_queries_constant": len(
            {pages[k]["queries"] for k in ("standings", "standings_small_league")}
        )
        == 1,
        "targets_ms": TARGETS_MS,
        "targets_met": {
            "standings": pages["standings"]["median_ms"] <= TARGETS_MS["standings"]
            and pages["standings_date_range"]["median_ms"] <= TARGETS_MS["standings"],
            "session": pages["session"]["median_ms"] <= TARGETS_MS["session"],
            "player": pages["player"]["median_ms"] <= TARGETS_MS["player"],
            "close": writes["close_latest"]["median_ms"] <= TARGETS_MS["close"],
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=20_000)
    parser.add_argument("--entries", type=int, default=1_000_000, help="hand entries")
    parser.add_argument("--pool", type=int, default=300, help="scored rounds per table size")
    parser.add_argument("--requests", type=int, default=100, help="timed requests per page")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each rating change")
    parser.add_argument("--database", default="scorekeeper_bench")
    parser.add_argument("--keep", action="store_true", help="leave the database afterwards")
    parser.add_argument("--reuse", action="store_true", help="measure a kept database again")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE to stderr")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    # Only a benchmark's own database is ever dropped: scorekeeper_bench..., or
    # scorekeeper_NAME_bench... for a helper keeping its own copy beside others.
    if not re.fullmatch(r"scorekeeper_(?:[a-z0-9]+_)?bench\w*", args.database):
        parser.error(
            "--database must be scorekeeper_bench... or scorekeeper_NAME_bench... (it is dropped)"
        )

    if not args.reuse:
        recreate_database(args.database)
    set_up_django(args.database)
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0, interactive=False)
        report = run(args)
    finally:
        connections.close_all()
        if not args.keep:
            drop_database(args.database)
    if args.json:
        print(json.dumps(report))
    else:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
