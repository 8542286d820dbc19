"""Compile the catalogues (locale/*/LC_MESSAGES/*.po) into the .mo files Django
reads, then write each language's catalogue of the scripts' strings as a static script
(django-statici18n's compilejsi18n, from those .mo files): what make, the test run and
the image's build do, with no GNU gettext needed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from scorekeeper import catalogues


class Command(BaseCommand):
    help = (
        "Compile every catalogue under locale/ into its .mo file, and write the scripts' "
        "catalogues (static/jsi18n/<language>/djangojs.js)."
    )
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, verbosity: int = 1, **options: Any) -> None:
        compiled = catalogues.compile_all(settings.BASE_DIR / "locale")
        call_command("compilejsi18n", verbosity=0)
        if verbosity:
            for path in [*compiled, *catalogues.scripts_catalogues()]:
                self.stdout.write(f"wrote {path.relative_to(settings.BASE_DIR)}")
