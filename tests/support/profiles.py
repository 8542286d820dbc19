"""How many examples the property and fuzz tests run: decided by the Hypothesis
profile tests/conftest.py loads, never by the test alone.

- ``default`` (``make test``): a tenth of CI's numbers, at least five, so that the
  whole suite stays quick on a laptop;
- ``ci`` (``CI=true`` or ``HYPOTHESIS_PROFILE=ci``; ``make test-deep``, ``.ci/run``):
  every test's full number.

A test states what it runs in CI, ``@settings(max_examples=examples(300))``; a test
that states nothing runs the profile's ``max_examples``.
"""

from __future__ import annotations

import os

from hypothesis import settings

CI_MAX_EXAMPLES = 200
DEFAULT_MAX_EXAMPLES = 20
FEWEST = 5


def load_profile() -> str:
    """Register the profiles and load the one the environment asks for."""
    settings.register_profile("default", max_examples=DEFAULT_MAX_EXAMPLES)
    settings.register_profile("ci", max_examples=CI_MAX_EXAMPLES)
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if ci else "default")
    settings.load_profile(name)
    return name


def examples(in_ci: int, profile: settings | None = None) -> int:
    """The number of examples for a test that runs ``in_ci`` of them in CI, under
    ``profile`` (the one loaded now): the same share of ``in_ci`` as the profile's
    max_examples is of CI's (all of them under ``ci``), and at least FEWEST."""
    share = (profile or settings.default).max_examples / CI_MAX_EXAMPLES
    return max(FEWEST, round(in_ci * share))
