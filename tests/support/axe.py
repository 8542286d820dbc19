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


# As tests/e2e/test_accessibility.py runs axe: every default rule and target size in the
# light theme, the rules that read colours in the dark, the picker's card buttons left
# out of "label in name" (their names are the cards in words; see that module).
LIGHT = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
DARK = {"resultTypes": ["violations"], "runOnly": ["color-contrast", "link-in-text-block"]}
CONFIGURE = (
    "axe.configure({rules: [{id: 'label-content-name-mismatch', selector: ':not([data-card])'}]})"
)


def assert_no_violations(page) -> None:  # a Playwright Page
    """axe finds nothing on the page as it stands, in the light theme and the dark (a
    state a test reached on its way, checked where it stands)."""
    page.evaluate(f"{SCRIPT};\n{CONFIGURE}")
    found = {"light": page.evaluate("o => axe.run(o).then(r => r.violations)", LIGHT)}
    page.emulate_media(color_scheme="dark")
    found["dark"] = page.evaluate("o => axe.run(o).then(r => r.violations)", DARK)
    page.emulate_media(color_scheme="light")
    failures = [f"{theme}:\n{report(found[theme])}" for theme in found if found[theme]]
    assert not failures, "\n".join(failures)
