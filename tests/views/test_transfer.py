"""The export and import pages (games/views/transfer.py): who may download what, and the
league import form."""

from __future__ import annotations

import datetime
import html as html_lib
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import (
    League,
)
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1
from tests.support.league_files import (
    counts,
    points_session,
    upload,
)

pytestmark = pytest.mark.django_db


def test_session_exports_are_for_those_who_may_see_the_session(client: Client, user: User) -> None:
    session = points_session(user)
    for name in ("games:session_rounds_csv", "games:session_rounds_xlsx"):
        url = reverse(name, args=[session.pk])
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        client.force_login(User.objects.create_user(username=f"zed-{name[-4:]}"))
        assert client.get(url).status_code == 404  # a stranger: no such session
        client.logout()
    assert client.get(f"/sessions/{session.pk + 1000}/rounds.csv").status_code == 302
    client.force_login(user)
    assert client.get(f"/sessions/{session.pk + 1000}/rounds.csv").status_code == 404


def test_a_league_member_may_download_a_league_sessions_rounds(
    client: Client, league: League
) -> None:
    session = league.sessions.get(name="Points night")  # created by Ben
    client.force_login(User.objects.get(username="chen"))  # a viewer of the league
    response = client.get(reverse("games:session_rounds_csv", args=[session.pk]))
    assert response.status_code == 200
    assert 'filename="points-night-' in response["Content-Disposition"]


def test_league_downloads_are_for_members_only(client: Client, league: League) -> None:
    urls = [
        reverse(name, args=[league.slug])
        for name in ("games:league_standings_csv", "games:league_standings_xlsx")
    ] + [reverse("games:league_export", args=[league.slug])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(User.objects.create_user(username="zed"))
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(User.objects.get(username="chen"))  # a viewer
    for url in urls:
        assert client.get(url).status_code == 200
    assert client.get("/leagues/nope/export.json").status_code == 404


def test_the_standings_page_links_its_downloads(scorer: Client, league: League) -> None:
    html = scorer.get(
        reverse("games:league_standings", args=[league.slug]), {"from": "2024-02-01"}
    ).content.decode()
    assert "/leagues/club/standings.csv?from=2024-02-01&amp;to=" in html
    assert "/leagues/club/standings.xlsx?from=2024-02-01&amp;to=" in html
    assert reverse("games:league_export", args=[league.slug]) in html
    assert reverse("games:league_import") in html


def test_a_signed_in_user_imports_a_league_and_owns_it(moved: dict, stranger: Client) -> None:
    response = stranger.get(reverse("games:league_import"))
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()

    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:league_detail", args=["club"])
    league = League.objects.get(slug="club")
    assert dict(league.memberships.values_list("user__username", "role")) == {"zed": "owner"}
    assert league.sessions.count() == 6
    page = stranger.get(response["Location"])
    assert "Imported Friday club." in page.content.decode()


def test_the_web_import_creates_no_accounts_and_lists_the_files_members(
    moved: dict, stranger: Client
) -> None:
    before = set(User.objects.values_list("username", flat=True))

    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)), follow=True)

    assert set(User.objects.values_list("username", flat=True)) == before  # nobody reserved
    html = response.content.decode()
    assert "The file lists 3 members; nobody was added." in html
    for username in ("asha", "ben", "chen"):  # none has an account here
        assert f'data-invitable="{username}"' in html
    assert html.count("no account here yet") == 3
    league = League.objects.get(slug="club")
    assert list(league.memberships.values_list("user__username", flat=True)) == ["zed"]


def test_an_htmx_import_redirects_the_page(moved: dict, stranger: Client) -> None:
    response = stranger.post(
        reverse("games:league_import"), upload(json.dumps(moved)), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:league_detail", args=["club"])


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00garbage",
        b"{}",
        b'{"format": "scorekeeper-league"',
        b"[[[[[[" * 1000,
    ],
)
def test_a_bad_upload_is_a_form_error_not_a_crash(stranger: Client, content: bytes) -> None:
    before = counts()
    response = stranger.post(reverse("games:league_import"), upload(content))
    assert response.status_code == 422
    assert "This is not a league file" in response.content.decode()
    assert counts() == before


def test_a_league_file_that_is_refused_shows_why(moved: dict, stranger: Client) -> None:
    moved["sessions"][0]["rounds"][0]["entries"][0]["score"] = 1000
    response = stranger.post(reverse("games:league_import"), upload(json.dumps(moved)))
    assert response.status_code == 422
    assert "the rules service scores" in response.content.decode()
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("Friday\u202eclub", "A name may hold only printable text: U+202E"),
        ("F" * 101, "Ensure this value has at most 100 characters"),
    ],
)
def test_a_league_name_is_held_to_the_league_forms_rule_beside_its_field(
    moved: dict, stranger: Client, name: str, error: str
) -> None:
    page = stranger.get(reverse("games:league_import")).content.decode()
    assert '<label for="id_name">League name</label>' in page

    response = stranger.post(
        reverse("games:league_import"), {"name": name, **upload(json.dumps(moved))}
    )

    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == ["name"] and error in errors["name"][0]
    assert not League.objects.exists()


def test_the_import_form_needs_a_file_and_a_signed_in_user(
    client: Client, stranger: Client
) -> None:
    page = stranger.get(reverse("games:league_import")).content.decode()
    # What an import does with people, said before anyone chooses a file.
    assert "never another club's of the same name" in page
    assert "this is me" in page
    response = stranger.post(reverse("games:league_import"), {})
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    stranger.logout()
    response = client.post(reverse("games:league_import"), upload(b"{}"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_file_too_large_for_the_page_is_refused(
    stranger: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.forms.transfer.MAX_IMPORT_BYTES", 10)
    response = stranger.post(reverse("games:league_import"), upload(b"{" + b" " * 20 + b"}"))
    assert response.status_code == 422
    assert "manage.py import_league" in response.content.decode()


def test_a_league_imported_beside_one_of_the_same_name_is_told_before_and_after(
    scorer: Client, league: League, exported: dict
) -> None:
    # Asha imports her club's file into the server it came from.
    page = scorer.get(reverse("games:league_import")).content.decode()
    taken = json.loads(page.split('id="names-taken"', 1)[1].split(">", 1)[1].split("</script>")[0])
    today = timezone.localdate()
    instead = f"Friday club (imported {today.day} {today:%b %Y})"
    assert taken == {"friday club": instead}  # what the page says once the name is known

    response = scorer.post(
        reverse("games:league_import"), upload(json.dumps(exported)), follow=True
    )

    html = html_lib.unescape(response.content.decode())
    assert (
        f"You already have a league called “Friday club”: the file came in as a second "
        f"league beside it, “{instead}”. Nothing in yours changed."
    ) in html
    assert "Imported Friday club." not in html
    assert sorted(League.objects.values_list("name", flat=True)) == ["Friday club", instead]


def _csv_name(client: Client, session) -> str:
    response = client.get(reverse("games:session_rounds_csv", args=[session.pk]))
    return response["Content-Disposition"].split('filename="')[1].rstrip('"')


def test_a_sessions_export_is_named_by_the_session_and_its_round_count(
    scorer: Client, user: User
) -> None:
    friday = make_session(user, name="Friday night 1", played_on=datetime.date(2026, 11, 27))
    for _ in range(6):
        play(friday, "8S", ROUND_1)

    # Its id no longer follows the name: "friday-night-1-3-rounds" read as 3 rounds.
    assert _csv_name(scorer, friday) == "friday-night-1-6-rounds.csv"
    # Another Friday night: each file says which evening it holds.
    later = make_session(user, name="Friday Night 1", played_on=datetime.date(2026, 12, 4))
    play(later, "8S", ROUND_1)
    assert _csv_name(scorer, friday) == "friday-night-1-6-rounds-2026-11-27.csv"
    assert _csv_name(scorer, later) == "friday-night-1-1-round-2026-12-04.csv"
    # Two of that name on one day: the second is told apart.
    again = make_session(user, name="Friday night 1", played_on=datetime.date(2026, 11, 27))
    assert _csv_name(scorer, again) == "friday-night-1-0-rounds-2026-11-27-2.csv"
    assert _csv_name(scorer, friday) == "friday-night-1-6-rounds-2026-11-27.csv"
    xlsx = scorer.get(reverse("games:session_rounds_xlsx", args=[friday.pk]))
    assert 'filename="friday-night-1-6-rounds-2026-11-27.xlsx"' in xlsx["Content-Disposition"]
