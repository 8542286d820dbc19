"""Error pages. A database that has gone away gets its own answer: the user learns
that nothing they sent was saved (every write is one transaction) and that trying
again in a moment is safe; the app reconnects by itself on a later request
(CONN_HEALTH_CHECKS)."""

from __future__ import annotations

import sys

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader

from games.statuses import SERVER_ERROR, SERVICE_UNAVAILABLE


# These pages carry their own <style> block, so they need no static file while things
# are failing; scripts stay forbidden.
@csp_update({"style-src": UNSAFE_INLINE})
def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: Django calls it while handling the exception, so it can tell a
    lost database from a bug."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError | InterfaceError):
        response = _render("errors/database.html", SERVICE_UNAVAILABLE)
        response["Retry-After"] = "5"
        return response
    return _render("500.html", SERVER_ERROR)


def _render(template: str, status: int) -> HttpResponse:
    # No RequestContext: the failure may be in what context processors need
    # (the session, the user), so the page uses nothing but the template itself.
    return HttpResponse(loader.get_template(template).render(), status=status)
