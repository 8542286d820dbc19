"""How `make test` obtains a browser (tests/support/browser.py), without installing one."""

from __future__ import annotations

import pytest

from tests.support import browser


@pytest.fixture
def nothing_installed(monkeypatch, tmp_path):
    monkeypatch.delenv("CHROMIUM_PATH", raising=False)
    monkeypatch.setattr(browser, "SYSTEM_PATHS", ())
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setattr(browser, "playwright_chromium", lambda: None)
    return tmp_path


def fake_chromium(directory) -> str:
    path = directory / "chromium"
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_an_existing_chromium_is_used_without_installing(nothing_installed, monkeypatch):
    path = fake_chromium(nothing_installed)
    monkeypatch.setenv("CHROMIUM_PATH", path)
    tried = []
    monkeypatch.setattr(browser, "_run", lambda command: tried.append(command) or True)
    assert browser.obtain_chromium() == path
    assert tried == []


def test_playwright_download_comes_before_the_distribution_package(nothing_installed, monkeypatch):
    path = fake_chromium(nothing_installed)
    tried = []

    def run(command):
        tried.append(command)
        monkeypatch.setattr(browser, "playwright_chromium", lambda: path)
        return True

    monkeypatch.setattr(browser, "_run", run)
    assert browser.obtain_chromium() == path
    assert tried == [[browser.sys.executable, "-m", "playwright", "install", "chromium"]]


def test_as_root_the_distribution_package_is_the_last_resort(nothing_installed, monkeypatch):
    path = fake_chromium(nothing_installed)
    tried = []

    def run(command):
        tried.append(command)
        if command[-1] == "chromium-headless-shell" and "apt-get" in command:
            monkeypatch.setenv("CHROMIUM_PATH", path)
            return True
        return command[0] == "apt-get"  # the update works, Playwright's download fails

    monkeypatch.setattr(browser, "_run", run)
    monkeypatch.setattr(browser.os, "geteuid", lambda: 0)
    monkeypatch.setattr(
        browser.shutil, "which", lambda name: "/usr/bin/apt-get" if name == "apt-get" else None
    )
    assert browser.obtain_chromium() == path
    assert [command[0] for command in tried] == [browser.sys.executable, "apt-get", "env"]


def test_when_nothing_works_the_message_names_the_commands(nothing_installed, monkeypatch, capsys):
    monkeypatch.setattr(browser, "_run", lambda command: False)
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    assert browser.obtain_chromium() is None
    message = capsys.readouterr().err
    assert "playwright install chromium" in message
    assert "apt-get install -y chromium-headless-shell" in message
