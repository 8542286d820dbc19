"""Property and fuzz tests take their number of examples from the Hypothesis profile
(tests/support/profiles.py): `make test` runs a tenth of them, `make test-deep` and
CI every one. A number written into a test would run in full everywhere."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.profiles import CI_MAX_EXAMPLES, DEFAULT_MAX_EXAMPLES, FEWEST, examples

TESTS = Path(__file__).resolve().parent


def fixed_example_counts(root: Path) -> list[str]:
    """Every ``max_examples=<number>`` written in a test module under ``root``."""
    found = []
    for path in sorted(root.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.keyword)
                and node.arg == "max_examples"
                and isinstance(node.value, ast.Constant)
            ):
                found.append(f"{path.relative_to(root.parent)}:{node.value.lineno}")
    return found


def test_no_test_fixes_its_own_number_of_examples() -> None:
    assert fixed_example_counts(TESTS) == []


@pytest.mark.parametrize(
    ("profile", "in_ci", "expected"),
    [
        (CI_MAX_EXAMPLES, 300, 300),  # ci: all of them
        (CI_MAX_EXAMPLES, 15, 15),
        (DEFAULT_MAX_EXAMPLES, 300, 30),  # make test: a tenth
        (DEFAULT_MAX_EXAMPLES, 40, FEWEST),  # ...but never fewer than a handful
        (2000, 300, 3000),  # a deeper profile runs more still
    ],
)
def test_make_test_runs_a_tenth_of_cis_examples_and_ci_runs_them_all(
    profile: int, in_ci: int, expected: int
) -> None:
    assert examples(in_ci, settings(max_examples=profile)) == expected


@pytest.mark.parametrize(("name", "in_ci", "expected"), [("ci", 300, 300), ("default", 300, 30)])
def test_the_profiles_tests_conftest_registers(name: str, in_ci: int, expected: int) -> None:
    assert examples(in_ci, settings.get_profile(name)) == expected
