from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = gettext_lazy("Games")

    def ready(self) -> None:
        from django.utils import translation

        from games import live
        from games.rules import speech

        live.connect()
        # The rules import no Django: they say what they say to a player through
        # this hook, in the language of the request (docs/inside/rules-words.md).
        speech.install(translation.gettext, translation.ngettext)
