from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_player_user_becomes_claims"),
    ]

    operations = [
        migrations.RemoveField(model_name="player", name="user"),
    ]
