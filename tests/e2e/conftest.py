"""Playwright fixtures for browser tests against pytest-django's live server.

The tests drive the Chromium that `tests/support/browser.py` finds: CHROMIUM_PATH
(which `make test` sets after obtaining one) or the system's. Without one they skip,
saying which command would fix it, unless CI_REQUIRE_BROWSER=1 is set (as .ci/run
does), in which case they fail.

A page of the app in a browser context of its own costs about 0.19 s of CPU against
0.07 s in a page kept open (a renderer process, a profile and nothing cached:
2026-11-27, the sign-in page, whole machine, twenty of each twice). So each test
process keeps one phone page and one desktop page open for its whole run, and a test
gets it back as a new one would be (blank, signed out, unrouted, online, its size). A
test that changes the page itself (installs a fake clock, an init script or a dialog
handler) asks for ``fresh_phone_page`` or ``new_context`` instead.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection, transaction
from playwright.sync_api import Browser, Error, Page, expect

from tests.support.browser import CHROMIUM_FLAGS, HOW_TO_GET_CHROMIUM, find_chromium
from tests.support.pages import DESKTOP, PHONE_DEVICE, WAIT_MS

# Playwright's sync API keeps an asyncio event loop running in the main thread
# for the rest of the session, and Django refuses ORM calls (the live server's
# per-test flush, fixtures, later tests) when it sees one. Nothing here is really
# async, so the guard is switched off for the process that runs browser tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Every expect() waits as long as a loaded machine needs (tests/support/pages.py).
expect.set_options(timeout=WAIT_MS)

SCREENSHOTS = Path(__file__).parent / "screenshots"

DEVICES: dict[str, dict[str, Any]] = {
    "phone": PHONE_DEVICE,
    "desktop": {"viewport": DESKTOP},
}
# The app's service worker (static/js/service_worker.js registers it) would answer the
# pages' navigations itself, out of reach of page.route, and stay registered in a
# kept context from one test to the next. So the kept and fresh pages run without
# it, as the app did before it had one; tests/e2e/test_offline.py opens contexts
# that allow it.
NO_SERVICE_WORKER = {"service_workers": "block"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CI_REQUIRE_BROWSER=1 but {HOW_TO_GET_CHROMIUM}", pytrace=False)
        pytest.skip(HOW_TO_GET_CHROMIUM)
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], live_server) -> dict[str, Any]:
    # Relative URLs in page.goto("/") resolve against the live server.
    return {**browser_context_args, "base_url": live_server.url}


def _serving() -> bool:
    """Whether this thread is one of the live server's (one a request)."""
    return threading.current_thread().name.endswith("(process_request_thread)")


class _RequestsInFlight:
    """Counts the live server's requests between Django's request_started and
    request_finished signals (the server runs in this process, one thread a request).
    Only its threads count: a test client's request in the same worker process (a
    test of tests/views, say) that raised or was never read to its end sends no
    request_finished, and would leave every later browser test waiting out the
    timeout."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()
        request_started.connect(self._started, weak=False)
        request_finished.connect(self._finished, weak=False)

    def _started(self, **_: Any) -> None:
        if _serving():
            with self.changed:
                self.count += 1

    def _finished(self, **_: Any) -> None:
        if _serving():
            with self.changed:
                self.count -= 1
                self.changed.notify_all()

    def wait_until_none(self) -> None:
        # As long as an expectation waits: a loaded machine's answer can take seconds,
        # and returns at once when nothing is in flight.
        with self.changed:
            if not self.changed.wait_for(lambda: self.count <= 0, timeout=WAIT_MS / 1000):
                # Said, not raised: the flush goes on as before, and if the answer then
                # meets an emptied database, the run's warnings say why.
                warnings.warn(
                    f"{self.count} live server request(s) still unanswered "
                    f"{WAIT_MS // 1000} s after the test: the database is flushed under them",
                    stacklevel=2,
                )


_in_flight = _RequestsInFlight()


class _OneRequestAtATime:
    """On SQLite the test database lives in memory, and pytest-django hands the live
    server's threads the test's own connection to it (another connection would open
    another, empty database). Two requests at once then run inside one connection's
    transaction: a hand handed in while its live check was being kept inserted the
    same hand twice ("UNIQUE constraint failed", a 500 on the page: test_accessibility's
    table-hand-refused, once in five loaded runs). So there the live server answers
    one request at a time, as the app's own SQLite does for writes (BEGIN IMMEDIATE,
    scorekeeper/settings.py).

    The test's own thread takes its turn too, while a browser test runs: for each of
    its atomic blocks (the app's services it calls to build or change the data) and
    each query outside one. Otherwise a block it opened while the page's poll was being
    answered became a savepoint inside that request's transaction, gone when the
    request's blocks ended ("no such savepoint": test_accessibility's
    table-handed-in-gone-reloaded, then every later test of that process; once in ten
    runs of the module, 2026-11-27). On PostgreSQL each thread has its own connection and
    the session's row lock: nothing to do."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held = threading.local()
        self.testing = False  # a browser test runs (_browser_quiet_before_flush)
        request_started.connect(self._started, weak=False)
        request_finished.connect(self._finished, weak=False)

    @staticmethod
    def _shared() -> bool:
        return connection.vendor == "sqlite" and connection.is_in_memory_db()

    def _started(self, **_: Any) -> None:
        if _serving() and self._shared():
            # Never stuck for good behind an answer that was not closed.
            self.held.lock = self.lock.acquire(timeout=WAIT_MS / 1000)

    def _finished(self, **_: Any) -> None:
        if getattr(self.held, "lock", False):
            self.held.lock = False
            self.lock.release()

    def take(self) -> None:
        """The test's thread begins an atomic block or a query: its turn, if it does
        not hold it already (blocks nest)."""
        depth = getattr(self.held, "depth", 0)
        if depth == 0:
            self.held.turn = self.testing and not _serving() and self._shared()
            if self.held.turn and not self.lock.acquire(timeout=WAIT_MS / 1000):
                self.held.turn = False
                # Going on out of turn would bring back the race this class closes.
                raise RuntimeError("a live server request held the test database too long")
        self.held.depth = depth + 1

    def give(self) -> None:
        self.held.depth -= 1
        if self.held.depth == 0 and self.held.turn:
            self.held.turn = False
            self.lock.release()

    def query(self, execute: Callable[..., Any], *args: Any) -> Any:
        """An execute wrapper (Django's connection.execute_wrapper) for the test's
        thread: one query outside an atomic block, in its turn (its rows are read
        after the turn: a request's transaction cannot take away a query's result)."""
        self.take()
        try:
            return execute(*args)
        finally:
            self.give()


_one_at_a_time = _OneRequestAtATime()
_atomic_enter, _atomic_exit = transaction.Atomic.__enter__, transaction.Atomic.__exit__


def _atomic_in_turn_enter(self: transaction.Atomic) -> None:
    _one_at_a_time.take()
    try:
        _atomic_enter(self)
    except BaseException:
        _one_at_a_time.give()
        raise


def _atomic_in_turn_exit(self: transaction.Atomic, *exc: Any) -> None:
    try:
        _atomic_exit(self, *exc)
    finally:
        _one_at_a_time.give()


# Django has no hook where an atomic block begins and ends; these two wrap it, for
# every thread, and take a turn only for the test's own (_OneRequestAtATime.take).
transaction.Atomic.__enter__ = _atomic_in_turn_enter
transaction.Atomic.__exit__ = _atomic_in_turn_exit


@pytest.fixture(scope="session")
def _kept(live_server, browser: Browser) -> Iterator[dict[str, Page]]:
    """The pages kept open for the run, by device; see the module's docstring. They
    close before the live server stops: a connection they kept alive would otherwise
    end in a server thread after the server has let go of the test database."""
    kept: dict[str, Page] = {}
    yield kept
    for page in kept.values():
        page.context.close()
    for thread in threading.enumerate():  # each ends when the browser's socket closes
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=5)


@pytest.fixture(autouse=True)
def _browser_quiet_before_flush(
    transactional_db: None, browser: Browser, _kept: dict[str, Page]
) -> Iterator[None]:
    """Close the test's own pages and wait for the live server's last answer before
    the database is flushed. This fixture comes after transactional_db, so its
    teardown runs first: a request still in flight when a test ends (the live poll,
    the chart image) would otherwise hold a lock that PostgreSQL's flush waits for
    (a deadlock) or meet an emptied database. The kept pages are blank by now."""
    _one_at_a_time.testing = True
    try:
        with connection.execute_wrapper(_one_at_a_time.query):
            yield
            kept = {page.context for page in _kept.values()}
            for context in browser.contexts:
                if context not in kept:
                    context.close()
            _in_flight.wait_until_none()
    finally:
        _one_at_a_time.testing = False


def _kept_page(
    kept: dict[str, Page], browser: Browser, context_args: dict[str, Any], device: str
) -> Page:
    page = kept.get(device)
    if page is None or page.is_closed():
        context = browser.new_context(**context_args, **DEVICES[device], **NO_SERVICE_WORKER)
        page = kept[device] = context.new_page()
    return page


def _as_new(page: Page, device: str, origin: str) -> None:
    """Leave a kept page as a new one would be for the next test."""
    page.unroute_all(behavior="ignoreErrors")
    page.context.unroute_all(behavior="ignoreErrors")
    page.context.set_offline(False)
    if page.url.startswith(origin):
        # Away from the app's page first: an answer arriving late there could write a
        # round's draft again (static/js/drafts.js) after its storage was cleared.
        # The manifest is a page of the same origin that runs no script, and the page
        # stays there: its polls and timers have stopped, and the next test's first
        # page is of the same origin, so Chromium keeps the renderer process. Leaving
        # for about:blank swapped processes twice a test: 10 s of the browser process's
        # CPU a run (33-38 s down to 22-25 s, three runs of tests/e2e each).
        page.goto(f"{origin}/manifest.webmanifest")
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
    else:
        page.goto("about:blank")  # stops the page's polls and timers
    page.context.clear_cookies()
    page.set_viewport_size(DEVICES[device]["viewport"])
    page.emulate_media(color_scheme="null")  # the system's theme again (light, headless)


def _kept_page_fixture(device: str) -> Callable[..., Iterator[Page]]:
    def fixture(
        _kept: dict[str, Page], browser: Browser, browser_context_args: dict[str, Any]
    ) -> Iterator[Page]:
        page = _kept_page(_kept, browser, browser_context_args, device)
        yield page
        try:
            _as_new(page, device, browser_context_args["base_url"])
        except Error:  # a page the test left unusable is replaced, not reused
            page.context.close()
            del _kept[device]

    fixture.__doc__ = f"The {device} page kept open for the run, as a new one would be."
    return fixture


phone_page = pytest.fixture(_kept_page_fixture("phone"), name="phone_page")
desktop_page = pytest.fixture(_kept_page_fixture("desktop"), name="desktop_page")


@pytest.fixture
def fresh_phone_page(new_context: Callable[..., Any]) -> Page:
    """A phone page of its own, for a test that changes the page itself."""
    return new_context(**DEVICES["phone"], **NO_SERVICE_WORKER).new_page()


@pytest.fixture
def look_at(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Saves a page's screenshot to tests/e2e/screenshots/NAME.png for a person to
    look at, when SCREENSHOTS=1 (`make screenshots`); otherwise does nothing, as
    encoding a full page is CPU that a test run spends on nothing it checks."""

    def save(page: Page, name: str, *, full_page: bool = True) -> None:
        if os.environ.get("SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(exist_ok=True)
            # CSS pixels, not a phone's device pixels: as much as a person needs to see.
            page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=full_page, scale="css")

    return save
