"""The scripts' sentences go through their catalogue: every string literal of
static/js/ that reads as words for a person (a capital first, or a full stop, a
question mark or a colon at its end, and a space between two words) is an argument of
gettext or ngettext, which makemessages finds; and those are given literals, never a
variable it cannot read. CSS selectors, class lists, keys and event names have no
such shape. (tests/e2e/test_scripts_pseudo_locale.py checks what the scripts write
in a browser.)"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
MARKING = {"gettext", "ngettext", "pgettext", "npgettext"}
_WORD = re.compile(r"[A-Za-z]{2,}")
_ENDS = (".", "?", "!", ":", "…")
# After these (or at the start), "/" begins a regular expression, not a division.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {""}


@dataclass(frozen=True)
class Literal:
    """A string literal of a script: its text, line, and the call it is given to
    (the name before the innermost "(" it stands in, "" if none)."""

    text: str
    line: int
    call: str
    first_argument: bool


def _literals(source: str) -> tuple[list[Literal], list[tuple[int, str]]]:
    """The string literals of ``source``, and the marking calls given no literal
    first (their line and name). A small tokenizer: comments, strings, template
    literals, regular expressions and brackets."""
    literals: list[Literal] = []
    unread: list[tuple[int, str]] = []
    calls: list[str] = []  # the name before each "(" open, "" for other brackets
    last = ""  # the last significant character or word
    at_call_start = False
    i, line = 0, 1
    while i < len(source):
        char = source[i]
        if char == "\n":
            line += 1
        if char.isspace():
            i += 1
            continue
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = len(source) if i == -1 else i
            continue
        if source.startswith("/*", i):
            end = source.index("*/", i) + 2
            line += source.count("\n", i, end)
            i = end
            continue
        if char in "\"'`":
            end = i + 1
            while source[end] != char:
                end += 2 if source[end] == "\\" else 1
            text = source[i + 1 : end]
            literals.append(Literal(text, line, calls[-1] if calls else "", at_call_start))
            line += text.count("\n")
            at_call_start, last, i = False, "literal", end + 1
            continue
        if char == "/" and (last in _BEFORE_REGEX or last in {"return", "typeof"}):
            end, in_class = i + 1, False
            while source[end] != "/" or in_class:
                if source[end] == "\\":
                    end += 1
                elif source[end] == "[":
                    in_class = True
                elif source[end] == "]":
                    in_class = False
                end += 1
            at_call_start, last, i = False, "regex", end + 1
            continue
        word = re.match(r"[A-Za-z_$][\w$]*", source[i:])
        if word:
            if at_call_start and calls and calls[-1] in MARKING:
                unread.append((line, calls[-1]))
            at_call_start, last, i = False, word.group(), i + len(word.group())
            continue
        if at_call_start and calls and calls[-1] in MARKING and char != ")":
            unread.append((line, calls[-1]))
        at_call_start = False
        if char in "([{":
            calls.append(last if char == "(" else "")
            at_call_start = char == "("
        elif char in ")]}" and calls:
            calls.pop()
        last = char
        i += 1
    return literals, unread


def _reads_as_words(text: str) -> bool:
    words = len(_WORD.findall(text)) >= 2 and " " in text
    return words and (text[:1].isupper() or text.rstrip().endswith(_ENDS))


SCRIPT_FILES = sorted(SCRIPTS.glob("*.js"))


@pytest.mark.parametrize("script", SCRIPT_FILES, ids=lambda path: path.name)
def test_every_sentence_of_a_script_is_marked_for_translation(script: Path) -> None:
    literals, _ = _literals(script.read_text(encoding="utf-8"))
    unmarked = [
        f"{script.name}:{literal.line}: {literal.text!r}"
        for literal in literals
        if _reads_as_words(literal.text) and literal.call not in MARKING
    ]
    assert not unmarked, "shown in English whatever the language:\n" + "\n".join(unmarked)


@pytest.mark.parametrize("script", SCRIPT_FILES, ids=lambda path: path.name)
def test_gettext_is_given_the_sentence_itself(script: Path) -> None:
    _, unread = _literals(script.read_text(encoding="utf-8"))
    assert not unread, f"{script.name}: makemessages cannot read these calls: {unread}"


def test_the_check_finds_an_unmarked_sentence_and_passes_a_marked_one() -> None:
    source = """
      // "Not a string" in a comment.
      var a = "Offline — retrying…";
      var b = gettext("Tap the cut joker");
      var c = interpolate(ngettext("%(count)s round", "%(count)s rounds", n), { count: n });
      var d = "the server could not be reached.";
      var e = el.querySelector("fieldset.player input[type='radio']");
      var f = /["']/.test(x) ? "message message-error" : gettext(variable);
    """
    literals, unread = _literals(source)
    read_as_words = [literal for literal in literals if _reads_as_words(literal.text)]
    assert [(literal.text, literal.call) for literal in read_as_words] == [
        ("Offline — retrying…", ""),
        ("Tap the cut joker", "gettext"),
        ("the server could not be reached.", ""),
    ]
    assert unread == [(8, "gettext")]
