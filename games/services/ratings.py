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
from django.db.models import Count, Max
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
    """Recompute the league's ratings from ``since`` on (from the start if None or if
    it is not a rated session); returns how many sessions were rated."""
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league_id).first()  # one replay at a time
        ordered = list(rated_sessions(league_id).values_list("pk", "played_on"))
        start = 0
        if since is not None:
            # Replay from where the changed session sits now, or would have sat.
            key = (since.played_on, since.pk)
            start = next((i for i, row in enumerate(ordered) if (row[1], row[0]) >= key), 0)
        RatingChange.objects.filter(league_id=league_id, sequence__gte=start).delete()
        skills = _skills_before(league_id, start)
        seats = _seats_by_session([pk for pk, _ in ordered[start:]])
        changes = []
        for sequence, (session_pk, played_on) in enumerate(ordered[start:], start=start):
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
        _store_current(league_id)
        return len(ordered) - start


def _skills_before(league_id: int, sequence: int) -> dict[int, Skill]:
    """Each player's skill after the league's sessions before ``sequence``."""
    latest = (
        RatingChange.objects.filter(league_id=league_id, sequence__lt=sequence)
        .values("player_id")
        .annotate(last=Max("sequence"))
    )
    wanted = {(row["player_id"], row["last"]) for row in latest}
    rows = RatingChange.objects.filter(
        league_id=league_id, sequence__lt=sequence, player_id__in={p for p, _ in wanted}
    ).values_list("player_id", "sequence", "mu", "sigma")
    return {p: Skill(mu, sigma) for p, seq, mu, sigma in rows if (p, seq) in wanted}


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


def _store_current(league_id: int) -> None:
    """Rating rows from each player's latest change (and none for players left with
    no rated session)."""
    latest = _skills_before(league_id, 2**31 - 1)
    sessions = dict(
        RatingChange.objects.filter(league_id=league_id)
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    Rating.objects.filter(league_id=league_id).exclude(player_id__in=latest).delete()
    existing = {r.player_id: r for r in Rating.objects.filter(league_id=league_id)}
    create, update = [], []
    for player, skill in latest.items():
        rating = existing.get(player) or Rating(league_id=league_id, player_id=player)
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.sessions = sessions.get(player, 0)
        (update if rating.pk else create).append(rating)
    Rating.objects.bulk_create(create, batch_size=2000)
    Rating.objects.bulk_update(update, ["mu", "sigma", "ordinal", "sessions"], batch_size=2000)
