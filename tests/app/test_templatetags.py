"""The template filters of games/templatetags/cards.py: ``fixed`` shows a number as
Django's ``floatformat`` does in the app's locale, digit for digit; ``card`` shows a
card with its suit's symbol and colour."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.figures import fixed
from games.templatetags.cards import words

# floatformat gives back numbers with over 200 digits as they came (a guard against
# huge inputs); ratings, averages and percentages are nowhere near that small.
NUMBERS = st.one_of(
    st.integers(-(10**9), 10**9).map(lambda n: n / 1000),
    st.floats(min_value=-1e9, max_value=1e9).filter(lambda v: v == 0 or abs(v) > 1e-100),
)


@given(NUMBERS, st.sampled_from([0, 1, 2]))
def test_fixed_prints_what_floatformat_prints(value, places):
    # The same figure, grouped in thousands as English groups digits (floatformat's
    # own grouping, "g", leaves 999.5 rounded to 0 places as "1000").
    assert fixed(value, places).replace(",", "") == floatformat(value, f"{places}u")


def test_fixed_rounds_halves_up_and_never_prints_minus_zero():
    assert [fixed(v) for v in (0.25, 2.5, -0.04, -0.05, 12.0, 1e-05)] == [
        "0.3",
        "2.5",
        "0.0",
        "-0.1",
        "12.0",
        "0.0",
    ]
    assert [fixed(v, 0) for v in (12.5, 99.4, -0.4, 33.333)] == ["13", "99", "0", "33"]


def test_fixed_leaves_an_empty_cell_for_nothing():
    assert fixed(None) == ""


def test_a_declaration_way_reads_as_the_house_rules_name_it() -> None:
    # "Valid declaration: show13" showed the rule model's name to the player.
    assert words("show13") == "13-card show"
    assert words("three_pure") == "three pure sequences"
    assert words("dublees") == "dublees"


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("7H", '<span class="card suit-h" title="7H">7♥</span>'),
        ("10S", '<span class="card suit-s" title="10S">10♠</span>'),
        ("PJ", '<span class="card card-joker" title="printed joker">PJ</span>'),
        ("8s", "8s"),  # not a stored code: shown as it is
        ("<b>", "&lt;b&gt;"),
    ],
)
def test_a_card_is_shown_with_its_suit_symbol_and_keeps_its_code(code, shown) -> None:
    assert Template("{% load cards %}{{ code|card }}").render(Context({"code": code})) == shown


def test_a_line_of_a_hands_explanation_shows_its_cards_as_the_groups_do() -> None:
    render = Template("{% load cards %}{{ line|explained }}").render

    said = render(Context({"line": "not counted: 10D JD QD (pure sequence), 2S 3S PJ"}))
    assert said == (
        'not counted: <span class="card suit-d" title="10D">10♦</span> '
        '<span class="card suit-d" title="JD">J♦</span> '
        '<span class="card suit-d" title="QD">Q♦</span> (pure sequence), '
        '<span class="card suit-s" title="2S">2♠</span> '
        '<span class="card suit-s" title="3S">3♠</span> '
        '<span class="card card-joker" title="printed joker">PJ</span>'
    )
    # Its figures' signs as the pages write them; words, numbers and markup as they are.
    assert render(Context({"line": "value points exchanged: -10"})) == (
        "value points exchanged: −10"
    )
    assert render(Context({"line": "count 102 <b>AS10S</b>"})) == (
        "count 102 &lt;b&gt;AS10S&lt;/b&gt;"
    )


def test_a_player_whose_name_spells_a_card_stays_a_name_in_the_explanation() -> None:
    render = Template("{% load cards %}{{ line|explained:names }}").render
    names = ["JD", "PJ Rao", "Asha"]

    for line in ("won by default by JD: every drop pays 30", "pays JD's claims: 20"):
        assert render(Context({"line": line, "names": names})) == line.replace("'", "&#x27;")
    assert render(Context({"line": "pays PJ Rao's claims: 3H 3H 3H", "names": names})) == (
        "pays PJ Rao&#x27;s claims: "
        + '<span class="card suit-h" title="3H">3♥</span> ' * 2
        + '<span class="card suit-h" title="3H">3♥</span>'
    )
    assert render(Context({"line": "JD won by default: every drop pays 30", "names": names})) == (
        "JD won by default: every drop pays 30"
    )
    # Where the line holds cards, the same letters are the card.
    assert "J♦" in render(Context({"line": "not counted: JD QD KD", "names": names}))
    assert "J♦" in render(Context({"line": "JD", "names": ["J"]}))


def test_a_name_that_spells_a_card_stays_a_name_in_a_hindi_line() -> None:
    render = Template("{% load cards %}{{ line|explained:names }}").render
    names = ["JD", "Asha"]
    with translation.override("hi"):
        for said in (
            "won by default by {name}: every drop pays {points}",
            "pays {name}'s claims: {points}",
        ):
            line = translation.gettext(said).format(name="JD", points=30)
            assert "J♦" not in render(Context({"line": line, "names": names}))
        assert "J♦" in render(Context({"line": "JD", "names": names}))
