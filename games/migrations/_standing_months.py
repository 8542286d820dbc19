"""The standings months' fill as migrations 0008, 0014 and 0018 run it, frozen here: a
migration runs on every fresh database for as long as the project lives, and the
app's own code (games/services/standing_months.py) moves on. Django's loader passes
over a module whose name starts with "_", so this is no migration itself."""

from django.db.models import Count, DateField, F, Max, Min, Q, Sum
from django.db.models.functions import TruncMonth


def fill_months(apps) -> None:
    """Every league's months from its seats, with the historical models of ``apps``:
    one a game where the model has its game (0014 on), else one a league; with the
    sum of the totals where the model has it (0018 on)."""
    seat_model = apps.get_model("games", "Seat")
    month_model = apps.get_model("games", "StandingMonth")
    fields = {field.name for field in month_model._meta.get_fields()}
    game = {"preset": F("session__preset")} if "preset" in fields else {}
    # The sum of the sessions' totals, where the model has it (0018 on).
    totals = {"totals": Sum("total")} if "totals" in fields else {}
    for league_id in apps.get_model("games", "League").objects.values_list("pk", flat=True):
        month_model.objects.filter(league_id=league_id).delete()
        rows = (
            seat_model.objects.filter(session__league_id=league_id, rounds_played__gt=0)
            .annotate(month=TruncMonth("session__played_on", output_field=DateField()))
            .order_by()
            .values("player_id", "month", **game)
            .annotate(
                sessions=Count("id"),
                sessions_won=Count("id", filter=Q(won=True)),
                rounds=Sum("rounds_played"),
                rounds_won=Sum("rounds_won"),
                drops=Sum("drops"),
                points=Sum("points"),
                best_high=Max("best_round"),
                best_low=Min("best_round"),
                worst_high=Max("worst_round"),
                worst_low=Min("worst_round"),
                **totals,
            )
        )
        month_model.objects.bulk_create(
            [month_model(league_id=league_id, **row) for row in rows], batch_size=2000
        )
