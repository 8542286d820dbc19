"""Compile the catalogues (locale/*/LC_MESSAGES/*.po) into the .mo files Django
reads: what make, the test run and the image's build do, with no GNU gettext needed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from scorekeeper import catalogues


class Command(BaseCommand):
    help = "Compile every catalogue under locale/ into its .mo file."
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        for path in catalogues.compile_all(settings.BASE_DIR / "locale"):
            self.stdout.write(f"compiled {path.relative_to(settings.BASE_DIR)}")
