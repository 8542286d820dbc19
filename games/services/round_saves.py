"""Saving a checked round: a new one at the end of its session or an edit of an earlier
one, each once per submission and at the version its form was opened with; deleting
one; and the score table after each write, replayed once.

A new round and an edit are refused for different reasons (a number taken, a version
moved on) and are told apart before anything is written, so each has its own function;
what they write alike (the hands, the history, the figures) is ``_write_hands``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from games.access import AnyUser
from games.models import GameSession, HandEntry, Round, RoundChange, TableRound
from games.rules import PlayerResult, score_round
from games.services import round_messages as say
from games.services.errors import EntryRejected, RoundConflict, RoundRepeated
from games.services.results import refresh_session
from games.services.round_audit import record_change, round_snapshot, signed_in_or_none
from games.services.round_checks import RoundCheck
from games.services.round_clash import same_round
from games.services.round_entries import RoundEntry
from games.services.round_words import Said, said_in_each_language
from games.services.scoreboard import Scoreboard, live_stamp, load_scoreboard, with_round


@dataclass(frozen=True)
class NewRound:
    """A new round as its form hands it over, to be saved at the end of its session.

    ``board`` is the score table ``entry`` was made from: when nothing changed the
    session since it was read, the table after the save is that one replayed with
    the round saved, and the session's rounds are not read again (a save then costs
    the same at round 500 as at round 10, apart from the rules service's replay)."""

    entry: RoundEntry
    check: RoundCheck
    # The number its form showed: saved only as that round, else RoundConflict (another
    # device saved a round first, and the user should see it before adding theirs).
    expected_number: int | None = None
    # The form's one-time token: the same token again returns the round it saved (a
    # double tap, a retried request) instead of saving it twice.
    submission: str | None = None
    # The number its form showed when first opened (``expected_number`` moves on when
    # the user chooses to save after another device's round): a round saved since
    # then that holds the same cut and cards is this round entered on two phones, and
    # it is refused (RoundRepeated), never stored twice. None: ``expected_number``.
    opened_number: int | None = None
    board: Scoreboard | None = None
    # Table mode: who entered each hand (player id: name) for the history, and the
    # name a round that saved itself is recorded under.
    authors: Mapping[int, str] = field(default_factory=dict)
    entered_by_name: str = ""


@dataclass(frozen=True)
class RoundEdit:
    """An edit of ``entry.round`` as its form hands it over: saved only if the round is
    still at ``version`` (the one the form was opened at), else RoundConflict."""

    entry: RoundEntry
    check: RoundCheck
    version: int | None
    board: Scoreboard | None = None  # as NewRound's


@dataclass(frozen=True)
class SavedRound:
    """A round as saved, and the session's score table after it."""

    round: Round
    board: Scoreboard  # the session after the save, replayed once
    stamp_before: str  # the session's live stamp just before the save
    repeated: bool = False  # nothing written: this very form had been saved already


def create_round(new: NewRound, user: AnyUser) -> SavedRound:
    """Save a checked round as the next round of its session, by ``user``. Raises
    RoundConflict or EntryRejected, having written nothing, when the form's number is
    taken, the round repeats one saved since its form was opened (RoundRepeated),
    the session is over or its table changed. A new round however saved ends
    the table's entry of it: phones still on it are told so."""
    entry, check = new.entry, new.check
    _require_scored(check)
    with transaction.atomic():
        locked = _lock(entry.session, new.board)
        session, board = locked.session, locked.board
        if new.submission:
            # By id: Round's default order (by session) would join the session row.
            done = session.rounds.filter(submission=new.submission).order_by("pk").first()
            if done is not None:  # this very form was saved already
                board = board or load_scoreboard(session)
                return SavedRound(done, board, locked.stamp_before, repeated=True)
        if board is not None:  # read since the last change: it holds every round
            last = board.saved.rounds[-1][1] if board.saved.rounds else 0
        else:
            last = session.rounds.aggregate(last=Max("number"))["last"] or 0
        number = new.expected_number
        if number is not None and number != last + 1:
            theirs = session.rounds.filter(number=number).first()
            raise RoundConflict(say.changed_on_another_device(theirs, number), theirs)
        _refuse_repeat(session, last, new.opened_number or number, check)
        board = board or load_scoreboard(session)
        if board.finished:
            raise EntryRejected(str(say.SESSION_OVER))
        if [s.pk for s in board.playing_seats] != [s.pk for s in entry.seats]:
            raise EntryRejected(str(say.TABLE_CHANGED))
        entered_by = signed_in_or_none(user)
        played = Round.objects.create(
            session=session,
            number=last + 1,
            dealer=board.next_dealer,
            cut_joker=check.cut.code,
            entered_by=entered_by,
            entered_by_name=new.entered_by_name if entered_by is None else "",
            submission=new.submission or None,
        )
        TableRound.objects.filter(session=session, number__lte=played.number).delete()
        return _write_hands(
            locked, board, played, check, user, authors=new.authors, name=new.entered_by_name
        )


def _refuse_repeat(session: GameSession, last: int, opened: int | None, check: RoundCheck) -> None:
    """Raise RoundRepeated if the last round was saved after this round's form was
    opened (at number ``opened``) and holds what ``check`` holds: the same round, typed
    on two phones. Rounds saved before the form was opened are not looked at: nothing
    is read for a save that meets no other device's round."""
    if opened is None or last < opened:
        return
    latest = session.rounds.select_related("entered_by").filter(number=last).first()
    if latest is not None and same_round(latest, check):
        raise RoundRepeated(say.repeats_saved(latest), latest)


def edit_round(edit: RoundEdit, user: AnyUser) -> SavedRound:
    """Save a checked edit of ``edit.entry.round``, by ``user``: its hands replaced and
    its version moved on. Raises RoundConflict, having written nothing, when the round
    moved on from ``edit.version`` or was deleted; the same edit sent again (its answer
    lost) saves nothing more and answers as the first did."""
    entry, check = edit.entry, edit.check
    assert entry.round is not None, "an edit of a saved round"
    _require_scored(check)
    entered_by = signed_in_or_none(user)
    with transaction.atomic():
        locked = _lock(entry.session, edit.board)
        session = locked.session
        current = session.rounds.select_related("entered_by").filter(pk=entry.round.pk).first()
        if _edit_already_saved(current, check, entered_by, edit.version):
            board = locked.board or load_scoreboard(session)
            return SavedRound(current, board, locked.stamp_before, repeated=True)
        if current is None or current.version != edit.version:
            message = say.changed_on_another_device(current, entry.round.number)
            raise RoundConflict(message, current)
        before = round_snapshot(current)
        Round.objects.filter(pk=current.pk).update(
            cut_joker=check.cut.code,
            entered_by=entered_by,
            version=F("version") + 1,
            updated_at=timezone.now(),
        )
        played = Round.objects.select_related("dealer__player").get(pk=current.pk)
        played.entries.all().delete()
        return _write_hands(locked, locked.board, played, check, user, before=before)


def save_round(entry: RoundEntry, check: RoundCheck, user: AnyUser, **options) -> Round:
    """Save a checked round, new or an edit of ``entry.round`` as ``entry`` says, and
    answer with the round alone: for scripts and tests, whose options are the fields
    of NewRound or of RoundEdit."""
    if entry.round is None:
        return create_round(NewRound(entry, check, **options), user).round
    return edit_round(RoundEdit(entry, check, **options), user).round


def delete_round(played: Round, user: AnyUser, *, version: int | None = None) -> int:
    """Delete a round and close the gap: later rounds move up one number, in
    ascending order and one row at a time, so (session, number) stays unique at
    every step (PostgreSQL checks it per row, not at the end of the statement).
    With ``version``, only if nobody changed the round since (else RoundConflict).
    Returns how many later rounds moved up."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=played.session_id)
        current = (
            session.rounds.select_related("entered_by", "dealer__player")
            .filter(pk=played.pk)
            .first()
        )
        if current is None or (version is not None and current.version != version):
            raise RoundConflict(say.changed_on_another_device(current, played.number), current)
        record_change(current, RoundChange.Action.DELETED, user, round_snapshot(current), None)
        number = current.number
        Round.objects.filter(pk=current.pk).delete()
        later = list(
            session.rounds.filter(number__gt=number).order_by("number").values_list("pk", flat=True)
        )
        for pk in later:
            Round.objects.filter(pk=pk).update(number=F("number") - 1)
        refresh_session(session)
    return len(later)


@dataclass(frozen=True)
class _Locked:
    """A session locked for a save, in the save's transaction: its row, its live stamp
    before the save, and the caller's score table while it still shows the session
    (else None: read again when needed)."""

    session: GameSession
    stamp_before: str
    board: Scoreboard | None


def _lock(session: GameSession, board: Scoreboard | None) -> _Locked:
    # Lock the session row: two phones saving at once are serialised here.
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    return _Locked(locked, live_stamp(locked), _still_current(board, locked))


def _still_current(board: Scoreboard | None, locked: GameSession) -> Scoreboard | None:
    """``board`` if it still shows the session as it is under the lock: every change to
    a session's rounds, rejoins or closing saves its row, which moves ``updated_at``
    (the live stamp), so an unchanged stamp means an unchanged table."""
    if board is None or board.saved is None or board.session.pk != locked.pk:
        return None
    return board if board.session.updated_at == locked.updated_at else None


def _write_hands(
    locked: _Locked,
    board: Scoreboard | None,
    played: Round,
    check: RoundCheck,
    user: AnyUser,
    *,
    before: dict | None = None,
    authors: Mapping[int, str] | None = None,
    name: str = "",
) -> SavedRound:
    """What a new round and an edit write alike, once ``played`` holds the round's own
    row: its hands as the rules service scored them, the change in the history
    (``before``: the round before an edit; None for a new round) and the session's
    figures, from ``board`` (the session before the write) replayed with the round,
    or read again where there is none."""
    hands = HandEntry.objects.bulk_create(scored_hands(played, check))
    action = RoundChange.Action.CREATED if before is None else RoundChange.Action.EDITED
    after = round_snapshot(played, authors, hands)
    record_change(played, action, user, before, after, name)
    if board is not None:
        # The table as it was, with this round as now saved: no second read.
        board = with_round(board, played, {hand.player_id: hand.score for hand in hands})
    session = locked.session
    board = refresh_session(session, board)
    # The board's session row (the caller's) now shows the status and stamp written.
    board.session.status, board.session.updated_at = session.status, session.updated_at
    return SavedRound(played, board, locked.stamp_before)


def _require_scored(check: RoundCheck) -> None:
    if not check.valid or check.cut is None or check.result is None:
        raise ValueError("only a round the rules service scored can be saved")


def scored_hands(played: Round, check: RoundCheck) -> list[HandEntry]:
    """The hands of a round the rules service scored, as saved: what was entered (the
    grouping the check kept or arranged) and what the rules made of it."""
    scored = check.result
    said = said_in_each_language(
        lambda: score_round(scored.ruleset, check.cut, [player.hand for player in check.players]),
        scored,
    )
    return [
        HandEntry(
            round=played,
            player=player.seat.player,
            outcome=result.outcome,
            on_deal=result.on_deal,
            groups=[[card.code for card in group] for group in player.hand.groups],
            counted=player.hand.counted,
            figures=player.hand.figures.as_dict() if player.hand.figures else {},
            declaration=result.declaration or "",
            hand_points=result.hand_points,
            value_points=result.value_points,
            claims=result.claims,
            score=result.score,
            breakdown=breakdown_of(result, words),
        )
        for player, result, words in zip(check.players, scored.players, said, strict=True)
        if player.hand is not None
    ]


# What saving a checked hand writes besides its round and player: as entered (the
# grouping kept or arranged) and as the rules service scored it.
SCORED_FIELDS = (*(name for name in HandEntry.RECORDED if name != "player"), "breakdown")


def breakdown_of(result: PlayerResult, said: Mapping[str, Said]) -> dict:
    """What a hand keeps of the rules service's result: its groups and value cards,
    and its working (``said``: by language, ``round_words``), the source language's
    as "lines" and "rule_applied" and every other language's under "said"."""
    source = said[settings.LANGUAGE_CODE]
    # "rule_applied" (why the hand points are not the groups' sum) only where a rule
    # replaced the count: rounds saved before it was kept show no such line.
    return {
        **source,
        "said": {code: words for code, words in said.items() if code != settings.LANGUAGE_CODE},
        "groups": [
            {
                "cards": [card.code for card in group.cards],
                "kind": str(group.kind),
                "counted": group.counted,
                "left_out": group.left_out,
            }
            for group in result.groups
        ],
        "value_cards": [card.code for card in result.value_cards],
    }


def _edit_already_saved(
    current: Round | None, check: RoundCheck, user: AbstractBaseUser | None, version: int | None
) -> bool:
    """Whether ``current`` is exactly what this edit would write, written by this user
    as the very next version: the same form sent again after its answer was lost (an
    edit has no submission token, so its content and version stand in for one)."""
    if current is None or version is None or user is None:
        return False
    if current.version != version + 1 or current.entered_by_id != user.pk:
        return False
    stored = [
        (entry.player_id, entry.outcome, entry.on_deal, entry.groups, entry.hand_figures)
        for entry in current.entries.order_by("pk")
    ]
    typed = [
        (
            player.seat.player_id,
            result.outcome,
            result.on_deal,
            [[card.code for card in group] for group in player.hand.groups],
            player.hand.figures,
        )
        for player, result in zip(check.players, check.result.players, strict=True)
        if player.hand is not None
    ]
    return current.cut_joker == check.cut.code and stored == typed
