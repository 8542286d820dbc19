"""The layout, kept. The code: a region two pages share is a partial of
templates/partials/, no view module imports another (nor does anything but the
URLconf import a view), forms live in games/forms/, the status codes the app answers
with are named once (games/statuses.py), the imports point one way (the access rules,
the queries and the project's modules reach no view helper of games/http.py, the
queries and the settings no write service), the app imports the rules from
games.rules alone, and no card grammar is spelled outside games/rules/cards.py (the
browser's picker reads cards by its NOTATION). The tests mirror the code, and no test
module leans on another: a test module imports only the code under test, libraries,
and the builders of tests/support/ (fixtures come from conftest.py files, which
pytest loads itself). A helper two modules share belongs in tests/support/, where
both can see it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GAMES = TESTS.parent / "games"
PROJECT = TESTS.parent / "scorekeeper"
TEMPLATES = TESTS.parent / "templates"

# The directories of tests/ and what each mirrors (tests/__init__.py says more).
DIRECTORIES = {
    "benchmarks",  # benchmarks/: each script run at a tiny size, so none rots
    "backups",  # games/backups/ (backup and restore, in processes of their own)
    "deploy",  # compose.yaml, the image's entrypoint: what runs the app for a club
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
MIRRORED = ("backups", "queries", "services", "transfer", "views")


def imports(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """Each module a module of the tree under ``root`` imports, relative imports
    resolved, as (line, dotted name): ``from a import b`` names a.b too where a.b is a
    module of the tree (a file or a package), not a name defined in a."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = path.relative_to(root.parent).parent.parts
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                module = ".".join(part for part in (base, node.module or "") if part)
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:
                inner = root.parent.joinpath(*f"{module}.{alias.name}".split("."))
                if inner.with_suffix(".py").exists() or (inner / "__init__.py").exists():
                    yield node.lineno, f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def leaning_imports(root: Path) -> list[str]:
    """Every import, in a module of the test tree under ``root``, of a test module or
    of a conftest, as "file:line imports name"."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for line, module in imports(path, root):
            last = module.split(".")[-1]
            if module.startswith(f"{root.name}.") and (
                last.startswith("test_") or last == "conftest"
            ):
                found.append(f"{path.relative_to(root.parent)}:{line} imports {module}")
    return found


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    assert leaning_imports(TESTS) == []


def test_the_check_catches_relative_and_absolute_imports(tmp_path: Path) -> None:
    # The check itself, on a small tree that does all the things it must refuse.
    root = tmp_path / "tests"
    (root / "views").mkdir(parents=True)
    (root / "views" / "test_b.py").write_text("HAND = 1\n")
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


def test_pages_include_only_partials_and_their_own_regions() -> None:
    # A region two pages share lives in templates/partials/, so that changing one
    # page never changes another by surprise.
    include = re.compile(r"""{%\s*include\s+["']([^"'#]+)""")
    stray = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        for included in include.findall(path.read_text()):
            if not (included.startswith("partials/") or included == name):
                stray.append(f"{name} includes {included}")
    assert stray == []


def test_no_view_module_imports_another() -> None:
    views = GAMES / "views"
    leaning = [
        f"views/{path.name}:{line} imports {module}"
        for path in sorted(views.glob("*.py"))
        for line, module in imports(path, GAMES)
        if module.startswith("games.views.") and module != f"games.views.{path.stem}"
    ]
    assert leaning == []


def test_migrations_carry_what_they_run() -> None:
    # A migration runs on every fresh database for as long as the project lives; the
    # app's services and queries it called would change under it. It uses the
    # historical models (apps.get_model) and writes out what it runs. (The callables
    # makemigrations names, validators and defaults of games.models and games.names,
    # are referenced as Django means them to be.)
    moving = ("games.services", "games.queries", "games.transfer", "games.views")
    reaching = [
        f"migrations/{path.name}:{line} imports {module}"
        for path in sorted((GAMES / "migrations").glob("*.py"))
        for line, module in imports(path, GAMES)
        if module.startswith(moving)
    ]
    assert reaching == []


def test_only_the_urls_reach_the_views() -> None:
    # What a view answers with is the view's to say (a middleware asks the view it
    # resolves, games/uploads.py): the rest of the app does not import them.
    reaching = [
        f"{path.relative_to(GAMES)}:{line} imports {module}"
        for path in sorted(GAMES.rglob("*.py"))
        if "views" not in path.relative_to(GAMES).parts[:1] and path.name != "urls.py"
        for line, module in imports(path, GAMES)
        if module == "games.views" or module.startswith("games.views.")
    ]
    assert reaching == []


def test_the_services_import_no_page_code() -> None:
    # Views, commands, the admin and the league import call the same services: what a
    # page answers with (its status codes, forms and context) is the views' to say, so
    # a service never reaches for it, and a page's change cannot change a save.
    pages = ("games.http", "games.forms", "games.session_page", "games.templatetags")
    reaching = [
        f"services/{path.name}:{line} imports {module}"
        for path in sorted((GAMES / "services").glob("*.py"))
        for line, module in imports(path, GAMES)
        if module in pages or module.startswith(tuple(f"{page}." for page in pages))
    ]
    assert reaching == []


def module_file(module: str) -> Path | None:
    """The file of a module of the project (games.x.y, scorekeeper.z), if it is one."""
    path = GAMES.parent.joinpath(*module.split("."))
    for found in (path.with_suffix(".py"), path / "__init__.py"):
        if found.exists():
            return found
    return None


def reached(module: str) -> set[str]:
    """Every module of the project ``module`` imports, itself included, directly or
    through the modules it imports: an arrow counts wherever it starts."""
    seen: set[str] = set()
    waiting = [module]
    while waiting:
        name = waiting.pop()
        path = module_file(name)
        if name in seen or path is None:
            continue
        seen.add(name)
        root = GAMES.parent / name.split(".")[0]
        waiting.extend(found for _, found in imports(path, root) if module_file(found))
    return seen


def reaching(modules: list[str], forbidden: tuple[str, ...]) -> list[str]:
    """Each of ``modules`` that reaches one of the ``forbidden`` packages or modules,
    as "module reaches name"."""
    return [
        f"{module} reaches {name}"
        for module in modules
        for name in sorted(reached(module))
        if any(name == no or name.startswith(f"{no}.") for no in forbidden)
    ]


def modules_of(folder: Path) -> list[str]:
    return [
        ".".join(path.relative_to(GAMES.parent).with_suffix("").parts)
        for path in sorted(folder.glob("*.py"))
    ]


def test_the_access_rules_and_the_project_reach_no_view_helper() -> None:
    # games/http.py is the views' own: it renders, and reaches the services and the
    # charts. Who may see what, the settings and the error pages Django shows when
    # the database is gone must load without any of it (a status code is named in
    # games/statuses.py, an id read by games/ids.py). The URLconf is the views'.
    project = [name for name in modules_of(PROJECT) if name != "scorekeeper.urls"]
    assert reaching(["games.access", *project], ("games.http",)) == []


def test_the_queries_and_the_settings_reach_no_write_service() -> None:
    # A read of the standings must not depend on how a save writes them: what both
    # need (what a standings month is) lives in the queries, which the services import.
    queries = modules_of(GAMES / "queries")
    assert reaching([*queries, "scorekeeper.settings"], ("games.services", "games.http")) == []


def test_the_arrow_check_follows_imports_through_other_modules() -> None:
    # The URLconf imports no helper of games/http.py itself: its views do.
    urls = [line for line in (PROJECT / "urls.py").read_text().splitlines() if "http" in line]
    assert not any("games.http" in line or "games import http" in line for line in urls)
    assert reaching(["scorekeeper.urls"], ("games.http",)) == [
        "scorekeeper.urls reaches games.http"
    ]


def _form_classes(path: Path) -> Iterator[str]:
    # Classes built on Django's forms: ``forms.Form``, ``django.forms.ModelForm``, or
    # a form or formset class imported by name.
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            dotted = ast.unparse(base)
            name = dotted.rsplit(".", 1)[-1]
            if dotted.startswith(("forms.", "django.forms.")) or name.endswith(("Form", "FormSet")):
                yield f"{node.lineno} {node.name}"


def test_forms_live_in_games_forms() -> None:
    elsewhere = [
        f"{path.relative_to(GAMES)}:{found}"
        for path in sorted(GAMES.rglob("*.py"))
        if path.relative_to(GAMES).parts[0] != "forms"
        for found in _form_classes(path)
    ]
    assert elsewhere == []


def _status_literals(path: Path) -> Iterator[int]:
    # A literal 4xx or 5xx given as a response's status: ``status=409`` (an argument or
    # a parameter's default), ``status = ... 404`` or ``status: int = 404``,
    # ``response.status_code = 409``, or the last positional argument of a call that
    # answers a page (``_page(request, context, 409)``, ``_render(name, 500)``).
    def error_codes(node: ast.AST | None) -> bool:
        return node is not None and any(
            isinstance(value, ast.Constant)
            and type(value.value) is int
            and 400 <= value.value < 600
            for value in ast.walk(node)
        )

    def named_status(target: ast.AST) -> bool:
        names = {getattr(part, "id", getattr(part, "attr", "")) for part in ast.walk(target)}
        return bool(names & {"status", "status_code"})

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.keyword) and node.arg == "status" and error_codes(node.value):
            yield node.value.lineno
        elif isinstance(node, ast.Assign) and error_codes(node.value):
            if any(named_status(target) for target in node.targets):
                yield node.lineno
        elif isinstance(node, ast.AnnAssign) and error_codes(node.value):
            if named_status(node.target):
                yield node.lineno
        elif isinstance(node, ast.arguments):
            params = [*node.posonlyargs, *node.args]
            defaulted = params[len(params) - len(node.defaults) :]
            pairs = [
                *zip(defaulted, node.defaults, strict=True),
                *zip(node.kwonlyargs, node.kw_defaults, strict=True),
            ]
            if any(param.arg == "status" and error_codes(value) for param, value in pairs):
                yield node.args[0].lineno if node.args else 0
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and error_codes(node.args[-1]):
            called = ast.unparse(node.func).rsplit(".", 1)[-1].lower()
            if any(word in called for word in ("page", "response", "render")):
                yield node.lineno


def folders_of(path: Path) -> set[str]:
    """The folders a module of the project sits in, from the project's top: not the
    checkout's own place, which may have a folder named "rules" too."""
    return set(path.relative_to(GAMES.parent).parent.parts)


def test_status_codes_are_named_in_games_statuses() -> None:
    literal = [
        f"{path.relative_to(GAMES.parent)}:{line}"
        for code in (GAMES, PROJECT)
        for path in sorted(code.rglob("*.py"))
        if path != GAMES / "statuses.py" and not {"migrations", "rules"} & folders_of(path)
        for line in _status_literals(path)
    ]
    assert literal == [], "name the status in games/statuses.py"


def test_the_status_check_catches_each_way_of_writing_one(tmp_path: Path) -> None:
    module = tmp_path / "views.py"
    module.write_text(
        "a = HttpResponse(status=409)\n"
        "status = GONE if gone else 404\n"
        "response.status_code = 409\n"
        "status: int = 410\n"
        "def _page(request, context, status=410): ...\n"
        "_hand_page(request, context, SAVED if saved else 404)\n"
        "cache.set(key, value, 500)\n"  # a number, not a status: not reported
    )
    assert sorted(_status_literals(module)) == [1, 2, 3, 4, 5, 6]


# The usual spellings of a card grammar: the ranks as a character class or a string
# (2-9TJQKA, 23456789), the suit letters as one ([SHDC], "CDHS"), or a suit symbol and
# its letter paired ("♠": "S", "\u2660": "S", S: "♠").
_SYMBOL = r"(?:[♠♥♦♣♤♡♢♧]|\\u26[56][0-9a-f])"
_NOTATION = re.compile(
    r"2-9[TJQKA]{3}|23456789|['\"[][SHDC]{4}['\"\]]"
    rf"|{_SYMBOL}['\"]?\s*:\s*['\"]?[SHDC]\b|\b[SHDC]['\"]?\s*:\s*['\"]?{_SYMBOL}",
    re.IGNORECASE,
)


def notation_spelled_in(path: Path) -> list[int]:
    return [
        number
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if _NOTATION.search(line)
    ]


def test_the_card_notation_is_read_only_as_the_rules_read_it() -> None:
    """games/rules/cards.py reads card notation; the picker in the browser reads it by
    that module's token pattern (NOTATION), not by a grammar of its own."""
    spelled = [
        f"{path.relative_to(GAMES.parent)}:{line}"
        for path in [
            *(p for p in GAMES.rglob("*.py") if not {"rules", "migrations"} & folders_of(p)),
            *(GAMES.parent / "static" / "js").rglob("*.js"),
            *TEMPLATES.rglob("*.html"),
        ]
        for line in notation_spelled_in(path)
    ]
    assert spelled == [], "read cards with games.rules (in the browser: its NOTATION)"


def test_the_notation_check_catches_a_grammar_of_its_own(tmp_path: Path) -> None:
    script = tmp_path / "picker.js"
    script.write_text(
        "var CARD = /(10|[2-9TJQKA])\\s*([SHDC])/gi;\n"
        'var SUIT_LETTER = { "\\u2660": "S", "\\u2665": "H" };\n'
        'var picked = { "♣": "C" };\n'
        "var CARD = /(10|[2-9JQKAT])([HSDC♠♥♦♣♤♡♢♧])/gi;\n"
        'var order = "A23456789TJQK";\n'
        'var suits = "CDHS";\n'
        'var symbols = { S: "♠", H: "♥" };\n'
        'var code = rank + suit; var css = "suit-s";\n'  # no grammar: not reported
    )
    assert notation_spelled_in(script) == [1, 2, 3, 4, 5, 6, 7]
    assert notation_spelled_in(GAMES / "rules" / "cards.py")  # where it is spelled


def rules_modules_imported(path: Path) -> Iterator[tuple[int, str]]:
    """Each import of a module inside games.rules (``from games.rules.cards import``)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.rules."):
            yield node.lineno, node.module or ""
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("games.rules."):
                    yield node.lineno, alias.name


def test_the_app_uses_the_rules_by_their_public_api() -> None:
    """games.rules's __init__ exports what the app uses: no module of the app reaches
    into the package's modules (a migration keeps what it imported when written)."""
    inside = [
        f"{path.relative_to(GAMES.parent)}:{line} imports {module}"
        for path in sorted(GAMES.rglob("*.py"))
        if not {"rules", "migrations"} & folders_of(path)
        for line, module in rules_modules_imported(path)
    ]
    assert inside == [], "import it from games.rules (export it there if it is not)"


# A module this long holds more than one job; the rules service is exempt (each of its
# modules follows one passage of the rules), and so are migrations, which are written
# once and never read as code to change.
PYTHON_LIMIT = 700
SCRIPT_LIMIT = 400


def test_no_module_is_longer_than_its_limit() -> None:
    long = [
        f"{path.relative_to(GAMES.parent)}: {lines} lines (limit {limit})"
        for paths, limit in (
            (
                (
                    path
                    for path in GAMES.rglob("*.py")
                    if not path.is_relative_to(GAMES / "rules") and "migrations" not in path.parts
                ),
                PYTHON_LIMIT,
            ),
            ((TESTS.parent / "static" / "js").glob("*.js"), SCRIPT_LIMIT),
        )
        for path in paths
        if (lines := len(path.read_text().splitlines())) > limit
    ]
    assert long == []
