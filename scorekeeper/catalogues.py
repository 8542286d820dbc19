"""The translation catalogues under locale/: made, compiled and checked.

Each language other than English (settings.LANGUAGES) has two catalogues,
``locale/<code>/LC_MESSAGES/django.po`` (the pages and the Python) and
``djangojs.po`` (the scripts). They are the source: the compiled ``.mo`` files and
the scripts' catalogue are made from them by every build (make, the image) and never
committed, so a catalogue and what is served from it cannot disagree.

- ``update``: Django's makemessages with the project's options (``MAKEMESSAGES``),
  for every language: what ``make messages`` runs;
- ``compile_all``: every ``.po`` to its ``.mo``, in Python (polib), so that neither
  the image nor a newcomer's machine needs GNU gettext to build;
- ``stale``: what makemessages would change in the catalogues, found by running it
  on a copy of the project: CI fails when a string was added, changed or removed
  without ``make messages``;
- ``incomplete``: the strings of each catalogue not yet translated, or marked fuzzy
  (as ``msgfmt --statistics`` counts them).

docs/inside/languages.md says how a language is added and a string translated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polib

DOMAINS = ("django", "djangojs")
# What makemessages leaves out: no string of the app lives there, and the generated
# scripts' catalogues (static/jsi18n) would be read back as sources.
IGNORED = (
    "staticfiles",
    "static/jsi18n",
    "tests",
    "docs",
    "site",
    "benchmarks",
    "deploy",
    "node_modules",
    "htmlcov",
)
# File names only, no line numbers: a line moved is no change to a catalogue, so
# `make messages` is needed when a string changes, not whenever code moves.
MAKEMESSAGES = (
    "--no-obsolete",
    "--add-location=file",
    *(f"--ignore={pattern}" for pattern in IGNORED),
)
# The header line makemessages rewrites on every run.
CREATED = "POT-Creation-Date"


def catalogue(locale_dir: Path, language: str, domain: str) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{domain}.po"


def translated_languages(languages: Iterable[tuple[str, str]], source: str) -> list[str]:
    """The codes of settings.LANGUAGES that have catalogues: all but the source's and
    its regional variants ("en-in" writes the source's words)."""
    return [code for code, _ in languages if code.split("-")[0] != source]


# --- Making and compiling --------------------------------------------------------------


def update(project: Path, languages: Iterable[str], python: str = sys.executable) -> None:
    """Run makemessages in ``project`` for each language and domain. A domain with no
    string marked yet has no catalogue (makemessages writes none)."""
    languages = list(languages)
    for domain in DOMAINS:
        command = [python, "manage.py", "makemessages", "--domain", domain, *MAKEMESSAGES]
        for language in languages:
            command += ["--locale", language]
        subprocess.run(command, cwd=project, check=True, stdout=subprocess.DEVNULL)
    for language in languages:
        for domain in DOMAINS:
            path = catalogue(project / "locale", language, domain)
            if path.exists():
                _fill_header(path, language)


def _fill_header(path: Path, language: str) -> None:
    """A catalogue makemessages just made has gettext's blank header, marked fuzzy
    (to be filled in): this fills it in. (Its plural rule makemessages took from
    Django's own catalogue of the language.)"""
    po = polib.pofile(str(path))
    if po.metadata.get("Language"):
        return
    po.header = f"The {language} catalogue of scorekeeper: docs/inside/languages.md."
    po.metadata["Project-Id-Version"] = "scorekeeper"
    po.metadata["Language"] = language
    # What msgfmt --check asks of a header; a translator's editor keeps them after.
    po.metadata["PO-Revision-Date"] = po.metadata.get("POT-Creation-Date", "")
    po.metadata["Last-Translator"] = "scorekeeper's contributors"
    po.metadata["Language-Team"] = language
    po.metadata_is_fuzzy = False
    po.save()


def compile_all(locale_dir: Path) -> list[Path]:
    """Every catalogue's ``.mo`` beside it, written whole or not at all (test
    processes may read one while another process writes it); the paths written."""
    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        handle, temporary = tempfile.mkstemp(dir=mo_path.parent, suffix=".mo-new")
        os.close(handle)
        try:
            polib.pofile(str(po_path)).save_as_mofile(temporary)
            # mkstemp makes it its writer's alone; the app may run as another user (the
            # image compiles as root and serves as scorekeeper): readable by all.
            os.chmod(temporary, 0o644)
            os.replace(temporary, mo_path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        written.append(mo_path)
    return written


def scripts_catalogues() -> list[Path]:
    """Where compilejsi18n writes each language's catalogue of the scripts' strings,
    which base.html loads as {% statici18n LANGUAGE_CODE %}."""
    from django.conf import settings

    folder = Path(settings.STATICI18N_ROOT) / "jsi18n"
    return [folder / code / "djangojs.js" for code, _ in settings.LANGUAGES]


def needs_compiling(locale_dir: Path, made_from: Iterable[Path] = ()) -> bool:
    """Whether a catalogue has no ``.mo``, or one older than itself; or one of the
    files ``made_from`` the catalogues is missing or older than one."""
    newest = 0.0
    for po_path in locale_dir.glob("*/LC_MESSAGES/*.po"):
        mo_path = po_path.with_suffix(".mo")
        newest = max(newest, po_path.stat().st_mtime)
        if not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            return True
    return any(not path.exists() or path.stat().st_mtime < newest for path in made_from)


# --- Checking ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Stale:
    """A catalogue ``makemessages`` would change: the strings it would add, remove or
    change (their msgids), or a catalogue missing or of no language listed."""

    path: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    problem: str = ""

    def __str__(self) -> str:
        if self.problem:
            return f"{self.path}: {self.problem}"
        parts = [
            f"{len(strings)} {what} ({', '.join(repr(s) for s in strings[:3])}"
            f"{', …' if len(strings) > 3 else ''})"
            for what, strings in (
                ("to add", self.added),
                ("to remove", self.removed),
                ("changed", self.changed),
            )
            if strings
        ]
        return f"{self.path}: " + "; ".join(parts)


def _entries(po: polib.POFile) -> dict[tuple[str, str], tuple]:
    """Each string of a catalogue by (context, msgid), with all makemessages writes of
    it: its plural, translations, flags, the files it comes from, extracted comments
    (the translators' notes of the code)."""
    return {
        (entry.msgctxt or "", entry.msgid): (
            entry.msgid_plural,
            entry.msgstr,
            tuple(sorted(entry.msgstr_plural.items())),
            tuple(sorted(entry.flags)),
            tuple(sorted({file for file, _ in entry.occurrences})),
            # Its words, not where a line breaks them: editors (polib too) wrap a
            # long comment at other places than xgettext does.
            " ".join(entry.comment.split()),
            entry.obsolete,
        )
        for entry in po
    }


def _header(po: polib.POFile) -> dict[str, str]:
    return {key: value for key, value in po.metadata.items() if key != CREATED}


def differences(path: str, kept: polib.POFile, made: polib.POFile) -> Stale | None:
    """How the catalogue makemessages ``made`` differs from the one ``kept``, if it
    does; the header's creation date aside."""
    before, after = _entries(kept), _entries(made)
    added = tuple(key[1] for key in sorted(after.keys() - before.keys()))
    removed = tuple(key[1] for key in sorted(before.keys() - after.keys()))
    changed = tuple(
        key[1] for key in sorted(before.keys() & after.keys()) if before[key] != after[key]
    )
    if not (added or removed or changed) and _header(kept) == _header(made):
        return None
    if not (added or removed or changed):
        return Stale(path, problem="its header differs from what makemessages writes")
    return Stale(path, added, removed, changed)


def _copy_project(project: Path, into: Path) -> Path:
    """The project's sources, without what makemessages ignores or cannot need."""
    copy = into / "project"
    shutil.copytree(
        project,
        copy,
        ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "*.mo", "*.sqlite3*", "backups", "media", *IGNORED
        ),
        symlinks=True,
    )
    return copy


def stale(
    project: Path,
    locale_dir: Path,
    languages: Iterable[str],
    python: str = sys.executable,
) -> list[Stale]:
    """The catalogues of ``locale_dir`` that makemessages, run on ``project``'s
    sources, would change; and any language without its catalogues, or catalogue of
    no language listed."""
    languages = list(languages)
    found: list[Stale] = []
    listed = {path.name for path in locale_dir.iterdir() if path.is_dir()}
    for extra in sorted(listed - set(languages)):
        found.append(Stale(f"locale/{extra}", problem="a catalogue of no language listed"))
    with tempfile.TemporaryDirectory(prefix="catalogues-") as temporary:
        copy = _copy_project(project, Path(temporary))
        shutil.rmtree(copy / "locale", ignore_errors=True)
        shutil.copytree(locale_dir, copy / "locale", ignore=shutil.ignore_patterns("*.mo"))
        update(copy, languages, python)
        for language in languages:
            for domain in DOMAINS:
                kept = catalogue(locale_dir, language, domain)
                made = catalogue(copy / "locale", language, domain)
                shown = f"locale/{language}/LC_MESSAGES/{domain}.po"
                if kept.exists() != made.exists():
                    problem = "missing" if made.exists() else "no string marked for it"
                    found.append(Stale(shown, problem=f"{problem}: run make messages"))
                elif kept.exists():
                    kept_po, made_po = polib.pofile(str(kept)), polib.pofile(str(made))
                    difference = differences(shown, kept_po, made_po)
                    if difference:
                        found.append(difference)
    return found


@dataclass(frozen=True)
class Progress:
    """How far one catalogue's translation is, as msgfmt --statistics counts."""

    path: str
    translated: int
    untranslated: int
    fuzzy: int

    @property
    def complete(self) -> bool:
        return not (self.untranslated or self.fuzzy)

    def __str__(self) -> str:
        return (
            f"{self.path}: {self.translated} translated, {self.untranslated} untranslated, "
            f"{self.fuzzy} fuzzy"
        )


def progress(locale_dir: Path) -> list[Progress]:
    """Each catalogue's counts."""
    found = []
    for path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        po = polib.pofile(str(path))
        found.append(
            Progress(
                str(path.relative_to(locale_dir.parent)),
                len(po.translated_entries()),
                len(po.untranslated_entries()),
                len(po.fuzzy_entries()),
            )
        )
    return found
