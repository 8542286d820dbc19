"""What every page's template may show besides the request's own data."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from scorekeeper import __version__


def site(request: HttpRequest) -> dict[str, object]:
    """The app's version, for the footer of base.html (whoever reports a problem can
    say which release they saw it on; "version" alone is a round's edit count in some
    views), and whether anyone may create an account, so that pages offer it only
    then (settings.SIGNUPS)."""
    return {
        "scorekeeper_version": __version__,
        "signups_open": settings.SIGNUPS == "open",
    }
