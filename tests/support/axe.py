"""axe-core, the accessibility checker that tests/e2e/test_accessibility.py runs in
its pages, and the report a failure prints.

axe-core 4.14.1 lies in vendor/axe-core/ as its authors publish it (MPL-2.0, their
LICENSE beside it), from https://registry.npmjs.org/axe-core/-/axe-core-4.14.1.tgz,
whose integrity npm gives as
sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==
axe-playwright-python, which the test used before, bundles 4.12 in its newest
release (0.1.8): 4.14 takes a half to a third of 4.12's time on these pages (a long
history: 0.47-0.77 s a run against 1.5-1.9 s), the largest part of the browser's
work in a test run, and checks WCAG 2.5.3, label in name, by default.
"""

from __future__ import annotations

from pathlib import Path

SCRIPT = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()


def report(violations: list[dict]) -> str:
    """Each violation with the elements it concerns, as a person fixing them reads it."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation.get('impact')}): {violation['help']}")
        lines.append(f"  {violation['helpUrl']}")
        for node in violation["nodes"]:
            lines.append(f"  - {', '.join(map(str, node['target']))}: {node['html']}")
            summary = node.get("failureSummary") or ""
            lines.extend(f"      {line}" for line in summary.splitlines())
    return "\n".join(lines)
