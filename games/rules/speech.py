"""The rules' words: what the rules say to a player, in the player's language.

The rules service imports no Django, yet every sentence it gives a player (a rule
that applied, why a declaration fails, an option's label) must reach them in their
language. So the rules speak through this module's ``gettext`` and ``ngettext``,
which the app points at Django's once it starts (``games/apps.py``:
:func:`install`); the app's catalogue (``locale/…/django.po``) then holds the rules'
sentences beside its own. Nothing installed (the JSON command line, the rules' own
tests), they give the English as written: the command line's words are a contract.

How a module of the rules words a message, so that a translator gets whole
sentences and Django's ``makemessages`` finds them:

- ``from .speech import gettext as _`` and ``_("{name} must show all {size} cards,
  not {count}").format(name=…, size=…, count=…)``: one whole sentence with named
  placeholders, translated first and filled in after (a language may move them). The
  call's argument is a literal, which ``makemessages`` extracts; never an f-string.
- A count that changes a word: ``ngettext("{count} dublee", "{count} dublees",
  count)``, never an "s" added by hand.
- A list: :func:`join_words` ("A, B and C") or :func:`list_words` ("A, B, C"),
  whose pieces are themselves sentences a language words its own way.
- A constant evaluated at import (an option's label, a choice's, an outcome's):
  marked with :func:`gettext_noop`, which leaves it as it is, and translated where it
  is read (``option_label``, ``outcome_label``, ``Kind.label``): by then the app has
  installed the hook and knows the player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]


class Translators(NamedTuple):
    """What the rules speak through: a ``gettext`` and an ``ngettext``."""

    translate: Translate
    translate_plural: TranslatePlural


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


ENGLISH = Translators(_english, _english_plural)
_installed = ENGLISH


def install(translate: Translate, translate_plural: TranslatePlural) -> Translators:
    """Say the rules' messages through ``translate`` and ``translate_plural`` (the
    app's ``gettext`` and ``ngettext``), in whatever language they have active.
    Returns what was installed before, for a test to put back."""
    global _installed
    before, _installed = _installed, Translators(translate, translate_plural)
    return before


@contextmanager
def english() -> Iterator[None]:
    """The English as written while it lasts, whatever is installed: the JSON command
    line's words are a contract, even where it runs inside the app."""
    before = install(*ENGLISH)
    try:
        yield
    finally:
        install(*before)


def gettext(message: str) -> str:
    """``message`` in the player's language (as written where nothing is installed)."""
    return _installed.translate(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count``, in the player's language: English has two
    (``singular`` for 1), other languages their own."""
    return _installed.translate_plural(singular, plural, count)


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks a constant for the catalogue, to be translated
    with :func:`gettext` where it is read."""
    return message


def join_words(items: Iterable[str]) -> str:
    """Items as a sentence lists them: "A", "A and B", "A, B and C"."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    # Translators: the last two items of a list ("Asha and Ben").
    joined = gettext("{first} and {last}").format(first=words[-2], last=words[-1])
    return _commas(words[:-2], joined)


def list_words(items: Iterable[str]) -> str:
    """Items listed one after another, with no "and": "A, B, C"."""
    words = list(items)
    return _commas(words[:-1], words[-1]) if words else ""


def _commas(firsts: list[str], rest: str) -> str:
    for word in reversed(firsts):
        # Translators: an item of a list before the rest of it ("Asha, Ben and Chitra").
        rest = gettext("{first}, {rest}").format(first=word, rest=rest)
    return rest
