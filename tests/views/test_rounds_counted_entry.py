"""Hands counted at the table through the round form (games/forms/round_counts.py): the
Count switch where the house rules offer it, a round saved with a hand's figures, each
refusal beside the figure it concerns, counts first, a winner on the table's show in
one tap, and an edit from a count to cards and back."""

from __future__ import annotations

import html as entities
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round
from games.rules import (
    PRESETS,
    HandFigures,
    PlayerHand,
    get_ruleset,
    parse_card,
    parse_groups,
    score_round,
)
from games.services.round_entries import counted_form_data
from tests.support.builders import make_session, play, round_data, seat_pk
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S
from tests.support.urls import create, detail, preview

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# Ben's SHOWN_8S under cut 8S, as he says it at the table (docs/rules §5).
BEN = HandFigures(count=102, value_points=10)


@pytest.fixture
def counting(user) -> GameSession:
    return make_session(user, name="Counts", overrides={"hand_entry": "counts"})


def counted_round(session: GameSession, ben: dict[str, str] | None = None) -> dict:
    """ROUND_1 with Ben's hand counted: his figures, or the fields given."""
    data = round_data(session, "8S", ROUND_1)
    seat = seat_pk(session, "Ben")
    data.update(ben if ben is not None else counted_form_data(seat, BEN))
    data[f"groups_{seat}"] = ""
    return data


def by_cards_scores() -> dict[str, int]:
    hands = [
        PlayerHand(name, outcome, tuple(tuple(g) for g in parse_groups(text)))
        for name, (outcome, text) in ROUND_1.items()
    ]
    result = score_round(PRESETS["21-points"], parse_card("8S"), hands)
    return {player.name: player.score for player in result.players}


def errors_beside(html: str, session: GameSession, name: str) -> str:
    """The text of a player's error block (round_fields.html#player_errors)."""
    seat = seat_pk(session, name)
    block = rf'<div class="hand-errors" id="errors-\w+-{seat}"[^>]*>(.*?)</div>\s*</div>'
    found = re.search(block, html, re.S)
    return entities.unescape(re.sub(r"<[^>]+>", " ", found[1])) if found else ""


def figures_block(html: str, session: GameSession, name: str) -> str:
    """A player's figure fields (round_fields.html#figures), up to their errors."""
    start = re.search(rf'<div class="figures" id="figures-\w+-{seat_pk(session, name)}"', html)
    assert start, f"no figures for {name}"
    return html[start.start() : html.index('class="hand-errors"', start.start())]


def test_a_counted_hand_saves_as_its_cards_would(scorer: Client, counting: GameSession) -> None:
    response = scorer.post(create(counting), counted_round(counting), headers=HTMX)

    assert response.status_code == 200, response.content.decode()[:2000]
    played = Round.objects.get()
    scores = {entry.player.name: entry.score for entry in played.entries.all()}
    assert scores == by_cards_scores()
    ben = played.entries.get(player__name="Ben")
    assert ben.counted and ben.figures == {"count": 102, "value_points": 10}


def test_the_page_offers_a_count_switch_and_the_figures_the_preset_uses(
    scorer: Client, counting: GameSession
) -> None:
    html = scorer.get(detail(counting)).content.decode()

    seat = seat_pk(counting, "Ben")
    assert f'name="counted_{seat}"' in html and 'role="switch"' in html
    assert f'name="count_{seat}"' in html and f'name="value_points_{seat}"' in html
    assert f'name="two_point_{seat}"' in html
    assert f'name="claims_{seat}"' not in html and f'name="free_hand_{seat}"' not in html
    count_input = re.search(rf'<input[^>]*name="count_{seat}"[^>]*>', html)[0]
    assert 'inputmode="numeric"' in count_input
    # Counts allowed, not first: every hand opens on its cards.
    assert not re.search(rf'name="counted_{seat}"[^>]*checked', html)


def test_no_switch_where_the_house_rules_take_cards_only(
    scorer: Client, table: GameSession
) -> None:
    html = scorer.get(detail(table)).content.decode()
    assert "data-count-switch" not in html and "data-figures" not in html

    # A count posted anyway is no field of this form: the hand is read by its cards.
    response = scorer.post(create(table), counted_round(table), headers=HTMX)

    assert response.status_code == 422
    assert "must show all 21 cards, not 0" in errors_beside(response.content.decode(), table, "Ben")
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("-1", "a count cannot be below 0, not -1"),
        ("1", "no 21 cards count 1: a card counts 2 to 10, a joker 0"),
        ("999", "a count of 999 is more than 21 cards can hold: at most 210"),
        ("abc", "type a whole number, such as 34, not “abc”"),
    ],
)
def test_a_wrong_count_is_said_beside_the_count(
    scorer: Client, counting: GameSession, typed: str, said: str
) -> None:
    seat = seat_pk(counting, "Ben")
    fields = counted_form_data(seat, BEN) | {f"count_{seat}": typed}

    response = scorer.post(create(counting), counted_round(counting, fields), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 422
    assert said in errors_beside(html, counting, "Ben")
    # Only that message: the rules are not asked about a count the form refused.
    assert "needs its count" not in html
    count_input = re.search(rf'<input[^>]*name="count_{seat}"[^>]*>', html)[0]
    assert 'aria-invalid="true"' in count_input and f'value="{typed}"' in count_input
    # In Save's list too, linked to the field.
    problems = html[html.index("data-problems") :]
    link = rf'<a href="#id_count_{seat}" data-fix="count"><strong>Ben</strong>: '
    assert re.search(link, problems)
    assert 'data-figures-wrong="count"' in html
    assert not Round.objects.exists()


def test_the_preview_says_the_figures_and_the_hand_points(
    scorer: Client, counting: GameSession
) -> None:
    response = scorer.post(preview(counting), counted_round(counting), headers=HTMX)

    html = response.content.decode()
    assert "Counted at the table: count 102, value points 10." in html
    assert "Hand points: <strong>102</strong>" in html
    assert "<h3>Settlement</h3>" in html


def test_a_drop_keeps_no_count_left_in_a_hidden_field(
    scorer: Client, counting: GameSession
) -> None:
    data = counted_round(counting)
    chen = seat_pk(counting, "Chen")
    data |= {f"counted_{chen}": "on", f"count_{chen}": "40", f"value_points_{chen}": "20"}

    response = scorer.post(create(counting), data, headers=HTMX)

    assert response.status_code == 200
    chen_entry = HandEntry.objects.get(player__name="Chen")
    assert chen_entry.outcome == "first_drop" and not chen_entry.counted


def test_switching_a_hand_of_cards_to_its_count_fills_in_what_the_cards_give(
    scorer: Client, counting: GameSession
) -> None:
    data = round_data(counting, "8S", ROUND_1)
    seat = seat_pk(counting, "Ben")
    data[f"counted_{seat}"] = "on"

    response = scorer.post(preview(counting), data, headers=HTMX)

    html = response.content.decode()
    figures = figures_block(html, counting, "Ben")
    assert 'hx-swap-oob="true"' in figures
    assert re.search(rf'name="count_{seat}"[^>]*value="102"', figures)
    assert re.search(rf'name="value_points_{seat}"[^>]*value="10"', figures)
    assert "Counted at the table: count 102, value points 10." in html


def test_counts_first_opens_every_hand_on_its_count(scorer: Client, user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts_first"})

    html = scorer.get(detail(session)).content.decode()

    for name in ("Asha", "Ben", "Chen"):
        assert re.search(rf'name="counted_{seat_pk(session, name)}"[^>]*checked', html)


def test_a_declared_winner_needs_cards_where_the_show_is_not_trusted(scorer: Client, user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts_first"})
    data = counted_round(session)
    asha = seat_pk(session, "Asha")
    data |= {f"counted_{asha}": "on", f"groups_{asha}": ""}

    response = scorer.post(create(session), data, headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 422
    assert "the house rules do not trust the table's show" in errors_beside(html, session, "Asha")
    assert re.search(rf'name="counted_{asha}"[^>]*aria-invalid="true"', html)


def test_a_trusted_winner_is_one_tap(scorer: Client, user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts_first", "trust_show": True})
    # Every hand opens counted: the winner's Declared, the loser's figures, the drop's tap.
    asha, ben, chen = (seat_pk(session, name) for name in ("Asha", "Ben", "Chen"))
    data = {
        "cut_joker": "8S",
        f"outcome_{asha}": "declared",
        f"counted_{asha}": "on",
        f"outcome_{ben}": "shown",
        **counted_form_data(ben, BEN),
        f"outcome_{chen}": "first_drop",
        f"counted_{chen}": "on",
    }

    response = scorer.post(create(session), data, headers=HTMX)

    assert response.status_code == 200, response.content.decode()[:2000]
    asha_entry = HandEntry.objects.get(player__name="Asha")
    assert asha_entry.counted and asha_entry.figures == {} and asha_entry.declaration == ""
    # Asha gave no value points: she pays Ben his 10, and a drop is out of the exchange.
    hands = [
        PlayerHand("Asha", "declared", figures=HandFigures()),
        PlayerHand("Ben", "shown", figures=BEN),
        PlayerHand("Chen", "first_drop"),
    ]
    rules = get_ruleset("21-points", {"hand_entry": "counts_first", "trust_show": True})
    expected = score_round(rules, parse_card("8S"), hands)
    assert {e.player.name: e.score for e in Round.objects.get().entries.all()} == {
        p.name: p.score for p in expected.players
    }


def edit_url(played: Round) -> str:
    return reverse("games:round_edit", args=[played.session_id, played.pk])


def test_the_edit_form_shows_a_counted_hand_counted(scorer: Client, counting: GameSession) -> None:
    scorer.post(create(counting), counted_round(counting), headers=HTMX)
    played = Round.objects.get()

    html = scorer.get(edit_url(played)).content.decode()

    seat = seat_pk(counting, "Ben")
    assert re.search(rf'name="counted_{seat}"[^>]*checked', html)
    assert re.search(rf'name="count_{seat}"[^>]*value="102"', html)
    assert "Counted at the table: count 102, value points 10." in html


def test_an_edit_turns_a_count_into_cards(scorer: Client, counting: GameSession) -> None:
    scorer.post(create(counting), counted_round(counting), headers=HTMX)
    played = Round.objects.get()
    seat = seat_pk(counting, "Ben")
    data = round_data(counting, "8S", ROUND_1) | {
        "version": played.version,
        f"count_{seat}": "102",  # still in the hidden field: the switch is off
    }

    response = scorer.post(edit_url(played), data)

    assert response.status_code == 302
    ben = HandEntry.objects.get(player__name="Ben")
    assert not ben.counted and ben.figures == {} and len(ben.groups) > 1
    assert ben.score == by_cards_scores()["Ben"]


def test_an_edit_turns_cards_into_a_count(scorer: Client, counting: GameSession) -> None:
    played = play(counting, "8S", ROUND_1)
    seat = seat_pk(counting, "Ben")
    data = round_data(counting, "8S", ROUND_1) | {
        "version": played.version,
        **counted_form_data(seat, HandFigures(count=80, value_points=10)),
    }

    response = scorer.post(edit_url(played), data)

    assert response.status_code == 302
    ben = HandEntry.objects.get(player__name="Ben")
    assert ben.counted and ben.figures == {"count": 80, "value_points": 10}
    assert ben.groups == [] and ben.hand_points == 80


def test_a_winner_shown_by_cards_beside_counted_losers(scorer: Client, user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts_first"})
    asha, ben, chen = (seat_pk(session, name) for name in ("Asha", "Ben", "Chen"))
    data = {
        "cut_joker": "8S",
        f"outcome_{asha}": "declared",
        f"groups_{asha}": WIN_8S,
        f"outcome_{ben}": "shown",
        **counted_form_data(ben, BEN),
        f"groups_{ben}": SHOWN_8S,  # typed before the switch, kept, not read
        f"outcome_{chen}": "first_drop",
        f"counted_{chen}": "on",
    }

    response = scorer.post(create(session), data, headers=HTMX)

    assert response.status_code == 200
    assert {e.player.name: e.score for e in Round.objects.get().entries.all()} == by_cards_scores()


def test_a_hand_just_switched_to_its_count_is_not_wrong_yet(scorer: Client, user) -> None:
    session = make_session(user, overrides={"hand_entry": "counts_first"})
    data: dict[str, str] = {"cut_joker": "8S"}
    for name in ("Asha", "Ben", "Chen"):
        seat = seat_pk(session, name)
        data |= {f"outcome_{seat}": "shown", f"counted_{seat}": "on"}

    response = scorer.post(preview(session), data, headers=HTMX)

    html = response.content.decode()
    assert "needs its count" not in html and "aria-invalid" not in html
    # Nothing scored yet, so no round's problem either (no winner): it waits for counts.
    assert "no winner" not in html
    assert "once every hand is complete" in html
    # Save says what is missing, beside each count.
    saved = scorer.post(create(session), data, headers=HTMX).content.decode()
    assert "a counted hand needs its count" in errors_beside(saved, session, "Ben")


@pytest.mark.parametrize(
    ("preset", "house_rules", "offered"),
    [
        ("21-kodai", {"hand_entry": "counts"}, {"count", "claims", "free_hand"}),
        ("13-points", {"hand_entry": "counts"}, {"count"}),
        # Cards only, but the show trusted: the declared winner alone may be counted.
        ("21-points", {"trust_show": True}, {"value_points"}),
    ],
)
def test_each_preset_asks_for_the_figures_its_hands_give(
    scorer: Client, user, preset: str, house_rules: dict, offered: set[str]
) -> None:
    session = make_session(user, preset=preset, overrides=house_rules)

    html = scorer.get(detail(session)).content.decode()

    ben = seat_pk(session, "Ben")
    asked = {
        name
        for name in ("count", "value_points", "claims", "two_point", "free_hand")
        if f'name="{name}_{ben}"' in html
    }
    assert asked == offered
    switch = re.search(
        rf'<label class="chip chip-count"([^>]*)><input[^>]*name="counted_{ben}"', html
    )
    if house_rules.get("hand_entry", "cards") == "cards":
        assert switch[1].split() == ["data-for-declared"]
