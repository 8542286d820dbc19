"""Starting a session (games/views/sessions.py): players, preset, ceiling, house rules
and the toss."""

from __future__ import annotations

import datetime
import html as html_lib
import re

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.days import latest_played_on
from games.models import GameSession, League, Membership, Player
from games.rules import Redraw, Toss, parse_card
from games.services.leagues import create_league
from games.views import sessions as sessions_views
from tests.support.builders import make_session, session_form_data
from tests.support.forms import forms_in, hidden

pytestmark = pytest.mark.django_db

URL = reverse("games:session_new")


def test_start_page_needs_sign_in(client: Client) -> None:
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert client.post(URL, session_form_data(seat_1="A", seat_2="B")).status_code == 302
    assert not GameSession.objects.exists()


def test_start_page_lists_presets_with_descriptions_and_house_rules(
    scorer: Client, user: User
) -> None:
    make_session(user, players=("Dev", "Eli"))  # a table this user played at
    Player.objects.create(name="Zed")  # a name from someone else's table

    response = scorer.get(URL)

    assert response.status_code == 200
    assert response.template_name == "games/session_new.html"
    html = response.content.decode()
    assert "13-card pool 101" in html
    assert (
        "13 cards, 2 decks · jokers: the cut rank in every suit · losers add their points, "
        "lowest total is best · out at 101"
    ) in html
    assert '<details class="house-rules">' in html  # collapsed
    assert "Most points a loser&#x27;s hand can cost." in html  # help text of hand_cap
    assert 'name="rule_hand_cap"' in html and 'value="120"' in html
    assert '<option value="Dev">' in html  # known players to pick from
    assert "Zed" not in html  # nobody else's players
    assert response.context_data["form"].initial["ceiling"] is None  # 21-points has none


def test_creating_a_session_seats_players_and_redirects_to_it(scorer: Client, user: User) -> None:
    ben = make_session(user, players=("Ben", "Dev")).seats.get(position=1).player
    data = session_form_data(
        seat_1="Asha", seat_2="ben", seat_4="Chen", first_dealer="4", name="Friday"
    )

    response = scorer.post(URL, data)

    session = GameSession.objects.exclude(seats__player__name="Dev").get()
    assert response.status_code == 302
    assert response.url == reverse("games:session_detail", args=[session.pk])
    assert [s.player.name for s in session.seats.order_by("position")] == ["Asha", "Ben", "Chen"]
    assert session.seats.get(position=2).player == ben  # "ben": the Ben of their table
    assert session.first_dealer.player.name == "Chen"  # the empty seat 3 is skipped
    assert (session.name, session.preset, session.overrides) == ("Friday", "21-points", {})
    assert session.created_by == user
    assert Player.objects.count() == 4  # and Dev


def test_only_changed_house_rules_are_stored(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", rule_first_drop="25")
    data["rule_value_cut"] = "10, 30, 60"
    del data["rule_deal_show"]  # unchecked

    scorer.post(URL, data)

    assert GameSession.objects.get().overrides == {
        "first_drop": 25,
        "deal_show": False,
        "value_cut": [10, 30, 60],
    }


def test_ceiling_is_prefilled_with_the_presets_and_kept_as_typed(scorer: Client) -> None:
    response = scorer.get(URL, {"preset": "13-pool-201"})
    assert response.context_data["form"].initial["ceiling"] == 201

    scorer.post(URL, session_form_data("13-pool-201", seat_1="Asha", seat_2="Ben", ceiling="150"))

    assert GameSession.objects.get().ceiling == 150


def test_switching_preset_without_javascript_takes_the_new_presets_rules(scorer: Client) -> None:
    # The house rules and ceiling were rendered for 21-points; the user picked pool 101.
    data = session_form_data("21-points", seat_1="Asha", seat_2="Ben")
    data["preset"] = "13-pool-101"

    scorer.post(URL, data)

    session = GameSession.objects.get()
    assert (session.preset, session.overrides, session.ceiling) == ("13-pool-101", {}, 101)


def test_an_invalid_house_rule_is_shown_next_to_the_option(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", rule_deal_show_min="90")

    response = scorer.post(URL, data)

    assert response.status_code == 422
    form = response.context_data["form"]
    assert form.errors["rule_deal_show_min"] == [
        "Lowest deal show cost must not be above highest deal show cost."
    ]
    html = response.content.decode()
    assert '<details class="house-rules" open>' in html  # opened to show the error
    assert 'value="90"' in html  # what was typed stays
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rule_hand_cap", "0", "Maximum hand points must be at least 1, not 0."),
        ("rule_value_cut", "10, x", "Enter whole numbers separated by commas"),
        ("rule_value_cut", "10, 20", "Cut card values must list 3 numbers"),
        ("rule_value_extra_cards", "ZZ", "Other value cards: 'ZZ' is not a card"),
        ("rule_counting", "fancy", "Select a valid choice"),
        ("rule_decks", "9", "Number of decks must be at most 4, not 9."),
    ],
)
def test_house_rule_errors_name_the_option(
    scorer: Client, field: str, value: str, message: str
) -> None:
    response = scorer.post(URL, session_form_data(seat_1="Asha", seat_2="Ben", **{field: value}))

    assert response.status_code == 422
    assert message in " ".join(response.context_data["form"].errors[field])


@pytest.mark.parametrize(
    ("seats", "field", "message"),
    [
        ({"seat_1": "Asha"}, "seat_1", "Seat at least two players."),
        ({"seat_1": "Asha", "seat_2": "ASHA"}, "seat_2", "ASHA already sits in seat 1."),
        ({"seat_1": "Asha", "seat_2": "Ben", "first_dealer": "5"}, "first_dealer", "seated"),
        ({"seat_1": "Asha", "seat_2": "B" * 61}, "seat_2", "at most 60 characters"),
    ],
)
def test_seating_errors_are_shown_next_to_the_seat(
    scorer: Client, seats: dict, field: str, message: str
) -> None:
    response = scorer.post(URL, session_form_data(**seats))

    assert response.status_code == 422
    assert message in " ".join(response.context_data["form"].errors[field])
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("day", ["1900-01-01", "1969-12-31", "9999-12-31", "next year and a day"])
def test_a_day_a_league_file_could_not_carry_is_refused_beside_the_field(
    scorer: Client, day: str
) -> None:
    latest = latest_played_on()
    if day == "next year and a day":
        day = (latest + datetime.timedelta(days=1)).isoformat()
    data = session_form_data(seat_1="Asha", seat_2="Ben", played_on=day)

    response = scorer.post(URL, data)

    assert response.status_code == 422
    message = f"Pick a day from 1 Jan 1970 to {latest.day} {latest:%b %Y} (a year from today)."
    assert response.context_data["form"].errors["played_on"] == [message]
    html = response.content.decode()
    assert 'id="id_played_on_error"' in html and message in html
    assert not GameSession.objects.exists()


def test_the_first_and_the_last_day_a_session_may_be_played_on_are_taken(
    scorer: Client,
) -> None:
    latest = latest_played_on()
    page = scorer.get(URL).content.decode()
    assert f'min="1970-01-01" max="{latest.isoformat()}"' in page  # the phone's date picker

    for day in ("1970-01-01", latest.isoformat()):
        data = session_form_data(seat_1="Asha", seat_2="Ben", played_on=day)
        assert scorer.post(URL, data).status_code == 302

    days = GameSession.objects.order_by("played_on").values_list("played_on", flat=True)
    assert list(days) == [datetime.date(1970, 1, 1), latest]


def test_the_toss_seats_players_by_their_cards(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", seat_3="Chen", action="toss")

    response = scorer.post(URL, data)

    assert response.status_code == 200
    assert not GameSession.objects.exists()  # the toss only proposes seats
    form = response.context_data["form"]
    seated = [form[f"seat_{n}"].value() for n in (1, 2, 3)]
    assert sorted(seated) == ["Asha", "Ben", "Chen"]
    assert form["first_dealer"].value() == "3"  # the lowest card deals first
    html = response.content.decode()
    assert html.count("data-toss-card") == 3
    # Seated highest card first, as the rules service's toss orders them.
    from games.rules.toss import toss_strength

    cards = [form.toss_cards[name] for name in seated]
    assert cards == sorted(cards, key=toss_strength, reverse=True)


def test_a_tie_on_rank_in_the_toss_says_how_the_suit_broke_it(
    scorer: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Asha and Ben both draw an ace: the rules go by suit, and the page says so.
    dealt = Toss(
        (("Asha", parse_card("AH")), ("Ben", parse_card("AC")), ("Chen", parse_card("5D")))
    )
    monkeypatch.setattr(sessions_views, "toss_seats", lambda names, ruleset: dealt)
    data = session_form_data(seat_1="Chen", seat_2="Ben", seat_3="Asha", action="toss")

    response = scorer.post(URL, data)

    said = html_lib.unescape(response.content.decode())
    assert (
        "Asha's A♥ and Ben's A♣ are the same rank: the suit decides (clubs lowest, then "
        "diamonds, hearts, spades), so Asha sits before Ben."
    ) in said
    assert said.count("data-toss-tie") == 1


def test_players_who_drew_the_very_same_card_are_told_they_drew_again(
    scorer: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two decks: Asha and Ben both drew the A♥ first, then the K♠ and the 2♣.
    seats = (("Asha", parse_card("KS")), ("Chen", parse_card("5D")), ("Ben", parse_card("2C")))
    dealt = Toss(seats, (Redraw(("Asha", "Ben"), parse_card("AH")),))
    monkeypatch.setattr(sessions_views, "toss_seats", lambda names, ruleset: dealt)
    data = session_form_data(seat_1="Asha", seat_2="Ben", seat_3="Chen", action="toss")

    response = scorer.post(URL, data)

    said = html_lib.unescape(response.content.decode())
    words = (
        "Asha and Ben both drew the A♥, the very same card: neither rank nor suit can "
        "split them, so they drew again."
    )
    assert f"<span data-toss-redraw>{words}</span>" in said
    # Kept with the cards through a form sent back with an error.
    (form,) = [form for form in forms_in(response.content.decode()) if form.action == URL]
    again = scorer.post(URL, form.data() | {"action": ["create"], "rule_decks": ["9"]})
    assert again.status_code == 422 and words in html_lib.unescape(again.content.decode())


def _tossed(scorer: Client, **fields: str) -> dict[str, list[str]]:
    """The new-session form as a browser holds it after Toss for seats."""
    data = session_form_data(seat_1="Asha", seat_2="Ben", seat_3="Chen", action="toss")
    html = scorer.post(URL, data | fields).content.decode()
    (form,) = [form for form in forms_in(html) if form.action == URL]
    return form.data()


def _dealer(html: str) -> str:
    """The seat whose "deals first" radio button is checked."""
    return re.search(r'name="first_dealer" value="(\d)"\s*checked', html)[1]


def test_the_toss_and_its_dealer_survive_a_form_error(scorer: Client) -> None:
    tossed = _tossed(scorer)
    seats = [tossed[f"seat_{n}"][0] for n in (1, 2, 3)]
    tossed |= {"action": ["create"], "rule_decks": ["9"], "name": ["Friday"]}

    response = scorer.post(URL, tossed)

    assert response.status_code == 422
    assert not GameSession.objects.exists()
    html = response.content.decode()
    assert "Seated by the toss" in html
    assert html.count("data-toss-card") == 3  # every dealt card is still shown
    form = response.context_data["form"]
    assert [form[f"seat_{n}"].value() for n in (1, 2, 3)] == seats
    assert sorted(form.toss_cards) == sorted(seats)
    assert _dealer(html) == "3"  # the lowest card still deals first
    assert form["name"].value() == "Friday"

    tossed["rule_decks"] = ["3"]
    assert scorer.post(URL, tossed).status_code == 302
    session = GameSession.objects.get()
    assert [s.player.name for s in session.seats.order_by("position")] == seats
    assert session.first_dealer.player.name == seats[2]


def test_errors_far_down_the_form_are_listed_at_its_top(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="asha", rule_decks="9")

    html = scorer.post(URL, data).content.decode()

    summary = html[html.index("error-summary") : html.index('id="seating"')]
    assert re.findall(r'<a href="#id_(\w+)">', summary) == ["seat_1", "seat_2", "rule_decks"]
    assert 'href="#id_seat_2">Seat 2</a>: asha already sits in seat 1.' in summary
    decks = 'href="#id_rule_decks">Number of decks</a>: Number of decks must be at most 4, not 9.'
    assert decks in summary  # the option by its label, as beside it
    assert "first dealer" not in summary  # Asha in seat 1 deals, whatever seat 2 says
    assert 'id="id_seat_2_error"' in html and 'id="id_rule_decks_error"' in html
    assert 'aria-describedby="id_seat_2_error"' in html


def test_a_toss_over_htmx_is_kept_by_the_form_it_lands_in(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", action="toss")
    html = scorer.post(URL, data, headers={"HX-Request": "true"}).content.decode()
    kept = dict(data, toss=hidden(html, "toss"), seat_1="", seat_2="", action="create")
    for number in (1, 2):
        kept[f"seat_{number}"] = re.search(rf'name="seat_{number}"[^>]*value="([^"]*)"', html)[1]
    kept["rule_first_drop"] = "-5"

    response = scorer.post(URL, kept)

    assert response.status_code == 422
    assert response.content.decode().count("data-toss-card") == 2


def test_seats_moved_after_the_toss_no_longer_say_the_toss_seated_them(scorer: Client) -> None:
    tossed = _tossed(scorer)
    tossed["seat_1"], tossed["seat_2"] = tossed["seat_2"], tossed["seat_1"]
    tossed |= {"action": ["create"], "rule_decks": ["9"]}

    html = scorer.post(URL, tossed).content.decode()

    assert html.count("data-toss-card") == 3  # each player's card is still theirs
    assert "Seated by the toss" not in html


def test_a_toss_the_server_did_not_deal_shows_no_cards(scorer: Client) -> None:
    forged = signing.dumps([["Asha", "AS"], ["Ben", "2C"]], salt="another-salt")
    data = session_form_data(seat_1="Asha", seat_2="Ben", toss=forged, name="x" * 101)

    response = scorer.post(URL, data)

    assert response.status_code == 422
    html = response.content.decode()
    assert "data-toss-card" not in html and "Seated by the toss" not in html


def test_the_toss_over_htmx_swaps_only_the_seating(scorer: Client) -> None:
    data = session_form_data(seat_1="Asha", seat_2="Ben", action="toss")

    response = scorer.post(URL, data, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.template_name == "games/session_new.html#seating"
    html = response.content.decode()
    assert html.lstrip().startswith('<fieldset class="seating" id="seating">')
    assert "<html" not in html


def test_a_toss_with_one_player_says_so(scorer: Client) -> None:
    response = scorer.post(
        URL, session_form_data(seat_1="Asha", action="toss"), headers={"HX-Request": "true"}
    )

    assert response.status_code == 422
    assert "Seat at least two players." in response.content.decode()


def test_a_toss_with_nobody_seated_says_only_that(scorer: Client) -> None:
    response = scorer.post(URL, session_form_data(action="toss"), headers={"HX-Request": "true"})

    assert response.status_code == 422
    errors = response.context_data["form"].errors
    assert errors["seat_1"] == ["Seat at least two players."]
    assert "first_dealer" not in errors  # no seat to be the dealer's: nothing more to say


def test_picking_a_preset_over_htmx_returns_its_ceiling_and_house_rules(scorer: Client) -> None:
    response = scorer.get(URL, {"preset": "13-pool-101"}, headers={"HX-Request": "true"})

    assert response.template_name == "partials/ruleset_fields.html#preset_rules"
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="preset-rules"')
    assert 'name="ceiling" value="101"' in html
    assert 'name="rules_preset" value="13-pool-101"' in html
    assert 'name="rule_hand_cap" value="80"' in html


def test_a_league_scorer_can_start_a_league_session(scorer: Client, user: User) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    Membership.objects.create(league=league, user=user, role="scorer")
    elsewhere = League.objects.create(name="Elsewhere", slug="elsewhere")

    assert "Tuesdays" in scorer.get(URL).content.decode()
    response = scorer.post(URL, session_form_data(seat_1="A", seat_2="B", league=elsewhere.pk))
    assert response.status_code == 422  # not their league
    scorer.post(URL, session_form_data(seat_1="A", seat_2="B", league=league.pk))
    assert GameSession.objects.get().league == league


def test_two_leagues_of_one_name_read_apart_by_their_addresses(scorer: Client, user: User) -> None:
    for slug in ("friday", "friday-x7k2q9"):  # a league imported again beside itself
        league = League.objects.create(name="Friday", slug=slug)
        Membership.objects.create(league=league, user=user, role="scorer")
    Membership.objects.create(
        league=League.objects.create(name="Tuesdays", slug="tuesdays"), user=user, role="scorer"
    )

    html = scorer.get(URL).content.decode()

    select = html.split('name="league"')[1].split("</select>")[0]
    options = re.findall(r'<option value="\d+">([^<]*)</option>', select)
    assert options == ["Friday (friday)", "Friday (friday-x7k2q9)", "Tuesdays"]


def test_the_page_reads_the_users_leagues_once_for_its_dropdown_check_and_rules(
    scorer: Client, user: User
) -> None:
    tuesdays = create_league(user, name="Tuesdays", preset="13-points", overrides={})
    create_league(user, name="Friday", preset="21-points", overrides={})
    typed = session_form_data("13-points", seat_1="Asha", seat_2="Ben", league=str(tuesdays.pk))
    asked = {
        "the page": lambda: scorer.get(URL),
        "a league picked": lambda: scorer.get(URL, {"league": tuesdays.pk}),
        "the form sent": lambda: scorer.post(URL, typed),
        "a league not the user's": lambda: scorer.post(URL, typed | {"league": "999"}),
    }
    for what, ask in asked.items():
        with CaptureQueriesContext(connection) as queries:
            response = ask()
        assert response.status_code in (200, 302, 422), what
        # Leagues read (starting the session also locks the league's row: its id alone).
        whole = 'SELECT "games_league"."id", "games_league"."name"'
        read = [query for query in queries if query["sql"].startswith(whole)]
        assert len(read) == 1, what

    refused = scorer.post(URL, typed | {"league": "999"})
    assert "Pick one of your leagues, or none." in refused.content.decode()
    started = GameSession.objects.get()
    assert started.league == tuesdays and started.preset == "13-points"


def test_picking_a_league_reads_it_once_for_its_rules_and_its_players(
    scorer: Client, user: User
) -> None:
    league = create_league(user, name="Tuesdays", preset="13-points", overrides={})
    make_session(user, players=("Gus", "Hana"), league=league)

    with CaptureQueriesContext(connection) as queries:
        response = scorer.get(URL, {"league": league.pk}, headers={"HX-Request": "true"})

    assert response.template_name == "games/session_new.html#league_picked"
    html = response.content.decode()
    assert 'name="rules_preset" value="13-points"' in html and '<option value="Gus">' in html
    assert len([query for query in queries if 'FROM "games_league"' in query["sql"]]) == 1


def test_the_house_rules_say_whose_values_they_start_from(scorer: Client, user: User) -> None:
    league = create_league(user, name="Tuesdays", preset="13-points", overrides={"first_drop": 15})
    hx = {"HX-Request": "true"}

    picked = scorer.get(URL, {"league": league.pk}, headers=hx).content.decode()
    assert "Prefilled with the league's rules." in picked
    assert 'name="rule_first_drop" value="15"' in picked

    # Another game picked: the league's rules are of its own game, not of this one.
    other = scorer.get(URL, {"league": league.pk, "preset": "13-pool-101"}, headers=hx)
    html = other.content.decode()
    assert "Prefilled with the preset's rules." in html
    assert 'name="rule_first_drop" value="20"' in html


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"preset": "99-nope"},
        {"preset": ["21-points", "13-points"], "seat_1": ["A", "B"]},
        {"preset": "21-points", "ceiling": "lots", "first_dealer": "x", "rules_preset": "?"},
        {"preset": "21-points", "ceiling": "-5"},
        {"preset": "21-points", "ceiling": "9" * 5000},
        {"preset": "21-points", "rule_hand_cap": "9" * 5000},
        {"preset": "21-points", "seat_1": "x" * 100_000},
        {"preset": "21-points", "seat_1": "A", "seat_2": "B", "league": "9" * 30},
    ],
)
def test_malformed_posts_are_form_errors_not_server_errors(scorer: Client, data: dict) -> None:
    response = scorer.post(URL, data)

    assert response.status_code == 422
    assert not GameSession.objects.exists()


def test_the_game_rules_show_and_switch_the_options_of_the_texts(scorer: Client) -> None:
    # Kodai's own options (docs/rules §3, §4), with their meaning and values.
    html = scorer.get(URL, {"preset": "21-kodai"}).content.decode()
    assert re.search(r'<input type="checkbox" name="rule_ace_marriage_pure"[^>]* checked>', html)
    assert 'name="rule_on_deal_dublees" value="7"' in html
    assert 'name="rule_on_deal_jokers" value="8"' in html
    assert "Dublee groups that win on the deal" in html
    # A table that does not play wins on the deal empties the two counts.
    data = session_form_data("21-kodai", seat_1="Asha", seat_2="Ben")
    data.update(rule_on_deal_dublees="", rule_on_deal_jokers="")
    del data["rule_ace_marriage_pure"]  # unchecked

    scorer.post(URL, data)

    session = GameSession.objects.get()
    assert session.overrides == {
        "ace_marriage_pure": False,
        "on_deal_dublees": None,
        "on_deal_jokers": None,
    }


def test_paplu_game_rules_prefill_seed_003s_drop_rules(scorer: Client) -> None:
    form = scorer.get(URL, {"preset": "21-paplu"}).context_data["form"]
    assert form["rule_value_payments"].value() == "drop_rules"
    assert (form["rule_first_drop_receives"].value(), form["rule_default_win_drop"].value()) == (
        40,
        30,
    )
    assert (form["rule_deal_show"].value(), form["rule_deal_show_fixed"].value()) == (True, 60)
    assert form["rule_two_point_dublees"].value() == 7


@pytest.mark.parametrize("league", ["²", "٣", "1.0", " 1", "9" * 19])
def test_a_league_that_is_no_id_is_no_league_and_never_a_server_error(
    scorer: Client, league: str
) -> None:
    # The fuzz suite found "²": str.isdigit() passes it and int() refuses it.
    assert scorer.get(reverse("games:session_new"), {"league": league}).status_code == 200
    posted = scorer.post(reverse("games:session_new"), session_form_data() | {"league": league})
    assert posted.status_code in {302, 422}
