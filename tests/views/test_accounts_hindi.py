"""The account pages in Hindi say Django's words as our players do (games/django_words.py):
यूज़रनेम and पासवर्ड, not Django's own Hindi ("प्रयोक्ता नाम", "कूटशब्द"), and the password
rules in Hindi, not left in English."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

HINDI = {"Accept-Language": "hi"}
# Django's Hindi words our glossary (docs/reference/hindi-words.md) says otherwise, and
# "डाक पता", a postal address, where an e-mail address is meant.
DJANGOS_HINDI = ("कूटशब्द", "शब्दकूट", "प्रयोक्ता", "प्रवोक्ता", "डाक पता")
# The password rules and the username's help, which Django's Hindi catalogue lacks.
DJANGOS_ENGLISH = (
    "Your password can’t be too similar to your other personal information.",
    "Your password must contain at least",
    "Your password can’t be a commonly used password.",
    "Your password can’t be entirely numeric.",
    "Enter the same password as before, for verification.",
    "Required. 150 characters or fewer.",
    "This password is",
    "This field is required.",
)


def assert_in_our_words(html: str) -> None:
    assert "यूज़रनेम" in html or "पासवर्ड" in html
    left = [words for words in (*DJANGOS_HINDI, *DJANGOS_ENGLISH) if words in html]
    assert not left, left


def test_the_sign_up_page_and_its_problems_say_username_and_password(user: User) -> None:
    client = Client(headers=HINDI)
    page = client.get(reverse("games:signup")).content.decode()
    assert_in_our_words(page)
    assert "यूज़रनेम" in page
    assert "आपके पासवर्ड में कम से कम 8 अक्षर होने चाहिए।" in page
    assert "आपका पासवर्ड सिर्फ़ अंकों का नहीं हो सकता।" in page

    answer = client.post(
        reverse("games:signup"),
        {"username": "asha", "email": "asha-at-home", "password1": "1234", "password2": "1234"},
    )
    assert answer.status_code == 422
    html = answer.content.decode()
    assert_in_our_words(html)
    assert "इस यूज़रनेम का अकाउंट पहले से है।" in html
    assert "सही ई-मेल पता लिखें।" in html
    assert "यह पासवर्ड बहुत छोटा है। इसमें कम से कम 8 अक्षर होने चाहिए।" in html
    assert "यह पासवर्ड सिर्फ़ अंकों का है।" in html


def test_a_wrong_password_at_sign_in_is_told_in_our_words(user: User) -> None:
    client = Client(headers=HINDI)
    assert_in_our_words(client.get(reverse("login")).content.decode())
    answer = client.post(reverse("login"), {"username": "asha", "password": "not-this-one"})
    html = answer.content.decode()
    assert_in_our_words(html)
    assert "कृपया सही यूज़रनेम और पासवर्ड लिखें।" in html


def test_the_password_change_page_says_old_and_new_password(user: User, password: str) -> None:
    client = Client(headers=HINDI)
    client.force_login(user)
    page = client.get(reverse("password_change")).content.decode()
    assert_in_our_words(page)
    assert "पुराना पासवर्ड" in page
    assert "नया पासवर्ड" in page

    answer = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "asha1", "new_password2": "asha2"},
    )
    html = answer.content.decode()
    assert_in_our_words(html)
    assert "पुराना पासवर्ड गलत लिखा गया। कृपया फिर से लिखें।" in html
    assert "दोनों पासवर्ड एक जैसे नहीं हैं।" in html
