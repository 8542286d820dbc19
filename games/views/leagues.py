"""Leagues: the list of a user's leagues, a new league, a league's page with its
sessions and members, and its house rules; invite links and claimed player names.
Thin views over games.services.leagues.

Who may do what: any signed-in user may start a league (and owns it); a league's
members see its pages; only its owners change its rules and members. To anyone who
is not a member a league does not exist (404), whatever its slug.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import figures
from games.access import (
    claim_for,
    gains,
    invite_for_token,
    invite_in,
    league_for,
    league_player_for,
    league_rights,
    leagues_of,
    member_in,
    role_of,
)
from games.currencies import league_currency
from games.forms.leagues import InviteForm, LeagueForm, MemberForm, RoleForm
from games.http import rules_reset
from games.models import League, LeagueInvite, Membership
from games.queries.players import claimed_in_file, claimed_player, unclaimed_players
from games.rules import PRESETS, RulesError
from games.services.leagues import (
    LeagueError,
    active_invites,
    add_member,
    change_role,
    claim_player,
    create_invite,
    create_league,
    defaults_of,
    invitable,
    invite_problem,
    join_by_invite,
    league_sessions,
    members,
    remove_member,
    revoke_invite,
    unclaim_player,
    update_rules,
)
from games.statuses import FORM_ERRORS, GONE
from games.zones import league_zone


@login_required
@require_safe
def league_list(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "leagues/list.html", {"leagues": leagues_of(request.user)})


def _league_form(request: HttpRequest, league: League | None = None) -> LeagueForm:
    """The league form: bound to a POST, or to a GET naming a preset (the htmx swap
    of the house rules when another preset is picked), else the league's values."""
    defaults = defaults_of(league) if league else None
    if request.method == "POST":
        return LeagueForm(request.POST, defaults=defaults)
    initial: dict = {}
    if league is not None:
        initial = {
            "name": league.name,
            "preset": league.preset,
            "money_per_point": league.money_per_point,
            "table_auto_save": league.table_auto_save,
            "time_zone": league.time_zone,
            "language": league.language,
            "currency": league.currency,
        }
    preset = request.GET.get("preset")
    if preset in PRESETS:
        initial |= {"preset": preset, "rules_preset": preset}
    return LeagueForm(initial=initial, defaults=defaults)


def _rules_partial(request: HttpRequest, form: LeagueForm) -> TemplateResponse | None:
    """An htmx request after picking a preset gets only its ceiling and house rules,
    open as the league's pages show them (leagues/rules.html): a pick closed them."""
    if request.htmx and request.method == "GET" and request.GET.get("preset") in PRESETS:
        return TemplateResponse(
            request,
            "partials/ruleset_fields.html#preset_rules",
            {"form": form, "open_rules": True},
        )
    return None


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    form = _league_form(request)
    if partial := _rules_partial(request, form):
        return partial
    if request.POST.get("action") == "reset_rules":
        context = {"form": form.reset_rules(), "league": None}
        return rules_reset(request, "leagues/rules.html", context)
    if request.method == "POST":
        if form.is_valid():
            try:
                league = create_league(
                    request.user,
                    name=form.cleaned_data["name"],
                    preset=form.cleaned_data["preset"],
                    overrides=form.overrides(),
                    money_per_point=form.cleaned_data["money_per_point"],
                    time_zone=form.cleaned_data["time_zone"],
                    language=form.cleaned_data["language"],
                    currency=form.cleaned_data["currency"],
                )
            except (RulesError, LeagueError) as error:
                form.add_error(None, getattr(error, "message", str(error)))
            else:
                messages.success(
                    request,
                    _("League {league} started: add its members.").format(league=league.name),
                )
                return redirect("games:league_detail", slug=league.slug)
        context = {"form": form, "league": None}
        return TemplateResponse(request, "leagues/rules.html", context, status=FORM_ERRORS)
    return TemplateResponse(request, "leagues/rules.html", {"form": form, "league": None})


@login_required
@require_safe
def league_detail(request: HttpRequest, slug: str) -> TemplateResponse:
    league, role = league_for(request.user, slug)
    return _detail_page(request, league, role)


def _detail_page(
    request: HttpRequest, league: League, role: str, **sent_back: MemberForm | InviteForm
) -> TemplateResponse:
    """The league page; with a form ``sent_back`` ("Add a member" as ``member_form``,
    the invite link's as ``invite_form``) as typed, its problems on it, answered 422."""
    rights = league_rights(role)
    context = {
        "league": league,
        "role": role,
        "owner": rights.manage,
        "scorer": rights.write,
        "members": members(league),
        "sessions": league_sessions(league)[:100],
        "member_form": sent_back.get("member_form") or MemberForm(),
        "roles": Membership.Role.choices,
        "rules": defaults_of(league),
        "invitable": invitable(league) if rights.manage else [],
        "invites": _invite_rows(request, league) if rights.manage else [],
        "invite_form": sent_back.get("invite_form") or InviteForm.as_chosen(request.GET),
        "my_player": claimed_player(league, request.user),
        "zone": league_zone(league),
        "currency": league_currency(league),
    }
    if context["my_player"] is None:
        context["file_claim"] = claimed_in_file(league, request.user)
        context["unclaimed"] = unclaimed_players(league)
    status = FORM_ERRORS if sent_back else 200
    return TemplateResponse(request, "leagues/detail.html", context, status=status)


def _invite_rows(request: HttpRequest, league: League) -> list[dict]:
    return [
        {
            "invite": invite,
            "url": request.build_absolute_uri(reverse("games:invite", args=[invite.token])),
        }
        for invite in active_invites(league)
    ]


@login_required
@require_http_methods(["GET", "POST"])
def league_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's house rules: every option of its preset with what it means.
    Owners change them; other members see them."""
    # Members see them; a change is an owner's (a 403 for anyone else).
    league, role = league_for(request.user, slug, "manage" if request.method == "POST" else "view")
    owner = league_rights(role).manage
    form = _league_form(request, league)
    if not owner:
        form.disable()
    if partial := _rules_partial(request, form):
        return partial
    context = {"form": form, "league": league, "owner": owner}
    if request.POST.get("action") == "reset_rules":  # owners only: see above
        return rules_reset(request, "leagues/rules.html", context | {"form": form.reset_rules()})
    if request.method == "POST":
        if form.is_valid():
            try:
                update_rules(
                    league,
                    name=form.cleaned_data["name"],
                    preset=form.cleaned_data["preset"],
                    overrides=form.overrides(),
                    money_per_point=form.cleaned_data["money_per_point"],
                    table_auto_save=form.cleaned_data["table_auto_save"],
                    time_zone=form.cleaned_data["time_zone"],
                    language=form.cleaned_data["language"],
                    currency=form.cleaned_data["currency"],
                )
            except RulesError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("House rules saved; new sessions start with them."))
                return redirect("games:league_detail", slug=league.slug)
        return TemplateResponse(request, "leagues/rules.html", context, status=FORM_ERRORS)
    return TemplateResponse(request, "leagues/rules.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a member (owners only). The members are listed on the league's page, so
    whoever opens this address (a link, the address bar) is sent to them there, with
    the access that page has, rather than answered a bare 405."""
    if request.method != "POST":
        league = league_for(request.user, slug)[0]
        return redirect(reverse("games:league_detail", args=[league.slug]) + "#members-title")
    league, role = league_for(request.user, slug, "manage")
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            added = add_member(league, form.cleaned_data["username"], form.cleaned_data["role"])
        except LeagueError as error:
            form.add_error("username", str(error))
        else:
            messages.success(
                request,
                _("{username} joined as {role}.").format(
                    username=added.user.get_username(), role=added.get_role_display()
                ),
            )
            # To the members, where the new one is listed (the form's own #add-member
            # would otherwise carry over to this page).
            return redirect(reverse("games:league_detail", args=[league.slug]) + "#members-title")
    # The name as typed, the reason beside it: a typo is fixed, not typed again.
    return _detail_page(request, league, role, member_form=form)


@login_required
@require_POST
def member_change(request: HttpRequest, slug: str, member_pk: int) -> HttpResponse:
    """Change a member's role, or remove them (``remove`` in the POST)."""
    league = league_for(request.user, slug, "manage")[0]
    membership = member_in(league, member_pk)
    name = membership.user.get_username()
    try:
        if "remove" in request.POST:
            replaced = remove_member(membership)
            said = [_("{username} is no longer a member.").format(username=name)]
            messages.success(request, " ".join(said + _links_replaced(replaced)))
        else:
            form = RoleForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("Pick a role: owner, scorer or viewer."))
            else:
                change_role(membership, form.cleaned_data["role"])
                messages.success(
                    request,
                    _("{username} is now {role}.").format(
                        username=name, role=membership.get_role_display()
                    ),
                )
    except LeagueError as error:
        messages.error(request, str(error))
    if membership.user_id == request.user.pk and role_of(request.user, league) is None:
        return redirect("games:league_list")  # they removed themselves
    return redirect("games:league_detail", slug=league.slug)


def _links_replaced(replaced: list[LeagueInvite]) -> list[str]:
    """What the owner is told of the invite links a removal replaced: a sentence, or
    none."""
    if not replaced:
        return []
    if len(replaced) == 1:
        return [
            _(
                "The league's invite link stopped working, so they cannot rejoin with it: a "
                "new link with the same role and end date is under Invite links below."
            )
        ]
    return [
        ngettext(
            "The league's {count} invite link stopped working, so they cannot rejoin with "
            "one: new links with the same roles and end dates are under Invite links below.",
            "The league's {count} invite links stopped working, so they cannot rejoin with "
            "one: new links with the same roles and end dates are under Invite links below.",
            len(replaced),
        ).format(count=len(replaced))
    ]


# --- Invite links -------------------------------------------------------------------------


def _to_invites(league: League, chosen: Mapping[str, object] | None = None) -> HttpResponse:
    """The league page at its invite links; ``chosen``: the invite form's choices, which it
    offers again (InviteForm.as_chosen)."""
    query = f"?{urlencode(chosen)}" if chosen else ""
    return redirect(reverse("games:league_detail", args=[league.slug]) + query + "#invites-title")


@login_required
@require_POST
def invite_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new invite link (owners only), listed on the league's page to copy. A choice
    the page does not offer (a forged or stale one) comes back as "Add a member" does:
    the page with the form as sent, what is wrong on top of it and beside the field."""
    league, role = league_for(request.user, slug, "manage")
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invite = create_invite(
                league, request.user, role=form.cleaned_data["role"], days=form.cleaned_data["days"]
            )
        except LeagueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _(
                    "Invite link made: whoever opens it joins as {role} until {day}. Copy it below."
                ).format(
                    role=invite.get_role_display().lower(),
                    day=figures.day(timezone.localdate(invite.expires_at, league_zone(league))),
                ),
            )
            return _to_invites(
                league, {name: form.cleaned_data[name] for name in InviteForm.CHOSEN}
            )
    return _detail_page(request, league, role, invite_form=form)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, slug: str, invite_pk: int) -> HttpResponse:
    league = league_for(request.user, slug, "manage")[0]
    revoke_invite(invite_in(league, invite_pk))
    messages.success(request, _("Invite link revoked: it no longer works."))
    return _to_invites(league)


@require_http_methods(["GET", "HEAD", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: "Join <league> as <role>" and a Join button for whoever is
    signed in; sign in (or sign up) first and come back; a link that expired or was
    revoked says so (410), one that never was is a 404."""
    found = invite_for_token(token)
    problem = invite_problem(found)
    if problem:
        context = {"invite": found, "problem": problem}
        return TemplateResponse(request, "leagues/invite.html", context, status=GONE)
    if not request.user.is_authenticated:
        messages.info(
            request,
            _("Sign in, or create an account, to join {league}.").format(league=found.league.name),
        )
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        try:
            joined = join_by_invite(found, request.user)
        except LeagueError as error:  # revoked or expired since the page was shown
            context = {"invite": found, "problem": str(error)}
            return TemplateResponse(request, "leagues/invite.html", context, status=GONE)
        role = joined.membership.get_role_display().lower()
        said = {"league": found.league.name, "role": role}
        if joined.outcome == "joined":
            messages.success(
                request, _("Welcome to {league}: you joined as {role}.").format(**said)
            )
        elif joined.outcome == "raised":
            messages.success(request, _("You are now {role} in {league}.").format(**said))
        else:
            messages.info(request, _("You are already in {league}, as {role}.").format(**said))
        return redirect("games:league_detail", slug=found.league.slug)
    role = role_of(request.user, found.league)
    context = {
        "invite": found,
        "role": role,
        "member": role is not None,
        "raises": role is not None and gains(role, found.role),
        "zone": league_zone(found.league),
    }
    return TemplateResponse(request, "leagues/invite.html", context)


# --- Claimed player names -----------------------------------------------------------------


def _to_player(pk: int) -> HttpResponse:
    return redirect(reverse("games:player_detail", args=[pk]) + "#claims-title")


@login_required
@require_POST
def player_claim(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """ "This is me": a member claims a player of the league's sessions."""
    league, _role, player = league_player_for(request.user, slug, player_pk)
    try:
        claim_player(league, player, request.user)
    except LeagueError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("You are {player} in {league}.").format(player=player.name, league=league.name),
        )
    return _to_player(player.pk)


@login_required
@require_POST
def player_unclaim(request: HttpRequest, slug: str, player_pk: int) -> HttpResponse:
    """Undo a claim: the claimant's own, or anyone's for the league's owners."""
    claim = claim_for(request.user, slug, player_pk)
    name, username = claim.player.name, claim.user.get_username()
    unclaim_player(claim)
    messages.success(
        request,
        _("{player} is no longer claimed by {username} in {league}.").format(
            player=name, username=username, league=claim.league.name
        ),
    )
    return _to_player(player_pk)
