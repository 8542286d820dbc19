"""Playwright fixtures for browser tests against pytest-django's live server.

The tests drive the Chromium that `tests/support/browser.py` finds: CHROMIUM_PATH
(which `make test` sets after obtaining one) or the system's. Without one they skip,
saying which command would fix it, unless CI_REQUIRE_BROWSER=1 is set (as .ci/run
does), in which case they fail.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.support.browser import HOW_TO_GET_CHROMIUM, find_chromium
from tests.support.pages import DESKTOP, PHONE

# Playwright's sync API keeps an asyncio event loop running in the main thread
# for the rest of the session, and Django refuses ORM calls (the live server's
# per-test flush, fixtures, later tests) when it sees one. Nothing here is really
# async, so the guard is switched off for the process that runs browser tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SCREENSHOTS = Path(__file__).parent / "screenshots"

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


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


@pytest.fixture(autouse=True)
def _browser_quiet_before_flush(transactional_db: None, browser: Browser) -> Iterator[None]:
    """Close every page before the test's database is flushed. This fixture comes
    after transactional_db, so its teardown runs first: a request still in flight
    when a test ends (the live poll, the chart image) would otherwise hold a lock
    that PostgreSQL's flush waits for (a deadlock) or meet an emptied database."""
    yield
    for context in browser.contexts:
        context.close()
    time.sleep(0.2)  # let a request the closed page had sent finish on the server


@pytest.fixture
def phone_page(new_context: Callable[..., Any]) -> Page:
    context = new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context.new_page()


@pytest.fixture
def desktop_page(new_context: Callable[..., Any]) -> Page:
    return new_context(viewport=DESKTOP).new_page()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
