from django.db import migrations, models


def rebuild_all(apps, schema_editor):
    """Every league's months again, now one per game: the months written before held
    every game of a league summed together (a pool's penalty points in a points
    league's standings). Going back, the same for the model without a game. Written
    out here rather than imported from the app: this runs on every fresh database for
    as long as the project lives, and the app's code moves on."""
    from django.db.models import Count, DateField, F, Max, Min, Q, Sum
    from django.db.models.functions import TruncMonth

    seat_model = apps.get_model("games", "Seat")
    month_model = apps.get_model("games", "StandingMonth")
    by_game = any(field.name == "preset" for field in month_model._meta.get_fields())
    game = {"preset": F("session__preset")} if by_game else {}
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
            )
        )
        month_model.objects.bulk_create(
            [month_model(league_id=league_id, **row) for row in rows], batch_size=2000
        )


def clear(apps, schema_editor):
    """Going back: the months per game cannot be held without their game; they are
    rebuilt as one per league once the column is gone (the first operation)."""
    apps.get_model("games", "StandingMonth").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_remove_player_user"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, rebuild_all),
        migrations.RemoveConstraint(model_name="standingmonth", name="standing_month_unique"),
        migrations.RemoveIndex(model_name="standingmonth", name="games_stand_league__7782a7_idx"),
        # The rows written before are rebuilt below: their placeholder game never shows.
        migrations.AddField(
            model_name="standingmonth",
            name="preset",
            field=models.CharField(
                choices=[
                    ("21-points", "21-card points"),
                    ("21-paplu", "21-card paplu"),
                    ("21-kodai", "21-card kodai"),
                    ("13-points", "13-card points"),
                    ("13-pool-101", "13-card pool 101"),
                    ("13-pool-201", "13-card pool 201"),
                ],
                default="21-points",
                max_length=20,
            ),
            preserve_default=False,
        ),
        migrations.AlterModelOptions(
            name="standingmonth",
            options={"ordering": ["league", "preset", "month", "player"]},
        ),
        migrations.AddConstraint(
            model_name="standingmonth",
            constraint=models.UniqueConstraint(
                fields=("league", "preset", "player", "month"), name="standing_month_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="standingmonth",
            index=models.Index(fields=["league", "preset", "month"], name="standing_month_game"),
        ),
        migrations.RunPython(rebuild_all, clear),
    ]
