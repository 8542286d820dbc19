"""Who made a change of a round's history, and who rejoined a player, as an imported
league file names them where the import made them no member here (league file format
version 4): plain text, as Round.entered_by_name (0005)."""

import games.names
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0014_standing_months_per_game")]

    operations = [
        migrations.AddField(
            model_name=model,
            name=name,
            field=models.CharField(
                blank=True, max_length=150, validators=[games.names.PrintableName()]
            ),
        )
        for model, name in (("rejoin", "created_by_name"), ("roundchange", "changed_by_name"))
    ]
