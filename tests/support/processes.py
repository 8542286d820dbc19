"""Commands run in a fresh process whose environment the test decides: settings are
read once, when Django starts, so only a new process shows what an environment gives."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def run_fresh(
    command: list[str], *, hide: Iterable[str] = (), **env: str
) -> subprocess.CompletedProcess[str]:
    """``command`` in the project's folder, in an environment of this one's without
    Django's variables (``DJANGO_*``) and those named in ``hide``, plus ``env``."""
    hidden = set(hide)
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in hidden
    }
    environ.update(env)
    return subprocess.run(
        command,
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
