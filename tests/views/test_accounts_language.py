"""The choice of language, in the footer of every page and on the account page: a
plain form (no script needed) that keeps the choice in the browser and, signed in,
on the account, then goes back to the page it was made on."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.services.languages import account_language, save_account_language

pytestmark = pytest.mark.django_db


def chooser(html: str, choice_id: str) -> str:
    """The form holding the choice ``choice_id``."""
    for form in re.findall(r"<form[^>]*>.*?</form>", html, re.S):
        if f'id="{choice_id}"' in form:
            return form
    raise AssertionError(f"no form with #{choice_id}")


def test_every_page_offers_each_language_in_its_own_words_without_a_script(
    client: Client,
) -> None:
    form = chooser(client.get(reverse("login")).content.decode(), "footer-language")
    assert f'action="{reverse("games:language")}"' in form
    assert 'method="post"' in form
    assert 'name="csrfmiddlewaretoken"' in form
    assert 'value="hi" lang="hi" aria-pressed="false">हिन्दी</button>' in form
    assert 'value="en" lang="en" aria-pressed="true">English</button>' in form
    assert f'name="next" value="{reverse("login")}"' in form
    assert "<script" not in form and " on" not in form.split(">")[0]


def test_choosing_in_the_footer_keeps_it_and_goes_back(client: Client) -> None:
    page = reverse("login") + "?next=/leagues/"
    response = client.post(reverse("games:language"), {"language": "hi", "next": page})
    assert response.status_code == 302
    assert response["Location"] == page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hi"
    again = client.get(page)
    assert '<html lang="hi"' in again.content.decode()
    assert 'value="hi" lang="hi" aria-pressed="true">' in again.content.decode()


def test_going_back_never_leaves_the_site(client: Client) -> None:
    response = client.post(
        reverse("games:language"), {"language": "hi", "next": "https://elsewhere.example/"}
    )
    assert response.status_code == 302
    assert not response["Location"].startswith("https://elsewhere")


def test_a_language_not_offered_changes_nothing(client: Client) -> None:
    response = client.post(reverse("games:language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_choosing_in_the_footer_signed_in_saves_it_on_the_account(
    scorer: Client, user: User
) -> None:
    scorer.post(reverse("games:language"), {"language": "hi", "next": "/"})
    assert account_language(user) == "hi"
    # Said on the next page, in the language just chosen.
    assert "आपकी चुनी हुई भाषा आपके अकाउंट में सेव हो गई है।" in scorer.get("/").content.decode()
    # Another phone, which never chose, opens in it once signed in.
    other = Client(headers={"Accept-Language": "en"})
    other.force_login(user)
    page = other.get(reverse("games:home")).content.decode()
    assert '<html lang="hi"' in page


def test_the_account_page_chooses_a_language_or_none(scorer: Client, user: User) -> None:
    save_account_language(user, "hi")
    page = scorer.get(reverse("games:account")).content.decode()
    form = chooser(page, "account-language")
    assert '<option value="hi" lang="hi" selected>' in form
    assert '<option value="">' in form
    scorer.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    response = scorer.post(
        reverse("games:language"), {"language": "", "next": reverse("games:account")}
    )
    assert response["Location"] == reverse("games:account")
    assert account_language(user) == ""
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # deleted
    after = scorer.get(reverse("games:account")).content.decode()
    assert '<html lang="en"' in after
    assert '<option value="" selected>' in chooser(after, "account-language")


def test_a_page_answered_to_a_form_goes_back_by_its_address_not_the_form_action(
    client: Client,
) -> None:
    # A sign-in refused is a page answered to a POST: going back re-posts nothing.
    page = client.post(reverse("login"), {"username": "nobody", "password": "x"})
    assert 'name="next"' not in chooser(page.content.decode(), "footer-language")
    response = client.post(
        reverse("games:language"), {"language": "hi"}, headers={"Referer": "/accounts/login/"}
    )
    assert response["Location"] == "/accounts/login/"
