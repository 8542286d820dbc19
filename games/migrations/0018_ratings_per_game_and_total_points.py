"""Ratings per game, and the standings' total points.

A league's rating was one over every game it played: a pool night's places moved
a points night's table. Each game (preset) of a league now has its own rating and
history, all replayed here from the stored sessions; the standings months gain the
sum of the sessions' totals, refilled from the seats. Both are derived data, written
out in _ratings.py and _standing_months.py, not imported from the app, whose code
moves on."""

from django.db import migrations, models

from games.migrations._ratings import fill_ratings
from games.migrations._standing_months import fill_months


def rebuild(apps, schema_editor):
    """Every league's ratings (now one a game) and standings months (now with the
    totals) again; going back, the ratings as one a league."""
    fill_ratings(apps)
    fill_months(apps)


def clear(apps, schema_editor):
    """Going back: ratings per game cannot be held without their game; they are
    replayed as one a league once the column is gone (the first operation)."""
    apps.get_model("games", "RatingChange").objects.all().delete()
    apps.get_model("games", "Rating").objects.all().delete()


def rebuild_ratings(apps, schema_editor):
    fill_ratings(apps)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_session_days_within_range'),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, rebuild_ratings),
        migrations.AlterModelOptions(
            name='rating',
            options={'ordering': ['league', 'preset', '-ordinal']},
        ),
        migrations.AlterModelOptions(
            name='ratingchange',
            options={'ordering': ['league', 'preset', 'sequence', 'player']},
        ),
        migrations.RemoveConstraint(
            model_name='rating',
            name='rating_unique',
        ),
        migrations.RemoveIndex(
            model_name='ratingchange',
            name='rating_change_history',
        ),
        migrations.RemoveIndex(
            model_name='ratingchange',
            name='rating_change_league_seq',
        ),
        migrations.AddField(
            model_name='rating',
            name='preset',
            field=models.CharField(choices=[('21-points', '21-card points'), ('21-paplu', '21-card paplu'), ('21-kodai', '21-card kodai'), ('13-points', '13-card points'), ('13-pool-101', '13-card pool 101'), ('13-pool-201', '13-card pool 201')], default='21-points', max_length=20),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='preset',
            field=models.CharField(choices=[('21-points', '21-card points'), ('21-paplu', '21-card paplu'), ('21-kodai', '21-card kodai'), ('13-points', '13-card points'), ('13-pool-101', '13-card pool 101'), ('13-pool-201', '13-card pool 201')], default='21-points', max_length=20),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='standingmonth',
            name='totals',
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['league', 'preset', 'player', 'sequence'], include=('played_on', 'ordinal', 'session'), name='rating_change_history'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['league', 'preset', 'sequence'], name='rating_change_league_seq'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('league', 'preset', 'player'), name='rating_unique'),
        ),
        migrations.RunPython(rebuild, clear),
    ]
