"""Several phones saving at the same moment, on PostgreSQL: threads, each
with its own database connection, released together by a barrier, hit the real
database through the services the views call. Nothing is lost, doubled or
overwritten silently, and round numbers stay unique and gapless. And phones reading
the table while others save see one consistent state of it."""

from __future__ import annotations

import re
import secrets
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.forms import admin as admin_forms
from games.models import GameSession, HandEntry, Round, RoundChange
from games.services.errors import RoundConflict
from games.services.round_checks import check_round
from games.services.round_entries import new_round_entry, round_entry_for_edit
from games.services.round_saves import delete_round, save_round
from games.services.scoreboard import load_scoreboard
from games.services.sessions import rejoin
from tests.support.admin_pages import round_form_data
from tests.support.builders import by_seat, make_session, play
from tests.support.hands import POOL_ROUNDS, ROUND_1, SHOWN_8S, THREE_PURE, WIN_13
from tests.support.reads import after_first_read_of_rounds, copies_of, figures
from tests.support.threads import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks between real connections: PostgreSQL (make test-pg, CI)",
    ),
]

PHONES = 6


def typed_round(session: GameSession, hands=ROUND_1, cut: str = "8S"):
    """A round as one phone checked it before saving: its entry and check."""
    entry = new_round_entry(session)
    check = check_round(entry, cut, by_seat(session, hands), final=True)
    assert check.valid
    return entry, check


def test_phones_saving_the_same_round_make_one_round_and_tell_the_others(user: User) -> None:
    session = make_session(user)
    typed = [typed_round(session) for _ in range(PHONES)]

    results = at_once(
        [
            lambda entry=entry, check=check: save_round(
                entry, check, user, expected_number=1, submission=secrets.token_hex(16)
            )
            for entry, check in typed
        ]
    )

    saved = [r for r in results if isinstance(r, Round)]
    clashes = [r for r in results if isinstance(r, RoundConflict)]
    assert len(saved) == 1 and len(clashes) == PHONES - 1, results
    assert all(clash.theirs.pk == saved[0].pk for clash in clashes)  # shown their round
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3
    assert RoundChange.objects.count() == 1


def test_a_double_tap_arriving_together_saves_once(user: User) -> None:
    session = make_session(user)
    entry, check = typed_round(session)
    token = secrets.token_hex(16)

    results = at_once(
        [
            lambda: save_round(entry, check, user, expected_number=1, submission=token)
            for _ in range(4)
        ]
    )

    assert all(isinstance(r, Round) for r in results), results
    assert len({r.pk for r in results}) == 1  # every tap answered with the same round
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3


def test_rounds_saved_concurrently_are_numbered_without_gaps(user: User) -> None:
    session = make_session(user)

    def phone() -> int:
        # Each phone retries on a clash with the number it is then shown, as a user
        # who has checked that theirs is another round does.
        token = secrets.token_hex(16)
        for _attempt in range(PHONES * 2):
            fresh = GameSession.objects.get(pk=session.pk)
            entry, check = typed_round(fresh)
            try:
                return save_round(
                    entry, check, user, expected_number=entry.number, submission=token
                ).number
            except RoundConflict:
                continue
        raise AssertionError("never saved")

    results = at_once([phone for _ in range(PHONES)])

    assert sorted(results) == list(range(1, PHONES + 1)), results
    numbers = list(session.rounds.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, PHONES + 1))
    assert HandEntry.objects.count() == 3 * PHONES
    # Totals equal a replay of what was saved: every round counted once.
    board = load_scoreboard(session)
    assert board.state.totals == {"Asha": 122 * PHONES, "Ben": -92 * PHONES, "Chen": -30 * PHONES}


def test_two_phones_editing_one_round_never_overwrite_each_other(user: User) -> None:
    session = make_session(user)
    played = play(session, "8S", ROUND_1)
    entry = round_entry_for_edit(played)
    edits = []
    for winner, loser in (("Asha", "Ben"), ("Ben", "Asha")):
        hands = {
            winner: ("declared", THREE_PURE),
            loser: ("shown", SHOWN_8S),
            "Chen": ("first_drop", ""),
        }
        check = check_round(entry, "9S", by_seat(session, hands), final=True)
        assert check.valid
        edits.append(check)

    results = at_once(
        [lambda check=check: save_round(entry, check, user, version=1) for check in edits]
    )

    saved = [r for r in results if isinstance(r, Round)]
    clashes = [r for r in results if isinstance(r, RoundConflict)]
    assert len(saved) == 1 and len(clashes) == 1, results
    played.refresh_from_db()
    assert played.version == 2
    winner = played.entries.get(outcome="declared").player.name
    # The round holds exactly the edit that won, whole: never a mix of both.
    assert winner == saved[0].entries.get(outcome="declared").player.name
    assert clashes[0].theirs.pk == played.pk
    assert RoundChange.objects.filter(action="edited").count() == 1


@pytest.mark.parametrize("first", ["admin", "phone"])
def test_an_admin_and_a_phone_saving_one_round_never_overwrite_each_other(
    user: User, first: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both opened round 1 at version 1; the admin changes Ben's hand, the phone Chen's.
    session = make_session(user)
    played = play(session, "8S", ROUND_1)
    admin = Client()
    admin.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    url = reverse("admin:games_round_change", args=[played.pk])
    page = round_form_data(played, Ben={"outcome": "middle_drop", "groups": "[]"})
    entry = round_entry_for_edit(played)
    phone_hands = by_seat(session, ROUND_1 | {"Chen": ("middle_drop", "")})
    check = check_round(entry, "8S", phone_hands, final=True)
    assert check.valid
    # Who goes first, made sure of: the admin once it has checked the version (its
    # session then locked until it commits), or the phone once it has saved.
    went = threading.Event()
    checked = admin_forms.locked_version

    def admin_checks(played: Round) -> int | None:
        version = checked(played)
        if first == "admin":
            went.set()
        return version

    def admin_saves():
        if first == "phone":
            went.wait(10)
        return admin.post(url, page)

    def phone_saves():
        if first == "admin":
            went.wait(10)
        try:
            return save_round(entry, check, user, version=1)
        finally:
            went.set()

    monkeypatch.setattr(admin_forms, "locked_version", admin_checks)
    admin_answer, phone_answer = at_once([admin_saves, phone_saves])

    if first == "admin":  # the phone waited for the lock, then found a new version
        assert admin_answer.status_code == 302 and isinstance(phone_answer, RoundConflict)
        expected = {"Ben": "middle_drop", "Chen": ROUND_1["Chen"][0]}
    else:  # the admin's page showed version 1: nothing of it is saved
        assert isinstance(phone_answer, Round) and admin_answer.status_code == 200
        assert "saved by someone else" in admin_answer.content.decode()
        expected = {"Ben": ROUND_1["Ben"][0], "Chen": "middle_drop"}
    outcomes = dict(played.entries.values_list("player__name", "outcome"))
    assert {name: outcomes[name] for name in expected} == expected
    played.refresh_from_db()
    assert played.version == 2 and RoundChange.objects.filter(action="edited").count() == 1


def test_an_edit_and_a_delete_racing_leave_one_consistent_outcome(user: User) -> None:
    session = make_session(user)
    first = play(session, "8S", ROUND_1)
    play(session, "8S", ROUND_1)
    entry = round_entry_for_edit(first)
    edited = ROUND_1 | {"Asha": ("declared", THREE_PURE)}  # valid under a 9S cut too
    check = check_round(entry, "9S", by_seat(session, edited), final=True)
    assert check.valid

    results = at_once(
        [
            lambda: save_round(entry, check, user, version=1),
            lambda: delete_round(first, user, version=1),
        ]
    )

    failures = [r for r in results if isinstance(r, Exception)]
    assert len(failures) == 1 and isinstance(failures[0], RoundConflict), results
    numbers = list(session.rounds.order_by("number").values_list("number", flat=True))
    if Round.objects.filter(pk=first.pk).exists():  # the edit won
        assert numbers == [1, 2] and Round.objects.get(pk=first.pk).cut_joker == "9S"
    else:  # the delete won: the later round moved up
        assert numbers == [1]
    assert HandEntry.objects.count() == 3 * len(numbers)


def test_phones_reading_while_others_save_and_delete_see_one_state_of_the_table(
    user: User,
) -> None:
    session = make_session(user)
    copies_of(play(session, "8S", ROUND_1), 59)  # a long evening: the reads take a while
    pages = [
        reverse("games:session_detail", args=[session.pk]),
        reverse("games:session_scoreboard", args=[session.pk]),
        reverse("games:shared_session", args=[session.share_token]),
        reverse("games:shared_scoreboard", args=[session.share_token]),
    ]
    writers_left = [2]
    done = threading.Event()

    def saver() -> int:
        saved = 0
        try:
            for _ in range(15):
                fresh = GameSession.objects.get(pk=session.pk)
                entry, check = typed_round(fresh)
                try:
                    save_round(entry, check, user, expected_number=entry.number)
                    saved += 1
                except RoundConflict:
                    pass
        finally:
            writers_left[0] -= 1
            if not writers_left[0]:
                done.set()
        return saved

    def deleter() -> int:
        deleted = 0
        for _ in range(10):
            last = session.rounds.order_by("-number").first()
            try:
                delete_round(last, user, version=last.version)
                deleted += 1
            except RoundConflict:
                pass
        return deleted

    def reader(url: str) -> list[tuple[int, str]]:
        client = Client()
        client.force_login(user)
        seen = []
        while not done.is_set() or len(seen) < 5:
            response = client.get(url)  # a server error raises here
            seen.append((response.status_code, response.content.decode()))
        return seen

    results = at_once([saver, saver, deleter, *(lambda url=url: reader(url) for url in pages)])

    assert not [r for r in results if isinstance(r, Exception)], results
    pages_read = [page for seen in results[3:] for page in seen]
    assert all(status == 200 for status, _ in pages_read)
    for _, html in pages_read:
        # Every round is the same: the totals are that round's scores times the
        # number of rounds the page shows, whichever state of the table it read.
        rounds = max(int(n) for n in re.findall(r'data-round="(\d+)"', html))
        # Totals are written with a true minus sign and grouped (the `points` filter).
        totals = {
            name: total.replace("\u2212", "-").replace(",", "")
            for name, total in re.findall(r'data-total="(\w+)">([-\u2212]?[\d,]+)<', html)
        }
        assert totals == {
            "Asha": str(122 * rounds),
            "Ben": str(-92 * rounds),
            "Chen": str(-30 * rounds),
        }
    numbers = list(session.rounds.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_round_and_a_rejoin_committed_mid_read_are_seen_all_or_not_at_all(user: User) -> None:
    # 13-pool-101: Chen is out after two rounds, and may rejoin.
    pool = make_session(user, preset="13-pool-101")
    for hands in POOL_ROUNDS:
        play(pool, "7C", hands)
    before = figures(load_scoreboard(pool))

    def another_phone() -> None:
        # On a connection of its own: round 3 without Chen, then Chen rejoins after it.
        def commit() -> None:
            fresh = GameSession.objects.get(pk=pool.pk)
            play(fresh, "7C", {"Asha": ("first_drop", ""), "Ben": ("declared", WIN_13)})
            rejoin(fresh, fresh.seats.get(player__name="Chen"), user)

        assert at_once([commit]) == [None]

    with after_first_read_of_rounds(another_phone):
        board = load_scoreboard(pool)

    # The table before both: not two rounds with a rejoin "after round 3" (which the
    # page would call broken and ignore), nor three rounds' hands under two rounds.
    assert figures(board) == before
    after = figures(load_scoreboard(pool))
    assert len(after["rows"]) == 3 and after["rejoined"]["Chen"] == (3,)
    assert not after["warnings"]
