"""A long session for the benchmarks that need one (growth.py, share.py): a few rounds
saved for real through the app, then copied row for row in bulk, as a save stores
them, with the dealer moving on; the session's derived figures refreshed once at the
end, as any save would. Needs Django set up (benchmarks/http.py's set_up_django)."""

from __future__ import annotations


def copy_rounds(session, user, rounds: int, *, batch: int = 1000) -> None:
    """Lengthen ``session`` to ``rounds`` rounds by copying the rounds it holds, in
    turn."""
    from django.db import transaction

    from games.models import HandEntry, Round
    from games.services.results import refresh_session

    seats = list(session.seats.order_by("position"))
    templates = [
        (played, list(played.entries.all())) for played in session.rounds.order_by("number")
    ]
    with transaction.atomic():
        for start in range(len(templates) + 1, rounds + 1, batch):
            numbers = range(start, min(rounds, start + batch - 1) + 1)
            made = Round.objects.bulk_create(
                Round(
                    session=session,
                    number=number,
                    dealer=seats[(number - 1) % len(seats)],
                    cut_joker=templates[(number - 1) % len(templates)][0].cut_joker,
                    entered_by=user,
                )
                for number in numbers
            )
            HandEntry.objects.bulk_create(
                HandEntry(
                    round=played,
                    player_id=entry.player_id,
                    outcome=entry.outcome,
                    on_deal=entry.on_deal,
                    groups=entry.groups,
                    declaration=entry.declaration,
                    hand_points=entry.hand_points,
                    value_points=entry.value_points,
                    claims=entry.claims,
                    score=entry.score,
                    breakdown=entry.breakdown,
                )
                for played in made
                for entry in templates[(played.number - 1) % len(templates)][1]
            )
        refresh_session(session)
