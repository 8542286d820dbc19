"""Table mode in tests: the table link opened, a phone that has picked its
seat (a test client holding the seat cookie), and the body of a seat's hand form."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games.models import GameSession
from games.services.table import open_table
from tests.support.builders import seat_pk


def table_link(session: GameSession) -> str:
    """Open table mode on ``session`` (if it is not) and give its token."""
    return open_table(session)


def seat_phone(session: GameSession, name: str, client: Client | None = None) -> Client:
    """A phone that opened the table link and tapped ``name``: it now holds the seat's
    signed cookie, as a browser would."""
    phone = client or Client()
    token = table_link(session)
    response = phone.post(
        reverse("games:table_seats", args=[token]), {"seat": seat_pk(session, name)}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return phone


def hand_data(
    session: GameSession,
    name: str,
    outcome: str,
    groups: str,
    *,
    number: int = 1,
    cut: str = "8S",
    edit: int = 1,
) -> dict:
    """The seat form as a phone posts it: the seat it is of, its outcome and cards, the
    round it showed, its edit count and (while the table has none) the cut joker."""
    pk = seat_pk(session, name)
    return {
        "seat": str(pk),
        "cut_joker": cut,
        f"outcome_{pk}": outcome,
        f"groups_{pk}": groups,
        "number": str(number),
        "edit": str(edit),
    }


def url(name: str, session: GameSession) -> str:
    """A table link page of ``session`` (games:table_seats, table_hand, ...)."""
    return reverse(f"games:{name}", args=[session.table_token])


def hand_in(phone: Client, session: GameSession, name: str, hand: tuple[str, str], **kwargs):
    """The phone hands its seat's hand in."""
    return phone.post(url("table_hand", session), hand_data(session, name, *hand, **kwargs))
