"""The clock a league reads its times on: its own time zone where it picked one, else
the site's (DJANGO_TIME_ZONE, settings.TIME_ZONE). One site may host clubs in several
countries; each club expects its history, its exports and the day its evenings are
dated by to be its own clock, not the server's.

A league that picked none follows the site's zone, even when the site's zone changes
later: a club that set DJANGO_TIME_ZONE only after its first night need not also set
each league. A session without a league reads the site's zone.
"""

from __future__ import annotations

import datetime
import zoneinfo
from functools import cache
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

if TYPE_CHECKING:
    from games.models import GameSession, League

# Names zoneinfo lists that are no place's clock: the machine's own setting, and the
# tz database's placeholder for "no zone yet".
_NOT_PLACES = frozenset({"localtime", "Factory"})
# The areas of the tz database whose zones are cities ("Asia/Kolkata"), in the order
# the list offers them; older names (US/Eastern, Etc/GMT-5, EST) come last, as Other.
# Each with its heading in the list, marked for the catalogue.
_AREAS = {
    "Africa": gettext_noop("Africa"),
    "America": gettext_noop("America"),
    "Antarctica": gettext_noop("Antarctica"),
    "Arctic": gettext_noop("Arctic"),
    "Asia": gettext_noop("Asia"),
    "Atlantic": gettext_noop("Atlantic"),
    "Australia": gettext_noop("Australia"),
    "Europe": gettext_noop("Europe"),
    # Translators: the Indian Ocean's islands, a heading in the list of time zones.
    "Indian": gettext_noop("Indian"),
    "Pacific": gettext_noop("Pacific"),
    "Other": gettext_noop("Other"),
}
_OTHER = "Other"


@cache
def zone_names() -> frozenset[str]:
    """Every time zone a league may pick: the tz database's, as zoneinfo finds it
    (tzdata where the system has none). Read once: listing them walks the disk."""
    return frozenset(zoneinfo.available_timezones()) - _NOT_PLACES


def validate_time_zone(name: str) -> None:
    """Raise ValidationError for a name that is not a time zone of the list. Empty is
    fine: the site's zone."""
    if name and name not in zone_names():
        raise ValidationError(
            gettext(
                "“%(name)s” is not a time zone. Pick one from the list, such as Asia/Kolkata "
                "or Europe/London."
            ),
            code="time_zone",
            params={"name": name},
        )


def zone_choices() -> list[tuple[str, object]]:
    """The zones to pick from, grouped by area (a list of about 600 is read by its
    groups), UTC first; each shown with spaces for the database's underscores
    ("America/Port of Spain")."""
    names = zone_names()
    grouped: dict[str, list[tuple[str, str]]] = {area: [] for area in _AREAS}
    for name in sorted(names - {"UTC"}):
        area = name.split("/", 1)[0]
        shown = name.replace("_", " ")
        grouped[area if area in grouped and "/" in name else _OTHER].append((name, shown))
    choices: list[tuple[str, object]] = [("UTC", "UTC")] if "UTC" in names else []
    return choices + [(gettext(_AREAS[area]), zones) for area, zones in grouped.items() if zones]


def zone_words(zone: zoneinfo.ZoneInfo) -> str:
    """A clock as a sentence names it: "Kolkata time" for Asia/Kolkata, "Buenos Aires
    time" for America/Argentina/Buenos_Aires, "UTC" (already a time); an older name
    with no city (US/Eastern, Etc/GMT-5) as it is, with "time"."""
    name = zone.key
    if name == "UTC":
        return name
    area, _, place = name.partition("/")
    if area in _AREAS and area != _OTHER and place:
        name = place.rsplit("/", 1)[-1].replace("_", " ")
    # Translators: a clock named by its city or its tz database name ("Kolkata time").
    return gettext("{place} time").format(place=name)


def site_zone() -> zoneinfo.ZoneInfo:
    """The site's zone (settings.TIME_ZONE)."""
    zone = timezone.get_default_timezone()
    assert isinstance(zone, zoneinfo.ZoneInfo)  # USE_TZ: Django builds it with zoneinfo
    return zone


def league_zone(league: League | None) -> zoneinfo.ZoneInfo:
    """The zone a league's times are read in; the site's without a league or a zone
    of its own (or one this machine's tz database no longer knows)."""
    if league is None or not league.time_zone:
        return site_zone()
    try:
        return zoneinfo.ZoneInfo(league.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return site_zone()


def session_zone(session: GameSession) -> zoneinfo.ZoneInfo:
    """The zone of the session's league, else the site's."""
    return league_zone(session.league if session.league_id else None)


def today_in(league: League | None) -> datetime.date:
    """Today on the league's clock: the day a session started now is played on."""
    return timezone.localdate(timezone=league_zone(league))
