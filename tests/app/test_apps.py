"""games/apps.py: the app starts the rules speaking through Django's gettext, so what
the rules say to a player comes out of the app's catalogue in the request's language."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from games.rules import Kind, PlayerHand, describe_preset, get_ruleset, round_errors
from tests.support.catalogues import write_catalogue

HINDI = {
    "a round needs at least 2 players": "एक राउंड में कम से कम 2 खिलाड़ी चाहिए",
    ("{count} card", "{count} cards"): ("{count} पत्ता", "{count} पत्ते"),
    ("{count} deck", "{count} decks"): ("{count} गड्डी", "{count} गड्डियाँ"),
    "set": "सेट",
}


def test_the_rules_speak_the_language_of_the_request(tmp_path: Path, settings) -> None:
    write_catalogue(tmp_path, "hi", HINDI)
    settings.LOCALE_PATHS = [tmp_path]
    alone = [PlayerHand("Asha", "default_win")]
    rules = get_ruleset("21-points")
    with translation.override("hi"):
        (error,) = round_errors(rules, None, alone)
        described = describe_preset("21-points")
        kind = Kind.SET.label
    assert error.message == "एक राउंड में कम से कम 2 खिलाड़ी चाहिए"
    # Counts in Hindi's plural forms; what the catalogue lacks stays English.
    assert described.startswith("21 पत्ते, 3 गड्डियाँ · jokers: the cut rank in every suit")
    assert kind == "सेट"
    with translation.override("en"):
        (error,) = round_errors(rules, None, alone)
        assert error.message == "a round needs at least 2 players"
        assert Kind.SET.label == "set"
