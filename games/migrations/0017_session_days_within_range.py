"""The day a session was played on, held to games/days.py's range where a model form
checks it (the admin): only a validator, nothing in the database changes."""

import django.utils.timezone
import games.days
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0016_live_cache_epoch")]

    operations = [
        migrations.AlterField(
            model_name="gamesession",
            name="played_on",
            field=models.DateField(
                db_index=True,
                default=django.utils.timezone.localdate,
                validators=[games.days.validate_played_on],
            ),
        ),
    ]
