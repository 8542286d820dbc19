"""League files for the export and import tests: a league holding everything an
export carries (and one whose rounds were also edited, deleted, entered in table mode
and by a member since gone, and one whose tables changed between rounds), a snapshot
of it that ids do not name (what must survive an export and an import unchanged),
changes to an exported file, a file as versions 3 and 4 wrote it, and the upload a
browser sends."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json
import random
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    PlayerClaim,
    Rating,
    RatingChange,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    SeatChange,
)
from games.models.rounds import SAVED_BY_ITSELF
from games.queries.standings import standings_of
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry
from games.services.round_saves import delete_round, save_round
from games.services.scoreboard import load_scoreboard
from games.services.sessions import join, leave
from games.transfer.league_import import ImportRefused, import_league
from games.zones import league_zone
from tests.support.builders import by_seat, edit, make_session, play, pool_with_chen_out
from tests.support.club import FEB, FIRST, LOSE, MAR, WIN, build_club, pool_session
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, THREE_PURE, WIN_8S, WIN_13

APR = datetime.date(2024, 4, 20)
# 21-card points under cut 8S: value points change hands (+10 each way).
POINTS_ROUNDS = [
    ("8S", ROUND_1),
    (
        "8S",
        {
            "Asha": ("shown", LOOSE_148),
            "Ben": ("declared", THREE_PURE),
            "Chen": ("middle_drop", ""),
        },
    ),
]
# 21-card kodai: the losers pay claims for the jokers they hold.
KODAI_ROUND = POINTS_ROUNDS[0]
# Pool 101: Ben passes 101 in round 2 and buys back in; out again in round 3, and
# Chen in round 4: Asha wins.
REJOIN_ROUNDS = [
    {"Asha": WIN, "Ben": LOSE, "Chen": FIRST},
    {"Asha": WIN, "Ben": LOSE, "Chen": FIRST},
    {"Chen": WIN, "Asha": FIRST, "Ben": LOSE},
    {"Asha": WIN, "Chen": LOSE},
]


# --- A club with everything an export holds ------------------------------------------


def points_session(user: User, league: League | None = None, **kwargs) -> GameSession:
    session = make_session(user, name="Friday", league=league, **kwargs)
    for cut, hands in POINTS_ROUNDS:
        play(session, cut, hands, user)
    return session


def rejoin_session(user: User, league: League | None, day: datetime.date) -> GameSession:
    """A pool in which Ben is out after round 2 and buys back in (the rules service
    sets his total; only the fact is stored), then goes out again."""
    session = pool_session(user, league, day, ("Asha", "Ben", "Chen"), REJOIN_ROUNDS[:2])
    Rejoin.objects.create(
        session=session, seat=session.seats.get(player__name="Ben"), after_round=2
    )
    for hands in REJOIN_ROUNDS[2:]:
        play(session, "7C", hands, user)
    return session


def build_league(user: User) -> League:
    """A club with everything an export holds: pools (finished, running, one with a
    rejoin), a points session with house rules, stakes and a hand-closed ending, a
    kodai session with claims (which, alone, does not save rounds by themselves as the
    league's table mode does), members of every role, a rematch, and two members who
    said "this is me"."""
    league, (january, *_) = build_club(user)
    League.objects.filter(pk=league.pk).update(
        money_per_point=Decimal("0.50"), overrides={"first_drop": 25}, table_auto_save=True
    )
    league.refresh_from_db()
    ben = User.objects.create_user(username="ben", password="x")
    chen = User.objects.create_user(username="chen", password="x")
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    Membership.objects.create(league=league, user=chen, role=Membership.Role.VIEWER)
    rematch = rejoin_session(user, league, MAR)
    # As services.sessions.rematch links them (a rematch is the same table again).
    GameSession.objects.filter(pk=rematch.pk).update(rematch_of=january)
    closed = make_session(
        ben, name="Points night", league=league, overrides={"first_drop": 25}, first_dealer=2
    )
    GameSession.objects.filter(pk=closed.pk).update(
        played_on=APR,
        closed_at=timezone.now(),
        money_per_point=Decimal("1.25"),
        buy_in=Decimal("10.00"),
    )
    closed.refresh_from_db()
    play(closed, *POINTS_ROUNDS[0], ben)  # the table had stopped: one round ends it
    kodai = make_session(user, preset="21-kodai", league=league, players=("Chen", "Asha", "Ben"))
    # Its rounds saved only by the scorer's tap, whatever the league's table mode says.
    GameSession.objects.filter(pk=kodai.pk).update(played_on=APR, table_auto_save=False)
    kodai.refresh_from_db()
    play(kodai, *KODAI_ROUND, chen)
    PlayerClaim.objects.create(league=league, player=Player.objects.get(name="Asha"), user=user)
    PlayerClaim.objects.create(league=league, player=Player.objects.get(name="Ben"), user=ben)
    return league


MAY = datetime.date(2024, 5, 3)


def build_eventful_league(user: User) -> League:
    """`build_league`'s club, with what a round's record holds beyond its hands: an
    evening whose round 1 was edited twice (by Ben, then by Dev, who has left since),
    whose round 2 was deleted (round 3 moved up), whose round 7 saved itself in
    table mode (each hand from its player's phone), played an hour ago, one of whose
    rounds was changed in the admin since (no history says so); a rejoin made by Ben;
    and Chen renamed "Chen Li" since, so the history still names "Chen"."""
    league = build_league(user)
    ben = User.objects.get(username="ben")
    dev = User.objects.create_user(username="dev", password="x")
    Membership.objects.create(league=league, user=dev, role=Membership.Role.SCORER)
    session = make_session(user, name="Long night", league=league)
    GameSession.objects.filter(pk=session.pk).update(played_on=MAY)
    for cut, hands in POINTS_ROUNDS:
        play(session, cut, hands, user)
    play(session, *POINTS_ROUNDS[0], ben)
    edit(session.rounds.get(number=1), *POINTS_ROUNDS[1], ben)
    edit(session.rounds.get(number=1), *POINTS_ROUNDS[0], dev)
    delete_round(session.rounds.get(number=2), user)
    for cut, hands in POINTS_ROUNDS * 2:  # rounds 3 to 6: eleven changes in all
        play(session, cut, hands, user)
    entry = new_round_entry(session)
    cut, hands = POINTS_ROUNDS[1]
    check = check_round(entry, cut, by_seat(session, hands), final=True)
    phones = {seat.player_id: f"{seat.player.name}'s phone" for seat in entry.seats}
    save_round(
        entry,
        check,
        AnonymousUser(),
        authors=phones,
        entered_by_name=SAVED_BY_ITSELF,
    )
    dev.delete()
    # Played an hour ago; round 2 changed in the admin since (no history says so).
    hour = datetime.timedelta(hours=1)
    session.changes.update(changed_at=F("changed_at") - hour)
    session.rounds.update(created_at=F("created_at") - hour, updated_at=F("updated_at") - hour)
    Round.objects.filter(session=session, number=2).update(updated_at=timezone.now(), version=2)
    Rejoin.objects.filter(session__league=league).update(created_by=ben)
    Player.objects.filter(name="Chen").update(name="Chen Li")
    return league


JUN = datetime.date(2024, 6, 7)
SHOWN, DROP, MIDDLE_DROP = ("shown", SHOWN_8S), ("first_drop", ""), ("middle_drop", "")


def build_changing_tables(user: User) -> League:
    """A points league whose tables changed between rounds: on "Long table" (0.50 a
    point, Asha, Ben, Chen and Ravi) Kim joins after round 2 and Ravi goes home after
    round 3, each followed by the toss its rules call for (a new seating); in a pool
    Dev joins after round 2, when Chen is out, at Ben's 60 plus one, and a toss seats
    the table anew. Ben, a scorer, marked Ravi's leaving."""
    league = League.objects.create(name="Friday club", slug="club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    ben = User.objects.create_user(username="ben", password="x")
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    players = ("Asha", "Ben", "Chen", "Ravi")
    points = make_session(
        user, players, name="Long table", league=league, money_per_point=Decimal("0.50")
    )
    GameSession.objects.filter(pk=points.pk).update(played_on=JUN)
    asha_wins = {"Asha": ("declared", WIN_8S), "Ben": SHOWN, "Chen": DROP, "Ravi": MIDDLE_DROP}
    play(points, "8S", asha_wins, user)
    play(points, "8S", {"Ben": ("declared", WIN_8S), "Asha": SHOWN, "Chen": DROP, "Ravi": DROP})
    join(points, "Kim", user, random.Random(1))
    play(points, "8S", {**asha_wins, "Kim": DROP})
    leave(points, points.seats.get(player__name="Ravi"), ben, random.Random(2))
    play(points, "8S", {"Kim": ("declared", WIN_8S), "Asha": DROP, "Ben": SHOWN, "Chen": DROP})
    pool = pool_with_chen_out(user, league=league)
    GameSession.objects.filter(pk=pool.pk).update(played_on=JUN)
    join(pool, "Dev", user, random.Random(3))
    third = {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Dev": ("first_drop", "")}
    play(pool, "7C", third, user)
    return league


def snapshot(league: League) -> dict:
    """Everything about a league that ids do not name: what must survive an export and
    an import unchanged."""
    sessions = list(league.sessions.order_by("played_on", "pk"))
    index = {session.pk: number for number, session in enumerate(sessions)}
    return {
        "league": (
            league.name,
            league.slug,
            league.preset,
            league.overrides,
            league.money_per_point,
            league.table_auto_save,
        ),
        "clock": league_zone(league).key,  # its own time zone, else the site's
        "members": sorted((m.user.username, m.role) for m in league.memberships.all()),
        "players": sorted(
            p.name for p in Player.objects.filter(seats__session__league=league).distinct()
        ),
        "sessions": [session_snapshot(session) for session in sessions],
        "rematches": [index.get(session.rematch_of_id) for session in sessions],
        "claims": sorted(
            (claim.player.name, claim.user.username)
            for claim in league.claims.select_related("player", "user")
        ),
        "standings": standings_snapshot(league),
        "february": standings_snapshot(league, date_from=FEB, date_to=FEB),
        "ratings": sorted(
            (r.player.name, r.mu, r.sigma, r.ordinal, r.sessions)
            for r in Rating.objects.filter(league=league)
        ),
        "rating_changes": [
            (c.player.name, c.sequence, c.played_on, c.mu, c.sigma, index[c.session_id])
            for c in RatingChange.objects.filter(league=league).order_by("sequence", "player__name")
        ],
    }


def session_snapshot(session: GameSession) -> dict:
    return {
        "columns": (
            session.name,
            session.preset,
            session.overrides,
            session.ceiling,
            session.status,
            session.played_on,
            session.created_at,
            session.closed_at,
            session.money_per_point,
            session.buy_in,
            session.table_auto_save,
            # Not the share link (an import makes new ones) nor who created the session
            # here (whoever imported it).
            session.first_dealer.player.name if session.first_dealer else None,
        ),
        "seats": [
            (
                seat.player.name,
                seat.position,
                seat.total,
                seat.place,
                seat.won,
                seat.rounds_played,
                seat.rounds_won,
                seat.drops,
                seat.points,
                seat.best_round,
                seat.worst_round,
            )
            for seat in session.seats.order_by("position")
        ],
        "rejoins": [
            (r.seat.player.name, r.after_round, r.created_at, _author(r.created_by, r))
            for r in session.rejoins.all()
        ],
        "seat_changes": seat_changes_of(session),
        # A round's times are not here: an import takes them from its history, which
        # was written in the same save (league_file.SAME_SAVE), unless the file says.
        "rounds": [
            (
                played.number,
                played.dealer.player.name if played.dealer else None,
                played.cut_joker,
                played.author,  # an account here, or the name the file gives
                played.version,
                [
                    (
                        entry.player.name,
                        entry.outcome,
                        entry.on_deal,
                        entry.groups,
                        entry.counted,
                        entry.figures,
                        entry.declaration,
                        entry.hand_points,
                        entry.value_points,
                        entry.claims,
                        entry.score,
                        entry.breakdown,
                    )
                    for entry in played.entries.order_by("pk")
                ],
            )
            for played in session.rounds.order_by("number")
        ],
        "changes": [
            (
                change.round.number if change.round else None,
                change.number,
                change.action,
                change.author,
                change.changed_at,
                change.before,
                change.after,
            )
            for change in session.changes.order_by("changed_at", "pk")
        ],
        "totals": [column.total for column in load_scoreboard(session).columns],
    }


def seat_changes_of(session: GameSession) -> list[tuple]:
    """Who joined and left the session's table, and its new seatings, by name."""
    name_of = dict(session.seats.values_list("pk", "player__name"))
    return [
        (
            change.kind,
            name_of.get(change.seat_id),
            change.after_round,
            [name_of[pk] for pk in change.seats],
            change.created_at,
            _author(change.created_by, change),
        )
        for change in session.seat_changes.order_by("after_round", "pk")
    ]


def _author(user: User | None, row: Rejoin | SeatChange) -> str:
    return user.username if user else row.created_by_name


def standings_snapshot(league: League, **dates) -> list[tuple]:
    return [
        (
            row.player.name,
            row.sessions,
            row.sessions_won,
            row.rounds,
            row.rounds_won,
            row.drops,
            row.points,
            row.best_round,
            row.worst_round,
            row.rating,
            row.mu,
            row.sigma,
        )
        for row in standings_of(league, **dates)
    ]


def wipe() -> None:
    """Empty the database of everything a league export holds."""
    GameSession.objects.all().delete()  # seats, rounds, hands, rejoins, rating history
    League.objects.all().delete()
    Player.objects.all().delete()
    User.objects.all().delete()


def counts() -> tuple[int, ...]:
    models = (
        User,
        Player,
        League,
        Membership,
        GameSession,
        Seat,
        Round,
        HandEntry,
        Rejoin,
        PlayerClaim,
        RoundChange,
        SeatChange,
    )
    return tuple(model.objects.count() for model in models)


def read_csv(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def read_xlsx(content: bytes, sheet: str):
    return openpyxl.load_workbook(io.BytesIO(content))[sheet]


# --- Changes to an exported file, and its upload ------------------------------------


def tampered(data: dict, change) -> str:
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data)


def refused(text: str | bytes, owner: User | None = None) -> str:
    before = counts()
    with pytest.raises(ImportRefused) as caught:
        import_league(text, owner=owner)
    assert counts() == before
    return str(caught.value)


def as_version_4(data: dict) -> dict:
    """The file as format version 4 wrote it: no joins, leaves or new seatings."""
    data = copy.deepcopy(data)
    data["version"] = 4
    for session in data["sessions"]:
        session.pop("seat_changes", None)
    return data


def as_version_3(data: dict) -> dict:
    """The file as format version 3 wrote it: no history, no round versions or times,
    no rejoin times or authors, and every hand's figures."""
    data = as_version_4(data)
    data["version"] = 3
    data["league"].pop("table_auto_save", None)
    for session in data["sessions"]:
        session.pop("changes", None)
        session.pop("table_auto_save", None)
        for rejoin in session["rejoins"]:
            rejoin.pop("created_at", None)
            rejoin.pop("created_by", None)
        for played in session["rounds"]:
            for key in ("version", "created_at", "updated_at"):
                played.pop(key, None)
            for entry in played["entries"]:
                figures = {"declaration": "", "value_points": 0, "claims": 0} | entry
                entry.clear()
                # In the order version 3 wrote a hand: the one a hand records in.
                entry.update({key: figures[key] for key in HandEntry.RECORDED if key in figures})
    return data


def round_then(played: dict) -> dict:
    """A round of a file as the history keeps it (services.round_audit.round_snapshot),
    written out here on its own: what an import must take a change's round to be."""
    return {
        "cut_joker": played["cut_joker"],
        "dealer": played["dealer"],
        "version": played.get("version", 1),
        "entries": [
            {
                key: hand[key]
                for key in ("player", "outcome", "on_deal", "groups", "score")
                if key in hand
            }
            for hand in played["entries"]
        ],
    }


def with_history_written_out(data: dict) -> dict:
    """The file with a history that holds every kind of change, written out in full:
    round 1 of the first session with rounds edited (to itself) after its creation,
    then a round deleted (as the round 1 it was). A file a fuzzer can reach into."""
    data = copy.deepcopy(data)
    session = next(session for session in data["sessions"] if session["rounds"])
    first = round_then(session["rounds"][0])
    changes = session["changes"]
    created = next(i for i, change in enumerate(changes) if change["round"] == 1)
    at = changes[created]["changed_at"]
    changes[created] |= {"before": None, "after": first}
    edit = {"round": 1, "number": 1, "action": "edited", "changed_by": None, "changed_at": at}
    deletion = edit | {"round": None, "number": len(session["rounds"]) + 1, "action": "deleted"}
    changes[created + 1 : created + 1] = [
        edit | {"before": first, "after": first},
        deletion | {"before": first, "after": None},
    ]
    return data


def set_at(path: str, value: object):
    """A change to the export: the value at a dotted path (list indexes as numbers)."""

    def change(data: dict) -> None:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        node = data
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def upload(text: str | bytes, name: str = "club.json") -> dict:
    data = text.encode() if isinstance(text, str) else text
    return {"file": SimpleUploadedFile(name, data, content_type="application/json")}


IMPORT = "games:league_import"


def post_file(client: Client, data: dict | str | bytes, **kwargs):
    text = json.dumps(data) if isinstance(data, dict) else data
    return client.post(reverse(IMPORT), upload(text), **kwargs)
