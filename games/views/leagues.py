"""Leagues: the list of a user's leagues, a new league, a league's page with its
sessions and members, and its house rules. Thin views over games.services.leagues.

Who may do what: any signed-in user may start a league (and owns it); a league's
members see its pages; only its owners change its rules and members. To anyone who
is not a member a league does not exist (404), whatever its slug.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.access import league_for, leagues_of, role_of
from games.forms.leagues import LeagueForm, MemberForm, RoleForm
from games.http import FORM_ERRORS
from games.models import League, Membership
from games.rules import PRESETS, RulesError
from games.services.leagues import (
    LeagueError,
    add_member,
    change_role,
    create_league,
    defaults_of,
    invitable,
    league_sessions,
    members,
    remove_member,
    update_rules,
)


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
        }
    preset = request.GET.get("preset")
    if preset in PRESETS:
        initial |= {"preset": preset, "rules_preset": preset}
    return LeagueForm(initial=initial, defaults=defaults)


def _rules_partial(request: HttpRequest, form: LeagueForm) -> TemplateResponse | None:
    """An htmx request after picking a preset gets only its ceiling and house rules."""
    if request.htmx and request.method == "GET" and request.GET.get("preset") in PRESETS:
        return TemplateResponse(
            request, "partials/ruleset_fields.html#preset_rules", {"form": form}
        )
    return None


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    form = _league_form(request)
    if partial := _rules_partial(request, form):
        return partial
    if request.method == "POST":
        if form.is_valid():
            try:
                league = create_league(
                    request.user,
                    name=form.cleaned_data["name"],
                    preset=form.cleaned_data["preset"],
                    overrides=form.overrides(),
                    money_per_point=form.cleaned_data["money_per_point"],
                )
            except (RulesError, LeagueError) as error:
                form.add_error(None, getattr(error, "message", str(error)))
            else:
                messages.success(request, f"League {league.name} started: add its members.")
                return redirect("games:league_detail", slug=league.slug)
        context = {"form": form, "league": None}
        return TemplateResponse(request, "leagues/rules.html", context, status=FORM_ERRORS)
    return TemplateResponse(request, "leagues/rules.html", {"form": form, "league": None})


@login_required
@require_safe
def league_detail(request: HttpRequest, slug: str) -> TemplateResponse:
    league, role = league_for(request.user, slug)
    context = {
        "league": league,
        "role": role,
        "owner": role == Membership.Role.OWNER,
        "scorer": role in (Membership.Role.OWNER, Membership.Role.SCORER),
        "members": members(league),
        "sessions": league_sessions(league)[:100],
        "member_form": MemberForm(),
        "roles": Membership.Role.choices,
        "rules": defaults_of(league),
        "invitable": invitable(league) if role == Membership.Role.OWNER else [],
    }
    return TemplateResponse(request, "leagues/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def league_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's house rules: every option of its preset with what it means.
    Owners change them; other members see them."""
    league, role = league_for(request.user, slug)
    owner = role == Membership.Role.OWNER
    if request.method == "POST" and not owner:
        raise PermissionDenied("Only the league's owners may change its rules.")
    form = _league_form(request, league)
    if not owner:
        form.disable()
    if partial := _rules_partial(request, form):
        return partial
    context = {"form": form, "league": league, "owner": owner}
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
                )
            except RulesError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "House rules saved; new sessions start with them.")
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
    league = league_for(request.user, slug, "manage")[0]
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            added = add_member(league, form.cleaned_data["username"], form.cleaned_data["role"])
        except LeagueError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, f"{added.user.get_username()} joined as {added.get_role_display()}."
            )
    else:
        messages.error(request, "Give a username and a role.")
    return redirect("games:league_detail", slug=league.slug)


@login_required
@require_POST
def member_change(request: HttpRequest, slug: str, member_pk: int) -> HttpResponse:
    """Change a member's role, or remove them (``remove`` in the POST)."""
    league = league_for(request.user, slug, "manage")[0]
    membership = league.memberships.select_related("user", "league").filter(pk=member_pk).first()
    if membership is None:
        raise Http404("No such member.")
    name = membership.user.get_username()
    try:
        if "remove" in request.POST:
            remove_member(membership)
            messages.success(request, f"{name} is no longer a member.")
        else:
            form = RoleForm(request.POST)
            if not form.is_valid():
                messages.error(request, "Pick a role: owner, scorer or viewer.")
            else:
                change_role(membership, form.cleaned_data["role"])
                messages.success(request, f"{name} is now {membership.get_role_display()}.")
    except LeagueError as error:
        messages.error(request, str(error))
    if membership.user_id == request.user.pk and role_of(request.user, league) is None:
        return redirect("games:league_list")  # they removed themselves
    return redirect("games:league_detail", slug=league.slug)
