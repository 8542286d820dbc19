"""The one rule for names people type: leagues, players, sessions, and the
authors an imported league file names. Every form and the import use it.

A name is printable text: letters, marks, digits, punctuation, symbols and single
spaces, trimmed. Refused: control characters (NUL, the C0 and C1 ranges), lone
surrogates, private-use and unassigned code points, line and paragraph separators,
and invisible format characters such as right-to-left overrides (a name that reads
backwards on the scoreboard). Zero-width joiners stay: Indic and Persian names and
emoji sequences need them.

Why it matters: PostgreSQL refuses NUL, no database stores a lone surrogate (both
gave a 500), and control characters are not allowed in XML at all, so a name with
one made the XLSX and SVG exports unreadable.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext, gettext_noop, ngettext

# Tab, line feed and carriage return are whitespace a paste may carry: they become
# one space like any other run of whitespace, rather than an error.
_WHITESPACE_CONTROLS = frozenset("\t\n\r")
# Format characters (Cf) that are part of how some scripts and emoji are written.
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner, zero-width joiner
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "not a character",
    "Cf": "an invisible formatting character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
# What a name holding one is refused with, by what the character is.
_REFUSALS = {
    "a control character": gettext_noop(
        "A name may hold only printable text: %(code)s is a control character."
    ),
    "a lone surrogate": gettext_noop(
        "A name may hold only printable text: %(code)s is a lone surrogate."
    ),
    "a private-use character": gettext_noop(
        "A name may hold only printable text: %(code)s is a private-use character."
    ),
    "not a character": gettext_noop(
        "A name may hold only printable text: %(code)s is not a character."
    ),
    "an invisible formatting character": gettext_noop(
        "A name may hold only printable text: %(code)s is an invisible formatting character."
    ),
    "a line separator": gettext_noop(
        "A name may hold only printable text: %(code)s is a line separator."
    ),
    "a paragraph separator": gettext_noop(
        "A name may hold only printable text: %(code)s is a paragraph separator."
    ),
}


def unprintable(text: str) -> tuple[str, str] | None:
    """The first character of ``text`` that a name may not hold, as (U+XXXX, what
    it is), or None when every character is printable."""
    for char in text:
        if char in _WHITESPACE_CONTROLS or char in _JOINERS:
            continue
        kind = _REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            return f"U+{ord(char):04X}", kind
    return None


def clean_name(text: str, *, max_length: int | None = None) -> str:
    """The name as it is stored: runs of whitespace made one space, trimmed. Raises
    ValidationError for a character a name may not hold, or a name too long."""
    bad = unprintable(text)
    if bad is not None:
        code, kind = bad
        raise ValidationError(
            gettext(_REFUSALS[kind]),
            code="unprintable",
            params={"code": code, "kind": kind},
        )
    name = " ".join(text.split())
    if max_length is not None and len(name) > max_length:
        raise ValidationError(
            ngettext(
                "A name may be at most %(limit)d character long (this one has %(length)d).",
                "A name may be at most %(limit)d characters long (this one has %(length)d).",
                max_length,
            ),
            code="max_length",
            params={"limit": max_length, "length": len(name)},
        )
    return name


@deconstructible
class PrintableName:
    """The model fields' validator: what the admin or any other model form saves is
    held to the same rule (it cannot trim; the forms and the import do)."""

    def __call__(self, value: Any) -> None:
        if isinstance(value, str):
            clean_name(value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PrintableName)

    def __hash__(self) -> int:
        return hash(PrintableName)


validate_name = PrintableName()


# Characters XML 1.0 does not allow anywhere, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Text safe to put in an XML document (SVG, XLSX): names stored before the rule
    above may still hold characters XML forbids; they are left out."""
    return _NOT_XML.sub("", text)
