"""The backup file is written whole or not at all: under a temporary name, renamed
once flushed to disk."""

from __future__ import annotations

import datetime
import io
import tarfile
from pathlib import Path

import pytest

from games.backups.archive import open_archive, write_archive
from games.backups.errors import BackupError
from games.backups.manifest import Manifest

MANIFEST = Manifest(
    app_version="1.0.0",
    engine="sqlite",
    engine_version="3.40.1",
    created_at=datetime.datetime(2026, 11, 29, 6, 0, tzinfo=datetime.UTC),
    migrations={"games": "0015_import_authors_of_changes_and_rejoins"},
    row_counts={"games_league": 3},
)


def members(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "database.sqlite3.gz").write_bytes(b"\x1f\x8b" + bytes(4096))
    (tmp_path / "data.jsonl.gz").write_bytes(b"\x1f\x8b")
    return {name: tmp_path / name for name in ("database.sqlite3.gz", "data.jsonl.gz")}


def test_a_backup_cut_short_leaves_no_file_with_a_backups_name(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    written = []

    def addfile(self, info, fileobj=None):
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        written.append(info.name)
        return original(self, info, fileobj)

    original = tarfile.TarFile.addfile
    monkeypatch.setattr(tarfile.TarFile, "addfile", addfile)

    with pytest.raises(OSError, match="No space left"):
        write_archive(folder / "scorekeeper-20261129-060000.tar", MANIFEST, members(tmp_path))

    assert written == ["manifest.json", "database.sqlite3.gz"]
    assert list(folder.iterdir()) == []


def test_a_backup_reads_back_as_written(tmp_path: Path) -> None:
    target = tmp_path / "scorekeeper-20261129-060000.tar"
    write_archive(target, MANIFEST, members(tmp_path))
    assert oct(target.stat().st_mode & 0o777) == "0o600"  # a copy of every account's data

    opened = open_archive(target, tmp_path / "out")

    assert opened.manifest == MANIFEST
    assert opened.snapshot.read_bytes() == (tmp_path / "database.sqlite3.gz").read_bytes()
    assert opened.portable is not None and opened.portable.read_bytes() == b"\x1f\x8b"


def test_a_file_that_is_no_backup_is_refused_in_words(tmp_path: Path) -> None:
    other = tmp_path / "notes.tar"
    with tarfile.open(other, "w") as tar:
        tar.add(members(tmp_path)["database.sqlite3.gz"], arcname="database.sqlite3.gz")

    with pytest.raises(BackupError, match=r"holds no manifest\.json: it is not a scorekeeper"):
        open_archive(other, tmp_path / "out")
    with pytest.raises(BackupError, match="There is no file"):
        open_archive(tmp_path / "missing.tar", tmp_path / "out")
    (tmp_path / "text.tar").write_text("not a tar")
    with pytest.raises(BackupError, match="Cannot read"):
        open_archive(tmp_path / "text.tar", tmp_path / "out")


def test_a_member_that_is_a_link_is_refused_and_nothing_outside_is_written(
    tmp_path: Path,
) -> None:
    """A tar made elsewhere whose snapshot is a link (to a file the restore would then
    read or overwrite) is refused, on every Python 3.11 (Debian 12's has no tarfile
    filters)."""
    forged = tmp_path / "forged.tar"
    with tarfile.open(forged, "w") as tar:
        manifest = MANIFEST.to_json().encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(manifest)
        tar.addfile(info, io.BytesIO(manifest))
        link = tarfile.TarInfo("database.sqlite3.gz")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
        tar.add(members(tmp_path)["data.jsonl.gz"], arcname="data.jsonl.gz")
    out = tmp_path / "out"
    out.mkdir()

    with pytest.raises(BackupError, match="not a plain file"):
        open_archive(forged, out)
    assert not (out / "database.sqlite3.gz").is_symlink()
