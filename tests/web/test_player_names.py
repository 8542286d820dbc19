"""Players' names as people type them at the table: any script, any case, and
look-alike letters, without a server error and without seating one person twice."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameSession, Player

from .conftest import session_form_data

pytestmark = pytest.mark.django_db


def test_names_in_any_script_are_seated_and_shown_as_typed(scorer: Client) -> None:
    names = ["Zoë", "José Ñúñez", "زهرة", "Ли́за", "Dev 🃏"]
    data = session_form_data(**{f"seat_{n}": name for n, name in enumerate(names, start=1)})

    response = scorer.post(reverse("games:session_new"), data)

    assert response.status_code == 302
    session = GameSession.objects.get()
    assert [s.player.name for s in session.seats.order_by("position")] == names
    html = scorer.get(response.url).content.decode()
    for name in names:
        assert f'<li class="standing" data-player="{name}">' in html


def test_markup_in_a_name_is_shown_as_text(scorer: Client) -> None:
    data = session_form_data(seat_1="<b>Asha</b>", seat_2="Ben")

    response = scorer.post(reverse("games:session_new"), data)

    html = scorer.get(response.url).content.decode()
    assert "&lt;b&gt;Asha&lt;/b&gt;" in html
    assert "<b>Asha</b>" not in html


def test_a_look_alike_of_a_known_name_seats_the_known_player(scorer: Client) -> None:
    kim = Player.objects.create(name="kim")
    kelvin_kim = "\u212aim"  # KELVIN SIGN, as some keyboards' autocorrect produces

    response = scorer.post(
        reverse("games:session_new"), session_form_data(seat_1=kelvin_kim, seat_2="Ben")
    )

    assert response.status_code == 302
    seat = GameSession.objects.get().seats.get(position=1)
    assert seat.player == kim and Player.objects.count() == 2  # kim and Ben
