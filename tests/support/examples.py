"""The hand-checked rounds of ../shared/examples/, which the rules tests replay."""

from __future__ import annotations

from pathlib import Path

# The hand-checked rounds live in ../shared/examples beside the repository; a copy
# is kept in tests/rules/shared_examples so that a clone elsewhere (CI) still runs them.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "examples"
COPY = Path(__file__).resolve().parents[1] / "rules" / "shared_examples"
CASES = sorted(
    {path.name: path for path in [*COPY.glob("*.json"), *SHARED.glob("*.json")]}.values(),
    key=lambda path: path.name,
)
