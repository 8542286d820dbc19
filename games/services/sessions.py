"""Starting a session (the toss, seating players) and managing it: stakes, ending or
reopening it, rejoins, players leaving and the share link.
"""

from __future__ import annotations

import datetime
import random
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override, pgettext

from games import live, rules
from games.access import AnyUser, league_tables, own_tables
from games.models import (
    GameSession,
    League,
    Player,
    Rejoin,
    Seat,
    SeatChange,
    new_share_token,
)
from games.names import clean_name
from games.rules import (
    JOIN,
    LEAVE,
    PRESETS,
    Ruleset,
    Toss,
    can_end_by_hand,
    deal_toss,
    get_ruleset,
)
from games.services.errors import EntryRejected
from games.services.results import mark_changed, refresh_session
from games.services.round_audit import signed_in_or_none
from games.services.scoreboard import Scoreboard, change_problem, load_scoreboard, with_session
from games.zones import today_in


def toss_seats(names: Sequence[str], ruleset: Ruleset, rng: random.Random | None = None) -> Toss:
    """Deal one card to each player: its ``seats`` are (name, Card) from the highest
    card to the lowest, which is the seat order (the last player deals first), and its
    ``redraws`` who drew the very same card (two decks) and drew again."""
    return deal_toss(list(names), rng or random.Random(), ruleset.decks)


def name_key(name: str) -> str:
    """How two spellings of a player's name are compared: NFKC (look-alike letters
    are the letters they look like), case folded, runs of whitespace as one space;
    as the session form compares seats. Compared in Python, not by the database's
    LOWER, which folds only ASCII on SQLite."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _seating_tiers(user: AnyUser, league: League | None) -> Iterator[QuerySet[Player]]:
    """Players a name may resolve to, most preferred first: those of the league's own
    sessions, of the user's own tables outside any league, then of every league the
    user is in. Together the sessions of `sessions_visible_to` (built of the same
    parts of access.py), never another; each tier one semi-join on the seats (a few
    ms on a league of 20,000 sessions, where one query over the visible sessions took
    140)."""
    tiers = []
    if league is not None:
        tiers.append(Seat.objects.filter(session__league=league))
    if user.is_authenticated:
        tiers.append(Seat.objects.filter(own_tables(user, through="session__")))
        tiers.append(Seat.objects.filter(league_tables(user, through="session__")))
    for seats in tiers:
        yield Player.objects.filter(pk__in=seats.values("player_id"))


def players_for_seats(
    names: Sequence[str], user: AnyUser, league: League | None = None
) -> list[int]:
    """The player id each typed name seats, in order: the player of that name
    (name_key) that ``user`` already sees at a table, the league's own first, the
    oldest of a tier if two match; else a new player spelt as typed. Another club's
    players are never found, so seating "asha" does not reveal their "Asha"."""
    wanted = {name_key(name) for name in names}
    found: dict[str, int] = {}
    for players in _seating_tiers(user, league):
        if wanted <= found.keys():
            break
        for pk, name in players.order_by("pk").values_list("pk", "name"):
            key = name_key(name)
            if key in wanted:
                found.setdefault(key, pk)
    ids = []
    for name in names:
        key = name_key(name)
        if key not in found:
            found[key] = Player.objects.create(name=name).pk
        ids.append(found[key])
    return ids


def known_names(user: AnyUser, league: League | None = None, limit: int = 200) -> list[str]:
    """The names the new-session form offers, each once (names compare as name_key
    does), in the order a typed name is matched (players_for_seats): the league's
    players first, then those of the user's own tables, then those of their other
    leagues; alphabetical within each, and spelt as the player a tap would seat.
    Two leagues that share a club's names (one imported from the other's file) are
    one chip a name, not two."""
    offered: dict[str, str] = {}
    for players in _seating_tiers(user, league):
        tier: dict[str, str] = {}
        for name in players.order_by("pk").values_list("name", flat=True):
            key = name_key(name)
            if key not in offered:
                tier.setdefault(key, name)  # the oldest, as a typed name finds
        offered |= dict(sorted(tier.items()))
        if len(offered) >= limit:
            break
    return list(offered.values())[:limit]


def lock_seating(user: AnyUser, league: League | None) -> None:
    """One seating at a time per league (per user outside leagues): two phones
    seating the same new name at once then make one player, the second finding the
    first's once the first commits. Cheap: a row lock held while a session starts.
    A league's table and a member's own table started at the same moment may still
    make two players of one new name; seating later picks the oldest of them."""
    if league is not None:
        rows = League.objects.filter(pk=league.pk)
    elif user.is_authenticated:
        rows = get_user_model().objects.filter(pk=user.pk)
    else:
        return
    list(rows.select_for_update().values_list("pk", flat=True))


def create_session(
    user: AnyUser,
    *,
    preset: str,
    overrides: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int = 0,
    ceiling: int | None = None,
    name: str = "",
    league: League | None = None,
    played_on: datetime.date | None = None,
    money_per_point: Decimal | None = None,
    buy_in: Decimal | None = None,
) -> GameSession:
    """Seat ``players`` in this order and start a session; ``first_dealer`` indexes
    ``players``. Only the overrides that differ from the preset are stored."""
    ruleset = get_ruleset(preset, dict(overrides))  # raises RulesError
    with transaction.atomic():
        lock_seating(user, league)
        session = GameSession.objects.create(
            name=name,
            league=league,
            preset=preset,
            overrides=ruleset.overrides_from(PRESETS[preset]),
            ceiling=ceiling,
            created_by=signed_in_or_none(user),
            played_on=played_on or today_in(league),
            money_per_point=money_per_point,
            buy_in=buy_in,
        )
        _seat(session, players_for_seats(players, user, league), first_dealer)
    return session


def _seat(session: GameSession, player_ids: Sequence[int], first_dealer: int) -> None:
    """Seat the players (ids, in seat order) and name the first dealer (an index)."""
    seats = [
        Seat.objects.create(session=session, player_id=player, position=position)
        for position, player in enumerate(player_ids, start=1)
    ]
    session.first_dealer = seats[first_dealer]
    session.save(update_fields=["first_dealer"])


# --- Rematch: the same table again, one tap from a finished session ----------------------


def rematch_seating(session: GameSession, board: Scoreboard) -> tuple[list[Seat], int]:
    """The seats of ``session`` (replayed as ``board``) in the rematch's order, and
    the index of its first dealer: everyone still at the table at the end, a latecomer
    included and a player who went home left out, moves one place (the first seat to
    the end), and the next of them after the first dealer deals first, so the deal
    moves on (with nobody gone, whoever now sits where the first dealer sat)."""
    seats = list(session.seats.select_related("player").order_by("position"))
    gone = board.state.left_after
    kept = [seat for seat in seats if seat.player.name not in gone]
    rotated = kept[1:] + kept[:1]
    first = next((i for i, seat in enumerate(seats) if seat.pk == session.first_dealer_id), 0)
    after = seats[first + 1 :] + seats[: first + 1]  # clockwise from the first dealer
    dealer = next((seat for seat in after if seat in kept), None)
    return rotated, rotated.index(dealer) if dealer else 0


def rematch_name(session: GameSession) -> str:
    """ "Friday (rematch)" after "Friday", in the language of whoever starts it, and
    again after a rematch of a rematch (not "Friday (rematch) (rematch)", whichever
    language either was started in); an unnamed session's rematch stays unnamed."""
    if not session.name:
        return ""
    base = session.name
    for code, _name in settings.LANGUAGES:
        with override(code):
            before, _, after = _rematch_of().partition("{name}")
        if base.startswith(before) and base.endswith(after) and len(base) > len(before + after):
            base = base[len(before) : len(base) - len(after)]
    said = _rematch_of()
    limit = GameSession._meta.get_field("name").max_length - len(said.replace("{name}", ""))
    return said.format(name=base[:limit].rstrip())


def _rematch_of() -> str:
    # Translators: a rematch's name, from the session's ("Friday (rematch)").
    return pgettext("session name", "{name} (rematch)")


def rematch(session: GameSession, user: AnyUser) -> tuple[GameSession, bool]:
    """A new session with the same players (not those who went home), seats rotated by
    one (``rematch_seating``), the same rules, ceiling and stakes and the same league,
    played today: the rematch, and whether this call started it. A session that
    already has a rematch answers with that one (a double tap starts one game, not
    two); an unfinished session has none, nor one nobody else stayed at
    (EntryRejected). The caller checked that ``user`` may write it."""
    with transaction.atomic():
        # Locked: two phones tapping Rematch at once start one session between them.
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        existing = GameSession.objects.filter(rematch_of=session).first()
        if existing is not None:
            return existing, False
        board = load_scoreboard(session)
        if not board.finished:
            raise EntryRejected(
                _(
                    "This session is not finished yet: a rematch starts once it is over "
                    "(end it first, or play on)."
                )
            )
        seats, dealer = rematch_seating(session, board)
        if len(seats) < 2:
            raise EntryRejected(
                _(
                    "Everyone else went home: a rematch needs two players still at the table "
                    "(start a new session instead)."
                )
            )
        try:
            with transaction.atomic():
                new = GameSession.objects.create(
                    name=rematch_name(session),
                    league=session.league,
                    preset=session.preset,
                    overrides=session.overrides,
                    ceiling=session.ceiling,
                    created_by=signed_in_or_none(user),
                    money_per_point=session.money_per_point,
                    buy_in=session.buy_in,
                    table_auto_save=session.table_auto_save,
                    rematch_of=session,
                    played_on=today_in(session.league),
                )
        except IntegrityError:
            # Where the row lock is no lock (SQLite), the other tap's rematch won.
            return GameSession.objects.get(rematch_of=session), False
        _seat(new, [seat.player_id for seat in seats], dealer)
    return new, True


# --- Managing a session: stakes, the end, rejoins, the share link ------------------------


def set_stakes(
    session: GameSession, *, money_per_point: Decimal | None, buy_in: Decimal | None
) -> None:
    """What the session is played for. Saving bumps ``updated_at``, so live views
    redraw the money lines; saving the same stakes again writes nothing."""
    if (session.money_per_point, session.buy_in) == (money_per_point, buy_in):
        return
    session.money_per_point = money_per_point
    session.buy_in = buy_in
    mark_changed(session, "money_per_point", "buy_in")


def can_close(board: Scoreboard) -> bool:
    """Whether the table may end this session now (the rules service decides)."""
    return can_end_by_hand(board.pool, len(board.rows), board.finished)


def close_session(session: GameSession) -> Scoreboard:
    """End a session without a ceiling: the best total wins (rules service)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        if not can_close(board):
            raise EntryRejected(_("Only a points game with a round played can be ended here."))
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
        # The rounds just read, replayed as ended: not read a second time.
        return refresh_session(session, with_session(board, session))


def reopen_session(session: GameSession) -> Scoreboard:
    """Undo ``close_session``: the table plays on."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        if session.closed_at is None:
            raise EntryRejected(_("This session was not ended by hand."))
        session.closed_at = None
        session.save(update_fields=["closed_at"])
        return refresh_session(session)


def rejoin(session: GameSession, seat: Seat, user: AnyUser) -> Rejoin:
    """An eliminated player buys back in after the last round, at the total the
    rules service gives (the highest total still in, plus one), if its cutoff allows."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        column = next((c for c in board.columns if c.seat.pk == seat.pk), None)
        if column is None:
            raise EntryRejected(_("That player has no seat at this table."))
        if column.rejoin_at is None:
            # The rules service's reason, for a player the table offers nothing too (one
            # still in, or gone home), as a page left open may still post.
            reason = board.state.rejoin_problem(column.name)
            raise EntryRejected(
                _("{player} may not rejoin: {reason}.").format(player=column.name, reason=reason)
            )
        made = Rejoin.objects.create(
            session=session,
            seat=column.seat,
            after_round=len(board.rows),
            created_by=signed_in_or_none(user),
        )
        refresh_session(session)
    return made


def cancel_rejoin(session: GameSession, rejoin_pk: int) -> None:
    """Take back a rejoin entered by mistake, while the rules service allows it: before
    the next round is played (a page left open, or a forged post, is refused)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        made = next((m for m in board.rejoins_made if m.pk == rejoin_pk), None)
        if made is None:
            raise EntryRejected(_("That rejoin was already taken back."))
        problem = board.take_back_problem(made)
        if problem:
            raise EntryRejected(
                _(
                    "{player}'s rejoin after round {round} can no longer be taken back: {problem}."
                ).format(player=made.name, round=made.after_round, problem=problem)
            )
        session.rejoins.filter(pk=made.pk).delete()
        refresh_session(session)


def leave(
    session: GameSession, seat: Seat, user: AnyUser, rng: random.Random | None = None
) -> SeatChange:
    """A player goes home after the last round played: they keep their total, play no
    later round and are still settled (the rules service replays what follows). Where
    the rules call for a toss after it, one is dealt (``_toss_if_due``)."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        column = next((c for c in board.columns if c.seat.pk == seat.pk), None)
        if column is None:
            raise EntryRejected(_("That player has no seat at this table."))
        if not board.rows:
            raise EntryRejected(
                _("Nobody leaves before the first round: seat the table again without them.")
            )
        if board.finished:
            raise EntryRejected(_("The session is over: nobody is left to leave."))
        after = _allowed_after(board, LEAVE, column.name)
        return _record_change(session, column.seat, SeatChange.Kind.LEAVE, after, user, rng)


def join(
    session: GameSession, typed_name: str, user: AnyUser, rng: random.Random | None = None
) -> SeatChange:
    """A latecomer sits down before the next round: a player of the league (or of
    the user's tables) by that name, else a new one, on a new seat after the others,
    at the total the rules service gives (``join_total`` of the rules), where the
    rules let anyone join now."""
    try:
        name = clean_name(typed_name, max_length=Player._meta.get_field("name").max_length)
    except ValidationError as error:
        raise EntryRejected(" ".join(error.messages)) from error
    if not name:
        raise EntryRejected(_("Say who joins."))
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        if not board.rows:
            raise EntryRejected(
                _("Nobody joins before the first round: seat the table again with them.")
            )
        if board.finished:
            raise EntryRejected(_("The session is over: nobody can join it."))
        problem = board.state.join_problem()
        if problem:
            raise EntryRejected(_("Nobody may join now: {problem}.").format(problem=problem))
        lock_seating(user, session.league)
        (player_id,) = players_for_seats([name], user, session.league)
        player = Player.objects.get(pk=player_id)
        if session.seats.filter(player=player).exists():
            raise EntryRejected(
                _("{player} already has a seat at this table.").format(player=player.name)
            )
        after = _allowed_after(board, JOIN, player.name)
        last = session.seats.aggregate(last=Max("position"))["last"] or 0
        seat = Seat.objects.create(session=session, player=player, position=last + 1)
        return _record_change(session, seat, SeatChange.Kind.JOIN, after, user, rng)


def _allowed_after(board: Scoreboard, kind: str, name: str) -> int:
    """The round after which ``name`` joins (``kind`` JOIN) or leaves (LEAVE) now, where
    the rules allow it."""
    after = len(board.rows)
    problem = change_problem(board, rules.SeatChange(kind, name, after))
    if problem:
        if kind == JOIN:
            message = _("{player} may not join: {problem}.")
        else:
            message = _("{player} may not leave: {problem}.")
        raise EntryRejected(message.format(player=name, problem=problem))
    return after


def _record_change(
    session: GameSession,
    seat: Seat,
    kind: str,
    after: int,
    user: AnyUser,
    rng: random.Random | None,
) -> SeatChange:
    """Store a join or a leave, deal the toss it calls for, and bring the session's
    stored results up to date."""
    made = SeatChange.objects.create(
        session=session, seat=seat, kind=kind, after_round=after, created_by=signed_in_or_none(user)
    )
    _toss_if_due(session, after, user, rng)
    refresh_session(session)
    return made


def _toss_if_due(
    session: GameSession, after: int, user: AnyUser, rng: random.Random | None
) -> None:
    """Where the rules call for a new toss after a join or a leave (``toss_on_change``),
    deal it now, as at the start of a session: the players still in sit from the
    highest card to the lowest, and the lowest deals the next round. Stored as the
    table's new seating, so that the next dealer is known and every round keeps one."""
    board = load_scoreboard(session)
    if not board.state.toss_due:
        return
    seat_of = {seat.player.name: seat.pk for seat in board.seats}
    dealt = toss_seats(board.state.active, board.ruleset, rng).seats
    SeatChange.objects.create(
        session=session,
        kind=SeatChange.Kind.SEATING,
        after_round=after,
        seats=[seat_of[name] for name, _place in dealt],
        created_by=signed_in_or_none(user),
    )


def replace_share_token(session: GameSession) -> str:
    """A new read-only link; the old one stops working at once."""
    old, session.share_token = session.share_token, new_share_token()
    mark_changed(session, "share_token")
    live.share_link_replaced(old)  # its polls were answered from the cache
    return session.share_token
