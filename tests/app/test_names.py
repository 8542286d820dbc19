"""The one rule for names people type (games/names.py): printable text, trimmed to
single spaces, on every form, in the import, and in the XML of the XLSX and SVG
exports."""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.forms.leagues import LeagueForm
from games.forms.sessions import SessionForm
from games.models import GameSession, Player
from tests.support.builders import make_session, play, session_form_data
from tests.support.hands import ROUND_1
from tests.support.league_files import counts, post_file, set_at, tampered

pytestmark = pytest.mark.django_db


UNPRINTABLE = ["Form\x01name", "Club\x00", "Club \ud800", "\u202eevil", "two\u2028lines", "\x7f"]


@pytest.mark.parametrize("name", UNPRINTABLE)
def test_every_name_field_refuses_what_is_not_printable_text(name: str) -> None:
    league = LeagueForm(data={"name": name, "preset": "21-points", "rules_preset": "21-points"})
    assert not league.is_valid() and "printable text" in str(league.errors["name"])
    session = SessionForm(
        data=session_form_data(name=name, seat_1=name, seat_2="Ben", seat_3="Chen")
    )
    assert not session.is_valid()
    for field in ("name", "seat_1"):
        assert "printable text" in str(session.errors[field]), field


@pytest.mark.parametrize("name", ["Form\x01name", "Club\x00", "\u202eevil"])
def test_a_name_with_a_control_character_is_a_form_error_on_every_page(
    scorer: Client, user: User, name: str
) -> None:
    before = counts()
    response = scorer.post(reverse("games:league_new"), {"name": name, "preset": "21-points"})
    assert response.status_code == 422 and "printable text" in response.content.decode()
    response = scorer.post(
        reverse("games:session_new"), session_form_data(seat_1=name, seat_2="Ben", name=name)
    )
    assert response.status_code == 422 and "printable text" in response.content.decode()
    assert counts() == before


def test_names_are_trimmed_to_single_spaces(scorer: Client, user: User) -> None:
    response = scorer.post(
        reverse("games:session_new"),
        session_form_data(name="  Friday \t night ", seat_1=" Asha  K ", seat_2="Ben"),
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.name == "Friday night"
    assert [seat.player.name for seat in session.seats.order_by("position")] == ["Asha K", "Ben"]


@pytest.mark.parametrize(
    ("path", "field", "place"),
    [
        ("league.name", "league.name", "league.name"),
        ("players.1.name", "players[1].name", "players[1].name"),
        ("sessions.4.name", "sessions[4].name", "sessions[4].name"),
        ("sessions.4.rounds.0.entered_by", "entered by", "sessions[4].rounds[0].entered_by"),
    ],
)
@pytest.mark.parametrize("name", ["Club \ud800", "Club\x00", "Form\x01name"])
def test_an_import_holds_names_to_the_same_rule(
    moved: dict, stranger: Client, path: str, field: str, place: str, name: str
) -> None:
    before = counts()
    response = post_file(stranger, tampered(moved, set_at(path, name)))
    assert response.status_code == 422
    html = response.content.decode()
    if "\ud800" in name:
        # Half a character is no text at all, in a name or anywhere in the file.
        assert f"{place}: this is not text: U+D800 is half of a character" in html
    else:
        assert field in html and "printable text" in html
    assert counts() == before


def test_exports_of_names_stored_before_the_rule_stay_well_formed_xml(
    scorer: Client, user: User
) -> None:
    session = make_session(user, players=("Asha", "Ben", "Chen"), name="Friday")
    play(session, "8S", ROUND_1, user)
    # Written as an old version of the app could: no form, no validation.
    Player.objects.filter(name="Ben").update(name="Form\x01name")
    GameSession.objects.filter(pk=session.pk).update(name="Fri\x0bday")

    xlsx = scorer.get(reverse("games:session_rounds_xlsx", args=[session.pk])).content
    with zipfile.ZipFile(io.BytesIO(xlsx)) as book:
        for part in book.namelist():
            if part.endswith(".xml") or part.endswith(".rels"):
                ElementTree.fromstring(book.read(part))  # raises if malformed
    svg = scorer.get(reverse("games:session_totals_chart", args=[session.pk]))
    assert svg.status_code == 200
    drawn = ElementTree.fromstring(svg.content)
    assert "Formname" in "".join(drawn.itertext())
