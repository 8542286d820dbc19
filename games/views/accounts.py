"""Creating an account, the account page, the choice of language, and Django's views
of signing in and of changing or resetting a password with their problems answered
422 (signing out is Django's own). Sign-ups are open to anyone, or
(settings.SIGNUPS = "invite") only to someone who came by a league's invite link that
still works."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import override
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from games.access import invite_for_token
from games.forms.accounts import (
    EmailForm,
    LanguageForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SignupForm,
)
from games.models import LeagueInvite
from games.queries.players import my_players
from games.services.languages import account_language, save_account_language
from games.services.leagues import invite_problem
from games.statuses import BY_INVITATION, FORM_ERRORS, SERVICE_UNAVAILABLE, TOO_MANY_REQUESTS
from scorekeeper import security


def _next_page(request: HttpRequest) -> str:
    """Where to go after signing up (an invite link sends people here and back), if
    it is a page of this site; "" otherwise."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe else ""


def _invite_behind(next_page: str) -> LeagueInvite | None:
    """The league invite whose link ``next_page`` is, while the link works: an invite
    link sends a signed-out visitor to sign in or up with it as ``next``."""
    try:
        match = resolve(urlsplit(next_page).path)
    except Resolver404:
        return None
    if match.view_name != "games:invite":
        return None
    try:
        invite = invite_for_token(match.kwargs["token"])
    except Http404:
        return None
    return None if invite_problem(invite) else invite


def _may_sign_up(next_page: str) -> bool:
    return settings.SIGNUPS == "open" or _invite_behind(next_page) is not None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> TemplateResponse | HttpResponse:
    next_page = _next_page(request)
    if not _may_sign_up(next_page):
        # By invitation only, and no working invite link came along: nothing to fill
        # in, and a form posted anyway makes no account.
        context = {"by_invitation": True, "next": next_page}
        return TemplateResponse(request, "registration/signup.html", context, status=BY_INVITATION)
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                allowed = security.take_signup(security.client_ip(request))
            except security.LimitUnavailable:
                context = {"form": form, "paused": True, "next": next_page}
                return TemplateResponse(
                    request, "registration/signup.html", context, status=SERVICE_UNAVAILABLE
                )
            if not allowed:
                context = {
                    "form": form,
                    "window": settings.SIGNUP_WINDOW_MINUTES,
                    "next": next_page,
                }
                return TemplateResponse(
                    request, "registration/signup.html", context, status=TOO_MANY_REQUESTS
                )
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if next_page:
                messages.success(
                    request, _("Welcome, {username}.").format(username=user.get_username())
                )
                return redirect(next_page)
            messages.success(
                request,
                _("Welcome, {username}. Start a session below.").format(
                    username=user.get_username()
                ),
            )
            return redirect("games:home")
        return TemplateResponse(
            request,
            "registration/signup.html",
            {"form": form, "next": next_page},
            status=FORM_ERRORS,
        )
    return TemplateResponse(request, "registration/signup.html", {"form": form, "next": next_page})


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> TemplateResponse | HttpResponse:
    """Your account: the e-mail a forgotten password's link goes to, and the way to
    change the password."""
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request, _("E-mail saved.") if form.instance.email else _("E-mail removed.")
        )
        return redirect("games:account")
    context = {
        "form": form,
        "my_players": my_players(request.user),
        "account_language": account_language(request.user),
    }
    status = FORM_ERRORS if form.is_bound else 200
    return TemplateResponse(request, "registration/account.html", context, status=status)


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """The footer's choice of language, and the account page's: Django's set_language
    keeps it in this browser (its cookie) and goes back to the page it was made on.
    Signed in, the account keeps it too, for every device it signs in on. None chosen
    (the account page's first option): the league's language, else the browser's."""
    form = LanguageForm(request.POST)
    if not form.is_valid():  # not one of the languages: back, nothing changed
        return set_language(request)
    code = form.cleaned_data["language"]
    response = set_language(request)
    if not code:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    if request.user.is_authenticated:
        save_account_language(request.user, code)
        if code:  # said on the next page, in its language (none chosen: the list says so)
            with override(code):
                messages.success(request, _("Your choice of language is saved on your account."))
    return response


class _SentBack:
    """Django's own form views (signing in, changing or resetting a password), with a
    form sent back with problems answered 422, as every form of the app is (their
    pages list the problems at the top: partials/form_fields)."""

    def form_invalid(self, form: Form) -> HttpResponse:
        context = self.get_context_data(form=form)  # type: ignore[attr-defined]
        return self.render_to_response(context, status=FORM_ERRORS)  # type: ignore[attr-defined]


class _Login(_SentBack, LoginView):
    def get_context_data(self, **kwargs) -> dict:
        # "Create an account" is offered where one may be made: anywhere while sign-ups
        # are open, and by invitation only on the way back to a working invite link.
        context = super().get_context_data(**kwargs)
        return context | {"offer_signup": _may_sign_up(_next_page(self.request))}


class _PasswordChange(_SentBack, PasswordChangeView):
    form_class = PasswordChangeForm


class _PasswordReset(_SentBack, PasswordResetView):
    form_class = PasswordResetForm


class _PasswordResetConfirm(_SentBack, PasswordResetConfirmView):
    form_class = SetPasswordForm


sign_in = _Login.as_view()
password_change = _PasswordChange.as_view()
password_reset = _PasswordReset.as_view()
password_reset_confirm = _PasswordResetConfirm.as_view()
