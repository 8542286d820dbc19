"""The migrations describe the models as they are: `migrate` on a fresh machine
builds the schema the code expects."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # --check exits 1 when a migration is missing
        pytest.fail(
            f"makemigrations would write a migration (exit {exit_.code}):\n{out.getvalue()}"
        )
    assert "No changes detected" in out.getvalue()
