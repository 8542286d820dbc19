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
from scorekeeper import catalogues

# What a hand keeps in one language: {"lines": [...], "rule_applied": "..."} (no
# "rule_applied" where no rule replaced the count).
Said = dict[str, object]


def said_in_each_language(
    score: Callable[[], RoundResult], scored: RoundResult
) -> list[dict[str, Said]]:
    """Per hand of the round ``score`` scores (in its players' order), what the rules
    said of it, by language code: the source's and each language with a catalogue
    (a regional English, "en-in", says the source's words, so its readers read the
    source's lines). ``scored`` is the round as already scored in the active language,
    kept for it; ``score`` is called once for each other language."""
    source = settings.LANGUAGE_CODE
    worded = catalogues.translated_languages(settings.LANGUAGES, source)
    active = translation.get_language()
    # The words ``scored`` is in: the active language's, or the source's for a
    # regional English or no language at all.
    scored_in = active if active in worded else source
    said: list[dict[str, Said]] = [{} for _ in scored.players]
    for code in [source, *worded]:
        if code == scored_in:
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
