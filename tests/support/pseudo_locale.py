"""A pseudo-locale for the rules' words: a translator that turns every message it is
given into unmistakably other letters, its placeholders kept, so that a test can
tell a word the rules translated from one that reached the player untranslated.

"{name} must show all {size} cards" says "⟦{name} ｍｕｓｔ ｓｈｏｗ ａｌｌ {size} ｃａｒｄｓ⟧":
filled in, every plain ASCII word left is a name, a number, a card code or another
value the sentence was given, never the rules' English. The scripts' placeholders,
"%(name)s", are kept alike (tests/support/pseudo_scripts.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from games.rules import speech

_PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\(\w+\)s)")
# ASCII letters to their full-width forms (U+FF21 …), which no English word uses.
_WIDE = str.maketrans(
    {chr(code): chr(code - 0x41 + 0xFF21) for code in range(0x41, 0x5B)}
    | {chr(code): chr(code - 0x61 + 0xFF41) for code in range(0x61, 0x7B)}
)
# A word of plain ASCII letters, and a card by its code or its face (7H, 10S, PJ, A♠),
# which is no word.
_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z_]*")
_CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC♠♥♦♣](?![A-Za-z0-9])|\bPJ\b")


def widened(message: str) -> str:
    """``message`` in the pseudo-locale: letters made wide, placeholders as they are."""
    parts = _PLACEHOLDER.split(message)
    wide = (part if _PLACEHOLDER.fullmatch(part) else part.translate(_WIDE) for part in parts)
    return "⟦" + "".join(wide) + "⟧"


@dataclass
class PseudoLocale:
    """The translator installed, and every message it was asked for."""

    asked: set[str] = field(default_factory=set)

    def gettext(self, message: str) -> str:
        self.asked.add(message)
        return widened(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        self.asked.update((singular, plural))
        return widened(singular if count == 1 else plural)


@contextmanager
def pseudo_locale() -> Iterator[PseudoLocale]:
    """The rules speak the pseudo-locale while it lasts; then what was installed
    before (Django's gettext in a test process) is put back."""
    locale = PseudoLocale()
    before = speech.install(locale.gettext, locale.ngettext)
    try:
        yield locale
    finally:
        speech.install(*before)


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The plain ASCII words of ``text`` outside card codes and the ``allowed`` values
    (names, option and preset names, each a whole word or words): English that went
    untranslated."""
    for value in sorted(set(allowed), key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(value)}(?![A-Za-z])", " ", text)
    return _ASCII_WORD.findall(_CARD_CODE.sub(" ", text))
