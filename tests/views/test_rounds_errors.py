"""Bad input on the round form: every error of the rules service appears beside the
player (and group) it concerns, the typed text stays, nothing is saved, and no
request, however malformed, is a server error."""

from __future__ import annotations

import html as html_lib

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, HandEntry, Round
from tests.support.builders import make_session, play, round_data, seat_pk
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, THREE_PURE, WIN_8S

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def post_round(client: Client, session: GameSession, hands: dict, cut: str = "8S", **kwargs):
    url = reverse("games:round_create", args=[session.pk])
    return client.post(url, round_data(session, cut, ROUND_1 | hands), **kwargs)


def preview_of(html: str, session: GameSession, name: str) -> str:
    """What is said beside one player's fields: their errors and their preview."""
    # Up to the next player, or for the last one up to the card picker (the list of
    # problems above Save names every player again).
    after = html.split(f'data-hand-errors="{name}"')[1]
    return after.split('<fieldset class="player"')[0].split("data-picker")[0]


def assert_only_beside(html: str, session: GameSession, name: str, message: str) -> None:
    for player in ("Asha", "Ben", "Chen"):
        block = html_lib.unescape(preview_of(html, session, player))
        assert (message in block) is (player == name), (player, message)


def assert_nothing_saved() -> None:
    assert not Round.objects.exists()
    assert not HandEntry.objects.exists()


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_an_unknown_card_is_named_beside_its_player_and_the_text_stays(
    scorer: Client, table: GameSession, htmx: bool
) -> None:
    typo = SHOWN_8S.replace("10C", "1C")

    response = post_round(scorer, table, {"Ben": ("shown", typo)}, headers=HTMX if htmx else {})

    assert response.status_code == 422
    template = "games/session.html#round_entry" if htmx else "games/session.html"
    assert response.template_name == template
    form = response.context_data["form"]
    message = "'1C' is not a card (group 2, card 2): write 10 or T for a ten, A for an ace"
    assert form.errors[f"groups_{seat_pk(table, 'Ben')}"] == [message]
    html = response.content.decode()
    assert_only_beside(html, table, "Ben", message)
    assert typo in html  # the textarea keeps what was typed
    assert_nothing_saved()


def test_a_hand_of_the_wrong_size(scorer: Client, table: GameSession) -> None:
    short = SHOWN_8S.removesuffix(" 8C")

    response = post_round(scorer, table, {"Ben": ("shown", short)}, headers=HTMX)

    assert response.status_code == 422
    assert_only_beside(response.content.decode(), table, "Ben", "must show all 21 cards, not 20")
    assert short in response.content.decode()
    assert_nothing_saved()


def test_too_many_copies_of_a_card_across_the_round(scorer: Client, table: GameSession) -> None:
    # Asha holds one KH and Ben two; the decks hold three, so Chen's is the fourth.
    chen = "KH 2C 3C"

    response = post_round(scorer, table, {"Chen": ("middle_drop", chen)}, headers=HTMX)

    assert response.status_code == 422
    # The card as the picker shows it, not in the notation the rules write.
    message = "K♥ is entered 4 times in this round, but 3 decks hold only 3: check group 1"
    assert_only_beside(response.content.decode(), table, "Chen", message)
    assert_nothing_saved()


@pytest.mark.parametrize(
    ("chen", "said"),
    [
        # A drop showing a fourth KH (Asha one, Ben two; three decks), a 1C and a 9X:
        # all three said at once, not the copies only once the typos are fixed.
        (
            ("middle_drop", "1C KH 9X | 2C 3C"),
            [
                "'1C' is not a card (group 1, card 1): write 10 or T for a ten, A for an ace",
                "'9X' is not a card (group 1, card 3)",
                "K♥ is entered 4 times in this round, but 3 decks hold only 3: check group 1",
            ],
        ),
        # Something pasted in place of cards: a few lines, not one a word.
        (
            ("shown", "see you at eight on Friday, bring snacks"),
            [
                "'see' is not a card (group 1, card 1)",
                "'you' is not a card (group 1, card 2)",
                "'at' is not a card (group 1, card 3)",
                "and 5 more words that are not cards",
            ],
        ),
        (
            ("shown", "see you at noon 5H"),
            [
                "'see' is not a card (group 1, card 1)",
                "'you' is not a card (group 1, card 2)",
                "'at' is not a card (group 1, card 3)",
                "and 1 more word that is not a card",
            ],
        ),
    ],
    ids=["typos and a card held too often", "pasted", "one more"],
)
def test_every_typo_of_a_hand_is_said_at_save_with_what_else_is_wrong(
    scorer: Client, table: GameSession, chen: tuple[str, str], said: list[str]
) -> None:
    response = post_round(scorer, table, {"Chen": chen}, headers=HTMX)

    assert response.status_code == 422
    assert response.context_data["form"].errors[f"groups_{seat_pk(table, 'Chen')}"] == said
    html = html_lib.unescape(response.content.decode())
    assert f"{len(said)} things to fix" in html.split("data-problems")[1]
    assert_nothing_saved()


def test_a_player_named_like_a_card_keeps_every_word_of_the_error_beside_them(
    scorer: Client, user: User
) -> None:
    # Initials that spell a card: the error about its copies opens with the card,
    # which is not the player's name to take off.
    session = make_session(user, players=("Asha", "Ben", "KH"))
    hands = {"Asha": ROUND_1["Asha"], "Ben": ROUND_1["Ben"], "KH": ("middle_drop", "KH 2C 3C")}
    url = reverse("games:round_create", args=[session.pk])

    response = scorer.post(url, round_data(session, "8S", hands), headers=HTMX)

    assert response.status_code == 422
    html = html_lib.unescape(response.content.decode())
    message = "KH is entered 4 times in this round, but 3 decks hold only 3: check group 1"
    assert message in preview_of(html, session, "KH")
    assert f"<strong>KH</strong>: {message}" in html.split("data-problems")[1]
    assert_nothing_saved()


@pytest.mark.parametrize(
    ("cut", "chen", "line"),
    [
        # Every hand whole, but Chen's drop shows a fourth KH of three decks (Asha and
        # Ben hold three): no settlement, and not because a hand is short.
        ("8S", ("middle_drop", "KH 2C 3C"), "once what is marked wrong is fixed."),
        ("8S", ("shown", "KH 2C 3C"), "once every hand is complete."),
        (
            "8S",
            ("shown", "2C 3X"),
            "once every hand is complete and what is marked wrong is fixed.",
        ),
        # Every hand whole, the cut joker not yet typed.
        ("", ("first_drop", ""), "once the cut joker is entered."),
        ("", ("shown", "2C 3C"), "once the cut joker is entered and every hand is complete."),
    ],
)
def test_the_line_in_the_settlements_place_says_what_stops_it(
    scorer: Client, table: GameSession, cut: str, chen: tuple[str, str], line: str
) -> None:
    data = round_data(table, cut, ROUND_1 | {"Chen": chen})

    response = scorer.post(reverse("games:round_preview", args=[table.pk]), data)

    assert response.status_code == 200
    said = response.content.decode().split("data-no-settlement>")[1].split("</p>")[0]
    assert said == f"The settlement appears here {line}"


def test_a_new_round_says_its_settlement_waits_for_the_cut_joker_and_every_hand(
    scorer: Client, table: GameSession
) -> None:
    response = scorer.get(reverse("games:session_detail", args=[table.pk]))

    said = response.content.decode().split("data-no-settlement>")[1].split("</p>")[0]
    # Nothing typed yet: not only "once every hand is complete" (the cut is missing too).
    assert said == (
        "The settlement appears here once the cut joker is entered and every hand is complete."
    )


def test_a_player_called_not_keeps_the_not_of_a_false_declaration_beside_them(
    scorer: Client, user: User
) -> None:
    session = make_session(user, players=("Asha", "Ben", "not"))
    url = reverse("games:round_preview", args=[session.pk])

    response = scorer.post(
        url, round_data(session, "8S", {"not": ("declared", LOOSE_148)}), headers=HTMX
    )

    preview = html_lib.unescape(preview_of(response.content.decode(), session, "not"))
    assert '<p class="problem">not a valid declaration: ' in preview


def test_a_false_declaration(scorer: Client, table: GameSession) -> None:
    response = post_round(scorer, table, {"Asha": ("declared", LOOSE_148)}, headers=HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    assert_only_beside(html, table, "Asha", "the declaration is not valid")
    assert "enter it as an invalid declaration" in html
    assert_nothing_saved()


def test_a_false_declaration_names_its_cards_as_the_picker_shows_them(
    scorer: Client, table: GameSession
) -> None:
    response = post_round(scorer, table, {"Asha": ("declared", LOOSE_148)}, headers=HTMX)

    said = response.context_data["form"].errors[f"groups_{seat_pk(table, 'Asha')}"][0]
    assert "2♣ 4♦ 6♥, 10♠ Q♣ K♦, 3♠ 5♥ 9♣" in said
    assert "2C" not in said and "10S" not in said
    html = html_lib.unescape(response.content.decode())
    assert "2♣ 4♦ 6♥, 10♠ Q♣ K♦" in preview_of(html, table, "Asha")
    assert "2♣ 4♦ 6♥, 10♠ Q♣ K♦" in html.split("data-problems")[1]


def test_a_typo_run_into_a_card_is_named_as_it_was_typed(
    scorer: Client, table: GameSession
) -> None:
    # "ahh" reads as the card AH run together with a stray h: the word is the typo.
    ben = ("shown", SHOWN_8S.replace("2D", "ahh"))

    response = post_round(scorer, table, {"Ben": ben}, headers=HTMX)

    message = "'ahh' is not a card (group 1, card 1)"
    assert response.context_data["form"].errors[f"groups_{seat_pk(table, 'Ben')}"] == [message]
    assert_only_beside(response.content.decode(), table, "Ben", message)


def test_two_winners_are_said_once_for_the_round_with_both_outcomes_marked(
    scorer: Client, table: GameSession
) -> None:
    response = post_round(scorer, table, {"Chen": ("declared", THREE_PURE.replace("3H", "3S"))})

    assert response.status_code == 422
    html = html_lib.unescape(response.content.decode())
    message = "more than one winner (Asha, Chen): only one player wins a round"
    assert response.context_data["form"].non_field_errors() == [message]
    assert html.count(message) == 1  # in the list above Save, not beside each winner
    assert message in html.split("data-problems")[1]
    for name in ("Asha", "Ben", "Chen"):
        assert message not in preview_of(html, table, name)
        marked = "data-outcome-wrong" in html.split(f'data-hand-errors="{name}"')[1].split(">")[0]
        assert marked is (name != "Ben"), name
    assert_nothing_saved()


def test_no_winner_is_an_error_about_the_round(scorer: Client, table: GameSession) -> None:
    response = post_round(scorer, table, {"Asha": ("shown", LOOSE_148)}, headers=HTMX)

    assert response.status_code == 422
    assert response.context_data["form"].non_field_errors() == [
        "no winner: one player must have declared (or won by default)"
    ]
    # Listed with the round's other problems right above Save.
    problems = response.content.decode().split("data-problems")[1]
    assert "no winner" in problems
    assert_nothing_saved()


def test_a_default_win_while_others_played(scorer: Client, table: GameSession) -> None:
    response = post_round(scorer, table, {"Asha": ("default_win", "")}, headers=HTMX)

    assert response.status_code == 422
    assert_only_beside(
        response.content.decode(),
        table,
        "Asha",
        "cannot win by default while Ben still played",
    )


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ("8X", "Cut joker: '8X' is not a card"),
        ("\u212aS", "Cut joker: '\u212aS' is not a card"),  # a Kelvin sign: was a server error
        ("8S 9S", "Cut joker: '8S 9S' is not one card"),
        ("", "Enter the cut joker"),
    ],
)
def test_a_bad_cut_joker_is_shown_beside_it(scorer: Client, table, cut: str, message: str) -> None:
    response = post_round(scorer, table, {}, cut=cut, headers=HTMX)

    assert response.status_code == 422
    assert message in " ".join(response.context_data["form"].errors["cut_joker"])
    assert_nothing_saved()


def test_several_errors_each_go_to_their_own_player(scorer: Client, table: GameSession) -> None:
    response = post_round(
        scorer,
        table,
        {"Asha": ("declared", WIN_8S), "Ben": ("shown", "2D 3D"), "Chen": ("shown", "QQ")},
        headers=HTMX,
    )

    html = response.content.decode()
    assert_only_beside(html, table, "Chen", "'QQ' is not a card (group 1, card 1)")
    # Chen's typo stops scoring, but Ben's short hand is reported at once, as an error.
    assert_only_beside(html, table, "Ben", "must show all 21 cards, not 2")
    ben = response.context_data["form"].errors[f"groups_{seat_pk(table, 'Ben')}"]
    assert ben == ["must show all 21 cards, not 2"]
    assert_nothing_saved()


# Three mistakes in one round: a typo in Asha's (8H as 8X), Ben's hand left empty and
# Chen's short.
THREE_MISTAKES = {
    "Asha": ("declared", WIN_8S.replace("8H", "8X")),
    "Ben": ("shown", ""),
    "Chen": ("shown", "2C 3C 4C"),
}
THREE_MESSAGES = {
    "Asha": "'8X' is not a card (group 7, card 3)",
    "Ben": "must show all 21 cards, not 0",
    "Chen": "must show all 21 cards, not 3",
}


@pytest.mark.parametrize("round_", ["new", "edit"])
def test_every_mistake_of_a_round_is_reported_at_once_beside_its_player(
    scorer: Client, table: GameSession, round_: str
) -> None:
    if round_ == "new":
        url, version = reverse("games:round_create", args=[table.pk]), {}
    else:
        played = play(table, "8S", ROUND_1)
        url, version = reverse("games:round_edit", args=[table.pk, played.pk]), {"version": 1}

    response = scorer.post(url, round_data(table, "8S", THREE_MISTAKES, **version), headers=HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    errors = response.context_data["form"].errors
    for name, message in THREE_MESSAGES.items():
        assert_only_beside(html, table, name, message)
        assert len(errors[f"groups_{seat_pk(table, name)}"]) == 1, name  # each once
    assert not response.context_data["form"].non_field_errors()
    # All three are listed together above Save as well.
    problems = html_lib.unescape(html.split("data-problems")[1])
    assert "3 things to fix" in problems
    assert all(message in problems for message in THREE_MESSAGES.values())
    assert Round.objects.count() == (0 if round_ == "new" else 1)
    if round_ == "edit":
        assert played.entries.get(player__name="Ben").score == -92  # as it was


def test_who_won_is_checked_alongside_a_typo(scorer: Client, table: GameSession) -> None:
    hands = THREE_MISTAKES | {"Asha": ("shown", WIN_8S.replace("8H", "8X"))}
    response = post_round(scorer, table, hands, headers=HTMX)

    form = response.context_data["form"]
    assert form.non_field_errors() == [
        "no winner: one player must have declared (or won by default)"
    ]
    html = response.content.decode()
    for name, message in THREE_MESSAGES.items():
        assert_only_beside(html, table, name, message)

    two_winners = THREE_MISTAKES | {"Ben": ("declared", "")}
    response = post_round(scorer, table, two_winners)
    message = "more than one winner (Asha, Ben): only one player wins a round"
    assert response.context_data["form"].non_field_errors() == [message]
    assert_nothing_saved()


def test_a_missing_cut_joker_leaves_the_hands_checked(scorer: Client, table: GameSession) -> None:
    response = post_round(scorer, table, {"Ben": ("shown", "2D 3D")}, cut="", headers=HTMX)

    form = response.context_data["form"]
    assert "Enter the cut joker" in form.errors["cut_joker"][0]
    assert form.errors[f"groups_{seat_pk(table, 'Ben')}"] == ["must show all 21 cards, not 2"]
    assert_nothing_saved()


def test_an_outcome_the_preset_does_not_play(scorer: Client, user: User) -> None:
    session = make_session(user, preset="13-points")

    response = post_round(scorer, session, {"Ben": ("deal_show", "")}, cut="7C")

    assert response.status_code == 422
    assert (
        "Select a valid choice"
        in response.context_data["form"].errors[f"outcome_{seat_pk(session, 'Ben')}"][0]
    )


@pytest.mark.parametrize(
    "mangle",
    [
        lambda data: {},
        lambda data: {k: v for k, v in data.items() if not k.startswith("outcome_")},
        lambda data: data | {k: "won!" for k in data if k.startswith("outcome_")},
        lambda data: data | {k: ["shown", "declared"] for k in data if k.startswith("outcome_")},
        lambda data: data | {k: "5H " * 1000 for k in data if k.startswith("groups_")},
        lambda data: data | {"cut_joker": "8" * 100_000},
        lambda data: data | {"cut_joker": "8\x00S"},
        lambda data: data | {k: "5H\x00 6H" for k in data if k.startswith("groups_")},
        lambda data: data | {k: "AS " * 100 for k in data if k.startswith("groups_")},
    ],
)
def test_malformed_round_posts_are_form_errors(scorer: Client, table: GameSession, mangle) -> None:
    data = mangle(round_data(table, "8S", ROUND_1))

    for headers in ({}, HTMX):
        response = scorer.post(
            reverse("games:round_create", args=[table.pk]), data, headers=headers
        )
        assert response.status_code == 422
        preview = scorer.post(
            reverse("games:round_preview", args=[table.pk]), data, headers=headers
        )
        assert preview.status_code == 200
    assert_nothing_saved()


def test_mangled_hidden_fields_are_not_trusted_but_do_not_block_a_round(
    scorer: Client, table: GameSession
) -> None:
    # Hidden inputs are not form fields: a junk one is ignored (it used to make the
    # form invalid with an error no one could see), so a good round still saves once.
    data = round_data(table, "8S", ROUND_1) | {
        "version": "x",
        "number": "-1",
        "submission": "<script>",
        "key": "\x00",
        "outcome_999999": "declared",
    }
    response = scorer.post(reverse("games:round_create", args=[table.pk]), data)
    assert response.status_code == 302
    assert table.rounds.count() == 1


def test_an_edit_with_a_mangled_version_saves_nothing(scorer: Client, table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    edited = ROUND_1 | {"Chen": ("middle_drop", "")}  # a valid edit, but of which version?
    data = round_data(table, "8S", edited) | {"version": "x"}
    response = scorer.post(reverse("games:round_edit", args=[table.pk, played.pk]), data)
    assert response.status_code == 422
    played.refresh_from_db()
    assert played.version == 1
    assert played.entries.get(player__name="Chen").outcome == "first_drop"


def test_bytes_that_are_not_utf8_are_not_a_server_error(scorer: Client, table: GameSession) -> None:
    asha, ben = seat_pk(table, "Asha"), seat_pk(table, "Ben")
    body = f"cut_joker=%FF%FE&outcome_{asha}=%C3%28&groups_{ben}=%ED%A0%80"

    response = scorer.post(
        reverse("games:round_create", args=[table.pk]),
        data=body,
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 422
    assert_nothing_saved()


def test_a_json_body_is_not_a_server_error(scorer: Client, table: GameSession) -> None:
    response = scorer.post(
        reverse("games:round_create", args=[table.pk]),
        data='{"cut_joker": "8S"}',
        content_type="application/json",
    )

    assert response.status_code == 422
    assert_nothing_saved()


def test_errors_on_an_earlier_round_leave_it_as_it_was(scorer: Client, table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)
    url = reverse("games:round_edit", args=[table.pk, played.pk])
    data = round_data(table, "8S", ROUND_1 | {"Ben": ("shown", "2D 3D 4D")}, version=1)

    response = scorer.post(url, data)

    assert response.status_code == 422
    assert response.template_name == "games/round.html"
    assert_only_beside(response.content.decode(), table, "Ben", "must show all 21 cards, not 3")
    played.refresh_from_db()
    assert played.version == 1
    assert played.entries.get(player__name="Ben").score == -92


def preview_after_save(client: Client, session: GameSession, hands: dict) -> str:
    """The live preview's answer while Save's list of problems is still shown."""
    url = reverse("games:round_preview", args=[session.pk])
    data = round_data(session, "8S", ROUND_1 | hands) | {"problems": "listed", "key": "0badcafe"}
    return html_lib.unescape(client.post(url, data, headers=HTMX).content.decode())


def test_the_list_of_problems_goes_once_the_preview_checks_clean(
    scorer: Client, table: GameSession
) -> None:
    typo = SHOWN_8S.replace("10C", "1C")
    saved = html_lib.unescape(post_round(scorer, table, {"Ben": ("shown", typo)}).content.decode())
    assert "Not saved: 1 thing to fix" in saved
    assert '<input type="hidden" name="problems" value="listed">' in saved

    fixed = preview_after_save(scorer, table, {})

    # The list's place comes back empty, out of band: the list is gone.
    place = fixed.split('id="problems-0badcafe"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in place and "Not saved" not in place
    assert "<h3>Settlement</h3>" in fixed


def test_the_list_of_problems_keeps_only_those_left(scorer: Client, table: GameSession) -> None:
    # Two problems after Save; Ben's typo fixed, Chen's short hand is left (a problem
    # only Save finds: the preview then checks as Save does).
    short = "2H 3H 4H"
    hands = {"Ben": ("shown", SHOWN_8S.replace("10C", "1C")), "Chen": ("shown", short)}
    assert "Not saved: 2 things to fix" in html_lib.unescape(
        post_round(scorer, table, hands).content.decode()
    )

    left = preview_after_save(scorer, table, {"Chen": ("shown", short)})

    problems = left.split("data-problems")[1]
    assert "Not saved: 1 thing to fix" in problems
    assert "Chen" in problems and "is not a card" not in problems
    assert "role=" not in problems.split(">")[0]  # not read out again at each preview


def test_arrange_keeps_the_list_of_problems_with_those_left(
    scorer: Client, table: GameSession
) -> None:
    # Chen's short hand stays a problem; Ben's cards are arranged meanwhile.
    short = "2H 3H 4H"
    assert "Not saved: 1 thing to fix" in html_lib.unescape(
        post_round(scorer, table, {"Chen": ("shown", short)}).content.decode()
    )
    url = reverse("games:round_arrange", args=[table.pk])
    data = round_data(table, "8S", ROUND_1 | {"Chen": ("shown", short)})
    data |= {"problems": "listed", "key": "0badcafe", "arrange": seat_pk(table, "Ben")}

    arranged = html_lib.unescape(scorer.post(url, data, headers=HTMX).content.decode())

    problems = arranged.split('id="problems-0badcafe"')[1]
    assert "Not saved: 1 thing to fix" in problems
    assert "Chen</strong>: must show all 21 cards, not 3" in problems
    # In place, quietly: the finger stays on Arrange, nothing is read out again.
    opening = problems.split("data-problems")[1].split(">")[0]
    assert "data-read-first" not in opening and "role=" not in opening


def test_the_preview_clears_the_cut_jokers_error_and_marks_once_fixed(
    scorer: Client, table: GameSession
) -> None:
    saved = html_lib.unescape(
        post_round(scorer, table, {"Ben": ("shown", "2D 3D")}, cut="8X").content.decode()
    )
    assert 'data-cut aria-invalid="true"' in saved
    assert "Cut joker: '8X' is not a card" in saved.split("data-cut-errors")[1].split("</div>")[0]
    assert "data-groups-wrong" in preview_of(saved, table, "Ben").split(">")[0]

    # The cut joker fixed: its place under the field comes back empty, out of band.
    fixed = preview_after_save(scorer, table, {"Ben": ("shown", "2D 3D")})
    cut = fixed.split('id="cut-errors-0badcafe"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in cut and "is not a card" not in cut
    assert "data-groups-wrong" in fixed.split('data-hand-errors="Ben"')[1].split(">")[0]
    # Ben's hand fixed too: his preview no longer says his groups are wrong.
    fine = preview_after_save(scorer, table, {})
    assert "data-groups-wrong" not in fine.split('data-hand-errors="Ben"')[1].split(">")[0]
