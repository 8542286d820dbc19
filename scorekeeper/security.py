"""Small security helpers the settings point at."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The client's address for sign-in rate limits. Behind our own reverse proxy
    (DJANGO_BEHIND_PROXY) it is the address the proxy appended last to
    X-Forwarded-For: earlier entries come from the client and could be forged."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "")
