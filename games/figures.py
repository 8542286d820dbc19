"""How the app writes a figure: a score or total with a true minus sign, a number
rounded half up to a fixed count of decimals, a rating. The templates' filters
(templatetags/cards.py), the charts, the standings, the admin and the models' names
all write figures with these, so that one figure reads the same wherever it stands.
Formatting only, never arithmetic: every figure comes from games/rules."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

# A score's minus sign: the typographic one (U+2212) the charts draw, not the hyphen
# "-280" was written with. Eyes read it as wide as a plus; screen readers say "minus".
MINUS = "\u2212"

# A hyphen that stands for minus: before a figure, not inside a word ("K-A-2" stays).
_HYPHEN_MINUS = re.compile(r"(?<![\w-])-(?=\d)")


def points(value: int | str | None) -> str:
    """A total or score as the pages write it: −280, 0, 45, −12.5 (``fixed``'s text),
    a dash for none; in a line of words, each figure's sign ("value points
    exchanged: −10", as the rules service explains a hand)."""
    if value is None:
        return "–"
    return _HYPHEN_MINUS.sub(MINUS, str(value))


def fixed(value: float | None, places: int = 1) -> str:
    """A number with ``places`` decimals, rounded half up: what ``floatformat`` shows
    in the app's one locale (no "-0.0" either), at a fraction of its cost. The
    standings print three for each of hundreds of players (benchmarks/http.py)."""
    if value is None:
        return ""
    if not math.isfinite(value):
        return str(value)
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return f"{rounded if rounded else abs(rounded):f}"


def signed(value: int | None) -> str:
    """+12, −5, 0: a round's score reads as a gain or a loss."""
    if value is None:
        return "–"
    return points(f"{value:+d}") if value else "0"


def rating(value: float) -> str:
    """A rating (or a rating's skill): one decimal, rounded half up, a true minus sign,
    as the standings, the player pages, their charts and the admin write it."""
    return points(fixed(value))
