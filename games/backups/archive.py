"""The backup file: a plain tar, named by the moment it was taken (UTC), holding the
manifest, the engine's own snapshot and the portable copy. Written under a hidden
temporary name and renamed when whole, so a file with a backup's name is always a
whole backup; read by extracting its members into a temporary folder."""

from __future__ import annotations

import datetime
import io
import os
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path

from games.backups.errors import BackupError
from games.backups.manifest import Manifest

MANIFEST = "manifest.json"
# The engine's own snapshot, by engine (Django's vendor name).
# (pg_dump compresses its own; a SQLite file is gzipped: a sixth of its size.)
SNAPSHOTS = {"postgresql": "database.pgdump", "sqlite": "database.sqlite3.gz"}
# Every row as a Django fixture (portable.py), gzipped: loads into either engine.
PORTABLE = "data.jsonl.gz"

NAME = re.compile(r"scorekeeper-(\d{8})-(\d{6})\.tar")
PARTIAL_PREFIX = ".scorekeeper-"
PARTIAL_SUFFIX = ".partial"


def backup_name(moment: datetime.datetime) -> str:
    return f"scorekeeper-{moment.astimezone(datetime.UTC):%Y%m%d-%H%M%S}.tar"


def backups_in(directory: Path) -> list[Path]:
    """The backups in ``directory``, oldest first (their names sort by time)."""
    return sorted(
        (path for path in directory.iterdir() if NAME.fullmatch(path.name) and path.is_file()),
        key=lambda path: path.name,
    )


def write_archive(target: Path, manifest: Manifest, members: dict[str, Path]) -> None:
    """Write the tar to ``target``, by way of a temporary file in the same folder
    that is renamed over it once written and flushed to disk. ``members``: name in
    the tar → the file that holds it."""
    partial = target.with_name(f"{PARTIAL_PREFIX}{target.stem}.{os.getpid()}{PARTIAL_SUFFIX}")
    try:
        with open(partial, "wb") as out:
            with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
                data = manifest.to_json().encode()
                info = tarfile.TarInfo(MANIFEST)
                info.size = len(data)
                info.mtime = int(manifest.created_at.timestamp())
                info.mode = 0o600
                tar.addfile(info, io.BytesIO(data))
                for name, path in members.items():
                    info = tar.gettarinfo(str(path), arcname=name)
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    with open(path, "rb") as member:
                        tar.addfile(info, member)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(partial, 0o600)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    _sync_directory(target.parent)


@dataclass(frozen=True)
class OpenedBackup:
    """A backup's members extracted into a folder: its manifest, and the paths of its
    snapshot and portable copy there (None: the backup holds none)."""

    manifest: Manifest
    snapshot: Path
    portable: Path | None


def open_archive(path: Path, into: Path) -> OpenedBackup:
    """Read the backup at ``path``, extracting its members into the folder ``into``."""
    try:
        with tarfile.open(path, mode="r:") as tar:
            names = set(tar.getnames())
            if MANIFEST not in names:
                raise BackupError(f"{path} holds no {MANIFEST}: it is not a scorekeeper backup.")
            manifest = Manifest.from_json(_read_member(tar, MANIFEST).decode())
            snapshot = SNAPSHOTS.get(manifest.engine)
            if snapshot is None:
                raise BackupError(f"{path} is of an engine this code does not know.")
            wanted = [snapshot, PORTABLE] if manifest.portable else [snapshot]
            missing = [name for name in wanted if name not in names]
            if missing:
                raise BackupError(f"{path} is incomplete: it lacks {', '.join(missing)}.")
            # Only the members named above, each copied as a plain file under its own
            # name: a tar from elsewhere cannot write outside the folder, nor make a
            # link or a device. (tarfile's "data" filter does the same from Python
            # 3.11.4 on; Debian 12 has 3.11.2.)
            into.mkdir(parents=True, exist_ok=True)
            for name in wanted:
                _copy_member(tar, name, into / name)
    except FileNotFoundError:
        raise BackupError(f"There is no file {path}.") from None
    except (tarfile.TarError, OSError) as error:
        raise BackupError(f"Cannot read {path}: {error}.") from None
    portable = into / PORTABLE if manifest.portable else None
    return OpenedBackup(manifest=manifest, snapshot=into / snapshot, portable=portable)


def _copy_member(tar: tarfile.TarFile, name: str, to: Path) -> None:
    member = tar.getmember(name)
    source = tar.extractfile(member) if member.isfile() else None
    if source is None:
        raise BackupError(f"{name} in the backup is not a plain file.")
    with source, open(to, "wb") as target:
        shutil.copyfileobj(source, target, 1024 * 1024)


def _read_member(tar: tarfile.TarFile, name: str) -> bytes:
    member = tar.extractfile(name)
    if member is None:
        raise BackupError(f"The backup's {name} is not a file.")
    return member.read()


def _sync_directory(directory: Path) -> None:
    """Flush the rename to disk, where the system allows opening a folder."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
