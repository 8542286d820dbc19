"""Demo data: a user, a few players and two sessions, entered the way the round
form enters them (check_round + save_round), so every figure is
the rules service's. Running it again replaces the demo user's sessions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import GameSession, Player
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry
from games.services.round_saves import save_round
from games.services.scoreboard import load_scoreboard
from games.services.sessions import create_session

USERNAME = "demo"
PASSWORD = "rummy-at-the-table"

# Each round: cut joker, then (player, outcome, groups) in seat order.
Round = tuple[str, list[tuple[str, str, str]]]


def score_sheet(text: str) -> list[Round]:
    """Rounds written down as on a paper score sheet: a paragraph per round, its cut
    joker on the first line, then a line per seat: the player, the outcome and, for a
    hand laid down, its groups."""
    rounds = []
    for paragraph in text.strip().split("\n\n"):
        cut, *seats = paragraph.splitlines()
        hands = []
        for seat in seats:
            player, outcome, *groups = seat.split(maxsplit=2)
            hands.append((player, outcome, groups[0] if groups else ""))
        rounds.append((cut, hands))
    return rounds


# 13-card pool 101: Ben and Chen pass 101 in round 3 and Asha is the last one in.
POOL_101 = score_sheet("""
7C
Asha declared AH 2H 3H | 9S 10S JS QS | 5D 6D 7H | KC KD KS
Ben shown 4C 5C 6C | 8D 9D PJ | QH QD | 2S 3C 9H 10C JC
Chen shown 4S PJ 6S | 8H 8C 8S | AD KD 2C 5H 9C 10H JH

4D
Asha shown AD 2D 3D | 7H 8H | 5C 9C JC QC | 6D 10S AS 2S
Ben middle_drop
Chen declared 5S 6S 7S | 9H 10H JH QH | 2C 3C 4C | KS KH KD

9S
Asha declared AH 2H 3H | 4S 5S 6S 7S | 10D JD QD | KC KH KS
Ben shown 2C 5D 8H | JS QD KC | 3S 7D 10C | 4H 6C 9D AC
Chen middle_drop
""")

# 21-card points toward a 250 ceiling, three rounds in.
THREE_PURE = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
POINTS_21 = score_sheet(f"""
8S
Asha declared 2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H
Ben shown 2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C
Chen first_drop
Dev middle_drop

5H
Asha middle_drop
Ben declared {THREE_PURE}
Chen shown 2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD
Dev first_drop

10C
Asha shown 2D 3D 4D | QD QS QC | KH KH | 5D 9D 10H | 6H 6D 4C 2S 3H | 8C 7S | 2C 3C 5C
Ben first_drop
Chen middle_drop
Dev declared {THREE_PURE}
""")


class Command(BaseCommand):
    help = "Create a demo user, players and two sessions (one finished, one in progress)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            user = self._demo_user()
            old = GameSession.objects.filter(created_by=user)
            seated = list(
                Player.objects.filter(seats__session__in=old).values_list("pk", flat=True)
            )
            old.delete()
            # Names resolve among the players the demo user can see, so the old
            # players, at no table now, would stay behind as copies: they go too.
            Player.objects.filter(pk__in=seated, seats__isnull=True, claims__isnull=True).delete()
            pool = self._session(
                user, "Demo: pool 101", "13-pool-101", ["Asha", "Ben", "Chen"], POOL_101
            )
            points = self._session(
                user,
                "Demo: 21-card points",
                "21-points",
                ["Asha", "Ben", "Chen", "Dev"],
                POINTS_21,
                ceiling=250,
            )
        for session in (pool, points):
            board = load_scoreboard(session)
            status = f"won by {', '.join(board.winners)}" if board.finished else "in progress"
            self.stdout.write(f"{session}: {len(board.rows)} rounds, {status}")
        self.stdout.write(
            self.style.SUCCESS(f"Sign in as {USERNAME!r} with password {PASSWORD!r}.")
        )

    def _demo_user(self):
        user, _ = get_user_model().objects.get_or_create(username=USERNAME)
        user.set_password(PASSWORD)
        user.save()
        return user

    def _session(
        self,
        user,
        name: str,
        preset: str,
        players: list[str],
        rounds: list[Round],
        ceiling: int | None = None,
    ) -> GameSession:
        session = create_session(
            user,
            name=name,
            preset=preset,
            overrides={},
            players=players,
            first_dealer=len(players) - 1,
            ceiling=ceiling,
        )
        for cut, hands in rounds:
            entry = new_round_entry(session)
            by_name = {seat.player.name: seat.pk for seat in entry.seats}
            typed = {by_name[name]: (outcome, groups) for name, outcome, groups in hands}
            check = check_round(entry, cut, typed, final=True)
            if not check.valid:
                problems = check.errors + check.cut_errors
                problems += [f"{p.name}: {e}" for p in check.players for e in p.errors]
                raise CommandError(f"{name}, cut {cut}: " + "; ".join(problems))
            save_round(entry, check, user)
        return session
