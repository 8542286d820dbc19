"""The translation catalogues (scorekeeper/catalogues.py): compiled without GNU
gettext, counted as msgfmt --statistics counts them, and found stale when
makemessages would change them."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings

from scorekeeper import catalogues

LOCALE = settings.BASE_DIR / "locale"
needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="makemessages needs GNU gettext (apt: gettext)"
)


def small_catalogue(folder: Path, entries: list[polib.POEntry]) -> Path:
    path = folder / "hi" / "LC_MESSAGES" / "django.po"
    path.parent.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": "hi",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    po.extend(entries)
    po.save(str(path))
    return path


def test_a_catalogue_compiles_to_what_python_reads_without_its_fuzzy_strings(
    tmp_path: Path,
) -> None:
    fuzzy = polib.POEntry(msgid="Drop", msgstr="ड्रॉप", flags=["fuzzy"])
    small_catalogue(
        tmp_path,
        [
            polib.POEntry(msgid="Sign out", msgstr="साइन आउट"),
            polib.POEntry(
                msgid="%(n)s round",
                msgid_plural="%(n)s rounds",
                msgstr_plural={0: "%(n)s राउंड", 1: "%(n)s राउंड"},
            ),
            fuzzy,
        ],
    )
    assert catalogues.needs_compiling(tmp_path)
    [written] = catalogues.compile_all(tmp_path)
    assert not catalogues.needs_compiling(tmp_path)
    with written.open("rb") as file:
        read = gettext.GNUTranslations(file)
    assert read.gettext("Sign out") == "साइन आउट"
    assert read.ngettext("%(n)s round", "%(n)s rounds", 3) == "%(n)s राउंड"
    assert read.gettext("Drop") == "Drop"  # a fuzzy guess is not served, as msgfmt does
    # Readable by the user the app runs as, not only by whoever compiled it (the
    # image compiles as root and serves as scorekeeper).
    assert written.stat().st_mode & 0o777 == 0o644


def test_progress_counts_what_is_left_to_translate(tmp_path: Path) -> None:
    small_catalogue(
        tmp_path,
        [
            polib.POEntry(msgid="Sign out", msgstr="साइन आउट"),
            polib.POEntry(msgid="Show", msgstr=""),
            polib.POEntry(msgid="Drop", msgstr="ड्रॉप", flags=["fuzzy"]),
        ],
    )
    [found] = catalogues.progress(tmp_path)
    assert (found.translated, found.untranslated, found.fuzzy) == (1, 1, 1)
    assert not found.complete
    assert "1 untranslated, 1 fuzzy" in str(found)


def test_only_the_creation_date_and_line_breaks_may_differ() -> None:
    kept = polib.POFile()
    kept.metadata = {"POT-Creation-Date": "2026-11-01 10:00+0000", "Language": "hi"}
    kept.append(polib.POEntry(msgid="Sign out", msgstr="साइन आउट", occurrences=[("a.html", "")]))
    made = polib.POFile()
    made.metadata = {"POT-Creation-Date": "2026-11-29 10:00+0000", "Language": "hi"}
    made.append(polib.POEntry(msgid="Sign out", msgstr="साइन आउट", occurrences=[("a.html", "")]))
    assert catalogues.differences("django.po", kept, made) is None
    # A translators' note wrapped elsewhere (an editor's line length) is the same note.
    kept[0].comment = "Translators: who signs\nout"
    made[0].comment = "Translators: who\nsigns out"
    assert catalogues.differences("django.po", kept, made) is None
    made[0].occurrences = [("b.html", "")]  # the string moved to another file
    assert catalogues.differences("django.po", kept, made).changed == ("Sign out",)


@needs_gettext
def test_the_catalogues_are_what_makemessages_makes_of_the_code(tmp_path: Path) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy, ignore=shutil.ignore_patterns("*.mo", "*.stamp"))
    assert catalogues.stale(settings.BASE_DIR, copy, ["hi"]) == []


@needs_gettext
def test_a_catalogue_behind_the_code_is_stale(tmp_path: Path) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy, ignore=shutil.ignore_patterns("*.mo", "*.stamp"))
    path = catalogues.catalogue(copy, "hi", "django")
    po = polib.pofile(str(path))
    po.remove(po.find("Sign out"))  # a string added to the code, not to the catalogue
    po.append(polib.POEntry(msgid="A string the code no longer has", msgstr="पुराना"))
    po.find("Leagues").occurrences = [("templates/elsewhere.html", "")]
    po.save()
    (copy / "ta").mkdir()  # a catalogue of no language listed

    found = catalogues.stale(settings.BASE_DIR, copy, ["hi"])

    assert [str(problem) for problem in found if problem.problem] == [
        "locale/ta: a catalogue of no language listed"
    ]
    [stale] = [problem for problem in found if not problem.problem]
    assert stale.path == "locale/hi/LC_MESSAGES/django.po"
    assert stale.added == ("Sign out",)
    assert stale.removed == ("A string the code no longer has",)
    assert stale.changed == ("Leagues",)
    assert "1 to add ('Sign out')" in str(stale)
