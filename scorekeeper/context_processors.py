"""What every page's template may show besides the request's own data."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, object]:
    """Whether anyone may create an account, so that pages offer it only then
    (settings.SIGNUPS)."""
    return {"signups_open": settings.SIGNUPS == "open"}
