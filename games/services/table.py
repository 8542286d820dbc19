"""Table mode: every player enters their own hand on their own phone.

The scorer opens a table link; each phone picks a seat (services here set the seat's
phone key, games.access signs it into the phone's cookie), then enters that seat's
hand of the next round. Hands are stored from the first card (``TableHand``), so a
reload or a dropped connection keeps them; a hand handed in is checked on its own
(check_hand) and may be changed until the round is saved. Once every hand is in,
the round is checked as a whole (check_round) and the scorer saves it with one tap
(create_round, with the table's submission token), or it saves itself when the
session says so and the round checks clean.

Every write locks the session row, as a round's save does: six phones writing at once
are serialised, a hand written while the round is being saved is either in it or
told the round is saved, and no hand lands in a round that is already saved.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import live
from games.models import (
    GameSession,
    League,
    Round,
    Seat,
    TableHand,
    TableRound,
    new_share_token,
)
from games.models.rounds import SAVED_BY_ITSELF
from games.rules import CardError, HandFigures, parse_card, speech
from games.services import round_messages as say
from games.services.errors import EntryRejected
from games.services.round_checks import RoundCheck, check_hand, check_round
from games.services.round_checks import TypedHand as RoundHand  # the table's is a richer one
from games.services.round_entries import RoundEntry, new_round_entry
from games.services.round_saves import NewRound, create_round
from games.services.scoreboard import Scoreboard, load_scoreboard

# The most of the rules service's words a refused hand keeps for the scorer's view.
PROBLEM_LENGTH = 500


class SeatTaken(EntryRejected):
    """Another phone holds the seat."""


class RoundMovedOn(EntryRejected):
    """A hand for a round that is not the one being entered: ``number`` is the round
    the phone showed, ``current`` the one open now. ``saved`` when the phone's round
    was saved meanwhile (a late hand)."""

    def __init__(self, number: int, current: int) -> None:
        self.number, self.current = number, current
        if self.saved:
            message = _(
                "Round {number} is already saved: this hand was not used. Round {current} is "
                "open now."
            )
        else:
            message = _("Round {number} is not being entered: round {current} is. Reload the page.")
        super().__init__(message.format(number=number, current=current))

    @property
    def saved(self) -> bool:
        return self.number < self.current


class TableClosed(EntryRejected):
    """A hand or cut sent from a table link the scorer has closed or replaced since
    the phone (or the scorer's page) read it: nothing is stored."""


class SeatReleased(EntryRejected):
    """A hand from a phone that no longer holds its seat (released, or picked again
    on another phone) since it sent it: nothing is stored."""


class RoundNotReady(EntryRejected):
    """Save was asked for a round that does not check: ``check`` says why (None: not
    every hand is in)."""

    def __init__(self, message: str, check: RoundCheck | None = None) -> None:
        super().__init__(message)
        self.check = check


# --- The table link and the seats -------------------------------------------------------


def auto_saves(session: GameSession) -> bool:
    """Whether a round saves itself once every hand is in and it checks clean: the
    session's own choice, else its league's."""
    if session.table_auto_save is not None:
        return session.table_auto_save
    return bool(session.league_id and session.league.table_auto_save)


def open_table(session: GameSession) -> str:
    """Open table mode: the session gets a table link (kept if it has one)."""
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        if locked.table_token is None:
            locked.table_token = new_share_token()
            GameSession.objects.filter(pk=session.pk).update(table_token=locked.table_token)
            live.table_changed(session.pk)
    session.table_token = locked.table_token
    return session.table_token


def replace_table_link(session: GameSession) -> str:
    """A new table link: the old one stops working, and every phone picks its seat
    again from the new one (the hands entered so far are kept)."""
    with transaction.atomic():
        GameSession.objects.select_for_update().filter(pk=session.pk).first()
        session.table_token = new_share_token()
        GameSession.objects.filter(pk=session.pk).update(table_token=session.table_token)
        _release_all(session)
    return session.table_token


def close_table(session: GameSession) -> None:
    """Close table mode: the link stops working, the seats are free and the hands
    entered for the next round are dropped (the scorer enters rounds by hand)."""
    with transaction.atomic():
        GameSession.objects.select_for_update().filter(pk=session.pk).first()
        GameSession.objects.filter(pk=session.pk).update(table_token=None)
        session.table_token = None
        _release_all(session)
        TableRound.objects.filter(session=session).delete()


def set_auto_save(session: GameSession, on: bool) -> None:
    """The session's own choice of auto-save (over its league's). The scorer's panel
    follows it on every phone: the option is part of the panel's stamp, and _touch
    moves the table generation its cached polls compare."""
    GameSession.objects.filter(pk=session.pk).update(table_auto_save=on)
    session.table_auto_save = on
    touch(session)


def league_auto_save_changed(league: League) -> None:
    """The league's auto-save choice changed: the scorer's panel of each of its
    sessions at a table that follows it (no choice of its own) shows it, so their
    table polls ask the database again."""
    following = league.sessions.filter(table_token__isnull=False, table_auto_save=None)
    for pk in following.values_list("pk", flat=True):
        live.table_changed(pk)


def _release_all(session: GameSession) -> None:
    session.seats.update(phone_key=None, phone_since=None)
    touch(session)


def touch(session: GameSession) -> None:
    """Say that the table changed (a seat picked or freed, a hand deleted in the
    admin): the scorer's live view polls on the table round's stamp, and both sides'
    polls on the cache's table generation (games.live; a queryset update sends no
    signal)."""
    TableRound.objects.filter(session=session).update(updated_at=timezone.now())
    live.table_changed(session.pk)


def next_number(session: GameSession) -> int:
    return (session.rounds.aggregate(last=Max("number"))["last"] or 0) + 1


def claim_seat(session: GameSession, seat: Seat, *, holding: Seat | None = None) -> Seat:
    """This phone picks ``seat`` (a seat of a player still in): the seat gets a new
    phone key, which games.access.give_seat signs into the phone's cookie. A phone
    that held another seat (``holding``) gives it up. SeatTaken if another phone
    holds the seat: the scorer can release it."""
    if holding is not None and holding.pk == seat.pk:
        return holding
    key = secrets.token_hex(16)
    with transaction.atomic():
        # One statement: of two phones picking the same seat at once, one wins.
        taken = Seat.objects.filter(pk=seat.pk, phone_key__isnull=True).update(
            phone_key=key, phone_since=timezone.now()
        )
        if not taken:
            raise SeatTaken(
                _(
                    "{player}'s seat is taken on another phone. If that is wrong, ask the "
                    "scorer to release it."
                ).format(player=seat.player.name)
            )
        if holding is not None:
            Seat.objects.filter(pk=holding.pk, phone_key=holding.phone_key).update(
                phone_key=None, phone_since=None
            )
        touch(session)
    seat.phone_key = key
    return seat


def release_seat(session: GameSession, seat: Seat) -> bool:
    """Free a seat (the scorer's choice, or its own phone leaving it): the phone that
    held it is told so on its next request. Its hand so far is kept."""
    with transaction.atomic():
        freed = Seat.objects.filter(pk=seat.pk, phone_key__isnull=False).update(
            phone_key=None, phone_since=None
        )
        touch(session)
    return bool(freed)


# --- Hands --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypedHand:
    """One seat's hand as typed, on its phone or by the scorer: what write_hand stores
    and hand_preview checks. ``outcome``, ``text`` and ``cut_text`` are None where the
    form refused them (its error is said beside the field)."""

    number: int  # the round it was typed for
    outcome: str | None
    text: str | None
    cut_text: str | None = ""  # the phone's cut joker, used while the table has none
    # The phone's count of edits: a write older than the hand stored is not kept over it.
    edit: int = 0
    on_deal: bool = False  # a winner winning on the deal (kodai)
    # Counted at the table: typed as these figures, not as its cards (``text`` is then
    # kept as it stands, unread, for a switch back). None: by its cards.
    figures: HandFigures | None = None

    @property
    def checked_text(self) -> str | None:
        """The text the rules read: none for a counted hand (its cards are not what
        was entered, and a hand given both ways is refused)."""
        return "" if self.figures is not None else self.text


@dataclass(frozen=True)
class SeatRound:
    """The round being entered as one seat's page shows it: the session's rounds so
    far, the round's entry, the table round (None before any phone started on it)
    and the seat's hand of it (None before its phone typed anything)."""

    seat: Seat
    board: Scoreboard
    entry: RoundEntry
    table_round: TableRound | None
    hand: TableHand | None

    @property
    def playing(self) -> bool:
        """The seat has a hand to enter (its player still in, the session not over)."""
        return self.entry.seat_playing(self.seat.pk) is not None

    @property
    def cut(self) -> str:
        """The table's cut joker, once a phone (or the scorer) entered it."""
        return self.table_round.cut_joker if self.table_round else ""


@dataclass
class HandWritten:
    """What became of a hand written from a phone (or by the scorer)."""

    entry: RoundEntry
    table_round: TableRound
    hand: TableHand
    check: RoundCheck  # the hand on its own, as check_hand judged it
    stale: bool = False  # an older edit than the one stored: nothing was written
    saved: Round | None = None  # the round, when this hand completed it and it saved itself


def seat_round(session: GameSession, seat: Seat) -> SeatRound:
    """The round being entered, and ``seat``'s hand of it, as stored."""
    board = load_scoreboard(session)
    table_round = table_round_of(session)
    entry = new_round_entry(session, board)
    return SeatRound(seat, board, entry, table_round, hand_of(table_round, seat))


def table_round_of(session: GameSession) -> TableRound | None:
    """The round being entered at the table, if any phone has started on it."""
    return TableRound.objects.filter(session=session, number=next_number(session)).first()


def hand_of(table_round: TableRound | None, seat: Seat) -> TableHand | None:
    if table_round is None:
        return None
    return table_round.hands.filter(seat=seat).first()


def _cut_text(table_round: TableRound | None, posted: str | None) -> str | None:
    """The cut joker a hand is checked with: the table's once a phone (or the scorer)
    has entered it, else the one this phone typed."""
    if table_round is not None and table_round.cut_joker:
        return table_round.cut_joker
    return posted


def write_hand(
    session: GameSession,
    seat: Seat,
    typed: TypedHand,
    *,
    final: bool,
    user: AbstractBaseUser | AnonymousUser | None = None,
    checked_as_handed_in: bool = False,
) -> HandWritten:
    """Store ``seat``'s hand (``typed`` for round ``typed.number``): ``final`` hands
    it in, if it checks on its own (check_hand), else it is kept as typed with the
    problems the scorer then sees. ``user`` is the scorer correcting the hand (None:
    the seat's phone). ``checked_as_handed_in``: a hand typed (not handed in) under
    the list of what Hand in refused is checked as Hand in checks it, so that the list
    follows the fixes.

    Raises RoundMovedOn for a round that is not the one being entered (already
    saved: a late hand), TableClosed when table mode was closed (or, for a phone,
    its link replaced) and SeatReleased when the phone no longer holds the seat,
    both since the caller read them, and EntryRejected when the seat has no hand to
    enter (the player is out, the session over)."""
    by_phone = user is None or not user.is_authenticated
    with transaction.atomic():
        locked, entry, board = _open_round(session, typed.number)
        _check_table_open(session, locked, seat if by_phone else None)
        _check_seat_plays(entry, seat)
        table_round, _new = TableRound.objects.get_or_create(session=locked, number=typed.number)
        hand = table_round.hands.filter(seat=seat).first()
        outcome, text, cut_text, on_deal = typed.outcome, typed.text, typed.cut_text, typed.on_deal
        if hand is not None and by_phone and typed.edit < hand.edit:
            # A preview sent before the hand was handed in, answered after it.
            stored = hand.hand_figures
            check = check_hand(
                entry, seat, _cut_text(table_round, cut_text), hand.outcome or None,
                "" if stored else hand.text, final=False, on_deal=hand.on_deal, figures=stored,
            )  # fmt: skip
            return HandWritten(entry, table_round, hand, check, stale=True)
        if not table_round.cut_joker and cut_text:
            # A cut that is no card is said beside the field by check_hand below.
            with contextlib.suppress(CardError):
                table_round.cut_joker = parse_card(cut_text).code
        check = check_hand(
            entry,
            seat,
            _cut_text(table_round, cut_text),
            outcome,
            typed.checked_text,
            final=final or checked_as_handed_in,
            on_deal=on_deal,
            figures=typed.figures,
        )
        problems = check.cut_errors + check.errors
        problems += [message for player in check.players for message in player.errors]
        if final and problems and not by_phone:
            # A correction that does not check is said to the scorer, never stored over
            # what the phone entered.
            return HandWritten(entry, table_round, hand or TableHand(seat=seat), check)
        hand = hand or TableHand(table_round=table_round, seat=seat)
        before = (hand.outcome, hand.text, hand.on_deal, hand.counted, hand.figures)
        hand.outcome, hand.text, hand.on_deal = outcome or "", text or "", on_deal
        # A switch to the cards keeps the figures typed, as a switch to the count keeps
        # the cards: either comes back as it was left.
        hand.counted = typed.figures is not None
        if typed.figures is not None:
            hand.figures = typed.figures.as_dict()
        changed = before != (hand.outcome, hand.text, hand.on_deal, hand.counted, hand.figures)
        if not final and not changed and hand.pk is not None:
            return HandWritten(entry, table_round, hand, check)  # nothing new to keep
        hand.edit = max(typed.edit, hand.edit + (0 if by_phone else 1))
        hand.entered_by = None if by_phone else user
        if final:
            hand.problem = " ".join(problems)[:PROBLEM_LENGTH]
            hand.status = TableHand.Status.TYPING if problems else TableHand.Status.IN
        else:
            # Typing again takes a hand back until it is handed in again.
            hand.problem, hand.status = "", TableHand.Status.TYPING
        hand.save()
        table_round.save()  # its cut, and the stamp the scorer's view polls on
        written = HandWritten(entry, table_round, hand, check)
        if hand.status == TableHand.Status.IN and auto_saves(locked):
            written.saved = _save_if_clean(locked, entry, table_round, board)
    return written


def _check_table_open(session: GameSession, locked: GameSession, seat: Seat | None) -> None:
    """Under the session's lock: table mode is still open and, for a phone (``seat``),
    on the link it came by, and the seat still has the phone key it was read with. The
    views check the link and the seat before they call, but the scorer may close
    table mode, replace the link or release the seat in between: a hand written then
    would bring back a table round that closing dropped, or land from a phone that
    lost its seat. Closing and replacing take the same lock; releasing does not, so
    the seat's row is locked here (a release waits until this hand is written)."""
    if seat is None:
        if locked.table_token is None:
            raise TableClosed(
                _(
                    "Table mode is closed: nothing was kept. Open it again, or enter the "
                    "round in the round form."
                )
            )
        return
    if locked.table_token != session.table_token:
        raise link_gone(locked.table_token)
    held = Seat.objects.select_for_update().filter(pk=seat.pk).values_list("phone_key", flat=True)
    if held.first() != seat.phone_key:
        raise SeatReleased(
            _(
                "This phone no longer holds {player}'s seat: your hand was not kept. Pick "
                "your seat again."
            ).format(player=seat.player.name)
        )


# What a phone at a table link that no longer works is told, by (closed, leaving):
# table mode closed (else the link replaced), and "Leave this seat" tapped (else a hand
# sent). Closing or replacing the link freed every seat, so there is none to leave.
_LINK_GONE = {
    (True, False): gettext_lazy(
        "The scorer closed table mode, so this link takes no more hands. Show your hand to "
        "the scorer, who enters the round."
    ),
    (False, False): gettext_lazy(
        "The scorer made a new table link, so this one takes no more hands. Show your hand "
        "to the scorer, or scan the new link's QR code and pick your seat again."
    ),
    (True, True): gettext_lazy(
        "The scorer closed table mode: every seat is free, so this phone has none to leave. "
        "Show your hand to the scorer, who enters the round."
    ),
    (False, True): gettext_lazy(
        "The scorer made a new table link: every seat is free, so this phone has none to "
        "leave. Show your hand to the scorer, or scan the new link's QR code and pick your "
        "seat again."
    ),
}


def link_gone(token_now: str | None, *, leaving: bool = False) -> TableClosed:
    """What a phone is told of a hand sent from a table link that no longer works,
    whether it went while the hand was on its way or before, or of its seat given up
    there (``leaving``): the table's link is ``token_now`` (None: table mode is closed)."""
    return TableClosed(str(_LINK_GONE[token_now is None, leaving]))


def _check_seat_plays(entry: RoundEntry, seat: Seat) -> None:
    if entry.finished:
        raise EntryRejected(str(say.SESSION_OVER))
    if seat.pk not in {s.pk for s in entry.seats}:
        raise EntryRejected(
            _("{player} is out of this session: no hand to enter.").format(player=seat.player.name)
        )


def set_cut(session: GameSession, number: int, cut_text: str) -> TableRound:
    """The scorer enters (or corrects) the round's cut joker for every phone."""
    cut = parse_card(cut_text).code  # CardError: said beside the field
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        _check_table_open(session, locked, None)  # a page from before table mode closed
        current = next_number(locked)
        if number != current:
            raise RoundMovedOn(number, current)
        table_round, _new = TableRound.objects.get_or_create(session=locked, number=number)
        table_round.cut_joker = cut
        table_round.save()
    return table_round


# --- Checking hands, and Save ------------------------------------------------------------


def hand_preview(
    seat: Seat,
    entry: RoundEntry,
    table_round: TableRound | None,
    typed: TypedHand,
    *,
    final: bool = False,
) -> RoundCheck:
    """A hand checked without storing anything: the scorer's live check of a hand
    being corrected (the seat's own hand stays as its phone left it), or a seat's hand
    shown again as it was left. ``final``: checked as Hand in checks it (a refused Hand
    in, shown again, says again what refused it)."""
    _check_seat_plays(entry, seat)
    cut = _cut_text(table_round, typed.cut_text)
    return check_hand(
        entry, seat, cut, typed.outcome, typed.checked_text,
        final=final, on_deal=typed.on_deal, figures=typed.figures,
    )  # fmt: skip


def hands_by_seat(table_round: TableRound | None) -> dict[int, TableHand]:
    """The table round's hands as stored, by seat id (none before any phone started)."""
    if table_round is None:
        return {}
    hands = table_round.hands.select_related("entered_by", "seat__player")
    return {hand.seat_id: hand for hand in hands}


def round_check(entry: RoundEntry, table_round: TableRound, hands: dict[int, TableHand]):
    """The round as its hands stand, checked as a whole (as the scorer's form would):
    a counted hand as its figures, its cards (kept for a switch back) unread."""
    typed = {
        pk: RoundHand(hand.outcome or None, "" if hand.counted else hand.text, hand.hand_figures)
        for pk, hand in hands.items()
    }
    on_deal = [pk for pk, hand in hands.items() if hand.on_deal]
    return check_round(entry, table_round.cut_joker, typed, final=True, on_deal=on_deal)


def _author(hand: TableHand) -> str:
    if hand.entered_by_id:
        return f"{hand.entered_by.get_username()} (scorer)"
    return f"{hand.seat.player.name}'s phone"


def _save_if_clean(
    session: GameSession, entry: RoundEntry, table_round: TableRound, board: Scoreboard
):
    """Auto-save: the round, if every hand is in and it checks clean; else None."""
    hands = hands_by_seat(table_round)
    if any(
        seat.pk not in hands or hands[seat.pk].status != TableHand.Status.IN for seat in entry.seats
    ):
        return None
    check = round_check(entry, table_round, hands)
    if not check.valid:
        return None
    try:
        return _save(session, entry, table_round, hands, check, None, board)
    except EntryRejected:
        return None  # e.g. the table changed: the scorer saves it by hand


def _save(
    session: GameSession,
    entry: RoundEntry,
    table_round: TableRound,
    hands: dict[int, TableHand],
    check: RoundCheck,
    user: AbstractBaseUser | AnonymousUser | None,
    board: Scoreboard,
) -> Round:
    seats = {seat.pk: seat for seat in entry.seats}
    authors = {seats[pk].player_id: _author(hand) for pk, hand in hands.items() if pk in seats}
    # ``board`` was read under the same lock: the save replays it with the round
    # instead of reading the session's rounds again.
    new = NewRound(
        entry,
        check,
        expected_number=entry.number,
        submission=table_round.submission,
        board=board,
        authors=authors,
        entered_by_name="" if user else SAVED_BY_ITSELF,
    )
    return create_round(new, user or AnonymousUser()).round


def save_table_round(
    session: GameSession, number: int, user: AbstractBaseUser | AnonymousUser
) -> Round:
    """The scorer's one tap: save round ``number`` from the hands the table entered.
    RoundMovedOn if it is saved already (a double tap finds it), RoundNotReady while
    a hand is missing or the round does not check."""
    with transaction.atomic():
        locked, entry, board = _open_round(session, number)
        if entry.finished:
            raise EntryRejected(str(say.SESSION_OVER))
        table_round = TableRound.objects.filter(session=locked, number=number).first()
        hands = hands_by_seat(table_round)
        missing = [
            seat.player.name
            for seat in entry.seats
            if seat.pk not in hands or hands[seat.pk].status != TableHand.Status.IN
        ]
        if table_round is None or missing:
            raise RoundNotReady(
                _(
                    "Not every hand is in yet: waiting for {players}. Correct a hand to enter "
                    "it yourself."
                ).format(players=speech.list_words(missing))
            )
        check = round_check(entry, table_round, hands)
        if not check.valid:
            raise RoundNotReady(_("The round does not check yet: see the problems."), check)
        return _save(locked, entry, table_round, hands, check, user, board)


def _open_round(session: GameSession, number: int) -> tuple[GameSession, RoundEntry, Scoreboard]:
    """Inside a transaction: the session locked and round ``number``'s entry, or
    RoundMovedOn when that round is not the one being entered."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    board = load_scoreboard(locked)
    entry = new_round_entry(locked, board)
    if number != entry.number:
        raise RoundMovedOn(number, entry.number)
    return locked, entry, board
