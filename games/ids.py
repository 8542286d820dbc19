"""Database ids as a browser sends them: in a form field, a query string or a
cookie. Anything but a plain number of ASCII digits is no id at all (None), so a
lookup never sees it.

Both the views' helpers (games/http.py) and the access rules (games/access.py, which
reads a phone's seat cookie) read ids here; it imports nothing of the app.
"""

from __future__ import annotations

from django.http import QueryDict


def id_in(data: QueryDict, name: str) -> int | None:
    """A database id in a form field (``data`` is request.GET or request.POST), or None
    for anything else."""
    return an_id(data.get(name, ""))


def an_id(value: str) -> int | None:
    """``value`` as a database id, or None for anything else: ASCII digits only, since
    int() also reads "٣" and str.isdigit() passes "²", which int() refuses."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None
