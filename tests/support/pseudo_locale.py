"""A pseudo-locale: a translator that turns every message it is given into
unmistakably other letters, its placeholders kept, so that a test can tell a word
that was translated from one that reached the player untranslated. The rules' tests
install it as the rules' translator (``pseudo_locale``); the pages' tests compile the
app's whole catalogue into it (``write_pseudo_catalogue``).

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
from pathlib import Path

import polib
from django.utils.translation import to_locale

from games.rules import speech

# What a translation keeps as it is: the values filled in ("{name}" for str.format,
# "%(name)s" and "%s" for %-formatting, "%%" a percent sign), and in the pages'
# catalogue the HTML a sentence holds: its tags with their attributes, and entities.
_PLACEHOLDER = re.compile(
    r"(\{[^{}]*\}"
    r"|%(?:\([^()]*\))?[-#0+]*\d*(?:\.\d+)?[sdifrx%]"
    r"|<[^<>]*>"
    r"|&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]\w*);)"
)
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


def write_pseudo_catalogue(source: Path, folder: Path, language: str) -> Path:
    """``folder/<language>/LC_MESSAGES/django.mo``: every message of the catalogue
    ``source`` (a ``.po``: its contexts and plural forms too), each ``widened``, as
    Django reads a language's catalogue from one of its LOCALE_PATHS."""
    pseudo = polib.POFile()
    # English's two forms: "1 round", "2 rounds", each from its own msgid.
    pseudo.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in polib.pofile(str(source)):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            forms = {0: widened(entry.msgid), 1: widened(entry.msgid_plural)}
            pseudo.append(
                polib.POEntry(
                    msgctxt=entry.msgctxt,
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural,
                    msgstr_plural=forms,
                )
            )
        else:
            pseudo.append(
                polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=widened(entry.msgid))
            )
    path = folder / to_locale(language) / "LC_MESSAGES" / "django.mo"
    path.parent.mkdir(parents=True, exist_ok=True)
    pseudo.save_as_mofile(str(path))
    return path


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
