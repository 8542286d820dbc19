"""The lock files say what pyproject.toml asks for: each package pinned to one version
with its files' hashes (pip installs them with --require-hashes, in make and in the
image), every range of pyproject.toml met by its pin, and the packages two locks
share pinned alike, so that `make docs` installing its lock beside the dev one changes
nothing the tests run on. A range changed without `make lock` fails here."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: tuple[str, ...]

    def applies(self) -> bool:
        return self.marker is None or self.marker.evaluate()


def _pins(lock: str) -> list[Pin]:
    """The pins of a lock file as uv writes them: `name==version ; marker \\` and its
    `--hash=sha256:...` lines, then `# via` comments."""
    text = (ROOT / lock).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", re.sub(r"(?m)^\s*#.*\n", "", text))
    pins = []
    for entry in filter(str.strip, entries):
        head = entry.split("\\\n", 1)[0]
        requirement, _, marker = head.partition(";")
        name, _, version = requirement.strip().partition("==")
        pins.append(
            Pin(
                name=canonicalize_name(name),
                version=version,
                marker=Marker(marker.strip()) if marker.strip() else None,
                hashes=tuple(re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)),
            )
        )
    return pins


def _pinned(lock: str) -> dict[str, str]:
    """Each package the lock installs on this Python, with its version."""
    return {pin.name: pin.version for pin in _pins(lock) if pin.applies()}


LOCKS = {
    "requirements.txt": PROJECT["project"]["dependencies"],
    "requirements-dev.txt": PROJECT["project"]["dependencies"]
    + PROJECT["dependency-groups"]["dev"],
    "requirements-docs.txt": PROJECT["dependency-groups"]["docs"],
}


def test_every_package_is_pinned_to_one_version_with_its_hashes() -> None:
    for lock in LOCKS:
        pins = _pins(lock)

        assert len(pins) > 10, lock
        for pin in pins:
            assert re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", pin.version), (lock, pin)
            assert pin.hashes, (lock, pin.name)


def test_every_range_of_pyproject_is_met_by_its_lock() -> None:
    for lock, wanted in LOCKS.items():
        pinned = _pinned(lock)
        for line in wanted:
            requirement = Requirement(line)
            name = canonicalize_name(requirement.name)

            assert name in pinned, f"{lock} lacks {name}: run make lock"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"{lock} pins {name} {pinned[name]}, not {requirement.specifier}: run make lock"
            )


def test_the_locks_pin_the_packages_they_share_alike() -> None:
    app, dev, docs = (_pinned(lock) for lock in LOCKS)

    assert {name: dev.get(name) for name in app} == app
    shared = docs.keys() & dev.keys()
    assert shared  # click, packaging, pygments, ...
    assert {name: docs[name] for name in shared} == {name: dev[name] for name in shared}
