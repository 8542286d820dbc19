"""The rules service's command line (DESIGN.md): JSON in, JSON out.

    python -m games.rules score [FILE]     score one round (FILE or stdin)
    python -m games.rules arrange --ruleset R --cut C "cards..."
                                           the best grouping of a hand and its points
    python -m games.rules presets          every preset with every option

Exit 0 with the result on stdout; exit 2 with {"error": ..., "field": ...} on bad
input. It never prints a traceback, and needs only the standard library.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .api import arrange_request, score_request
from .errors import RulesError
from .rulesets import presets_listing


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit 2
        _fail(RulesError(message, "arguments"))


def _fail(error: RulesError, code: int = 2) -> None:
    print(json.dumps(error.as_dict(), ensure_ascii=False))
    sys.exit(code)


def _read_json(path: str | None) -> Any:
    try:
        if path is None or path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        _fail(RulesError(f"cannot read {path}: {error}", "FILE"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        _fail(RulesError(f"input is not valid JSON: {error}", ""))


def _overrides(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        _fail(RulesError(f"--overrides is not valid JSON: {error}", "overrides"))


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m games.rules", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = commands.add_parser("score", help="score one round given as JSON")
    score.add_argument("file", nargs="?", help="a JSON file (default: stdin)")
    arrange = commands.add_parser("arrange", help="the best grouping of a hand")
    arrange.add_argument("--ruleset", required=True, help="a preset, e.g. 21-points")
    arrange.add_argument("--cut", required=True, help="the cut joker, e.g. 8S")
    arrange.add_argument("--overrides", default="{}", help="options as a JSON object")
    arrange.add_argument("cards", nargs="+", help="the hand in card notation, any order")
    commands.add_parser("presets", help="list the presets with every option")
    args = parser.parse_args(argv)
    try:
        if args.command == "score":
            result = score_request(_read_json(args.file))
        elif args.command == "arrange":
            result = arrange_request(
                args.ruleset, args.cut, " ".join(args.cards), _overrides(args.overrides)
            )
        else:
            result = presets_listing()
    except RulesError as error:
        _fail(error)
    except Exception as error:  # a bug of ours: still JSON, never a traceback
        _fail(RulesError(f"internal error: {type(error).__name__}: {error}", ""), code=1)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
