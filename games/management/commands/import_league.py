"""Restore a league from a file export_league (or the league page) wrote, as a new
league: every round is scored again by the rules service, and a file that does not
score is refused with nothing written. The league keeps the file's name (or --name)
and its address where it is free, else gets one of its own.

As on the import page, the file acts on nobody: its members are not added (unless
--keep-members), its share links are not used (each session gets a new one), and
whoever entered or changed a round in its history is an account only if the import
made them a member (--owner, if the file lists them; every member with
--keep-members), a name otherwise. Unlike the page, there is no upload limit: this is
how a file too large for the page is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.transfer.league_import import BEFORE_HISTORY, ImportRefused, import_league


class Command(BaseCommand):
    help = (
        "Import a league from a JSON file written by export_league, as a new league. "
        "The file's members are not added unless --keep-members is given; --owner "
        "makes an existing user its owner. Share links are always new, and who entered or "
        "changed a round is linked to an account only if the import made them a member."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_league wrote")
        parser.add_argument(
            "--owner",
            metavar="USERNAME",
            help="an existing user who becomes an owner of the new league",
        )
        parser.add_argument(
            "--name",
            default="",
            help="the new league's name (default: the file's); its address is the file's, "
            "or the name's, numbered (club-2) if another league has it",
        )
        parser.add_argument(
            "--keep-members",
            action="store_true",
            help="add the file's members with their roles, creating the accounts that do "
            "not exist here with no usable password (they sign in after a password reset), "
            'and make their "this is me" claims again',
        )

    def handle(
        self,
        *args: Any,
        file: str,
        owner: str | None,
        keep_members: bool,
        name: str,
        **options: Any,
    ) -> None:
        if owner is None and not keep_members:
            raise CommandError(
                "Give --owner USERNAME, --keep-members or both: a league without members "
                "is seen by nobody."
            )
        user = None
        if owner is not None:
            model = get_user_model()
            user = model.objects.filter(**{model.USERNAME_FIELD: owner}).first()
            if user is None:
                raise CommandError(f"No user has the username {owner!r}.")
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            imported = import_league(raw, owner=user, keep_members=keep_members, name=name)
        except ImportRefused as error:
            raise CommandError(f"{file}: {error}") from None
        league = imported.league
        self.stdout.write(
            f"Imported {league.name} ({league.slug}): {league.sessions.count()} sessions."
        )
        if not imported.history:
            self.stdout.write(BEFORE_HISTORY)
        if imported.invitable:
            names = ", ".join(username for username, _ in imported.invitable)
            self.stdout.write(
                f"Not added (listed on the league's page for its owners to invite): {names}."
            )
