from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_safe

from games.urls import account_urlpatterns
from scorekeeper.health import healthz


@require_safe
def hello(request: HttpRequest) -> HttpResponse:
    """The framework's floor for benchmarks/load.py: the whole middleware stack, no
    database, no template."""
    return HttpResponse("hello", content_type="text/plain")


urlpatterns = [
    path("", include("games.urls")),
    # The app's sign-in and password views, ahead of Django's under the same names.
    path("accounts/", include(account_urlpatterns)),
    # login/, logout/ and the password views; templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    # Without a trailing slash, as monitors and container health checks spell it.
    path("healthz", healthz, name="healthz"),
]
if settings.BENCHMARK_ROUTES:
    # Only for benchmarks (DJANGO_BENCHMARK_ROUTES): a production site has no use for it.
    urlpatterns.append(path("hello/", hello))

handler500 = "scorekeeper.errors.server_error"
