"""The test tree mirrors the code, and no test module leans on another: a test
module imports only the code under test, libraries, and the builders of
tests/support/ (fixtures come from conftest.py files, which pytest loads itself).
A helper two modules share belongs in tests/support/, where both can see it."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GAMES = TESTS.parent / "games"

# The directories of tests/ and what each mirrors (tests/__init__.py says more).
DIRECTORIES = {
    "benchmarks",  # benchmarks/: each script run at a tiny size, so none rots
    "app",  # games/*.py (models, admin, access, charts, names, uploads, commands) and scorekeeper/
    "e2e",  # the browser
    "queries",  # games/queries/
    "rules",  # games/rules/
    "security",  # across the app: access, bad input, concurrency, faults
    "services",  # games/services/
    "support",  # builders and fixtures the tests share; no tests
    "transfer",  # games/transfer/
    "views",  # games/views/
}
# Directories whose modules are named test_<module of games/<dir>/>[_<topic>].py.
MIRRORED = ("queries", "services", "transfer", "views")


def leaning_imports(root: Path) -> list[str]:
    """Every import, in a module of the test tree under ``root``, of a test module or
    of a conftest, as "file:line imports name"."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        package = path.relative_to(root.parent).parent.parts
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = list(package[: len(package) - node.level + 1])
                    modules = [".".join([*base, *(node.module or "").split(".")]).strip(".")]
                    if not node.module:  # from . import test_x
                        modules = [".".join([*base, alias.name]) for alias in node.names]
                else:
                    modules = [node.module or ""]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                last = module.split(".")[-1]
                if module.startswith(f"{root.name}.") and (
                    last.startswith("test_") or last == "conftest"
                ):
                    where = path.relative_to(root.parent)
                    found.append(f"{where}:{node.lineno} imports {module}")
    return found


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    assert leaning_imports(TESTS) == []


def test_the_check_catches_relative_and_absolute_imports(tmp_path: Path) -> None:
    # The check itself, on a small tree that does all the things it must refuse.
    root = tmp_path / "tests"
    (root / "views").mkdir(parents=True)
    (root / "views" / "test_a.py").write_text(
        "from .conftest import make\nfrom .test_b import HAND\nfrom tests.support.hands import X\n"
    )
    (root / "views" / "test_c.py").write_text(
        "from tests.rules.test_scoring import ONE\nimport tests.views.test_a\n"
        "from . import test_b\nfrom ..conftest import user\n"
    )

    assert leaning_imports(root) == [
        "tests/views/test_a.py:1 imports tests.views.conftest",
        "tests/views/test_a.py:2 imports tests.views.test_b",
        "tests/views/test_c.py:1 imports tests.rules.test_scoring",
        "tests/views/test_c.py:2 imports tests.views.test_a",
        "tests/views/test_c.py:3 imports tests.views.test_b",
        "tests/views/test_c.py:4 imports tests.conftest",
    ]


def test_the_directories_are_the_ones_that_mirror_the_code() -> None:
    found = {path.name for path in TESTS.iterdir() if (path / "__init__.py").exists()}
    assert found == DIRECTORIES


def test_each_mirrored_module_is_named_after_the_code_it_tests() -> None:
    misnamed = []
    for directory in MIRRORED:
        code = {path.stem for path in (GAMES / directory).glob("*.py")} - {"__init__"}
        for path in sorted((TESTS / directory).glob("test_*.py")):
            name = path.stem.removeprefix("test_")
            if not any(name == module or name.startswith(f"{module}_") for module in code):
                misnamed.append(f"{directory}/{path.name}")
    assert misnamed == [], "name them test_<module of games/{{directory}}/>[_topic].py"


def test_support_holds_no_tests() -> None:
    assert sorted((TESTS / "support").glob("test_*.py")) == []
