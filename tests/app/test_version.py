"""A release: the version written once (scorekeeper/__init__.py), read by
pyproject.toml, shown in the footer of every page and by /healthz, and named by the
newest entry of CHANGELOG.md; the licence beside it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

import scorekeeper
from scorekeeper import __version__

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FOOTER = re.compile(
    r'<footer class="site-footer">.*?<small>scorekeeper ([^<]+)</small>\s*</footer>', re.S
)


def test_the_version_is_a_release_number() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert __version__ == "1.0.0"


def test_pyproject_reads_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())

    assert "version" not in project["project"]  # written in one place only
    assert project["project"]["dynamic"] == ["version"]
    module, _, name = project["tool"]["setuptools"]["dynamic"]["version"]["attr"].rpartition(".")
    assert module == scorekeeper.__name__
    assert getattr(scorekeeper, name) == __version__


@pytest.mark.parametrize("url", ["games:home", "login", "games:signup", "games:league_list"])
def test_every_page_shows_the_version_in_its_footer(scorer: Client, url: str) -> None:
    page = scorer.get(reverse(url)).content.decode()

    assert FOOTER.findall(page) == [__version__]


def test_a_signed_out_page_shows_it_too(client: Client) -> None:
    assert FOOTER.findall(client.get(reverse("login")).content.decode()) == [__version__]


def test_the_health_route_shows_it(client: Client) -> None:
    assert client.get("/healthz").json()["version"] == __version__


def test_the_changelogs_newest_release_is_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.M)

    assert releases[0] == ("Unreleased", "")
    assert releases[1][0] == __version__
    assert releases[1][1]  # a release is dated


def test_the_licence_is_mit() -> None:
    licence = (ROOT / "LICENSE").read_text()

    assert licence.startswith("MIT License\n")
    assert "Copyright (c) 2026 The scorekeeper authors" in licence
