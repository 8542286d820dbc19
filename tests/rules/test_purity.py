"""games/rules is plain Python: no Django, nothing outside the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"


def imported_top_level_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_of_the_rules_service_imports_django():
    files = sorted(RULES.rglob("*.py"))
    assert files
    for path in files:
        assert "django" not in imported_top_level_modules(path), path.name


def test_the_rules_service_needs_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in sorted(RULES.rglob("*.py")):
        outside = imported_top_level_modules(path) - allowed
        assert not outside, f"{path.name} imports {outside}"
