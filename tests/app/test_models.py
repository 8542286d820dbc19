"""Constraints of the data model, enforced by the database on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import (
    CARD_CODES,
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    PlayerClaim,
    Preset,
    Round,
    Seat,
)
from games.models.rounds import SAVED_BY_ITSELF
from tests.support.builders import make_session, play
from tests.support.hands import LOOSE_148, THREE_PURE

pytestmark = pytest.mark.django_db

FIRST_DROP = ("first_drop", "")


@contextmanager
def integrity_error() -> Iterator[None]:
    """Expect the database to refuse; atomic() keeps PostgreSQL's transaction usable."""
    with pytest.raises(IntegrityError), transaction.atomic():
        yield


@pytest.fixture
def table() -> GameSession:
    """A session with Asha, Ben and Chen seated in that order."""
    session = GameSession.objects.create(name="Friday", preset=Preset.P21_POINTS)
    for position, name in enumerate(["Asha", "Ben", "Chen"], start=1):
        Seat.objects.create(
            session=session, player=Player.objects.create(name=name), position=position
        )
    return session


def seat(session: GameSession, name: str) -> Seat:
    return session.seats.get(player__name=name)


def test_two_clubs_may_each_have_a_player_of_one_name() -> None:
    # Names resolve among the players a user can see (services.sessions.players_for_seats),
    # so each club's "Asha" is its own player.
    Player.objects.create(name="Asha")

    Player.objects.create(name="asha")
    Player(name="ASHA").full_clean()
    assert Player.objects.count() == 2


def test_a_league_has_one_claim_per_player_and_one_player_per_account() -> None:
    user, other = User.objects.create_user("asha"), User.objects.create_user("ben")
    league = League.objects.create(name="Club", slug="club")
    asha, again = Player.objects.create(name="Asha"), Player.objects.create(name="Asha 2")
    PlayerClaim.objects.create(league=league, player=asha, user=user)

    with integrity_error():
        PlayerClaim.objects.create(league=league, player=again, user=user)
    with integrity_error():
        PlayerClaim.objects.create(league=league, player=asha, user=other)
    # Another club's members vouch for their own.
    elsewhere = League.objects.create(name="Other", slug="other")
    PlayerClaim.objects.create(league=elsewhere, player=asha, user=other)


def test_share_tokens_are_long_url_safe_and_distinct() -> None:
    tokens = {GameSession.objects.create().share_token for _ in range(20)}

    assert len(tokens) == 20
    for token in tokens:
        assert len(token) >= 22  # 128 random bits
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)


def test_share_token_is_unique_in_the_database() -> None:
    first = GameSession.objects.create()

    with integrity_error():
        GameSession.objects.create(share_token=first.share_token)


def test_session_ceiling_must_be_positive_when_set() -> None:
    GameSession.objects.create(ceiling=None)
    GameSession.objects.create(ceiling=101)

    with integrity_error():
        GameSession.objects.create(ceiling=0)


def test_json_defaults_are_not_shared_between_rows() -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    league.overrides["first_drop"] = 25
    other = League.objects.create(name="Fridays", slug="fridays")

    assert other.overrides == {}
    assert league.preset == Preset.P21_POINTS


def test_league_slug_is_unique() -> None:
    League.objects.create(name="Tuesdays", slug="tuesdays")

    with integrity_error():
        League.objects.create(name="Tuesday club", slug="tuesdays")


def test_a_user_has_one_membership_per_league() -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    user = User.objects.create_user("asha")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)

    assert list(league.members.all()) == [user]
    with integrity_error():
        Membership.objects.create(league=league, user=user, role=Membership.Role.VIEWER)


def test_seat_positions_are_unique_per_session(table: GameSession) -> None:
    with integrity_error():
        Seat.objects.create(session=table, player=Player.objects.create(name="Dev"), position=1)

    other = GameSession.objects.create()
    Seat.objects.create(session=other, player=Player.objects.get(name="Asha"), position=1)


def test_a_player_sits_once_per_session(table: GameSession) -> None:
    with integrity_error():
        Seat.objects.create(session=table, player=Player.objects.get(name="Asha"), position=9)


def test_round_numbers_are_unique_per_session(table: GameSession) -> None:
    Round.objects.create(session=table, number=1, cut_joker="8S")

    with integrity_error():
        Round.objects.create(session=table, number=1, cut_joker="PJ")

    other = GameSession.objects.create()
    assert Round.objects.create(session=other, number=1, cut_joker="8S").version == 1


def test_rounds_are_numbered_from_one(table: GameSession) -> None:
    with integrity_error():
        Round.objects.create(session=table, number=0, cut_joker="8S")


@pytest.mark.parametrize(
    ("code", "shown"),
    [("8S", "8♠"), ("10H", "10♥"), ("AC", "A♣"), ("KD", "K♦"), ("PJ", "PJ")],
)
def test_a_round_cut_at_any_card_code_saves_and_the_table_shows_that_card(
    scorer: Client, user: User, code: str, shown: str
) -> None:
    session = make_session(user)
    hands = {"Asha": ("declared", THREE_PURE), "Ben": ("shown", LOOSE_148), "Chen": FIRST_DROP}

    played = play(session, code, hands)

    played.full_clean()  # what was stored passes the model's own check
    assert Round.objects.get(pk=played.pk).cut_joker == code
    page = scorer.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    cut = re.search(r'<span class="cut" title="cut joker">(.*?</span>)', page, re.S)
    assert cut, "the round's row shows no cut joker"
    assert re.sub(r"<[^>]+>", "", cut.group(1)) == shown
    assert f'title="{code}"' in cut.group(1) or code == "PJ"


@pytest.mark.parametrize("code", ["8s", "TS", "1S", "8♠", "JK", ""])
def test_cut_joker_refuses_anything_else(table: GameSession, code: str) -> None:
    with pytest.raises(ValidationError):
        Round(session=table, number=1, cut_joker=code).full_clean()
    with integrity_error():
        Round.objects.create(session=table, number=1, cut_joker=code)


def test_card_codes_are_the_53_cards_of_a_deck() -> None:
    assert len(CARD_CODES) == 53
    assert {"AS", "10D", "KC", "PJ"} <= CARD_CODES


def test_dealer_must_sit_at_the_rounds_session(table: GameSession) -> None:
    Round(session=table, number=1, cut_joker="8S", dealer=seat(table, "Ben")).full_clean()

    elsewhere = GameSession.objects.create()
    stranger = Seat.objects.create(
        session=elsewhere, player=Player.objects.create(name="Dev"), position=1
    )
    with pytest.raises(ValidationError, match="dealer"):
        Round(session=table, number=1, cut_joker="8S", dealer=stranger).full_clean()


def test_round_saves_bump_updated_at_not_created_at(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    created, updated = played.created_at, played.updated_at

    played.cut_joker = "9S"
    played.save()

    assert played.created_at == created
    assert played.updated_at > updated


def test_one_hand_entry_per_player_per_round(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    asha = Player.objects.get(name="Asha")
    HandEntry.objects.create(round=played, player=asha, outcome="shown")

    with integrity_error():
        HandEntry.objects.create(round=played, player=asha, outcome="first_drop")


@pytest.mark.parametrize("second", ["declared", "default_win"])
def test_a_round_has_only_one_winner(table: GameSession, second: str) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    HandEntry.objects.create(
        round=played, player=Player.objects.get(name="Asha"), outcome="declared"
    )

    with integrity_error():
        HandEntry.objects.create(
            round=played, player=Player.objects.get(name="Ben"), outcome=second
        )


def test_losers_may_share_an_outcome(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    for name, outcome in [("Asha", "declared"), ("Ben", "shown"), ("Chen", "shown")]:
        HandEntry.objects.create(
            round=played, player=Player.objects.get(name=name), outcome=outcome
        )

    assert played.entries.filter(outcome="shown").count() == 2


def test_hand_entry_player_must_be_seated(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    stranger = Player.objects.create(name="Dev")

    with pytest.raises(ValidationError, match="no seat"):
        HandEntry(round=played, player=stranger, outcome="shown").full_clean()


def test_groups_are_stored_as_lists_of_card_codes(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    groups = [["5H", "6H", "7H"], ["10S", "10S", "10S"], ["PJ", "QD"]]
    entry = HandEntry(round=played, player=Player.objects.get(name="Asha"), outcome="shown")
    entry.groups = groups
    entry.full_clean()
    entry.save()

    entry.refresh_from_db()
    assert entry.groups == groups
    assert entry.breakdown == {}


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ("5H 6H 7H", "list of lists"),
        ([["5H", "6H"], "7H"], "list of lists"),
        ([["5H", "6h"]], "'6h'"),
        ([["5H"], ["ZZ"]], "Group 2"),
    ],
)
def test_groups_refuse_anything_but_card_codes(
    table: GameSession, groups: object, message: str
) -> None:
    played = Round.objects.create(session=table, number=1, cut_joker="8S")
    entry = HandEntry(
        round=played, player=Player.objects.get(name="Asha"), outcome="shown", groups=groups
    )

    with pytest.raises(ValidationError, match=message):
        entry.full_clean()


def test_deleting_a_session_deletes_its_rounds_and_entries(table: GameSession) -> None:
    played = Round.objects.create(
        session=table, number=1, cut_joker="8S", dealer=seat(table, "Ben")
    )
    HandEntry.objects.create(
        round=played, player=Player.objects.get(name="Asha"), outcome="declared"
    )

    table.delete()

    assert not Round.objects.exists()
    assert not HandEntry.objects.exists()
    assert Player.objects.count() == 3  # players outlive their sessions


def test_a_player_with_history_cannot_be_deleted(table: GameSession) -> None:
    with pytest.raises(ProtectedError):
        Player.objects.get(name="Asha").delete()


def test_a_league_with_sessions_cannot_be_deleted() -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    GameSession.objects.create(league=league)

    with pytest.raises(ProtectedError):
        league.delete()


def test_string_forms_name_what_a_person_sees(table: GameSession) -> None:
    played = Round.objects.create(session=table, number=3, cut_joker="8S")
    entry = HandEntry.objects.create(
        round=played, player=Player.objects.get(name="Chen"), outcome="middle_drop"
    )

    assert str(entry) == "Chen in Friday, round 3: Middle drop"
    assert str(seat(table, "Ben")) == "Ben (seat 2)"
    unnamed = GameSession.objects.create(preset="13-pool-101", played_on=date(2026, 11, 26))
    # The game and the day, never a database id: the same after a league is imported.
    assert str(unnamed) == "13-card pool 101, 26 Nov 2026"


def test_first_dealer_must_sit_at_the_sessions_table(table: GameSession) -> None:
    table.first_dealer = seat(table, "Chen")
    table.full_clean()
    table.save()
    assert GameSession.objects.get(pk=table.pk).first_dealer.player.name == "Chen"

    elsewhere = GameSession.objects.create()
    stranger = Seat.objects.create(
        session=elsewhere, player=Player.objects.create(name="Dev"), position=1
    )
    table.first_dealer = stranger
    with pytest.raises(ValidationError, match="first dealer"):
        table.full_clean()


def test_eliminations_are_not_stored_on_seats() -> None:
    # Derived by the rules service's session_state; a column could go stale.
    assert "eliminated_in_round" not in {f.name for f in Seat._meta.get_fields()}


def test_removing_the_first_dealers_seat_leaves_the_session(table: GameSession) -> None:
    table.first_dealer = seat(table, "Ben")
    table.save()

    seat(table, "Ben").delete()

    table.refresh_from_db()
    assert table.first_dealer is None


def test_a_round_that_saved_itself_says_so_in_the_pages_language() -> None:
    played = Round(entered_by_name=SAVED_BY_ITSELF)

    assert played.author == "table mode (saved by itself)"
    with translation.override("hi"):
        said = translation.gettext("table mode (saved by itself)")
        assert played.author == said != SAVED_BY_ITSELF
