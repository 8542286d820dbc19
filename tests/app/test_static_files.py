"""Static files are served by the app itself (WhiteNoise), htmx among them: every
script a page loads comes from this server, none from a CDN."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_whitenoise_serves_the_stylesheet_without_a_separate_static_server(
    client: Client,
) -> None:
    # Django's test client goes through the middleware only: a 200 here comes from
    # WhiteNoiseMiddleware, not from runserver's static view.
    response = client.get("/static/css/app.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert type(response).__module__.startswith("whitenoise")
    assert b".site-header" in b"".join(response.streaming_content)


def test_every_script_of_a_page_comes_from_this_server(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()

    sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)

    assert any("django_htmx/htmx" in src for src in sources)
    for src in sources:
        assert src.startswith("/static/"), src  # no CDN, no other host
        response = client.get(src)
        assert response.status_code == 200, src
    htmx = next(src for src in sources if "django_htmx/htmx" in src)
    assert b"htmx" in b"".join(client.get(htmx).streaming_content)
