"""The test suite. Its directories mirror the code they test:

- ``rules/``     games/rules/ (pure Python, no database)
- ``services/``  games/services/ (the use cases, against the database)
- ``queries/``   games/queries/ (standings, players' results)
- ``transfer/``  games/transfer/ (CSV/XLSX tables, the league file's export and import)
- ``views/``     games/views/ (pages, HTMX partials, redirects and status codes)
- ``app/``       the rest of games/ (models, admin, access, charts, live polls,
                 names, uploads, template tags, management commands, migrations) and
                 scorekeeper/ (configuration, settings, the cache, static files)
- ``backups/``   games/backups/ (`manage.py backup` and `restore`): a whole site
                 backed up and restored, each command a process of its own against
                 real database files and servers, as an admin runs them
- ``security/``  across the app: the access matrix, fuzzed input, concurrency, faults
- ``benchmarks/`` benchmarks/ scripts run at a tiny size, so that none rots: growth,
                 polls, http, share, import_league, outage and the solver against
                 its reference, each with the floor it reports (floor.py); load's
                 accounting only; entry.py, a 30 s browser run of whole rounds,
                 only by hand
- ``deploy/``    compose.yaml (against the Compose Specification's schema) and the
                 image's docker/entrypoint.sh; .ci/container-test builds and runs
                 the image itself
- ``e2e/``       the browser (Playwright, marker ``e2e``)
- ``support/``   what tests share: hands, builders, fixtures, page helpers; no tests
- ``test_layout.py``, ``test_profiles.py``: the layout kept (below), and property
                 tests' example counts taken from the Hypothesis profile
- ``test_docs.py``: the docs site: every rules section the code cites is a heading
                 of docs/rules, every figure the docs print is the code's, and
                 ``mkdocs build --strict`` passes (skipped without requirements-docs.txt)

In backups/, services/, queries/, transfer/ and views/ a module is named after the
module it tests, with a topic when one is not enough: ``views/test_rounds_edit.py``
tests games/views/rounds.py. No test module imports another test module or a conftest
(tests/test_layout.py checks both); a helper two modules need goes to support/.
"""
