from __future__ import annotations

from django.urls import path, register_converter

from games import views, views_exports, views_leagues, views_sharing, views_standings


class IdConverter:
    """Database ids: at most 18 digits, so an absurd id in a URL is a 404 rather than
    an integer overflow in the database driver (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<id:pk>/", views.session_detail, name="session_detail"),
    path("sessions/<id:pk>/scoreboard/", views.session_scoreboard, name="session_scoreboard"),
    path("sessions/<id:pk>/stakes/", views.session_stakes, name="session_stakes"),
    path("sessions/<id:pk>/close/", views.session_close, name="session_close"),
    path("sessions/<id:pk>/rejoin/", views.session_rejoin, name="session_rejoin"),
    path("sessions/<id:pk>/share/", views.session_share_reset, name="session_share_reset"),
    path("sessions/<id:pk>/history/", views.session_history, name="session_history"),
    path("sessions/<id:pk>/rounds/", views.round_create, name="round_create"),
    path("sessions/<id:pk>/rounds/preview/", views.round_preview, name="round_preview"),
    path("sessions/<id:pk>/rounds/arrange/", views.round_arrange, name="round_arrange"),
    path("sessions/<id:pk>/rounds/<id:round_pk>/", views.round_detail, name="round_detail"),
    path("sessions/<id:pk>/rounds/<id:round_pk>/edit/", views.round_edit, name="round_edit"),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/preview/",
        views.round_preview,
        name="round_edit_preview",
    ),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/arrange/",
        views.round_arrange,
        name="round_edit_arrange",
    ),
    path("sessions/<id:pk>/rounds/<id:round_pk>/delete/", views.round_delete, name="round_delete"),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/history/",
        views.round_history,
        name="round_history",
    ),
    # Leagues; the share link; standings, player pages, charts; exports and imports:
    # each module owns its URLs.
    *views_leagues.urlpatterns,
    *views_sharing.urlpatterns,
    *views_standings.urlpatterns,
    *views_exports.urlpatterns,
]
