"""Finding, and where possible obtaining, the Chromium that the browser tests drive.

`make test` runs `python -m tests.support.browser --obtain` before pytest, so that a
newcomer's first green run has opened real pages: it takes an existing Chromium,
else Playwright's own download (`playwright install chromium`), else Debian's
package when it runs as root. Only if all of them fail do the browser tests skip,
and their skip message says which command would fix it.

Pages in Hindi need a font with Devanagari, which Chromium's packages do not bring:
`--obtain` installs Debian's smallest (fonts-lohit-deva) as root where none is found,
and says how otherwise.

Chromium's headless shell comes first where there is one (Debian's
`chromium-headless-shell`, the same engine without the full browser around it, as
Playwright's own headless runs use): the browser tests took 145 s of CPU with it
against 211 s with the full browser (2026-11-23, both on two test processes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

SYSTEM_PATHS = (
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
)
# How every Chromium here is launched (the browser tests, benchmarks/entry.py): no
# sandbox (a container's root), no GPU, nothing fetched in the background. Without a
# GPU its compositing is software anyway: --in-process-gpu does it in the browser
# process instead of a process of its own, which saved 3-5 s of Chromium's CPU in
# each of three single-process runs of test_accessibility.py (62-63 s against 66-68 s;
# 2-3 s in the other browser tests). In a whole `make test` that is within the
# machine's noise (310-314 s of CPU against 314-315 s, two runs each, 2026-11-26).
# (benchmarks/entry.py's figures in benchmarks/README.md were measured before it.)
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--in-process-gpu",
    "--disable-background-networking",
]
# Debian's packages, the headless shell first (see above).
PACKAGES = ("chromium-headless-shell", "chromium")
# A font with Devanagari (U+0915, क), for the pages in Hindi: 0.2 MB, where
# fonts-noto-core, which has it too, is 42 MB.
DEVANAGARI_FONT_PACKAGE = "fonts-lohit-deva"
HOW_TO_GET_CHROMIUM = (
    "no Chromium found: run `.venv/bin/playwright install chromium`, or "
    "`apt-get install -y chromium-headless-shell` (or `chromium`) as root, or set "
    "CHROMIUM_PATH to a Chromium binary"
)


def _executable(path: str | None) -> bool:
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def playwright_chromium() -> str | None:
    """The Chromium that `playwright install chromium` put in Playwright's cache."""
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
    except Exception:  # no driver, no browser: simply not there
        return None
    return path if _executable(path) else None


def find_chromium(*, playwright_cache: bool = False) -> str | None:
    """A Chromium already on this machine: CHROMIUM_PATH or the system's, and with
    `playwright_cache` Playwright's own download (asking Playwright starts its driver,
    which cannot happen inside a test session that already runs one)."""
    candidates = [
        os.environ.get("CHROMIUM_PATH", ""),
        *SYSTEM_PATHS,
        shutil.which("chromium-headless-shell") or "",
        shutil.which("chromium") or "",
        shutil.which("chromium-browser") or "",
    ]
    found = next((c for c in candidates if _executable(c)), None)
    return found or (playwright_chromium() if playwright_cache else None)


def _run(command: list[str]) -> bool:
    print(f"browser: trying `{' '.join(command)}`", file=sys.stderr)
    try:
        completed = subprocess.run(command, stdout=sys.stderr, stderr=sys.stderr, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"browser: {error}", file=sys.stderr)
        return False
    return completed.returncode == 0


def obtain_chromium() -> str | None:
    """Find a Chromium, or install one by the first way that works here."""
    found = find_chromium(playwright_cache=True)
    if found:
        return found
    if _run([sys.executable, "-m", "playwright", "install", "chromium"]):
        found = find_chromium(playwright_cache=True)
        if found:
            return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env_install = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q"]
        if _run(["apt-get", "update", "-q"]) and any(
            _run([*env_install, package]) for package in PACKAGES
        ):
            return find_chromium()
    print(f"browser: {HOW_TO_GET_CHROMIUM}; the browser tests will skip", file=sys.stderr)
    return None


def has_devanagari_font() -> bool:
    """Whether fontconfig, which Chromium draws with, knows a font with Devanagari."""
    try:
        listed = subprocess.run(
            ["fc-list", ":charset=0915"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return bool(listed.stdout.strip())


def obtain_devanagari_font() -> None:
    """Install a font with Devanagari where none is found and this runs as root."""
    if has_devanagari_font():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env_install = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q"]
        if _run(["apt-get", "update", "-q"]) and _run([*env_install, DEVANAGARI_FONT_PACKAGE]):
            return
    print(
        f"browser: no font with Devanagari: `apt-get install -y {DEVANAGARI_FONT_PACKAGE}` "
        "as root, or the Hindi pages' browser tests fail on boxes",
        file=sys.stderr,
    )


if __name__ == "__main__":
    # Prints the path (or nothing) for the Makefile to pass on as CHROMIUM_PATH.
    obtain = "--obtain" in sys.argv[1:]
    path = obtain_chromium() if obtain else find_chromium(playwright_cache=True)
    if obtain and path:
        obtain_devanagari_font()
    print(path or "")
