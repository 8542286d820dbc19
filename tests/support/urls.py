"""The session page's addresses that the view tests ask for: the page itself, and its
round form's save and live preview."""

from __future__ import annotations

from django.urls import reverse

from games.models import GameSession


def detail(session: GameSession) -> str:
    return reverse("games:session_detail", args=[session.pk])


def create(session: GameSession) -> str:
    return reverse("games:round_create", args=[session.pk])


def preview(session: GameSession) -> str:
    return reverse("games:round_preview", args=[session.pk])
