"""What a request asked of the database, as the live polls' tests count it."""

from __future__ import annotations

from django.test.utils import CaptureQueriesContext


def beyond_the_sign_in(queries: CaptureQueriesContext) -> list[str]:
    """The queries other than the sign-in's: the database holds the sign-ins, so that
    a sign-out is final on every worker at once, and a signed-in request reads its
    own. A poll answered from the cache asks nothing else."""
    return [q["sql"] for q in queries if "django_session" not in q["sql"]]
