"""Creating an account (signing in, out and resetting a password are Django's views)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_http_methods

from games.forms.accounts import SignupForm
from games.http import FORM_ERRORS, TOO_MANY_REQUESTS
from scorekeeper import security


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> TemplateResponse | HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            if not security.take_signup(security.client_ip(request)):
                context = {"form": form, "window": settings.SIGNUP_WINDOW_MINUTES}
                return TemplateResponse(
                    request, "registration/signup.html", context, status=TOO_MANY_REQUESTS
                )
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}. Start a session below.")
            return redirect("games:home")
        return TemplateResponse(
            request, "registration/signup.html", {"form": form}, status=FORM_ERRORS
        )
    return TemplateResponse(request, "registration/signup.html", {"form": form})
