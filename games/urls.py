"""Every route of the app, in one place. The converters are registered first, so every
route below can use them: ``id`` for database ids, ``token`` for share links. Two
lists: the app's pages (``urlpatterns``, the "games" namespace), and its versions of
four of Django's account views (``account_urlpatterns``), under Django's own names,
which Django's templates and redirects reverse. The project's URLconf
(scorekeeper/urls.py) mounts both and adds what is not the app's: the admin, Django's
other account views, and the benchmarks' floor."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import URLPattern, path, register_converter

from games.views import (
    accounts,
    leagues,
    pwa,
    rounds,
    sessions,
    sharing,
    standings,
    table,
    table_scorer,
    transfer,
)


class IdConverter:
    """Database ids: at most 18 digits, so an absurd id in a URL is a 404 rather than
    an integer overflow in the database driver (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class ShareTokenConverter:
    """Share, table and invite links: tokens are made by `models.new_share_token` (22
    URL-safe characters); the range leaves room to change their length without
    breaking links."""

    regex = "[A-Za-z0-9_-]{16,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(ShareTokenConverter, "token")

app_name = "games"


def under(prefix: str) -> Callable[..., URLPattern]:
    """``path`` for a family of routes whose URLs share ``prefix``."""

    def route(rest: str, view: Callable, *, name: str) -> URLPattern:
        return path(prefix + rest, view, name=name)

    return route


session = under("sessions/<id:pk>/")
session_rounds = under("sessions/<id:pk>/rounds/")
session_round = under("sessions/<id:pk>/rounds/<id:round_pk>/")
shared = under("shared/<token:token>/")
session_table = under("sessions/<id:pk>/table/")
# Table mode's link: each phone picks its seat, then enters its own hand. The seat
# cookie is sent only under this prefix (games.access.give_seat).
at_table = under("table/<token:token>/")
league = under("leagues/<slug:slug>/")

urlpatterns = [
    path("", sessions.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", accounts.account, name="account"),
    # The footer's and the account page's choice of language (Django's set_language).
    path("language/", accounts.language, name="language"),
    # The installable app: its manifest, the service worker (at the root, so that its
    # scope is the whole site) and the page it shows without a network.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    # A session, managing it, its live table and exports.
    path("sessions/new/", sessions.session_new, name="session_new"),
    session("", sessions.session_detail, name="session_detail"),
    session("scoreboard/", sessions.session_scoreboard, name="session_scoreboard"),
    session("stakes/", sessions.session_stakes, name="session_stakes"),
    session("close/", sessions.session_close, name="session_close"),
    session("rejoin/", sessions.session_rejoin, name="session_rejoin"),
    session("leave/", sessions.session_leave, name="session_leave"),
    session("join/", sessions.session_join, name="session_join"),
    session("take-back/", sessions.session_take_back_change, name="session_take_back_change"),
    session("rename/", sessions.session_rename, name="session_rename"),
    session("share/", sessions.session_share_reset, name="session_share_reset"),
    session("rematch/", sessions.session_rematch, name="session_rematch"),
    session("history/", sessions.session_history, name="session_history"),
    session("totals.svg", sessions.session_totals_chart, name="session_totals_chart"),
    session("rounds.csv", transfer.session_rounds_csv, name="session_rounds_csv"),
    session("rounds.xlsx", transfer.session_rounds_xlsx, name="session_rounds_xlsx"),
    # Its rounds: the next one (saved, previewed and arranged while it is typed), then
    # one played, which the same preview and arrange views serve while it is edited.
    session_rounds("", rounds.round_create, name="round_create"),
    session_rounds("preview/", rounds.round_preview, name="round_preview"),
    session_rounds("arrange/", rounds.round_arrange, name="round_arrange"),
    session_round("", rounds.round_detail, name="round_detail"),
    session_round("edit/", rounds.round_edit, name="round_edit"),
    session_round("preview/", rounds.round_preview, name="round_edit_preview"),
    session_round("arrange/", rounds.round_arrange, name="round_edit_arrange"),
    session_round("delete/", rounds.round_delete, name="round_delete"),
    session_round("history/", rounds.round_history, name="round_history"),
    # The read-only share link: no sign-in.
    shared("", sharing.shared_session, name="shared_session"),
    shared("scoreboard/", sharing.shared_scoreboard, name="shared_scoreboard"),
    shared("totals.svg", sharing.shared_totals_chart, name="shared_totals_chart"),
    # The table view: the totals big, for a tablet or a TV across the table.
    shared("big/", sharing.shared_big, name="shared_big"),
    # Table mode, the scorer's side: the link, the seats filling up (polled), the cut
    # joker, a hand corrected or entered for a player, and Save.
    session_table("", table_scorer.table_panel, name="table_panel"),
    session_table("link/", table_scorer.table_link, name="table_link"),
    session_table("auto-save/", table_scorer.table_auto_save, name="table_auto_save"),
    session_table("cut/", table_scorer.table_cut, name="table_cut"),
    session_table("release/", table_scorer.table_release, name="table_release"),
    session_table("save/", table_scorer.table_save, name="table_save"),
    session_table("hands/<id:seat_pk>/", table_scorer.table_correct, name="table_correct"),
    session_table(
        "hands/<id:seat_pk>/preview/",
        table_scorer.table_correct_preview,
        name="table_correct_preview",
    ),
    # Table mode, a phone's side: no sign-in; the table link, then the seat cookie.
    at_table("", table.table_seats, name="table_seats"),
    at_table("hand/", table.table_hand, name="table_hand"),
    at_table("hand/preview/", table.table_hand_preview, name="table_hand_preview"),
    at_table("hand/status/", table.table_hand_status, name="table_hand_status"),
    at_table("leave/", table.table_leave, name="table_leave"),
    # Leagues ("new" is reserved: no league takes that slug), standings, exports.
    path("leagues/", leagues.league_list, name="league_list"),
    path("leagues/new/", leagues.league_new, name="league_new"),
    league("", leagues.league_detail, name="league_detail"),
    league("rules/", leagues.league_rules, name="league_rules"),
    league("members/", leagues.member_add, name="member_add"),
    league("members/<id:member_pk>/", leagues.member_change, name="member_change"),
    league("invites/", leagues.invite_create, name="invite_create"),
    league("invites/<id:invite_pk>/revoke/", leagues.invite_revoke, name="invite_revoke"),
    league("players/<id:player_pk>/claim/", leagues.player_claim, name="player_claim"),
    league("players/<id:player_pk>/unclaim/", leagues.player_unclaim, name="player_unclaim"),
    league("standings/", standings.league_standings, name="league_standings"),
    league("standings.csv", transfer.league_standings_csv, name="league_standings_csv"),
    league("standings.xlsx", transfer.league_standings_xlsx, name="league_standings_xlsx"),
    league("export.json", transfer.league_export, name="league_export"),
    path("players/<id:pk>/", standings.player_detail, name="player_detail"),
    # An invite link: the token is the key to join its league (signed in), while it works.
    path("invite/<token:token>/", leagues.invite, name="invite"),
    # Not under leagues/: a league's own pages are leagues/<slug>/..., and a league
    # slugged "import" must not meet this page.
    path("import/league/", transfer.league_import, name="league_import"),
]


# Sign-in and the password views as the app answers them (their errors answer 422, as
# every form's do), under Django's names and outside the namespace: the project
# mounts them at accounts/, ahead of Django's own views of the same names.
account_urlpatterns = [
    path("login/", accounts.sign_in, name="login"),
    path("password_change/", accounts.password_change, name="password_change"),
    path("password_reset/", accounts.password_reset, name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
]
