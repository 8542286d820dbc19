"""What the admin changes, the standings and ratings follow: an admin save
or delete goes through the one function every write path calls. A round's hands
edited there are checked and scored by the rules service, as on the round page."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import (
    GameSession,
    HandEntry,
    League,
    Membership,
    Rating,
    RatingChange,
    Round,
    RoundChange,
    Seat,
    StandingMonth,
)
from games.queries.standings import standings_of
from games.rules import get_ruleset
from games.services import ratings
from games.services.sessions import rejoin
from tests.support.admin_pages import admin_form, cards, round_form_data
from tests.support.builders import edit, expected_totals, make_session, play, pool_with_chen_out
from tests.support.hands import WIN_13

pytestmark = pytest.mark.django_db

WIN = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
LOOSE = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"  # 80 points under cut 7C
LOW = "AS 2S 3S | 4C 5C 6C | 8D 9D 10D | 2C 4H 9H 3D"  # 18 points: 2C 4H 9H 3D


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


@pytest.fixture
def finished(user: User):
    """A league pool 101 that Asha won: Ben showed 80 twice (160, out)."""
    league = League.objects.create(name="Club", slug="club", preset="13-pool-101")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    session = make_session(user, preset="13-pool-101", players=("Asha", "Ben"), league=league)
    for _ in range(2):
        play(session, "7C", {"Asha": ("declared", WIN), "Ben": ("shown", LOOSE)})
    return session


def standing(league: League) -> dict[str, tuple[int, int]]:
    """Each player's (sessions won, points) as the standings page shows them."""
    return {row.player.name: (row.sessions_won, row.points) for row in standings_of(league)}


def change_form_data(entry: HandEntry, **changes: object) -> dict:
    data = {
        "round": entry.round_id,
        "player": entry.player_id,
        "outcome": entry.outcome,
        "groups": json.dumps(entry.groups),
        "declaration": entry.declaration,
        "hand_points": entry.hand_points if entry.hand_points is not None else "",
        "value_points": entry.value_points,
        "claims": entry.claims,
        "score": entry.score,
        "breakdown": json.dumps(entry.breakdown),
        "opened_version": entry.round.version,
    }
    return data | changes


def test_an_admin_edit_of_a_hand_moves_the_standings_and_the_ratings(
    admin_client: Client, finished
) -> None:
    league = finished.league
    assert standing(league) == {"Asha": (1, 0), "Ben": (0, 160)}
    assert RatingChange.objects.count() == 2 and Rating.objects.count() == 2

    # Ben's second hand was really a first drop: corrected by hand. What it costs is
    # the rules' (a score typed here is not taken: it is the rules service's figure).
    entry = HandEntry.objects.get(round__number=2, player__name="Ben")
    url = reverse("admin:games_handentry_change", args=[entry.pk])
    data = change_form_data(entry, outcome="first_drop", groups="[]", score=0)
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]

    # Ben is on 80 and a first drop: nobody is out, the pool is on, nobody won it.
    first_drop = get_ruleset("13-pool-101").first_drop
    entry.refresh_from_db()  # the same hand, changed in place
    assert (entry.outcome, entry.score) == ("first_drop", first_drop)
    assert standing(league) == {"Asha": (0, 0), "Ben": (0, 80 + first_drop)}
    assert not Seat.objects.filter(session=finished, won=True).exists()
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    # The round moved on a version, and its history says who changed what.
    change = RoundChange.objects.get(action="edited")
    assert (change.number, change.changed_by.username, change.round.version) == (2, "boss", 2)
    assert [hand["outcome"] for hand in change.after["entries"]] == ["declared", "first_drop"]


def test_a_round_edited_in_the_admin_is_scored_by_the_rules(admin_client: Client, finished):
    second = finished.rounds.get(number=2)
    url = reverse("admin:games_round_change", args=[second.pk])

    response = admin_client.post(url, round_form_data(second, Ben={"groups": cards(LOW)}))

    assert response.status_code == 302, response.content.decode()[:3000]
    # What the rules service makes of the two rounds, worked out without the app.
    state = expected_totals(
        "13-pool-101",
        ("Asha", "Ben"),
        [
            ("7C", {"Asha": ("declared", WIN), "Ben": ("shown", LOOSE)}),
            ("7C", {"Asha": ("declared", WIN), "Ben": ("shown", LOW)}),
        ],
    )
    ben = HandEntry.objects.get(round=second, player__name="Ben")
    assert state.totals["Ben"] == 80 + ben.score < 101  # no longer out
    assert ben.breakdown["lines"]  # the rules service's words, as the round page shows
    assert standing(finished.league) == {"Asha": (0, 0), "Ben": (0, state.totals["Ben"])}
    finished.refresh_from_db()
    assert finished.status == GameSession.Status.ACTIVE


def test_a_round_the_rules_refuse_is_not_saved_from_the_admin(admin_client: Client, finished):
    second = finished.rounds.get(number=2)
    scores = list(second.entries.order_by("pk").values_list("outcome", "score"))
    url = reverse("admin:games_round_change", args=[second.pk])

    # Asha's winning hand entered as a loser's: the round has no winner.
    response = admin_client.post(url, round_form_data(second, Asha={"outcome": "shown"}))

    assert response.status_code == 200  # the page again, saying why
    assert "winner" in response.content.decode().lower()
    assert list(second.entries.order_by("pk").values_list("outcome", "score")) == scores
    second.refresh_from_db()
    assert second.version == 1 and not RoundChange.objects.filter(action="edited").exists()
    assert standing(finished.league) == {"Asha": (1, 0), "Ben": (0, 160)}


def test_a_hand_is_deleted_with_its_round_not_on_its_own(admin_client: Client, finished):
    entry = HandEntry.objects.get(round__number=2, player__name="Ben")
    url = reverse("admin:games_handentry_delete", args=[entry.pk])

    response = admin_client.post(url, {"post": "yes"}, follow=True)

    assert "delete the round" in response.content.decode()
    assert HandEntry.objects.filter(pk=entry.pk).exists()
    assert standing(finished.league) == {"Asha": (1, 0), "Ben": (0, 160)}


@pytest.mark.parametrize("model", [Rating, RatingChange, StandingMonth])
def test_a_leagues_figures_are_deleted_with_its_sessions_not_on_their_own(
    admin_client: Client, finished, model
) -> None:
    figure = model.objects.filter(league=finished.league).first()
    name = model._meta.model_name
    before = ratings_of(finished.league), standing(finished.league)

    page = admin_client.post(
        reverse(f"admin:games_{name}_delete", args=[figure.pk]), {"post": "yes"}, follow=True
    )
    listed = reverse(f"admin:games_{name}_changelist")
    offered = admin_client.get(listed).content.decode()
    admin_client.post(
        listed, {"action": "delete_selected", "_selected_action": [figure.pk], "post": "yes"}
    )

    assert "changes as they change" in page.content.decode()
    assert 'value="delete_selected"' not in offered
    shown = admin_client.get(reverse(f"admin:games_{name}_change", args=[figure.pk]))
    assert 'class="deletelink"' not in shown.content.decode()  # a link only to say no
    assert (ratings_of(finished.league), standing(finished.league)) == before


def test_a_round_deleted_in_the_admin_is_deleted_as_the_round_page_deletes_it(
    admin_client: Client, finished
) -> None:
    first, second = finished.rounds.order_by("number")
    url = reverse("admin:games_round_delete", args=[first.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    second.refresh_from_db()
    assert second.number == 1  # later rounds move up
    assert finished.changes.filter(action="deleted", number=1).exists()  # in the history
    assert standing(finished.league) == {"Asha": (0, 0), "Ben": (0, 80)}
    assert not RatingChange.objects.exists()
    assert Round.objects.filter(session=finished).count() == 1


def test_a_session_deleted_in_the_admin_leaves_the_standings(
    admin_client: Client, finished
) -> None:
    league = finished.league
    url = reverse("admin:games_gamesession_delete", args=[finished.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert standing(league) == {}
    assert not Rating.objects.filter(league=league).exists()


def ratings_of(league: League) -> list[tuple]:
    """The league's rating history and current ratings, as stored."""
    history = RatingChange.objects.filter(league=league).order_by("sequence", "player_id")
    current = Rating.objects.filter(league=league).order_by("player_id")
    return [
        *history.values_list("session_id", "player__name", "sequence", "mu", "sigma"),
        *current.values_list("player__name", "mu", "sigma", "sessions"),
    ]


def as_replayed_from_the_start(league: League) -> list[tuple]:
    ratings.replay(league.pk)
    return ratings_of(league)


def save_session_page(admin_client: Client, session: GameSession, **changes: str) -> int:
    url = reverse("admin:games_gamesession_change", args=[session.pk])
    sent = admin_form(admin_client.get(url).content.decode())
    return admin_client.post(
        url, sent | {name: [value] for name, value in changes.items()}
    ).status_code


def test_a_session_moved_to_another_league_in_the_admin_takes_its_results_along(
    admin_client: Client, finished
) -> None:
    old = finished.league
    new = League.objects.create(name="Other club", slug="other", preset="13-pool-101")

    assert save_session_page(admin_client, finished, league=str(new.pk)) == 302

    assert standing(old) == {} and ratings_of(old) == []
    assert standing(new) == {"Asha": (1, 0), "Ben": (0, 160)}
    assert Rating.objects.get(league=new, player__name="Asha").sessions == 1
    assert ratings_of(new) == as_replayed_from_the_start(new)

    # And back, to the league made first: the one it leaves is replayed first.
    assert save_session_page(admin_client, finished, league=str(old.pk)) == 302

    assert ratings_of(new) == [] and standing(old) == {"Asha": (1, 0), "Ben": (0, 160)}
    assert ratings_of(old) == as_replayed_from_the_start(old)


def test_a_session_re_dated_after_a_later_one_in_the_admin_is_rated_after_it(
    admin_client: Client, finished, user: User
) -> None:
    league = finished.league
    later = make_session(
        user, preset="13-pool-101", players=("Ben", "Chen"), league=league,
        played_on=finished.played_on + datetime.timedelta(days=1),
    )  # fmt: skip
    for _ in range(2):
        play(later, "7C", {"Ben": ("declared", WIN), "Chen": ("shown", LOOSE)})

    moved_to = finished.played_on + datetime.timedelta(days=2)
    assert save_session_page(admin_client, finished, played_on=moved_to.isoformat()) == 302

    order = RatingChange.objects.filter(league=league).order_by("sequence")
    assert list(order.values_list("session_id", flat=True).distinct()) == [later.pk, finished.pk]
    assert ratings_of(league) == as_replayed_from_the_start(league)


def test_a_round_saved_unchanged_in_the_admin_is_not_a_change(admin_client: Client, finished):
    second = finished.rounds.get(number=2)
    url = reverse("admin:games_round_change", args=[second.pk])

    response = admin_client.post(url, round_form_data(second))

    assert response.status_code == 302
    second.refresh_from_db()
    assert second.version == 1 and not RoundChange.objects.filter(action="edited").exists()


@pytest.mark.parametrize("groups", ['[["XX", "2H"]]', '"AH 2H"', "5", "[[1, 2]]", "null"])
def test_cards_that_are_no_cards_are_a_form_error_on_a_hands_page(
    admin_client: Client, finished, groups: str
) -> None:
    entry = HandEntry.objects.get(round__number=2, player__name="Ben")
    url = reverse("admin:games_handentry_change", args=[entry.pk])

    response = admin_client.post(url, change_form_data(entry, groups=groups))

    assert response.status_code == 200  # the page again, the field marked
    assert 'class="errorlist' in response.content.decode()
    assert HandEntry.objects.get(pk=entry.pk).groups == entry.groups


def test_a_round_played_while_a_player_was_out_is_edited_after_they_rejoined(
    admin_client: Client, user: User
) -> None:
    # Chen is out after round 2, round 3 is played without him, then he buys back in.
    pool = pool_with_chen_out(user)
    third = play(pool, "7C", {"Asha": ("first_drop", ""), "Ben": ("declared", WIN_13)})
    rejoin(pool, pool.seats.get(player__name="Chen"), user)

    # The round page edits round 3 with its two hands, as it was played...
    third = edit(third, "7C", {"Asha": ("middle_drop", ""), "Ben": ("declared", WIN_13)})
    # ... and so does the admin (saved unchanged: nothing to record).
    url = reverse("admin:games_round_change", args=[third.pk])
    response = admin_client.post(url, round_form_data(third))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert third.entries.count() == 2


def test_a_round_missing_a_players_hand_says_whose(admin_client: Client, finished) -> None:
    second = finished.rounds.get(number=2)
    data = round_form_data(second)
    data["entries-1-DELETE"] = "on"  # Ben's hand

    response = admin_client.post(reverse("admin:games_round_change", args=[second.pk]), data)

    assert response.status_code == 200
    assert "Ben has no hand" in response.content.decode()
    assert second.entries.count() == 2


def test_two_hands_players_swapped_are_refused_not_a_server_error(
    admin_client: Client, finished
) -> None:
    second = finished.rounds.get(number=2)
    asha, ben = (seat.player_id for seat in finished.seats.order_by("position"))
    data = round_form_data(second)
    data["entries-0-player"], data["entries-1-player"] = ben, asha

    response = admin_client.post(reverse("admin:games_round_change", args=[second.pk]), data)

    assert response.status_code == 200
    assert "can change only to a player with no hand" in response.content.decode()
    assert standing(finished.league) == {"Asha": (1, 0), "Ben": (0, 160)}


def test_a_round_saved_elsewhere_since_its_admin_page_opened_is_not_saved_over(
    admin_client: Client, finished
) -> None:
    second = finished.rounds.get(number=2)
    round_url = reverse("admin:games_round_change", args=[second.pk])
    opened = round_form_data(second, Ben={"groups": cards(LOW)})
    # Meanwhile a phone saves the round again (its version moves on).
    second = edit(second, "7C", {"Asha": ("declared", WIN), "Ben": ("middle_drop", "")})

    response = admin_client.post(round_url, opened)

    assert response.status_code == 200
    assert "saved by someone else since this page was opened" in response.content.decode()
    ben = HandEntry.objects.get(round=second, player__name="Ben")
    assert ben.outcome == "middle_drop"  # the phone's, kept
    assert not RoundChange.objects.filter(changed_by__username="boss").exists()


def test_a_hand_whose_round_changed_since_its_page_opened_is_not_saved_over(
    admin_client: Client, finished
) -> None:
    second = finished.rounds.get(number=2)
    ben = HandEntry.objects.get(round=second, player__name="Ben")
    opened = change_form_data(ben, outcome="first_drop", groups="[]")
    # Meanwhile another admin changes the round's cards on the round's page.
    round_url = reverse("admin:games_round_change", args=[second.pk])
    assert (
        admin_client.post(
            round_url, round_form_data(second, Ben={"groups": cards(LOW)})
        ).status_code
        == 302
    )

    response = admin_client.post(reverse("admin:games_handentry_change", args=[ben.pk]), opened)

    assert response.status_code == 200
    assert "saved by someone else since this page was opened" in response.content.decode()
    ben.refresh_from_db()
    assert (ben.outcome, ben.groups) == ("shown", [group.split() for group in LOW.split("|")])
