"""The read-only share link of a session and its table link (table mode): each an
address and a QR code of it, so the players at the table open the live score table,
or their own hand's entry, on their own phones."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.models import GameSession


@dataclass(frozen=True)
class ShareLinks:
    url: str
    qr_svg: SafeString


def share_url(request: HttpRequest, session: GameSession) -> str:
    """The share link's address, without its QR code."""
    return request.build_absolute_uri(reverse("games:shared_session", args=[session.share_token]))


def share_links(request: HttpRequest, session: GameSession) -> ShareLinks:
    url = share_url(request, session)
    return ShareLinks(url=url, qr_svg=mark_safe(qr_svg(url)))


def table_links(request: HttpRequest, session: GameSession) -> ShareLinks | None:
    """The table link, where each player picks their seat; None while table mode is
    closed."""
    if not session.table_token:
        return None
    url = request.build_absolute_uri(reverse("games:table_seats", args=[session.table_token]))
    return ShareLinks(url=url, qr_svg=mark_safe(qr_svg(url)))


@lru_cache(maxsize=1024)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG. Drawing one takes a few milliseconds and
    a link changes only when replaced, so each process keeps the recent ones.

    segno builds the SVG from the URL alone (no user text reaches it unescaped), so
    it is safe to inline; error level "M" still reads off a scuffed phone screen."""
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=4, border=2, dark="#1f2933", light="#ffffff")
