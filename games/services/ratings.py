"""League skill ratings: OpenSkill (Plackett-Luce) updated from each finished
session's finishing order, in the order the league's sessions were played.

A rating depends on every earlier session, so when a finished session changes (a
round edited, the session reopened or deleted) the league's ratings are replayed
from that session on. The history (RatingChange, one row per player and session)
is the rating over time; Rating keeps each player's latest for the standings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from games.models import GameSession, League, Rating, RatingChange, Seat

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


def rated_sessions(league_id: int):
    """The league's finished sessions in the order they count: by the evening they
    were played, then as they were created."""
    return GameSession.objects.filter(
        league_id=league_id, status=GameSession.Status.FINISHED
    ).order_by("played_on", "pk")


def replay(league_id: int, since: GameSession | None = None) -> int:
    """Recompute the league's ratings from ``since`` on (from the start if None), in
    one transaction; returns how many sessions were rated.

    What comes before ``since`` stands: the replay starts from each player's latest
    rating before it, read with one query, and writes the history and current
    ratings of the players it touches only. Closing the newest session therefore
    costs one session's work however long the league's history is."""
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league_id).first()  # one replay at a time
        sessions = rated_sessions(league_id)
        if since is None:
            start, rest = 0, sessions
        else:
            # Replay from where the changed session sits now, or would have sat.
            before = Q(played_on__lt=since.played_on) | Q(
                played_on=since.played_on, pk__lt=since.pk
            )
            start, rest = sessions.filter(before).count(), sessions.exclude(before)
        ordered = list(rest.values_list("pk", "played_on"))
        stale = RatingChange.objects.filter(league_id=league_id, sequence__gte=start)
        touched = set(stale.values_list("player_id", flat=True).distinct())
        stale.delete()
        seats = _seats_by_session([pk for pk, _ in ordered])
        touched |= {seat.player_id for table in seats.values() for seat in table}
        if start == 0:  # and whoever holds a rating now, from whatever came before
            touched |= set(
                Rating.objects.filter(league_id=league_id).values_list("player_id", flat=True)
            )
        skills, counts = _latest_before(league_id, start, touched)
        changes = []
        for sequence, (session_pk, played_on) in enumerate(ordered, start=start):
            table = seats.get(session_pk, [])
            if len(table) < 2:
                continue
            players = [seat.player_id for seat in table]
            after = rate(
                [skills.get(p, NEW_PLAYER) for p in players],
                [seat.place or len(table) for seat in table],
            )
            for player, skill in zip(players, after, strict=True):
                skills[player] = skill
                counts[player] = counts.get(player, 0) + 1
                changes.append(
                    RatingChange(
                        league_id=league_id,
                        player_id=player,
                        session_id=session_pk,
                        sequence=sequence,
                        played_on=played_on,
                        mu=skill.mu,
                        sigma=skill.sigma,
                        ordinal=skill.ordinal,
                    )
                )
        RatingChange.objects.bulk_create(changes, batch_size=2000)
        _store_current(league_id, touched, skills, counts)
        return len(ordered)


# Up to this many players are named in a query; beyond, the league's every player is
# read (a replay that touches that many reads most of the history anyway).
_NAMED = 500


def _of(queryset, players: set[int]):
    return queryset.filter(player_id__in=players) if len(players) <= _NAMED else queryset


def _latest_before(
    league_id: int, sequence: int, players: set[int]
) -> tuple[dict[int, Skill], dict[int, int]]:
    """Each of ``players``' skill after the league's sessions before ``sequence``, and
    how many of those sessions they were rated in: their latest change, in one query."""
    if sequence == 0 or not players:
        return {}, {}
    earlier = RatingChange.objects.filter(
        league_id=league_id, player_id=OuterRef("player_id"), sequence__lt=sequence
    )
    rows = (
        _of(RatingChange.objects.filter(league_id=league_id, sequence__lt=sequence), players)
        .filter(sequence=Subquery(earlier.order_by("-sequence").values("sequence")[:1]))
        .annotate(
            rated=Subquery(
                earlier.order_by().values("player_id").annotate(n=Count("pk")).values("n")
            )
        )
        .values_list("player_id", "mu", "sigma", "rated")
    )
    skills, counts = {}, {}
    for player, mu, sigma, rated in rows:
        skills[player], counts[player] = Skill(mu, sigma), rated
    return skills, counts


def _seats_by_session(session_pks: Iterable[int]) -> dict[int, list[Seat]]:
    by_session: dict[int, list[Seat]] = {}
    pks = list(session_pks)
    for start in range(0, len(pks), 2000):
        for seat in Seat.objects.filter(session_id__in=pks[start : start + 2000]).only(
            "session_id", "player_id", "place", "position"
        ):
            by_session.setdefault(seat.session_id, []).append(seat)
    for table in by_session.values():
        table.sort(key=lambda seat: seat.position)
    return by_session


def _store_current(
    league_id: int, touched: set[int], skills: dict[int, Skill], counts: dict[int, int]
) -> None:
    """The Rating rows of the players a replay touched: their latest skill, or none
    for a player left with no rated session."""
    unrated = sorted(touched - skills.keys())
    for first in range(0, len(unrated), _NAMED):
        Rating.objects.filter(
            league_id=league_id, player_id__in=unrated[first : first + _NAMED]
        ).delete()
    existing = {r.player_id: r for r in _of(Rating.objects.filter(league_id=league_id), touched)}
    create, update = [], []
    for player in touched & skills.keys():
        skill = skills[player]
        rating = existing.get(player) or Rating(league_id=league_id, player_id=player)
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.sessions = counts[player]
        (update if rating.pk else create).append(rating)
    Rating.objects.bulk_create(create, batch_size=2000)
    Rating.objects.bulk_update(update, ["mu", "sigma", "ordinal", "sessions"], batch_size=2000)
