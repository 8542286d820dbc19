"""/healthz: whether this server can do its work, for a container's health check, a
proxy or a monitor. It asks the database for a row and the cache for a key it has
just written, and answers 200 when both answer, or 503 naming the one that failed, in
JSON with the app's version. No sign-in, and no redirect to HTTPS
(SECURE_REDIRECT_EXEMPT): the probe asks the app directly."""

from __future__ import annotations

import logging
import secrets

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.statuses import SERVICE_UNAVAILABLE
from scorekeeper import __version__

logger = logging.getLogger(__name__)

OK = "ok"
# Long enough for the get right after the set, short enough that a probe every few
# seconds leaves no trail of keys behind.
PROBE_SECONDS = 10


def database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not answer 1")


def cache_answers() -> None:
    # A key of its own each time: two probes at once never read each other's value.
    key, value = f"healthz:{secrets.token_hex(8)}", secrets.token_hex(8)
    cache.set(key, value, timeout=PROBE_SECONDS)
    if cache.get(key) != value:
        raise RuntimeError("a value written was not read back")


def probe(name: str, check) -> str:
    """``OK``, or "error: " and the exception's class. The message itself, which may
    name hosts and addresses, goes to the server's log, not to whoever asked."""
    try:
        check()
    except Exception as error:  # whatever the backend raises, the answer is a 503
        logger.warning("healthz: the %s failed: %s: %s", name, type(error).__name__, error)
        return f"error: {type(error).__name__}"
    return OK


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    report = {
        "database": probe("database", database_answers),
        "cache": probe("cache", cache_answers),
    }
    healthy = all(answer == OK for answer in report.values())
    body = {"status": OK if healthy else "error", "version": __version__, **report}
    return JsonResponse(body, status=200 if healthy else SERVICE_UNAVAILABLE)
