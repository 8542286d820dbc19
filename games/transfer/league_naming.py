"""What an imported league is called: the name typed for it (held to the rule for
names) or the file's; beside one of the importer's leagues of that name, that name
with the day it came ("Friday club (imported 26 Nov 2026)", then ", 2" and on). Its
address is the file's where the name is the file's, else the name's
(services.leagues.fresh_slug numbers either where another league has it)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from games.models import League
from games.names import clean_name
from games.transfer.league_plan import LeaguePlan
from games.transfer.league_refusal import ImportRefused

_NAME_LENGTH = League._meta.get_field("name").max_length


def typed_name(name: str) -> str:
    """The name typed for the league, as the league form takes it; "" for none."""
    try:
        return clean_name(name, max_length=_NAME_LENGTH)
    except ValidationError as error:
        raise ImportRefused(
            gettext("The league's name: {problem}").format(problem=" ".join(error.messages))
        ) from None


def named(plan: LeaguePlan, owner: AbstractBaseUser | None, typed: str) -> LeaguePlan:
    """The plan with the league's name as the importer will see it."""
    final = typed or plan.league["name"]
    if _a_league_of_theirs_is_called(owner, final):
        # Beside a league of theirs of that name (the same file imported again, or the
        # name typed): two leagues of one name on every menu of theirs would not read
        # apart.
        assert owner is not None
        final = _imported_again(owner, final)
    if final == plan.league["name"]:
        return plan
    # Another name: the file's address was the file's name's.
    return replace(plan, league=plan.league | {"name": final, "slug": ""})


def renamed(asked: str, final: str) -> str:
    """What the importer is told of a league that came in under another name than the
    one asked for, one of their leagues having that name."""
    return gettext(
        "You already have a league called “{asked}”: the file came in as a second league beside "
        "it, “{final}”. Nothing in yours changed."
    ).format(asked=asked, final=final)


def names_taken(owner: AbstractBaseUser) -> dict[str, str]:
    """The names of ``owner``'s leagues, in lower case, each with the name a league
    imported under it would get instead (``named``): what the import page tells them
    before they import a file of a league they have (the same server it came from)."""
    names = League.objects.filter(memberships__user=owner).values_list("name", flat=True)
    return {name.lower(): _imported_again(owner, name) for name in set(names)}


def _a_league_of_theirs_is_called(owner: AbstractBaseUser | None, name: str) -> bool:
    """Whether ``owner`` is a member of a league of that name (only leagues they see:
    another club's name is never a reason, so nothing is told of it)."""
    return (
        owner is not None
        and League.objects.filter(memberships__user=owner, name__iexact=name).exists()
    )


def _imported_again(owner: AbstractBaseUser, name: str) -> str:
    """The name of a league imported beside one of the same name: the day it came, and
    how many came that day where that name is theirs too ("imported 26 Nov 2026, 2"),
    so the third import of a file on one day reads apart from the second. Picked
    before the import's transaction and not a unique column: two imports of one file
    by one owner at the same moment may still share a name (the owner renames one)."""
    day = date_format(timezone.localdate(), "DATE_FORMAT")
    for count in itertools.count(1):
        said = (
            # Translators: a league imported beside one of the same name ("Friday club
            # (imported 26 Nov 2026)").
            gettext("{name} (imported {day})")
            if count == 1
            # Translators: the second, third… league imported on one day beside one of
            # the same name ("Friday club (imported 26 Nov 2026, 2)").
            else gettext("{name} (imported {day}, {count})")
        )
        room = _NAME_LENGTH - len(said.format(name="", day=day, count=count))
        again = said.format(name=name[:room].rstrip(), day=day, count=count)
        if not _a_league_of_theirs_is_called(owner, again):
            return again
    raise AssertionError("unreachable: itertools.count never ends")
