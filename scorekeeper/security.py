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


# Django's own limit on usernames; django-axes keeps attempted ones in a column of 255.
USERNAME_LENGTH = 150


def attempted_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The username a sign-in attempt named, as django-axes records it: cut to the
    longest a username can be, so a pasted page of text is a failed sign-in rather
    than a value the database refuses (a server error)."""
    name = (credentials or {}).get("username", request.POST.get("username"))
    return name[:USERNAME_LENGTH] if isinstance(name, str) else name
