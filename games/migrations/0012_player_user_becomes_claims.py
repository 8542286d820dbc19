"""``Player.user``, a global link an import with --keep-members set, becomes "this is
me" claims: one account per player and one player per account in a league, the one
link between a player and an account there is now. The field itself goes in 0013:
on PostgreSQL a table whose rows new claims just referred to cannot be altered in the
same transaction (its foreign-key checks are still pending)."""

from django.db import migrations


def links_to_claims(apps, schema_editor):
    """Each linked player is claimed by its account in every league where the player
    sat at a table and the account is a member, unless that league already has a
    claim of the player or by the account (a claim is a member's own word: it wins)."""
    Player = apps.get_model("games", "Player")
    Seat = apps.get_model("games", "Seat")
    Membership = apps.get_model("games", "Membership")
    PlayerClaim = apps.get_model("games", "PlayerClaim")
    linked = Player.objects.filter(user__isnull=False).order_by("pk")
    for player in linked.iterator():
        played_in = set(
            Seat.objects.filter(player=player, session__league__isnull=False).values_list(
                "session__league_id", flat=True
            )
        )
        member_of = set(
            Membership.objects.filter(user_id=player.user_id, league_id__in=played_in).values_list(
                "league_id", flat=True
            )
        )
        if not member_of:
            # Only `import_league --keep-members` set the link, on players of the league
            # it made, for accounts it made members; one without such a league was
            # changed by hand since. Said, so an administrator can claim it again.
            print(
                f"\n  Player {player.pk} ({player.name}): no league to claim it in for user {player.user_id}; link dropped."
            )
        for league_id in sorted(member_of):
            claims = PlayerClaim.objects.filter(league_id=league_id)
            if (
                claims.filter(player=player).exists()
                or claims.filter(user_id=player.user_id).exists()
            ):
                continue
            PlayerClaim.objects.create(league_id=league_id, player=player, user_id=player.user_id)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_performance_indexes"),
    ]

    operations = [
        migrations.RunPython(links_to_claims, migrations.RunPython.noop),
    ]
