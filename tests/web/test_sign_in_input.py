"""Sign-in forms take whatever is typed without a server error: a wrong username of
any length is just a failed sign-in."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", [reverse("login"), reverse("admin:login")])
def test_a_very_long_username_is_a_failed_sign_in_not_a_server_error(
    client: Client, url: str
) -> None:
    response = client.post(url, {"username": "x" * 300, "password": "guess"})

    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
