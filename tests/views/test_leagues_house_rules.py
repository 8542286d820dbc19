"""The house rules as the new-session form and a league's rules page show them
(templates/partials/ruleset_fields.html): folded under their headings in
docs/rules/options.md, the options changed from the preset in sight, and "Reset to the
preset's rules"."""

from __future__ import annotations

import html as markup
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.forms.rulesets import HOUSE_RULES
from games.models import League, Membership
from games.rules.rulesets import OPTION_NAMES, option_label, option_range
from games.services.leagues import create_league
from tests.support.builders import make_session, rules_url, session_form_data

pytestmark = pytest.mark.django_db

NEW = reverse("games:session_new")
HX = {"HX-Request": "true"}


@pytest.fixture
def club(user: User) -> League:
    return create_league(
        user,
        name="Tuesday Club",
        preset="21-points",
        overrides={"first_drop": 25, "value_cut": [10, 20, 40]},
    )


def value(html: str, name: str) -> str:
    """The value an <input> named ``name`` shows ("" when it has none)."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)[0]
    found = re.search(r'value="([^"]*)"', tag)
    return found[1] if found else ""


def sections(html: str) -> dict[str, bool]:
    """Each heading of the house rules, and whether it is open."""
    found = re.findall(r'<details class="rule-section"( open)?>\s*<summary>([^<]+)<', html)
    return {title.strip(): bool(opened) for opened, title in found}


class _Reading(HTMLParser):
    """A piece of a page's text as it reads: what is hidden left out."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden = 0  # how deep inside a hidden element
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.hidden or any(name == "hidden" for name, _ in attrs):
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        self.hidden = max(self.hidden - 1, 0)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)


def as_read(fragment: str) -> str:
    reading = _Reading()
    reading.feed(fragment)
    return " ".join("".join(reading.words).split())


def headings(html: str) -> list[str]:
    """The house rules' headings as they read ("Hand points · 1 changed"), then any
    "N more" fold under them."""
    found = re.findall(
        r'<details class="rule-(?:section|more)"[^>]*>\s*<summary>(.*?)</summary>', html, re.S
    )
    return [as_read(summary) for summary in found]


def changed_notes(html: str) -> list[str]:
    """The "Changed: the preset's is ..." notes shown (the others are hidden)."""
    return [
        as_read(note)
        for note in re.findall(r'<div class="changed-note" data-changed>(.*?)</div>', html)
    ]


def test_the_house_rules_are_folded_under_their_headings_changes_open(
    scorer: Client, club: League
) -> None:
    html = scorer.get(rules_url(club)).content.decode()

    assert sections(html) == {
        "Cards and jokers": False,
        "Groups": False,
        "Declarations": False,
        "Entering hands": False,
        "Hand points": True,
        "Value cards": True,
        "Claims": False,
        "Totals": False,
    }
    assert headings(html) == [
        "Cards and jokers · as the preset",
        "Groups · as the preset",
        "Declarations · as the preset",
        "Entering hands · as the preset",
        "Hand points · 1 changed",
        "19 more, as the preset",
        "Value cards · 1 changed",
        "10 more, as the preset",
        "Claims · as the preset",
        "Totals · as the preset",
    ]
    assert changed_notes(html) == [
        "Changed: the preset's is 30.",  # first drop
        "Changed: the preset's is 10, 30, 50.",  # value of the cut card
    ]
    # Every option is still on the page, folded or not.
    for name in HOUSE_RULES:
        assert f'name="rule_{name}"' in html, name


def test_an_option_in_error_opens_its_heading(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", rule_decks="9")

    html = scorer.post(NEW, data).content.decode()

    assert sections(html)["Cards and jokers"] is True
    assert sections(html)["Groups"] is False


def test_reset_puts_the_preset_rules_back_and_keeps_what_else_was_typed(scorer: Client) -> None:
    data = session_form_data(
        seat_1="Asha", seat_2="Ben", name="Friday", rule_first_drop="25", ceiling="300"
    )
    data |= {"rule_decks": "9", "action": "reset_rules"}  # even a wrong one

    response = scorer.post(NEW, data)

    assert response.status_code == 200
    html = response.content.decode()
    assert "House rules set back to the preset's." in html
    assert (value(html, "rule_first_drop"), value(html, "rule_decks")) == ("30", "3")
    assert value(html, "ceiling") == ""  # 21-points has none: the typed 300 is gone
    assert (value(html, "seat_1"), value(html, "seat_2"), value(html, "name")) == (
        "Asha",
        "Ben",
        "Friday",
    )
    assert "error-summary" not in html and not changed_notes(html)  # nothing judged


def test_reset_over_htmx_swaps_only_the_rules(scorer: Client) -> None:
    data = session_form_data("13-pool-101", seat_1="Asha", rule_hand_cap="99", ceiling="150")

    response = scorer.post(NEW, data | {"action": "reset_rules"}, headers=HX)

    assert response.template_name == "partials/ruleset_fields.html#preset_rules"
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="preset-rules"')
    assert value(html, "rule_hand_cap") == "80" and value(html, "ceiling") == "101"
    assert '<details class="house-rules" open>' in html


def test_a_league_session_resets_to_the_league_rules(
    scorer: Client, user: User, club: League
) -> None:
    data = session_form_data(seat_1="Asha", league=str(club.pk), rule_first_drop="35")

    html = scorer.post(NEW, data | {"action": "reset_rules"}).content.decode()

    assert value(html, "rule_first_drop") == "25"  # the league's, not the preset's 30
    assert "Reset to the league's rules" in html


def test_a_league_owner_resets_to_the_bare_preset_without_saving(
    scorer: Client, club: League
) -> None:
    data = session_form_data(name="Thursday Club", rule_first_drop="25", rule_hand_cap="99")
    data["rule_value_cut"] = "10, 20, 40"
    data.pop("first_dealer")

    response = scorer.post(rules_url(club), data | {"action": "reset_rules"})

    assert response.status_code == 200
    html = response.content.decode()
    assert value(html, "name") == "Thursday Club"  # typed, kept
    assert value(html, "rule_first_drop") == "30" and value(html, "rule_hand_cap") == "120"
    assert "Reset to the preset's rules" in html
    club.refresh_from_db()
    assert club.name == "Tuesday Club" and club.overrides["first_drop"] == 25  # not saved


def test_a_league_owner_resets_in_place_and_the_page_says_whose_rules_show(
    scorer: Client, club: League
) -> None:
    data = session_form_data(name="Tuesday Club", rule_first_drop="35")
    data.pop("first_dealer")

    response = scorer.post(rules_url(club), data | {"action": "reset_rules"}, headers=HX)

    assert response.template_name == "partials/ruleset_fields.html#preset_rules"
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="preset-rules"')
    assert value(html, "rule_first_drop") == "30"  # the preset's, not the league's 25
    assert "House rules set back to the preset's." in html
    # The bare preset's rules now show, not the league's as they stand (until saved).
    assert "Prefilled with the preset's rules." in html
    assert "The league's rules as they stand." not in html


def test_enter_on_the_league_page_saves_rather_than_resets(scorer: Client, club: League) -> None:
    html = scorer.get(rules_url(club)).content.decode()

    form = html[html.index(f'action="{rules_url(club)}"') :]
    first = re.search(r'<button[^>]*type="submit"[^>]*>', form)[0]
    assert 'value="save"' in first


def test_only_owners_reset_and_viewers_get_no_reset_button(client: Client, club: League) -> None:
    viewer = User.objects.create_user("ben", password="x")
    Membership.objects.create(league=club, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)

    assert "reset_rules" not in client.get(rules_url(club)).content.decode()
    assert client.post(rules_url(club), {"action": "reset_rules"}).status_code == 403


def test_the_rules_pages_say_where_their_values_come_from(scorer: Client, club: League) -> None:
    assert "The league's rules as they stand." in scorer.get(rules_url(club)).content.decode()
    new_league = scorer.get(reverse("games:league_new")).content.decode()
    assert "Prefilled with the preset's rules." in new_league
    session = scorer.get(NEW).content.decode()
    assert "Prefilled with the preset's rules." in session


def _words_shown(html: str) -> str:
    """The house rules' text as a player reads it: tags (and the names and values in
    them) left out."""
    rules = html[html.index('id="preset-rules"') :]
    return re.sub(r"<[^>]*>", " ", rules)


@pytest.mark.parametrize("preset", ["21-points", "21-paplu", "21-kodai", "13-points"])
def test_no_option_help_choice_or_note_shows_a_code_name(
    scorer: Client, user: User, preset: str
) -> None:
    # Every choice changed from the preset's, so each "Changed: the preset's is …" shows.
    league = create_league(
        user,
        name=f"Club {preset}",
        preset=preset,
        overrides={
            "value_payments": "players_in" if preset == "21-paplu" else "drop_rules",
            "ceiling_mode": "out_passing",
            "marriage_triples": "claim_cards" if preset != "21-kodai" else "upper_lower",
            "counting": "kodai" if preset != "21-kodai" else "standard",
            "totals": "penalty",
        },
    )
    league_page = scorer.get(rules_url(league)).content.decode()
    assert league_page.count("Changed: the preset's is") >= 4
    picked = scorer.get(NEW, {"preset": preset}, headers=HX).content.decode()
    for html in (league_page, picked):
        shown = _words_shown(html)
        assert not re.findall(r"\w+_\w+", shown)
        assert "seed 0" not in shown  # the rule texts behind docs/rules, not a player's words
        # The selects' choices read as words too: "Drop rules", not "drop_rules".
        labels = re.findall(r"<option[^>]*>([^<]*)</option>", html)
        assert "Out only above the ceiling" in labels
        assert not [label for label in labels if "_" in label]


def options_shown(html: str) -> dict[str, str]:
    """Each option's block of the house rules, by its field's name."""
    starts = [
        found.start() for found in re.finditer(r'<div class="option[^"]*" data-option=', html)
    ]
    blocks = [html[start:end] for start, end in zip(starts, [*starts[1:], len(html)], strict=True)]
    return {re.search(r'data-option="(\w+)"', block)[1]: block for block in blocks}


def label_of(block: str) -> str:
    """The words of an option's label (or, for a row of check boxes, its heading)."""
    found = re.search(
        r'<(label|span) (?:for="[^"]*"|class="check"|class="option-label")>(.*?)</\1>', block, re.S
    )
    return markup.unescape(re.sub(r"<[^>]*>", "", found[2])).strip()


def test_both_rules_pages_name_every_option_in_its_own_words(scorer: Client, club: League) -> None:
    league_page = scorer.get(rules_url(club)).content.decode()
    session_form = scorer.get(NEW).content.decode()

    for html in (league_page, session_form):
        options = options_shown(html)
        # The ceiling has its own field.
        assert set(options) == {f"rule_{name}" for name in HOUSE_RULES}
        assert set(OPTION_NAMES) - set(HOUSE_RULES) == {"ceiling"}
        for name in HOUSE_RULES:
            assert label_of(options[f"rule_{name}"]) == option_label(name), name
        deal_show_min = options["rule_deal_show_min"]
        assert '<label for="id_rule_deal_show_min">Lowest deal show cost</label>' in deal_show_min
        assert "Deal show min" not in html and "Two point tunnelas" not in html
        assert '<label for="id_ceiling">Point ceiling</label>' in html


def test_a_wrong_option_is_named_by_its_label_beside_it_and_at_the_top(
    scorer: Client, club: League
) -> None:
    data = session_form_data(name="Tuesday Club", rule_deal_show_min="90")
    data.pop("first_dealer")

    html = scorer.post(rules_url(club), data).content.decode()

    said = "Lowest deal show cost must not be above highest deal show cost."
    summary = html[html.index("error-summary") : html.index('id="game-rules"')]
    assert f'<a href="#id_rule_deal_show_min">Lowest deal show cost</a>: {said}' in summary
    assert said in options_shown(html)["rule_deal_show_min"]  # and beside the option
    assert "deal_show" not in re.sub(r"<[^>]*>", " ", html)  # no code name in the words


def test_each_number_rule_tells_the_browser_what_its_rule_takes(
    scorer: Client, club: League
) -> None:
    """Its least and most (a count at least 1, decks at most 4), from the rules service,
    so that a phone's stepper stays inside and static/js/house_rules.js can say a number
    outside; and a place for it to say so, that the field names as describing it once it
    does."""
    for html in (scorer.get(rules_url(club)).content.decode(), scorer.get(NEW).content.decode()):
        blocks = options_shown(html)
        for name in OPTION_NAMES:
            block = blocks.get(f"rule_{name}", "")
            field = re.search(rf'<input type="number" name="rule_{name}"[^>]*>', block)
            if field is None:
                continue  # not a whole number: a choice, boxes, a list
            least, most = option_range(name)
            assert f'min="{least}"' in field[0], name
            assert f'max="{1_000_000 if most is None else most}"' in field[0], name
            assert f'<div class="live-error" id="id_rule_{name}_not_taken"' in block, name
        assert 'min="1" max="4"' in blocks["rule_decks"]


def test_every_description_a_field_names_is_on_the_page(
    scorer: Client, user: User, club: League
) -> None:
    """Django names each field's help (and errors) in its aria-describedby: a screen
    reader reads them with the field only if an element of that id is there."""
    data = session_form_data(name="Tuesday Club", rule_deal_show_min="90")
    data.pop("first_dealer")
    pages = [
        scorer.get(rules_url(club)).content.decode(),
        scorer.get(NEW).content.decode(),
        scorer.post(rules_url(club), data).content.decode(),  # with an error
        scorer.get(reverse("games:league_import")).content.decode(),
        scorer.get(reverse("games:session_detail", args=[make_session(user).pk])).content.decode(),
        Client().get(reverse("games:signup")).content.decode(),
    ]
    for html in pages:
        ids = set(re.findall(r'\sid="([^"]+)"', html))
        named = [
            id_
            for found in re.findall(r'aria-describedby="([^"]*)"', html)
            for id_ in found.split()
        ]
        assert named
        assert not [id_ for id_ in named if id_ not in ids]


def test_a_number_with_an_exponent_is_refused_in_the_words_the_page_says_it_in(
    scorer: Client, club: League
) -> None:
    """The browser takes "2e1" for 20; the server does not. What static/js/house_rules.js
    says as it is typed (the note's data-not-whole) is what the server says after Save."""
    page = scorer.get(rules_url(club)).content.decode()
    live = re.search(r'id="id_rule_first_drop_not_taken"[^>]*data-not-whole="([^"]*)"', page)[1]
    data = session_form_data(name="Tuesday Club", rule_first_drop="2e1")
    data.pop("first_dealer")

    answer = scorer.post(rules_url(club), data)

    assert answer.status_code == 422
    assert live == "Enter a whole number."
    assert live in options_shown(answer.content.decode())["rule_first_drop"]


@pytest.mark.parametrize("page", ["new", "rules"])
def test_another_preset_picked_keeps_the_house_rules_open(
    scorer: Client, club: League, page: str
) -> None:
    url = reverse("games:league_new") if page == "new" else rules_url(club)
    assert re.search(r'<details class="house-rules"[^>]* open>', scorer.get(url).content.decode())

    response = scorer.get(url, {"preset": "13-pool-101"}, headers=HX)

    assert response.template_name == "partials/ruleset_fields.html#preset_rules"
    html = response.content.decode()
    assert re.search(r'<details class="house-rules"[^>]* open>', html)
    # The fields are the picked preset's, and say so: the league's are of another game.
    assert value(html, "rule_first_drop") == "20"
    assert "Prefilled with the preset's rules." in html
