"""A gettext catalogue written for a test: a compiled ``.mo`` file of a few entries,
in a folder Django reads as one of its LOCALE_PATHS."""

from __future__ import annotations

import struct
from pathlib import Path

# Hindi's plural forms, as its catalogue's header says them.
HEADER = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n > 1);\n"


def write_catalogue(
    folder: Path, language: str, entries: dict[str | tuple[str, str], str | tuple[str, ...]]
) -> Path:
    """``folder/<language>/LC_MESSAGES/django.mo`` holding ``entries``: a message and
    its translation, or (singular, plural) and a translation for each plural form."""
    messages = {"": HEADER} | {
        ("\0".join(key) if isinstance(key, tuple) else key): (
            "\0".join(value) if isinstance(value, tuple) else value
        )
        for key, value in entries.items()
    }
    path = folder / language / "LC_MESSAGES" / "django.mo"
    path.parent.mkdir(parents=True)
    path.write_bytes(_compiled(messages))
    return path


def _compiled(messages: dict[str, str]) -> bytes:
    """The GNU .mo format: a header, two tables of (length, offset), then the strings."""
    keys = sorted(messages)
    originals = [key.encode() for key in keys]
    translations = [messages[key].encode() for key in keys]
    count = len(keys)
    tables = 7 * 4
    strings = tables + 2 * 8 * count
    data, index = b"", []
    for text in originals + translations:
        index.append((len(text), strings + len(data)))
        data += text + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, count, tables, tables + 8 * count, 0, 0)
    return head + b"".join(struct.pack("<2I", *entry) for entry in index) + data
