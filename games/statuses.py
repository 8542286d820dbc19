"""The status codes the app answers with besides 200, 302 and Django's own 404s, by
what they mean here: named once, so that a page and its test say the same thing.

It imports nothing: the views, the upload limit's middleware and the project's
error and health pages (scorekeeper/) all name their statuses from here without
loading the views' helpers (games/http.py) or what those reach.
"""

from __future__ import annotations

FORM_ERRORS = 422  # a form sent back with what is wrong in it
# Someone else's write came first: the page shows what is there now.
CONFLICT = 409
# A link that expired, was revoked or was replaced: the page says which.
GONE = 410
PAYLOAD_TOO_LARGE = 413  # an upload over the server's limit: nothing was read
TOO_MANY_REQUESTS = 429
# Sign-ups are by invitation (settings.SIGNUPS) and no working invite link came along.
BY_INVITATION = 403
SERVER_ERROR = 500  # a bug: the page says so, and nothing half-done was saved
# Something the request needs is away for a moment (the sign-up limit's cache, the
# database).
SERVICE_UNAVAILABLE = 503
