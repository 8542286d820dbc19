"""Small security helpers the settings point at."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The client's address, for sign-in lockouts and the sign-up limit.

    Behind our own reverse proxy (DJANGO_BEHIND_PROXY) every request arrives from the
    proxy, so its address would put every member in one bucket: then the client is
    the address the proxy appended last to X-Forwarded-For (earlier entries come
    from the client and could be forged). That header is believed only from the
    proxy's own addresses (DJANGO_PROXY_IPS, as gunicorn.conf.py believes it), so a
    client reaching the app directly cannot name a new address for each attempt."""
    remote = request.META.get("REMOTE_ADDR", "")
    if settings.BEHIND_PROXY and _is_proxy(remote):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops and _address(hops[-1]) is not None:
            return hops[-1]
    return remote


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _is_proxy(remote: str) -> bool:
    address = _address(remote)
    return address is not None and any(
        address in ipaddress.ip_network(network, strict=False) for network in settings.PROXY_IPS
    )


# Django's own limit on usernames; django-axes keeps attempted ones in a column of 255.
USERNAME_LENGTH = 150


def attempted_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The username a sign-in attempt named, as django-axes records it: cut to the
    longest a username can be, so a pasted page of text is a failed sign-in rather
    than a value the database refuses (a server error)."""
    name = (credentials or {}).get("username", request.POST.get("username"))
    return name[:USERNAME_LENGTH] if isinstance(name, str) else name


def signup_key(address: str) -> str:
    return f"signup:{address}"


def take_signup(address: str, cache: BaseCache | None = None) -> bool:
    """Count one sign-up from this client address; False once the address has had
    SIGNUP_LIMIT of them in the window (SIGNUP_WINDOW_MINUTES from its first).

    The count lives in Django's cache, Redis in production, so every worker adds to
    the same one: the increment is atomic there, so two sign-ups at once cannot both
    take the last place. A local-memory cache (the zero-setup default) is per
    process: with several workers each allows the limit."""
    store = cache or caches["default"]
    key = signup_key(address)
    window = settings.SIGNUP_WINDOW_MINUTES * 60
    try:
        store.add(key, 0, timeout=window)
        try:
            count = store.incr(key)
        except ValueError:  # the window ran out between add() and incr()
            store.set(key, 1, timeout=window)
            count = 1
    except Exception as error:  # the cache (Redis) is down: no count, so no sign-up
        raise LimitUnavailable from error
    return count <= settings.SIGNUP_LIMIT


class LimitUnavailable(Exception):
    """The sign-up limit could not be counted (its cache is away). Sign-ups wait
    rather than go uncounted: the limit is what keeps scripts out."""
