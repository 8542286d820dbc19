"""What a write refuses when the table moved on since the form was opened."""

from __future__ import annotations


class EntryRejected(Exception):
    """A round that was valid when checked but cannot be saved now: the session
    finished, the table changed or someone else saved the round first."""
