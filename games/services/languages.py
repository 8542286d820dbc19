"""The languages the app's pages are in, as the database keeps them: the one an
account chose (``AccountSettings``), and the one a league's pages open in
(``League.language``) for whoever chose none. scorekeeper/languages.py decides
between them, the footer's choice and the browser's; docs/inside/languages.md says
in which order.

A language is a code of ``settings.LANGUAGES`` with a catalogue under locale/: a
stored code that is no longer one of them (a language taken off the list) counts as
no choice, never as an error."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import QuerySet
from django.utils import translation

from games.access import AnyUser
from games.models import AccountSettings, GameSession, League, LeagueInvite

# The app's routes of one session, by the start of their names: the session's pages,
# its rounds, and table mode's scorer's side (their ``pk`` is the session's).
SESSION_ROUTES = ("session_", "round_", "table_")


def supported(code: str | None) -> str:
    """``code`` as one of settings.LANGUAGES (``hi-IN`` is ``hi``), or "" when it is
    none of them."""
    if not code:
        return ""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def account_language(user: AnyUser) -> str:
    """The language ``user`` chose for their account, "" if none (or signed out)."""
    if not user.is_authenticated:
        return ""
    rows = AccountSettings.objects.filter(user_id=user.pk).values_list("language", flat=True)
    return supported(rows.first())


def save_account_language(user: AnyUser, code: str) -> None:
    """Keep ``code`` (one of settings.LANGUAGES, or "" for none) as ``user``'s choice,
    followed on every device they sign in on."""
    if code and supported(code) != code:
        raise ValueError(f"{code!r} is not one of the app's languages")
    with transaction.atomic():
        AccountSettings.objects.update_or_create(user=user, defaults={"language": code})


def league_language_for(view_name: str, kwargs: Mapping[str, object], user: AnyUser) -> str:
    """The language of the league whose page ``view_name`` (with the URL's ``kwargs``)
    is, "" where it is no league's page or its league sets none.

    A league's pages are its own (its slug), its sessions' with their rounds and the
    scorer's table mode, a share or TV link, a table link and an invite link. The
    links are open to whoever holds them; the rest only to the league's members, so
    for anyone else the league is not looked at: an outsider's "not found" must read
    the same whether the league exists or not (games/access.py)."""
    if not view_name.startswith("games:"):
        return ""
    rows = _league_languages(view_name.removeprefix("games:"), kwargs, user)
    return supported(rows.first()) if rows is not None else ""


def _league_languages(name: str, kwargs: Mapping[str, object], user: AnyUser) -> QuerySet | None:
    token = kwargs.get("token")
    if token is not None:
        if name.startswith("shared_"):
            found = GameSession.objects.filter(share_token=token)
        elif name.startswith("table_"):
            found = GameSession.objects.filter(table_token=token)
        elif name == "invite":
            found = LeagueInvite.objects.filter(token=token)
        else:
            return None
        return found.values_list("league__language", flat=True)
    if not user.is_authenticated:
        return None
    if "slug" in kwargs:
        leagues = League.objects.filter(slug=kwargs["slug"], memberships__user_id=user.pk)
        return leagues.values_list("language", flat=True)
    if "pk" in kwargs and name.startswith(SESSION_ROUTES):
        sessions = GameSession.objects.filter(pk=kwargs["pk"], league__memberships__user_id=user.pk)
        return sessions.values_list("league__language", flat=True)
    return None
