"""Nothing of the pages is left in English: every page the access matrix visits
(tests/support/access_matrix.py), as each actor who may see it, each fragment htmx
asks for and each page a write leads to (with what it says of the write), rendered in
a pseudo-language whose catalogue writes every message of the app's in wide letters
inside ⟦ ⟧ (tests/support/pseudo_locale.py). What a person reads of it (its text,
tooltips, labels for screen readers, a chart's words, a CSV's cells) then holds no
plain ASCII word but names, numbers, card codes and Django's own words
(tests/support/untranslated.py): a word left is a string nobody marked, or a sentence
put together out of the catalogue's sight ("Asha and Ben").
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import override_settings

from games.models import GameSession, League, LeagueInvite, Player
from games.rules import RANK_NAMES
from games.views.pwa import APP_NAME
from scorekeeper import catalogues
from tests.support.access_matrix import MATRIX, Case, path_of
from tests.support.pseudo_locale import write_pseudo_catalogue
from tests.support.untranslated import english_left, whole_words, written_alike
from tests.support.visible_text import Piece, visible_text
from tests.support.world import ACTORS, World

pytestmark = pytest.mark.django_db

# The pseudo-language: a private-use tag (BCP 47's "x-"), of which neither Django nor
# any app has a catalogue. For a message missing from a catalogue Django falls back to
# the default language's (LANGUAGE_CODE, English), so Django's own words (a form's
# "This field is required.", the admin's) stay English here and are told apart by
# their English msgids. A code Django knows ("eo"; "en-xa", which reads Django's "en"
# catalogue first) would bring its translations of its own words, which the test could
# not tell from the app's English left unmarked.
PSEUDO = "x-pseudo"

# What only programs read: a service worker, a league file, the health check, the load
# benchmark's floor; and the spreadsheets, binary, whose words are the CSV's (read).
READ_BY_PROGRAMS = {
    "games:service_worker",
    "games:league_export",
    "games:session_rounds_xlsx",
    "games:league_standings_xlsx",
    "healthz",
    "hello/",
}
# The footer's choice of language: its write chooses Hindi for the next page.
LEAVES_THE_LANGUAGE = {"games:language"}

# Text that is code, the same in every language: a command to type.
CODE = ("code", "kbd", "samp")
# A card picker's button: a rank (A, 2 … 10, J, Q, K), notation as the cards' codes are.
RANKS = frozenset(rank for rank in RANK_NAMES if rank)


# --- The pseudo-language ------------------------------------------------------------------


@pytest.fixture(scope="session")
def _pseudo_catalogues(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of LOCALE_PATHS holding the pseudo-language's catalogue: every message
    of the app's (any translated language's catalogue holds them all), widened."""
    folder = tmp_path_factory.mktemp("pseudo-locale")
    language = catalogues.translated_languages(settings.LANGUAGES, settings.LANGUAGE_CODE)[0]
    source = catalogues.catalogue(settings.BASE_DIR / "locale", language, "django")
    write_pseudo_catalogue(source, folder, PSEUDO)
    return folder


@pytest.fixture(scope="module", autouse=True)
def _pseudo_language(_pseudo_catalogues: Path) -> Iterator[None]:
    with override_settings(
        LANGUAGES=[*settings.LANGUAGES, (PSEUDO, "Pseudo")],
        LOCALE_PATHS=[*settings.LOCALE_PATHS, _pseudo_catalogues],
    ):
        yield


@pytest.fixture(scope="module")
def alike() -> frozenset[str]:
    """What every page may write as it is (names aside): the app's name and the
    package's (the footer's "scorekeeper 1.0.0"), and ``written_alike``'s."""
    return frozenset({APP_NAME, APP_NAME.lower(), *written_alike(PSEUDO)})


@pytest.fixture(scope="module")
def alike_words(alike: frozenset[str]) -> re.Pattern[str]:
    return whole_words(alike)


# --- The pages ----------------------------------------------------------------------------


def _read_as(method: str, case: Case, actor: str, errors: set[int]) -> bool:
    """Whether ``actor``'s request answers a page to read and writes nothing: a page
    (200), a form's problems (422), a refusal's page (403, 404: the first of each, as
    every refusal shows the same page), or a fragment htmx asks for (a round's
    preview: a POST answered 200)."""
    status = case.expect[actor]
    if case.writes_as(actor) or not isinstance(status, int):
        return False
    if method == "GET" and status in (403, 404) and status not in errors:
        errors.add(status)
        return True
    return status == 200 or (method == "POST" and status == 422)


def _writer(case: Case) -> str | None:
    """Who the page after a write is visited as: the actor with the most rights who
    writes (the owner, mostly)."""
    return next((actor for actor in reversed(ACTORS) if case.writes_as(actor)), None)


def _visits() -> Iterator:
    errors: set[int] = set()
    for key, spec in MATRIX.items():
        if key in READ_BY_PROGRAMS:
            continue
        for method in ("GET", "POST"):
            for case in spec.methods.get(method, ()):
                label = f"{key}-{method}" + (f"-{case.label}" if case.label else "")
                for actor in ACTORS:
                    if _read_as(method, case, actor, errors):
                        yield pytest.param(key, method, case, actor, id=f"{label}-{actor}")
                writer = _writer(case)
                if method == "POST" and writer and key not in LEAVES_THE_LANGUAGE:
                    yield pytest.param(key, "write", case, writer, id=f"{label}-{writer}-after")


def _answer(world: World, key: str, method: str, case: Case, actor: str):
    client = world.client(actor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
    path = path_of(world, key, MATRIX[key].on)
    if method == "GET":
        return client.get(path)
    data = case.body(world) if case.body else {}
    if method == "write":
        return client.post(path, data, follow=True)  # the page it leads to, with its message
    if case.expect[actor] == 422:
        return client.post(path, data)  # a form posted: the page with its problems
    # A fragment: htmx sends the page's language with it (base.html).
    return client.post(path, data, headers={"HX-Request": "true", "X-Page-Language": PSEUDO})


def _read(response) -> list[Piece]:
    """What a person reads of the answer: a page's or a chart's words, a spreadsheet's
    cells, what a phone shows of the installed app."""
    kind = response["Content-Type"].split(";")[0]
    if kind in ("text/html", "image/svg+xml"):
        return visible_text(response.content.decode())
    if kind == "text/csv":
        rows = csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
        return [Piece(("csv",), "", cell) for row in rows for cell in row if cell.strip()]
    if kind == "application/manifest+json":
        manifest = json.loads(response.content)
        return [Piece(("manifest",), key, manifest[key]) for key in ("name", "description")]
    raise AssertionError(f"what does a person read of {kind}? (or add it to READ_BY_PROGRAMS)")


# --- What the world named -----------------------------------------------------------------


def _names() -> set[str]:
    """What the world's people named (players, sessions, leagues, accounts) and its
    links' tokens (random letters)."""
    names = set(Player.objects.values_list("name", flat=True))
    names |= set(GameSession.objects.values_list("name", flat=True))
    for field in ("name", "slug"):
        names |= set(League.objects.values_list(field, flat=True))
    for field in ("username", "email"):
        names |= set(User.objects.values_list(field, flat=True))
    for tokens in GameSession.objects.values_list("share_token", "table_token"):
        names |= set(tokens)
    names |= set(LeagueInvite.objects.values_list("token", flat=True))
    return {name for name in names if name}


@dataclass(frozen=True)
class Kept:
    """What a page of the world may show as it is."""

    alike: frozenset[str]  # a whole text written alike (a time zone in the list)
    words: tuple[re.Pattern[str], ...]  # names first ("Tuesday Club", not "Tuesday")

    def english_in(self, piece: Piece) -> list[str]:
        """The words of ``piece`` that nobody translated."""
        text = " ".join(piece.text.split())
        if text in self.alike or text in RANKS or piece.within(*CODE):
            return []
        return english_left(text, *self.words)


# --- The test -----------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "method", "case", "actor"), list(_visits()))
def test_every_word_a_page_shows_is_translated(
    world: World,
    alike: frozenset[str],
    alike_words: re.Pattern[str],
    key: str,
    method: str,
    case: Case,
    actor: str,
) -> None:
    named = _names()
    response = _answer(world, key, method, case, actor)
    assert response.status_code == (200 if method == "write" else case.expect[actor])
    assert response["Content-Language"] == PSEUDO  # the page is in the pseudo-language
    # The names before a write and after it: those it gave, and those it took away.
    names = whole_words(named | _names())
    kept = Kept(alike, (names, alike_words))
    left = [
        f"  {piece.where} {' '.join(piece.text.split())!r}: {words}"
        for piece in _read(response)
        if (words := kept.english_in(piece))
    ]
    if left:
        pytest.fail(f"{key} as {actor}, in English:\n" + "\n".join(left), pytrace=False)
