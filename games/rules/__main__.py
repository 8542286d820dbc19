"""The rules service's command line (DESIGN.md): JSON in, JSON out.

    python -m games.rules score [FILE]     score one round (FILE or stdin; a worked
                                           example's "input" is scored too)
    python -m games.rules arrange --ruleset R --cut C [--on-deal] "cards..."
                                           the best grouping of a hand and its points
                                           (--on-deal: as dealt, 21-kodai)
    python -m games.rules session [FILE]   replay a session: each round's running
                                           totals, who is out, rejoin offers, the
                                           next dealer and the winner
    python -m games.rules presets          every preset with every option

Exit 0 with the result on stdout; exit 2 with {"error": ..., "field": ...} on bad
input. It never prints a traceback, and needs only the standard library. Its words
are English whatever language an app around it speaks (:func:`.speech.english`):
they are a contract, which programs read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from .api import arrange_request, score_request
from .errors import RulesError
from .rulesets import presets_listing
from .session import session_request
from .speech import english


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit 2
        _fail(RulesError(message, "arguments"))


def _print(data: object, indent: int | None = None) -> None:
    """JSON on stdout in UTF-8, whatever the locale's encoding (a name or a suit
    symbol in the output must never turn into a traceback)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent) + "\n"
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # stdout replaced by a text-only stream (tests)
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        stream.write(text.encode("utf-8", "backslashreplace"))
        stream.flush()


def _fail(error: RulesError, code: int = 2) -> NoReturn:
    _print(error.as_dict())
    sys.exit(code)


def _read_json(path: str | None) -> object:
    """The JSON document in ``path`` (stdin for None or ``-``), read as UTF-8 whatever
    the locale: JSON is UTF-8 (RFC 8259), and a BOM is tolerated."""
    where = "stdin" if path is None or path == "-" else path
    try:
        if where == "stdin":
            stream = getattr(sys.stdin, "buffer", None)
            raw = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        else:
            with open(where, "rb") as handle:  # where is path here
                raw = handle.read()
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeError) as error:
        _fail(RulesError(f"cannot read {where}: {error}", "FILE"))
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        # ValueError covers JSONDecodeError; RecursionError is nesting too deep to read.
        message = error if isinstance(error, ValueError) else "nested too deeply"
        _fail(RulesError(f"input is not valid JSON: {message}", ""))


def _round(data: object) -> object:
    """The round to score: the document itself, or the ``input`` of a worked example
    in the shape of ``../shared/examples/*.json`` (``{"input": ..., "expected": ...}``)."""
    if isinstance(data, dict) and "ruleset" not in data and isinstance(data.get("input"), dict):
        return data["input"]
    return data


def _overrides(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        _fail(RulesError(f"--overrides is not valid JSON: {error}", "overrides"))


def main(argv: list[str] | None = None) -> int:
    with english():
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    parser = _Parser(prog="python -m games.rules", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = commands.add_parser("score", help="score one round given as JSON")
    score.add_argument("file", nargs="?", help="a JSON file (default: stdin)")
    arrange = commands.add_parser("arrange", help="the best grouping of a hand")
    arrange.add_argument("--ruleset", required=True, help="a preset, e.g. 21-points")
    arrange.add_argument("--cut", required=True, help="the cut joker, e.g. 8S")
    arrange.add_argument("--overrides", default="{}", help="options as a JSON object")
    arrange.add_argument(
        "--on-deal", action="store_true", help="the hand as dealt: a win on the deal (21-kodai)"
    )
    arrange.add_argument("cards", nargs="+", help="the hand in card notation, any order")
    session = commands.add_parser("session", help="replay a session given as JSON")
    session.add_argument("file", nargs="?", help="a JSON file (default: stdin)")
    commands.add_parser("presets", help="list the presets with every option")
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            result = score_request(_round(_read_json(args.file)))
        elif args.command == "session":
            result = session_request(_read_json(args.file))
        elif args.command == "arrange":
            result = arrange_request(
                args.ruleset,
                args.cut,
                " ".join(args.cards),
                _overrides(args.overrides),
                args.on_deal,
            )
        else:
            result = presets_listing()
    except RulesError as error:
        _fail(error)
    except Exception as error:  # a bug of ours: still JSON, never a traceback
        _fail(RulesError(f"internal error: {type(error).__name__}: {error}", ""), code=1)
    _print(result, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
