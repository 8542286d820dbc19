"""games/rules is plain Python: no Django, nothing outside the standard library."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
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


def test_importing_the_rules_service_loads_no_django_even_where_it_is_installed():
    # At run time, not only in the source: a fresh interpreter that has Django
    # available imports every module of games.rules (and runs the command line's
    # module), and neither Django nor anything outside the standard library is loaded.
    modules = sorted(
        "games.rules" + ("" if path.stem == "__init__" else "." + path.stem)
        for path in RULES.glob("*.py")
    )
    script = (
        "import importlib, json, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(json.dumps(sorted(loaded)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=RULES.parents[1],
        timeout=60,
        check=True,
    )
    loaded = set(json.loads(done.stdout))
    assert importlib.util.find_spec("django") is not None  # the check means something
    assert "django" not in loaded
    assert loaded - set(sys.stdlib_module_names) - {"games"} == set()
