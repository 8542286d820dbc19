# Scorekeeper developer commands. Every target creates .venv on first use.
#
#   make run       migrate the SQLite database and serve on http://127.0.0.1:8000
#                  (DEMO=1 loads the demo data first)
#   make demo      migrate and load the demo data (user, players, two sessions)
#   make test      the whole pytest suite (every directory of tests/, the browser tests
#                  included) on SQLite; obtains a Chromium for the browser tests where
#                  it can, one test process a core and one more (PYTEST_WORKERS=0:
#                  one process).
#                  Property and fuzz tests run a tenth of CI's examples.
#   make test-deep the same with CI's Hypothesis profile: every example (HYPOTHESIS_PROFILE=ci)
#   make test-pg   the same suite on PostgreSQL (PG_URL below)
#   make screenshots  the browser tests, saving what they see to tests/e2e/screenshots/
#   make guide     the players' guide walked in the browser, its pictures saved to docs/players/img/
#   make docs      build the docs site (mkdocs.yml) into site/ with --strict: a broken
#                  link or a page missing from the nav fails; installs requirements-docs.txt
#   make lock      write the lock files anew from pyproject.toml, keeping every version
#                  they pin where the ranges allow (LOCK_ARGS="--upgrade-package django"
#                  moves one package, LOCK_ARGS=--upgrade all of them)
#   make messages  bring the catalogues (locale/) up to the strings of the code
#                  (makemessages, every language; needs GNU gettext)
#   make compile-messages  compile the catalogues into what the app reads (.mo)
#   make messages-check    fail when makemessages would change a catalogue (CI)
#   make messages-complete fail when a string is untranslated or fuzzy
#   make lint      ruff check + ruff format --check + mypy (strict, on games/rules)
#   make format    rewrite files with ruff (fix + format)
#   make clean     remove the virtualenv, caches and the SQLite database

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Re-install only when a lock file is newer than its stamp.
STAMP  := $(VENV)/requirements.stamp
DOCS_STAMP := $(VENV)/requirements-docs.stamp
# pip installs only what the lock files name, each file checked against its hashes:
# the same packages, byte for byte, on every machine (docs/inside/dependencies.md).
PIP_INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes
LOCK_ARGS ?=
PG_URL ?= postgres://postgres@127.0.0.1:5432/scorekeeper
PYTEST_ARGS ?=
# pytest-xdist: one test process a core and one more; PYTEST_WORKERS=0 runs them in
# this one. The extra process keeps the cores busy while another waits on Chromium or
# the live server (on two cores: 94-97% busy instead of 87%, about a tenth off the
# wall time). worksteal: a process that runs out of tests takes some of another's, so
# the slow browser tests do not end the run on one process while the others wait.
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
# PYTHONDONTWRITEBYTECODE emptied: where the environment sets it (this machine's shells
# do), every test process would compile the app and rewrite the asserts of
# all 200 test modules anew, 3.4 s of CPU each; pytest then keeps them in the
# git-ignored __pycache__ folders for the next run.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal

.PHONY: run demo test test-deep test-pg screenshots docs lint format lock migrate clean
.PHONY: messages compile-messages messages-check messages-complete

# requirements-dev.txt pins the app's packages as requirements.txt does (make lock
# makes it so) and the tests' and lint's beside them.
$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements-dev.txt
	touch $(STAMP)

# The compiled catalogues and the scripts' (static/jsi18n/, one a language of
# settings.LANGUAGES): made from locale/'s .po files whenever one changes, never
# committed (docs/inside/languages.md). The stamp lives in the work tree, not in
# .venv: a .venv may be shared by several work trees.
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/*.po)
CATALOGUES_STAMP := locale/compiled.stamp

$(CATALOGUES_STAMP): $(STAMP) $(CATALOGUES) scorekeeper/settings.py
	$(BIN)/python manage.py compile_catalogues
	touch $(CATALOGUES_STAMP)

compile-messages: $(STAMP)
	$(BIN)/python manage.py compile_catalogues
	touch $(CATALOGUES_STAMP)

messages: $(STAMP)
	$(BIN)/python manage.py update_catalogues

messages-check: $(STAMP)
	$(BIN)/python manage.py check_catalogues

messages-complete: $(STAMP)
	$(BIN)/python manage.py check_catalogues --complete

migrate: $(STAMP) $(CATALOGUES_STAMP)
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(if $(filter 1 yes true on,$(DEMO)),$(BIN)/python manage.py demo)
	$(BIN)/python manage.py runserver 127.0.0.1:8000

demo: migrate
	$(BIN)/python manage.py demo

# The browser tests need a Chromium: an existing one, else Playwright's download, else
# Debian's package as root (tests/support/browser.py); failing all, they skip and say why.
CHROMIUM = CHROMIUM_PATH="$$($(BIN)/python -m tests.support.browser --obtain)"

test: $(STAMP) $(CATALOGUES_STAMP)
	$(CHROMIUM) $(PYTEST) $(PYTEST_ARGS)

# As CI runs it: the property and fuzz tests with all their examples (tests/support/profiles.py).
test-deep: $(STAMP) $(CATALOGUES_STAMP)
	$(CHROMIUM) HYPOTHESIS_PROFILE=ci $(PYTEST) $(PYTEST_ARGS)

test-pg: $(STAMP) $(CATALOGUES_STAMP)
	$(CHROMIUM) DATABASE_URL=$(PG_URL) $(PYTEST) $(PYTEST_ARGS)

# Saving every page as a PNG costs Chromium CPU a test run does not need, so plain
# `make test` saves none (tests/e2e/conftest.py's look_at).
screenshots: $(STAMP) $(CATALOGUES_STAMP)
	$(CHROMIUM) SCREENSHOTS=1 $(PYTEST) tests/e2e $(PYTEST_ARGS)

# The docs' packages go into the same .venv, but only here: the app and its tests run
# without them (tests/test_docs.py skips its build when mkdocs is missing).
$(DOCS_STAMP): $(STAMP) requirements-docs.txt
	$(PIP_INSTALL) -r requirements-docs.txt
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The lock files, from pyproject.toml, by uv (one of the dev group's packages). Each
# for Python 3.11 on any system (--universal: a package that only some systems need is
# listed with a marker saying which), with the hashes of every file PyPI has of each
# version. uv keeps the versions an existing lock file pins unless LOCK_ARGS says
# otherwise. The dev lock may only pin what the app's pins (-c), and the docs' what
# the dev lock pins, so that installing one after another changes nothing installed.
UV_COMPILE = $(BIN)/uv pip compile --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" $(LOCK_ARGS)

lock: $(STAMP)
	$(UV_COMPILE) pyproject.toml -o requirements.txt
	$(UV_COMPILE) pyproject.toml --group dev -c requirements.txt -o requirements-dev.txt
	$(UV_COMPILE) --group pyproject.toml:docs -c requirements-dev.txt -o requirements-docs.txt

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache db.sqlite3 staticfiles tests/e2e/screenshots site
	rm -rf locale/*/LC_MESSAGES/*.mo $(CATALOGUES_STAMP) static/jsi18n

# The pictures of docs/players/, taken by tests/e2e/test_guide.py as it walks each task;
# commit them with the page they show.
.PHONY: guide
guide: $(STAMP) $(CATALOGUES_STAMP)
	$(CHROMIUM) GUIDE_SCREENSHOTS=1 $(PYTEST) tests/e2e/test_guide.py $(PYTEST_ARGS)
