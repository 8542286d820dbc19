"""The hand-checked rounds the rules tests replay: those of ../shared/examples/ and
the project's own worked examples, each a JSON round with its expected figures and
the arithmetic in its "note"."""

from __future__ import annotations

from pathlib import Path

# The hand-checked rounds live in ../shared/examples beside the repository; a copy
# is kept in tests/rules/shared_examples so that a clone elsewhere (CI) still runs them.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "examples"
COPY = Path(__file__).resolve().parents[1] / "rules" / "shared_examples"
# The project's own, in the same shape (``python3 -m games.rules score`` takes them):
# rounds the rule model's own examples leave out, such as Paplu's drop rules.
OWN = Path(__file__).resolve().parents[1] / "rules" / "worked_examples"
CASES = sorted(
    {
        path.name: path
        for path in [*COPY.glob("*.json"), *SHARED.glob("*.json"), *OWN.glob("*.json")]
    }.values(),
    key=lambda path: path.name,
)
