from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_safe

from games.views import accounts


@require_safe
def hello(request: HttpRequest) -> HttpResponse:
    """The framework's floor for benchmarks/load.py: the whole middleware stack, no
    database, no template."""
    return HttpResponse("hello", content_type="text/plain")


urlpatterns = [
    path("", include("games.urls")),
    # Ahead of Django's own under the same names: their errors answer 422 like every form.
    path("accounts/login/", accounts.sign_in, name="login"),
    path("accounts/password_change/", accounts.password_change, name="password_change"),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    # login/, logout/ and the password views; templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("hello/", hello),
]

handler500 = "scorekeeper.errors.server_error"
