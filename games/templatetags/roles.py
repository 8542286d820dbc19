"""A league member's role in the page's words: views hand templates the stored value
("owner"), which no reader should see."""

from __future__ import annotations

from django import template

from games.models import Membership

register = template.Library()


@register.filter
def role_label(value: str | None) -> str:
    """``owner`` → "Owner" in the page's language; "" for no role."""
    return str(Membership.Role(value).label) if value else ""
