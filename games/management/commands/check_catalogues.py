"""Fail when a catalogue is behind the code: when makemessages would change it (CI,
`make messages-check`), and with --complete when a string is untranslated or fuzzy
(`make messages-complete`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper import catalogues


class Command(BaseCommand):
    help = (
        "Check that makemessages would change no catalogue (run on a copy of the "
        "project), and with --complete that every string is translated and none fuzzy."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--complete",
            action="store_true",
            help="also fail on a string untranslated or fuzzy (as msgfmt --statistics counts)",
        )

    def handle(self, *args: Any, complete: bool, **options: Any) -> None:
        locale = settings.BASE_DIR / "locale"
        languages = catalogues.translated_languages(settings.LANGUAGES, settings.LANGUAGE_CODE)
        problems = [str(stale) for stale in catalogues.stale(settings.BASE_DIR, locale, languages)]
        if problems:
            problems.append("Run `make messages`, translate what it adds, and commit.")
        for progress in catalogues.progress(locale):
            self.stdout.write(str(progress))
            if complete and not progress.complete:
                problems.append(f"{progress.path}: translate every string, unmark the fuzzy")
        if problems:
            raise CommandError("\n".join(problems))
        self.stdout.write("The catalogues are up to date with the code.")
