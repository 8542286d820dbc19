"""A league file's text read as JSON, refused where it is not JSON or holds text that
is not Unicode: what every later step of an import may take for granted."""

from __future__ import annotations

import json
import re

from django.utils.translation import gettext

from games.transfer.league_refusal import ImportRefused, path_text


def read_league_file(raw: bytes | str) -> object:
    """The file's JSON, or ImportRefused saying why it is not JSON, or where it holds
    text that is not Unicode."""
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise ImportRefused(gettext("This is not a league file: it is not UTF-8 text.")) from None
    except (ValueError, RecursionError) as error:
        # Translators: {error} is Python's own account of the JSON error, in English.
        refused = gettext("This is not a league file: it is not valid JSON ({error}).")
        raise ImportRefused(refused.format(error=error)) from None
    if _may_hold_surrogates(raw):
        _refuse_surrogates(data)
    return data


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


# Half a character as a JSON escape ("\ud800" to "\udfff"): the export never writes
# one (it writes names as they are), so a file without one is not walked.
_HALF_CHARACTER_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_HALF_CHARACTER = re.compile(r"[\ud800-\udfff]")


def _may_hold_surrogates(raw: bytes | str) -> bool:
    """Whether the JSON of ``raw`` may hold half a character (a lone surrogate): JSON
    reads one from an escape; Python's reading of JSON bytes lets one through where
    the bytes spell it, though UTF-8 does not allow that; a text handed in as a str
    may hold one as it is. Looked for in the text first (0.012 s for 6 MB), so that the
    walk over every string of a large file is made only when one may be there."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return True  # UTF-16 or UTF-32 (JSON reads those too), or surrogates
    elif _HALF_CHARACTER.search(raw):
        return True
    return _HALF_CHARACTER_ESCAPE.search(raw) is not None


def _refuse_surrogates(data: object) -> None:
    """Refuse a file with half a character anywhere, naming where: no database stores
    one, no page or terminal can show one, and a file the export wrote never holds
    one (the two halves of an emoji's escape make one character)."""
    found = _half_character_in(data)
    if found is None:
        return
    path, key, text = found
    where = path_text(path) or gettext("The file")
    if key:
        parent = path_text(path[:-1])
        if parent:
            where = gettext("A key of {path} ({where})").format(path=parent, where=where)
        else:
            where = gettext("A key of the file ({where})").format(where=where)
    half = _HALF_CHARACTER.search(text)
    assert half is not None  # _half_character_in found it there
    raise ImportRefused(
        gettext(
            "{where}: this is not text: U+{code} is half of a character (a lone surrogate), "
            "which nothing can store or show. Nothing was imported."
        ).format(where=where, code=f"{ord(half.group()):04X}")
    )


def _half_character_in(value: object) -> tuple[list[str | int], bool, str] | None:
    """Where the first half character is: the path to it (keys and indexes), whether
    it is in a key (the path's last part) rather than a value, and the text."""
    if isinstance(value, str):
        return ([], False, value) if _HALF_CHARACTER.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _HALF_CHARACTER.search(key):
                return [key], True, key
            found = _half_character_in(item)
            if found is not None:
                found[0].insert(0, key)
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _half_character_in(item)
            if found is not None:
                found[0].insert(0, index)
                return found
    return None
