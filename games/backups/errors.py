"""The one error of backups: what went wrong, in words an admin can act on."""

from __future__ import annotations


class BackupError(Exception):
    """A backup or a restore that cannot be done, and why (the message is shown as
    it is by the management commands)."""
