"""Every route of the app, in one place. The converters are registered first, so every
route below can use them: ``id`` for database ids, ``token`` for share links."""

from __future__ import annotations

from django.urls import path, register_converter

from games.views import accounts, leagues, rounds, sessions, sharing, standings, transfer


class IdConverter:
    """Database ids: at most 18 digits, so an absurd id in a URL is a 404 rather than
    an integer overflow in the database driver (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class ShareTokenConverter:
    """Share links: tokens are made by `models.new_share_token` (22 URL-safe
    characters); the range leaves room to change their length without breaking links."""

    regex = "[A-Za-z0-9_-]{16,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(ShareTokenConverter, "token")

app_name = "games"

urlpatterns = [
    path("", sessions.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    # A session, managing it, its live table and exports.
    path("sessions/new/", sessions.session_new, name="session_new"),
    path("sessions/<id:pk>/", sessions.session_detail, name="session_detail"),
    path("sessions/<id:pk>/scoreboard/", sessions.session_scoreboard, name="session_scoreboard"),
    path("sessions/<id:pk>/stakes/", sessions.session_stakes, name="session_stakes"),
    path("sessions/<id:pk>/close/", sessions.session_close, name="session_close"),
    path("sessions/<id:pk>/rejoin/", sessions.session_rejoin, name="session_rejoin"),
    path("sessions/<id:pk>/share/", sessions.session_share_reset, name="session_share_reset"),
    path("sessions/<id:pk>/history/", sessions.session_history, name="session_history"),
    path("sessions/<id:pk>/totals.svg", sessions.session_totals_chart, name="session_totals_chart"),
    path("sessions/<id:pk>/rounds.csv", transfer.session_rounds_csv, name="session_rounds_csv"),
    path("sessions/<id:pk>/rounds.xlsx", transfer.session_rounds_xlsx, name="session_rounds_xlsx"),
    # Its rounds.
    path("sessions/<id:pk>/rounds/", rounds.round_create, name="round_create"),
    path("sessions/<id:pk>/rounds/preview/", rounds.round_preview, name="round_preview"),
    path("sessions/<id:pk>/rounds/arrange/", rounds.round_arrange, name="round_arrange"),
    path("sessions/<id:pk>/rounds/<id:round_pk>/", rounds.round_detail, name="round_detail"),
    path("sessions/<id:pk>/rounds/<id:round_pk>/edit/", rounds.round_edit, name="round_edit"),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/preview/",
        rounds.round_preview,
        name="round_edit_preview",
    ),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/arrange/",
        rounds.round_arrange,
        name="round_edit_arrange",
    ),
    path("sessions/<id:pk>/rounds/<id:round_pk>/delete/", rounds.round_delete, name="round_delete"),
    path(
        "sessions/<id:pk>/rounds/<id:round_pk>/history/",
        rounds.round_history,
        name="round_history",
    ),
    # The read-only share link: no sign-in.
    path("shared/<token:token>/", sharing.shared_session, name="shared_session"),
    path("shared/<token:token>/scoreboard/", sharing.shared_scoreboard, name="shared_scoreboard"),
    path(
        "shared/<token:token>/totals.svg", sharing.shared_totals_chart, name="shared_totals_chart"
    ),
    # Leagues ("new" is reserved: no league takes that slug), standings, exports.
    path("leagues/", leagues.league_list, name="league_list"),
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/rules/", leagues.league_rules, name="league_rules"),
    path("leagues/<slug:slug>/members/", leagues.member_add, name="member_add"),
    path(
        "leagues/<slug:slug>/members/<id:member_pk>/",
        leagues.member_change,
        name="member_change",
    ),
    path("leagues/<slug:slug>/standings/", standings.league_standings, name="league_standings"),
    path(
        "leagues/<slug:slug>/standings.csv",
        transfer.league_standings_csv,
        name="league_standings_csv",
    ),
    path(
        "leagues/<slug:slug>/standings.xlsx",
        transfer.league_standings_xlsx,
        name="league_standings_xlsx",
    ),
    path("leagues/<slug:slug>/export.json", transfer.league_export, name="league_export"),
    path("players/<id:pk>/", standings.player_detail, name="player_detail"),
    # Not under leagues/: a league's own pages are leagues/<slug>/..., and a league
    # slugged "import" must not meet this page.
    path("import/league/", transfer.league_import, name="league_import"),
]
