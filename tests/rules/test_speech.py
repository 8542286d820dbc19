"""The rules' words (games/rules/speech.py): English as written until the app installs
its gettext, then every message the rules give a player in the player's language."""

from __future__ import annotations

from games.rules import speech
from tests.support.pseudo_locale import english_words, pseudo_locale, widened


def test_without_a_translator_the_rules_speak_the_english_as_written():
    with speech.english():
        assert speech.gettext("{name}: {problem}") == "{name}: {problem}"
        assert speech.ngettext("{count} dublee", "{count} dublees", 1) == "{count} dublee"
        assert speech.ngettext("{count} dublee", "{count} dublees", 0) == "{count} dublees"
        assert speech.gettext_noop("Cards per hand") == "Cards per hand"


def test_an_installed_translator_says_every_message_and_is_put_back_after():
    before = speech.gettext("Cards per hand")
    with pseudo_locale() as locale:
        assert speech.gettext("Cards per hand") == "⟦Ｃａｒｄｓ ｐｅｒ ｈａｎｄ⟧"
        assert speech.ngettext("{count} dublee", "{count} dublees", 2) == widened("{count} dublees")
        # A constant marked for the catalogue is translated where it is read, not here.
        assert speech.gettext_noop("Cards per hand") == "Cards per hand"
    assert locale.asked == {"Cards per hand", "{count} dublee", "{count} dublees"}
    assert speech.gettext("Cards per hand") == before


def test_a_list_reads_as_a_sentence_lists_it():
    with speech.english():
        assert speech.join_words([]) == ""
        assert speech.join_words(["Asha"]) == "Asha"
        assert speech.join_words(["Asha", "Ben"]) == "Asha and Ben"
        assert speech.join_words(["Asha", "Ben", "Chitra", "Dev"]) == "Asha, Ben, Chitra and Dev"
        assert speech.list_words(["Asha", "Ben", "Chitra"]) == "Asha, Ben, Chitra"
        assert speech.list_words(["Asha"]) == "Asha"


def test_a_language_joins_a_list_its_own_way():
    with pseudo_locale():
        joined = speech.join_words(["Asha", "Ben", "Chitra"])
    assert joined == "⟦Asha, ⟦Ben ａｎｄ Chitra⟧⟧"
    assert english_words(joined, ["Asha", "Ben", "Chitra"]) == []


def test_the_english_of_the_command_line_holds_whatever_is_installed():
    with pseudo_locale() as locale, speech.english():
        said = speech.gettext("{name}: {problem}")
    assert said == "{name}: {problem}"
    assert locale.asked == set()


def test_the_pseudo_locale_tells_untranslated_words_from_names_and_cards():
    text = "⟦{name}⟧".replace("{name}", "Asha") + " holds 7H 10S PJ in 21-points"
    assert english_words(text, ["Asha", "21-points"]) == ["holds", "in"]
