"""Bring every language's catalogues up to the strings of the code (`make messages`):
Django's makemessages with the project's options (scorekeeper/catalogues.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from scorekeeper import catalogues


class Command(BaseCommand):
    help = (
        "Run makemessages for every language of settings.LANGUAGES but English, both "
        "domains, with the project's options: new strings added (untranslated), those "
        "gone removed. A language just added to LANGUAGES gets its catalogues."
    )
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        languages = catalogues.translated_languages(settings.LANGUAGES, settings.LANGUAGE_CODE)
        catalogues.update(settings.BASE_DIR, languages)
        for progress in catalogues.progress(settings.BASE_DIR / "locale"):
            self.stdout.write(str(progress))
