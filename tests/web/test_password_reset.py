"""A forgotten password, start to end (issue 9, point 9): the reset pages are the
app's own (base.html, phone-sized), the mail carries a working link, and the new
password signs in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-passphrase-for-friday"


def test_a_forgotten_password_is_reset_through_the_mailed_link(user: User, password: str):
    user.email = "asha@example.com"
    user.save()
    client = Client()

    form = client.get("/accounts/login/")
    assert 'href="/accounts/password_reset/"' in form.content.decode()
    page = client.get("/accounts/password_reset/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Forgot your password?" in html
    assert 'class="site-header"' in html  # the app's own page, not the admin's

    sent = client.post("/accounts/password_reset/", {"email": "asha@example.com"})
    assert sent.status_code == 302
    assert "Check your e-mail" in client.get(sent["Location"]).content.decode()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["asha@example.com"]
    assert message.subject == "Choose a new Scorekeeper password"
    assert '"asha"' in message.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)

    opened = client.get(link, follow=True)
    assert "Choose a new password" in opened.content.decode()
    saved = client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert saved.status_code == 302
    assert "Your password is changed" in client.get(saved["Location"]).content.decode()

    old = Client().post("/accounts/login/", {"username": "asha", "password": password})
    assert old.status_code == 200  # the form again, with an error
    new = Client().post("/accounts/login/", {"username": "asha", "password": NEW_PASSWORD})
    assert new.status_code == 302

    # The link works once.
    reused = client.get(link, follow=True)
    assert "This link no longer works" in reused.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(user: User):
    client = Client()

    sent = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})

    assert sent.status_code == 302
    assert "Check your e-mail" in client.get(sent["Location"]).content.decode()
    assert mail.outbox == []


def test_sign_up_takes_an_optional_address_for_resets():
    client = Client()
    body = {"username": "ben", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}

    assert "E-mail (optional)" in client.get("/accounts/signup/").content.decode()
    assert client.post("/accounts/signup/", body | {"email": "ben@example.com"}).status_code == 302
    assert User.objects.get(username="ben").email == "ben@example.com"
    assert Client().post("/accounts/signup/", body | {"username": "chen"}).status_code == 302


def test_changing_a_password_uses_the_apps_pages(user: User, password: str):
    client = Client()
    client.force_login(user)

    page = client.get("/accounts/password_change/")
    assert 'class="site-header"' in page.content.decode()
    done = client.post(
        "/accounts/password_change/",
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    assert "Your password is changed" in client.get(done["Location"]).content.decode()
