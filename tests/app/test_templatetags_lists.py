"""The list filters of games/templatetags/lists.py: names joined as a sentence joins
them, in the page's language, each escaped as any value of the page."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils.html import format_html

from tests.support.pseudo_locale import pseudo_locale


def rendered(text: str, **context: object) -> str:
    return Template("{% load lists %}" + text).render(Context(context))


@pytest.mark.parametrize(
    ("names", "joined", "either", "listed"),
    [
        ([], "", "", ""),
        (["Asha"], "Asha", "Asha", "Asha"),
        (["Asha", "Ben"], "Asha and Ben", "Asha or Ben", "Asha, Ben"),
        (["Asha", "Ben", "Chen"], "Asha, Ben and Chen", "Asha, Ben or Chen", "Asha, Ben, Chen"),
    ],
)
def test_names_are_listed_as_a_sentence_lists_them(
    names: list[str], joined: str, either: str, listed: str
) -> None:
    page = rendered("{{ n|and_list }}|{{ n|or_list }}|{{ n|comma_list }}", n=names)
    assert page == f"{joined}|{either}|{listed}"


def test_a_name_is_escaped_and_a_link_stays_a_link() -> None:
    link = format_html('<a href="{}">{}</a>', "/sessions/1/", "Friday")
    assert rendered("{{ n|and_list }}", n=["<b>Asha</b>", link]) == (
        '&lt;b&gt;Asha&lt;/b&gt; and <a href="/sessions/1/">Friday</a>'
    )
    assert rendered("{% autoescape off %}{{ n|comma_list }}{% endautoescape %}", n=["<b>"]) == "<b>"


def test_the_words_between_the_names_are_the_languages() -> None:
    with pseudo_locale():
        page = rendered("{{ n|and_list }}", n=["Asha", "Ben", "Chen"])
    assert page == "⟦Asha, ⟦Ben ａｎｄ Chen⟧⟧"
