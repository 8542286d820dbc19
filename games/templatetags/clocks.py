"""How a page names the clock its times are read on (games/zones.py)."""

from __future__ import annotations

from django import template

from games.zones import zone_words

register = template.Library()

register.filter("zone_words", zone_words)
