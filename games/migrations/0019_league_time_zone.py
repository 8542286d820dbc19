"""A league's own time zone (games/zones.py). Leagues kept before it get none, so
they read the site's zone (DJANGO_TIME_ZONE) as they did, and follow it if it changes."""

import games.zones
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0018_ratings_per_game_and_total_points")]

    operations = [
        migrations.AddField(
            model_name="league",
            name="time_zone",
            field=models.CharField(
                blank=True, default="", max_length=64, validators=[games.zones.validate_time_zone]
            ),
        ),
    ]
