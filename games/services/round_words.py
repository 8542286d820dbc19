"""What the rules service said of each hand, in every language the app speaks.

A hand's working ("capped at 80", "won by default by Asha: every drop pays 30") is
kept with it when its round is saved, so the round page need not score it again. A
sentence filled in cannot be translated afterwards, so the round is scored once in
each language of ``settings.LANGUAGES`` (a millisecond each) and each hand keeps
its words in all of them: a hand saved from a phone in Hindi reads in English to
the next reader, and the other way round. A language added later reads older hands
in English (``HandEntry.explanation``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils import translation

from games.rules import RoundResult

# What a hand keeps in one language: {"lines": [...], "rule_applied": "..."} (no
# "rule_applied" where no rule replaced the count).
Said = dict[str, object]


def said_in_each_language(
    score: Callable[[], RoundResult], scored: RoundResult
) -> list[dict[str, Said]]:
    """Per hand of the round ``score`` scores (in its players' order), what the rules
    said of it, by language code. ``scored`` is the round as already scored in the
    active language, kept for it; ``score`` is called once for each other language."""
    active = _worded(translation.get_language())
    said: list[dict[str, Said]] = [{} for _ in scored.players]
    for code in _worded_languages():
        if code == active:
            result = scored
        else:
            with translation.override(code):
                result = score()
        for words, player in zip(said, result.players, strict=True):
            words[code] = {
                "lines": list(player.breakdown),
                **({"rule_applied": player.rule_applied} if player.rule_applied else {}),
            }
    return said


def _worded(code: str | None) -> str:
    """The language whose words ``code`` says: the source's for a regional English."""
    source = settings.LANGUAGE_CODE
    return source if not code or code.split("-")[0] == source else code


def _worded_languages() -> list[str]:
    """The source language and each language with words of its own: a regional
    English ("en-in") says the source's words, so its hands read the source's lines."""
    source = settings.LANGUAGE_CODE
    return [source] + [code for code, _name in settings.LANGUAGES if code.split("-")[0] != source]
