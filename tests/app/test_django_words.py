"""Django's words we say ourselves (games/django_words.py) override Django's catalogue
only while each is still, letter for letter, one of Django's messages: an upgrade that
rewords one would bring Django's translation back unnoticed."""

from __future__ import annotations

from pathlib import Path

import django
import polib
import pytest
from django.conf import settings

from scorekeeper import catalogues

DJANGO = Path(django.__file__).parent
DJANGOS_CATALOGUES = (
    DJANGO / "conf" / "locale" / "en" / "LC_MESSAGES" / "django.po",
    DJANGO / "contrib" / "auth" / "locale" / "en" / "LC_MESSAGES" / "django.po",
)
LANGUAGES = catalogues.translated_languages(settings.LANGUAGES, settings.LANGUAGE_CODE)


def _key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_django_word_we_say_is_still_djangos(language: str) -> None:
    djangos = {_key(entry) for path in DJANGOS_CATALOGUES for entry in polib.pofile(str(path))}
    ours = catalogues.catalogue(settings.BASE_DIR / "locale", language, "django")
    marked = [
        entry
        for entry in polib.pofile(str(ours))
        if any(path == "games/django_words.py" for path, _ in entry.occurrences)
    ]
    assert len(marked) > 30
    assert [entry.msgid for entry in marked if _key(entry) not in djangos] == []
