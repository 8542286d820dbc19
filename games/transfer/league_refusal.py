"""Why a league file is refused, in words its importer can act on: the error every
step of an import raises, and how a message quotes the file and names a place in it."""

from __future__ import annotations


class ImportRefused(Exception):
    """A league file that cannot be restored as it is; nothing was written."""

    def __init__(self, message: str) -> None:
        # Whatever a message quotes of the file can be written out: a page or a
        # terminal that is handed half a character (a lone surrogate) fails instead.
        super().__init__(message.encode("utf-8", "backslashreplace").decode("utf-8"))


def shown(text: str, limit: int = 40) -> str:
    """Text of the file as a message quotes it: at most ``limit`` characters, those
    that cannot be shown as they are (control characters, half a character) written
    as escapes, as Python writes them."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text[:limit]
    )


def path_text(path: list[str | int] | tuple[str | int, ...]) -> str:
    """A place in the file as its messages name one: sessions[2].overrides.first_drop."""
    text = "".join(f"[{part}]" if isinstance(part, int) else f".{shown(part)}" for part in path)
    return text.removeprefix(".")
