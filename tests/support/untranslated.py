"""English left on a page rendered in a pseudo-language (tests/support/pseudo_locale.py
widens every message of the app's catalogue): the plain ASCII words of a text once
what is written alike in every language is taken out (names, numbers, card codes,
addresses, the values of ``kept``), unless the text is Django's own, which the
pseudo-language, unknown to Django, leaves in Django's English."""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterable
from pathlib import Path

import polib
from babel.numbers import get_currency_name, get_currency_symbol, list_currencies
from django.apps import apps
from django.conf import settings
from django.utils import dates

from games import figures

_CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC♠♥♦♣](?![A-Za-z0-9])|\bPJ\b")
_ADDRESS = re.compile(r"\b(?:https?://|/)\S*")
_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
# Several of Django's texts in one (the admin's <title>: "Log in | Django site admin").
_DJANGO_SEPARATOR = re.compile(r"\s[|·]\s")
_DJANGO_PLACEHOLDER = re.compile(r"%(?:\([^()]*\))?[sdif]|\{[^{}]*\}")


def english_left(text: str, *kept: re.Pattern[str]) -> list[str]:
    """The plain ASCII words of ``text`` (its white space as a browser shows it) that
    are neither Django's nor matched by one of ``kept`` (see ``whole_words``)."""
    words = []
    for part in _DJANGO_SEPARATOR.split(" ".join(text.split())):
        if not _ASCII_WORD.search(part) or _djangos().fullmatch(part):
            continue
        for pattern in (*kept, _ADDRESS, _CARD_CODE):
            part = pattern.sub(" ", part)
        words += _ASCII_WORD.findall(part)
    return words


def whole_words(values: Iterable[str]) -> re.Pattern[str]:
    """Any of ``values`` where it stands as a word or words of its own ("Asha", not
    the "Asha" of "Ashanti"), the longest first."""
    alternatives = "|".join(map(re.escape, sorted(set(values) - {""}, key=len, reverse=True)))
    return re.compile(rf"(?<![A-Za-z])(?:{alternatives})(?![A-Za-z])" if alternatives else "(?!)")


def written_alike(language: str) -> set[str]:
    """What a page in ``language`` writes as it is, in no catalogue of the app's: the
    languages' names (each in its own words), the time zones' (the IANA's, as the list
    shows them: "America/New York"), the dates' and times' words and the currencies'
    names, which come from Django's catalogue and CLDR's, English's for a language
    neither knows."""
    names = {str(name) for _, name in settings.LANGUAGES}
    zones = zoneinfo.available_timezones()
    names |= zones | {zone.replace("_", " ") for zone in zones}
    return names | _date_words() | _currencies(language)


def _date_words() -> set[str]:
    names = {*dates.MONTHS.values(), *dates.MONTHS_3.values(), *dates.MONTHS_AP.values()}
    names |= {*dates.MONTHS_ALT.values(), *dates.WEEKDAYS.values(), *dates.WEEKDAYS_ABBR.values()}
    return {str(name) for name in names} | {"a.m.", "p.m.", "AM", "PM", "midnight", "noon"}


def _currencies(language: str) -> set[str]:
    locale = figures.cldr_locale(language)
    names = set(list_currencies())
    for code in list_currencies():
        names |= {get_currency_name(code, locale=locale), get_currency_symbol(code, locale)}
    return names


@functools.cache
def _djangos() -> re.Pattern[str]:
    """One of Django's messages, whole, its placeholders filled with anything; with a
    capital first (a form field's label is its model field's name, capitalised) and
    Django's colon after a label. A message that is all placeholders
    ("%(class_name)s %(instance)s") would match any text: it is left out."""
    patterns = {
        ".+?".join(map(re.escape, _DJANGO_PLACEHOLDER.split(" ".join(message.split()))))
        for message in _django_messages()
        if re.search("[A-Za-z]", _DJANGO_PLACEHOLDER.sub("", message))
    }
    alternatives = "|".join(sorted(patterns, key=len, reverse=True))
    return re.compile(rf"(?i:{alternatives}):?")


def _django_messages() -> list[str]:
    """The English msgids of Django's catalogue and of each installed app's but ours."""
    folders = [Path(apps.get_app_config("admin").path).parents[1] / "conf" / "locale"]
    folders += [
        Path(config.path) / "locale" for config in apps.get_app_configs() if config.name != "games"
    ]
    messages = []
    for folder in folders:
        english = folder / "en" / "LC_MESSAGES" / "django.po"
        if english.exists():
            for entry in polib.pofile(str(english)):
                messages += [entry.msgid, entry.msgid_plural]
    return [message for message in messages if message]
