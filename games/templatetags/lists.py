"""Lists as a sentence says them, in the page's language: the rules' list words
(games/rules/speech.py, docs/inside/rules-words.md), so that a page in Hindi does not
read "Asha and Ben". A template never joins names with ", ", " and " or " or "."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.rules import speech

register = template.Library()


def either_words(items: Iterable[str]) -> str:
    """Items as a sentence offers or excepts them: "A", "A or B", "A, B or C"."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    # Translators: the last two items of a list of alternatives ("not Asha or Ben").
    last = gettext("{first} or {last}").format(first=words[-2], last=words[-1])
    return speech.list_words([*words[:-2], last])


def _listed(
    join: Callable[[list[str]], str], items: Iterable[object], autoescape: bool
) -> SafeString | str:
    """``items`` joined by ``join``, each escaped as the page escapes a value (a name
    stays text, a link made safe stays a link); what goes between them comes from the
    catalogue, as a blocktranslate's words do."""
    if not autoescape:
        return join([str(item) for item in items])
    return mark_safe(join([conditional_escape(item) for item in items]))


@register.filter(needs_autoescape=True)
def and_list(items: Iterable[object], autoescape: bool = True) -> SafeString | str:
    """``{{ winners|and_list }}``: "Asha", "Asha and Ben", "Asha, Ben and Chen"."""
    return _listed(speech.join_words, items, autoescape)


@register.filter(needs_autoescape=True)
def or_list(items: Iterable[object], autoescape: bool = True) -> SafeString | str:
    """``{{ gone|or_list }}``: "Asha", "Asha or Ben", "Asha, Ben or Chen"."""
    return _listed(either_words, items, autoescape)


@register.filter(needs_autoescape=True)
def comma_list(items: Iterable[object], autoescape: bool = True) -> SafeString | str:
    """``{{ order|comma_list }}``: "Asha, Ben, Chen", each after the other."""
    return _listed(speech.list_words, items, autoescape)
