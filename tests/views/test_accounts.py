"""A forgotten password, start to end: the reset pages are the
app's own (base.html, phone-sized), the mail carries a working link, and the new
password signs in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games.forms.accounts import SignupForm

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
    mistyped = client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"},
    )
    assert mistyped.status_code == 422  # sent back with its problem, as every form
    assert "didn’t match" in mistyped.content.decode()
    saved = client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert saved.status_code == 302
    assert "Your password is changed" in client.get(saved["Location"]).content.decode()

    old = Client().post("/accounts/login/", {"username": "asha", "password": password})
    assert old.status_code == 422  # the form again, with an error
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


def test_a_password_change_with_problems_is_sent_back_422_with_them_listed_on_top(
    user: User, password: str
):
    client = Client()
    client.force_login(user)

    answer = client.post(
        reverse("password_change"),
        {"old_password": "not it", "new_password1": NEW_PASSWORD, "new_password2": "other"},
    )

    assert answer.status_code == 422
    html = answer.content.decode()
    # Every problem at the form's top, each a link to its field, as on every form.
    summary = html.split('class="form-errors error-summary"')[1].split("</div>")[0]
    assert '<a href="#id_old_password">Old password</a>' in summary
    assert "Your old password was entered incorrectly." in summary
    assert '<a href="#id_new_password2">New password confirmation</a>' in summary
    user.refresh_from_db()
    assert user.check_password(password)  # nothing changed


def _input(html: str, name: str) -> str:
    """The field's input tag as the page writes it."""
    return re.search(rf'<input[^>]* name="{name}"[^>]*>', html)[0]


def _beside(html: str, name: str) -> str:
    """What the page shows under a field: from its input to the next field's label
    (or the form's end)."""
    start = html.index(_input(html, name))
    ends = [end for end in (html.find("<label", start), html.find("</form>", start)) if end > 0]
    return html[start : min(ends)]


def _summary(html: str) -> str:
    """The list of problems at the form's top."""
    return html.split('class="form-errors error-summary"')[1].split("</div>")[0]


def _password_page(kind: str, user: User, password: str) -> tuple[Client, str, dict, str]:
    """A page that chooses a new password, open: (its client, the address it posts
    to, what else it needs sent, the new password's field)."""
    client = Client()
    if kind == "change":
        client.force_login(user)
        return client, reverse("password_change"), {"old_password": password}, "new_password"
    if kind == "reset":
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        link = reverse("password_reset_confirm", args=[uid, token])
        opened = client.get(link, follow=True)  # the link, then the page without its token
        return client, opened.redirect_chain[-1][0], {}, "new_password"
    return client, reverse("games:signup"), {"username": "ben"}, "password"


@pytest.mark.parametrize("kind", ["change", "reset", "signup"])
def test_a_new_password_the_validators_refuse_is_said_beside_it_not_its_confirmation(
    user: User, password: str, kind: str
):
    client, url, rest, field = _password_page(kind, user, password)
    new, again = f"{field}1", f"{field}2"

    answer = client.post(url, rest | {new: "short", again: "short"})

    assert answer.status_code == 422
    html = answer.content.decode()
    assert "This password is too short." in _beside(html, new)
    # Right under the field, before the four lines of password rules, not after them.
    beside = _beside(html, new)
    assert beside.index("too short") < beside.index(f'id="id_{new}_helptext"')
    assert "too short" not in _beside(html, again)
    # The keyboard opens on the field to fix, not on the first (username, old password).
    assert "autofocus" in _input(html, new)
    assert html.count("autofocus") == 1
    assert 'aria-invalid="true"' in _input(html, new)
    # Read with the field, the error before the rules, as they stand on the page.
    assert f'aria-describedby="id_{new}_error id_{new}_helptext"' in _input(html, new)
    assert "aria-invalid" not in _input(html, again)
    assert f'<a href="#id_{new}">' in _summary(html)
    assert f'<a href="#id_{again}">' not in _summary(html)

    # Typed differently as well: each problem by its own field.
    html = client.post(url, rest | {new: "password", again: "passwort"}).content.decode()
    assert "This password is too common." in _beside(html, new)
    assert "didn’t match" in _beside(html, again) and "didn’t match" not in _beside(html, new)
    # Only the confirmation wrong: both come back empty, and typing starts at the first.
    html = client.post(url, rest | {new: NEW_PASSWORD, again: NEW_PASSWORD + "!"}).content
    assert "autofocus" in _input(html.decode(), new)
    assert html.decode().count("autofocus") == 1
    user.refresh_from_db()
    assert user.check_password(password)


def test_a_reset_asked_for_with_an_address_that_is_not_one_marks_the_field(user: User):
    answer = Client().post(reverse("password_reset"), {"email": "asha at home"})

    assert answer.status_code == 422
    html = answer.content.decode()
    field = _input(html, "email")
    assert 'aria-invalid="true"' in field and 'aria-describedby="id_email_error"' in field
    assert 'value="asha at home"' in field  # what was typed stays
    assert '<ul class="errorlist" id="id_email_error">' in _beside(html, "email")
    assert "Enter a valid email address." in _beside(html, "email")
    assert '<a href="#id_email">E-mail address</a>' in _summary(html)
    assert mail.outbox == []


def test_login_page_renders_a_form(client: Client) -> None:
    response = client.get(reverse("login"))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="username"' in html
    assert 'name="password"' in html
    assert "csrfmiddlewaretoken" in html


def test_user_can_sign_in_and_out(client: Client, user, password: str) -> None:
    response = client.post(reverse("login"), {"username": user.username, "password": password})
    assert response.status_code == 302
    assert response.url == reverse("games:home")

    home = client.get(reverse("games:home")).content.decode()
    assert "Sign out" in home

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Sign out" not in client.get(reverse("games:home")).content.decode()


def test_wrong_password_shows_an_error(client: Client, user) -> None:
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})

    assert response.status_code == 422  # sent back with its problem, as every form
    assert "correct username and password" in response.content.decode()


def test_admin_login_is_reachable(client: Client) -> None:
    response = client.get(reverse("admin:login"))

    assert response.status_code == 200
    assert b"Django administration" in response.content


URL = reverse("games:session_new")


def test_signup_creates_an_account_and_signs_in(client: Client) -> None:
    url = reverse("games:signup")
    assert client.get(url).status_code == 200

    response = client.post(
        url,
        {"username": "ben", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"},
    )

    assert response.status_code == 302
    assert User.objects.filter(username="ben").exists()
    assert client.get(URL).status_code == 200  # signed in


def test_signup_errors_keep_the_form(client: Client) -> None:
    response = client.post(
        reverse("games:signup"), {"username": "ben", "password1": "abc", "password2": "abd"}
    )

    assert response.status_code == 422
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="ben").exists()


@pytest.mark.parametrize("url", [reverse("login"), reverse("admin:login")])
def test_a_very_long_username_is_a_failed_sign_in_not_a_server_error(
    client: Client, url: str
) -> None:
    response = client.post(url, {"username": "x" * 300, "password": "guess"})

    # The app's sign-in sends its form back 422, as every form; the admin's is Django's.
    assert response.status_code == (422 if url == reverse("login") else 200)
    assert "correct username and password" in response.content.decode()


# --- The account page: an e-mail added after sign-up -----------------------------------


def test_an_email_skipped_at_sign_up_is_added_on_the_account_page_and_a_reset_reaches_it(
    user: User,
):
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:account")).content.decode()
    assert "No e-mail yet: without one, a forgotten password cannot be reset." in page
    assert f'href="{reverse("password_change")}"' in page

    saved = client.post(reverse("games:account"), {"email": "asha@example.com"}, follow=True)
    assert "E-mail saved." in saved.content.decode()
    user.refresh_from_db()
    assert user.email == "asha@example.com"

    Client().post("/accounts/password_reset/", {"email": "asha@example.com"})
    assert [message.to for message in mail.outbox] == [["asha@example.com"]]


def test_a_wrong_email_is_said_beside_the_field_and_nothing_changes(user: User):
    user.email = "asha@example.com"
    user.save()
    client = Client()
    client.force_login(user)
    answer = client.post(reverse("games:account"), {"email": "asha at home"})
    assert answer.status_code == 422
    assert "Enter a valid email address." in answer.content.decode()
    assert 'value="asha at home"' in answer.content.decode()  # what was typed stays
    user.refresh_from_db()
    assert user.email == "asha@example.com"


def test_an_email_can_be_removed(user: User):
    user.email = "asha@example.com"
    user.save()
    client = Client()
    client.force_login(user)
    assert (
        "E-mail removed."
        in client.post(reverse("games:account"), {"email": ""}, follow=True).content.decode()
    )
    user.refresh_from_db()
    assert user.email == ""


def test_the_account_page_asks_a_visitor_to_sign_in_first():
    answer = Client().get(reverse("games:account"))
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))


def test_a_form_without_ids_names_none_it_has_not() -> None:
    form = SignupForm({"username": "asha", "password1": "x", "password2": "y"}, auto_id=False)

    assert not form.is_valid()
    assert "aria-describedby" not in str(form["password2"])  # no "_error _helptext"
