"""Text a league file holds that no page can show: half a character (a lone
surrogate, which JSON's escapes can spell and no database stores) and control
characters, in any of the file's strings, values or keys. The import refuses the
file naming where, and the page that says so quotes nothing it cannot show: never a
server error."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import League
from games.transfer.league_import import import_league
from tests.support.league_files import counts, post_file, refused, set_at, tampered
from tests.support.profiles import examples

pytestmark = pytest.mark.django_db

FORM_ERRORS = 422


def _file_error(response) -> str:
    return " ".join(response.context["form"].errors["file"])


@pytest.mark.parametrize(
    "path",
    [
        "league.money_per_point",
        "sessions.0.money_per_point",
        "sessions.3.buy_in",
        "sessions.0.played_on",
    ],
)
def test_half_a_character_in_an_amount_or_a_day_is_refused_naming_the_field(
    moved: dict, stranger: Client, path: str
) -> None:
    before = counts()

    response = post_file(stranger, tampered(moved, set_at(path, "\ud800")))

    assert response.status_code == FORM_ERRORS
    *parents, last = path.split(".")
    where = f"{parents[0]}[{parents[1]}].{last}" if len(parents) == 2 else path
    message = _file_error(response)
    assert message.startswith(f"{where}: this is not text: U+D800 is half of a character")
    assert "Nothing was imported." in message
    assert escape(message) in response.content.decode()
    assert counts() == before


def test_half_a_character_spelled_in_the_bytes_of_the_file_is_refused(moved: dict) -> None:
    # Three bytes that spell U+D800 as UTF-8 would, which UTF-8 does not allow and
    # Python's reading of JSON bytes lets through.
    raw = tampered(moved, set_at("sessions.1.name", "Friday @")).encode()
    raw = raw.replace(b"@", b"\xed\xa0\x80")

    assert refused(raw).startswith("sessions[1].name: this is not text: U+D800")


def test_half_a_character_in_a_key_is_refused_naming_the_object(moved: dict) -> None:
    def change(data: dict) -> None:
        data["sessions"][2]["overrides"]["\udc80"] = 1

    assert refused(tampered(moved, change)).startswith(
        "A key of sessions[2].overrides (sessions[2].overrides.\\udc80): this is not text: U+DC80"
    )


def test_an_emoji_written_as_its_two_escapes_is_one_character_and_imports(
    moved: dict,
) -> None:
    text = tampered(moved, set_at("sessions.4.name", "Joker night \U0001f0cf"))
    assert "\\ud83c\\udccf" in text  # json.dumps writes it as two halves

    league = import_league(text).league

    assert league.sessions.filter(name="Joker night \U0001f0cf").exists()


@pytest.mark.parametrize(
    ("path", "value", "shown"),
    [
        ("league.money_per_point", "1\x00", "“1\\x00” value must be a decimal number"),
        ("sessions.3.buy_in", "\x1b[2J10", "“\\x1b[2J10” value must be a decimal number"),
        ("sessions.0.played_on", "2024-01-05\x07", "“2024-01-05\\x07” value has an invalid"),
    ],
)
def test_a_control_character_in_an_amount_or_a_day_is_quoted_as_an_escape(
    moved: dict, stranger: Client, path: str, value: str, shown: str
) -> None:
    response = post_file(stranger, tampered(moved, set_at(path, value)))

    assert response.status_code == FORM_ERRORS
    assert shown in _file_error(response)
    assert value not in response.content.decode()


# --- Every string of the file -------------------------------------------------------------


def _strings(node: object, path: tuple = ()) -> Iterator[tuple]:
    """The path of every string of the file, and of every object's keys (as the path
    to the object, then None)."""
    if isinstance(node, dict):
        if node:
            yield (*path, None)
        for key, value in node.items():
            yield from _strings(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _strings(value, (*path, index))
    elif isinstance(node, str):
        yield path


def _kinds(places: list[tuple]) -> dict[tuple, list[tuple]]:
    """The places by the field they are (their path without list indexes): a file
    holds hundreds of cards and one league name, and each field is drawn as often."""
    kinds: dict[tuple, list[tuple]] = {}
    for place in places:
        kind = tuple("[]" if isinstance(key, int) else key for key in place)
        kinds.setdefault(kind, []).append(place)
    return kinds


# Half characters, control characters of both ranges (NUL, escape, DEL, C1), and both.
HALVES = st.characters(categories=["Cs"])
CONTROLS = st.characters(categories=["Cc"])
BAD = st.one_of(
    st.text(HALVES, min_size=1, max_size=3),
    st.text(CONTROLS, min_size=1, max_size=3),
    st.text(HALVES | CONTROLS, min_size=2, max_size=4),
)


@st.composite
def spoiled(draw, doc: dict, kinds: dict[tuple, list[tuple]]) -> tuple[dict, str]:
    """The file with one of its strings (or one key of an object) given bad
    characters: before, after or instead of what it held."""
    data = copy.deepcopy(doc)
    kind = draw(st.sampled_from(sorted(kinds, key=repr)))
    *parents, last = draw(st.sampled_from(kinds[kind]))
    node = data
    for key in parents:
        node = node[key]
    bad = draw(BAD)
    if last is None:  # a key: renamed
        old = draw(st.sampled_from(sorted(node)))
        new = draw(st.sampled_from([bad, old + bad, bad + old]))
        node[new] = node.pop(old)
    else:
        old = node[last]
        node[last] = draw(st.sampled_from([bad, old + bad, bad + old, old[:1] + bad + old[1:]]))
    return data, bad


def test_bad_characters_in_any_string_of_the_file_are_refused_or_stored_never_a_500(
    moved: dict, stranger: Client
) -> None:
    kinds = _kinds(list(_strings(moved)))
    assert len(kinds) > 40  # names, slugs, cards, outcomes, amounts, days, times, keys…

    @settings(
        max_examples=examples(300),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def test(data) -> None:
        doc, bad = data.draw(spoiled(moved, kinds))
        # As json.dumps writes them: half a character as its escape.
        text = json.dumps(doc)
        with transaction.atomic():
            response = post_file(stranger, text)
            imported = League.objects.exists()
            pages = [
                reverse(name, args=[league.slug])
                for league in League.objects.all()
                for name in ("games:league_detail", "games:league_standings")
            ]
            shown = {stranger.get(page).status_code for page in pages}
            transaction.set_rollback(True)
        assert response.status_code in {302, FORM_ERRORS}, response.status_code
        if response.status_code == FORM_ERRORS:
            message = _file_error(response)
            assert message and escape(message) in response.content.decode()
            # Two halves in order are one character, in the file as they are read.
            if any("\ud800" <= char <= "\udfff" for char in json.loads(json.dumps(bad))):
                assert "is half of a character (a lone surrogate)" in message
        else:
            # Only where the file's text is not kept (a share token: every session
            # gets a new one) or is whitespace of a name: its pages read it back.
            assert imported and shown == {200}

    test()
