"""What a write refuses when the table moved on since the form was opened."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Round


class EntryRejected(Exception):
    """A round that was valid when checked but cannot be saved now: the session
    finished, the table changed or someone else saved the round first."""


class RoundConflict(EntryRejected):
    """Another device saved this round first: ``theirs`` is their version (None if
    they deleted it). Nothing of ours was written."""

    def __init__(self, message: str, theirs: Round | None) -> None:
        super().__init__(message)
        self.theirs = theirs


class RoundRepeated(RoundConflict):
    """The round sent is ``theirs`` again, saved since its form was opened (another
    phone's entry of the same round): the same cut joker and, player by player, the
    same outcome and cards. Nothing was written: a round is never stored twice."""
