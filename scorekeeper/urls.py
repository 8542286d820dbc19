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
    # Ahead of Django's own under the same name: its errors answer 422 like every form.
    path("accounts/password_change/", accounts.password_change, name="password_change"),
    # login/, logout/ and the password views; templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("hello/", hello),
]

handler500 = "scorekeeper.errors.server_error"
