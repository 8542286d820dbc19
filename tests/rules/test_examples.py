"""Every hand-checked round (../shared/examples/ and tests/rules/worked_examples/)
passes, field by field."""

from __future__ import annotations

import json

import pytest

from games.rules.api import score_request
from tests.support.examples import CASES, COPY, SHARED


def test_the_shared_examples_are_found():
    assert len(CASES) >= 4, f"expected the shared examples in {SHARED} or {COPY}"


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is not beside this clone")
def test_the_copy_matches_the_shared_examples():
    for path in SHARED.glob("*.json"):
        copy = COPY / path.name
        assert copy.exists(), f"copy {path.name} into {COPY}"
        assert json.loads(copy.read_text()) == json.loads(path.read_text()), path.name


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_shared_example(path):
    case = json.loads(path.read_text())
    result = score_request(case["input"])
    players = {player["name"]: player for player in result["players"]}
    assert [p["name"] for p in result["players"]] == [p["name"] for p in case["input"]["players"]]
    for expected in case["expected"]["players"]:
        got = players[expected["name"]]
        for key, value in expected.items():
            assert got[key] == value, f"{expected['name']}.{key}"
