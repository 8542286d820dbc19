from django.db import migrations, models

from games.migrations._standing_months import fill_months


def rebuild_all(apps, schema_editor):
    """Every league's months again, now one per game: the months written before held
    every game of a league summed together (a pool's penalty points in a points
    league's standings). Going back, the same for the model without a game. Written
    out in _standing_months.py, not imported from the app, whose code moves on."""
    fill_months(apps)


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
