"""Uploads (games/uploads.py): a request body over the limit is refused from its length
before it is read, and an uploaded file never outlives the request."""

from __future__ import annotations

import io
import json
import os

import pytest
from django.test import Client
from django.urls import reverse

from games.models import League
from games.transfer.league_import import import_league
from tests.support.league_files import IMPORT, post_file

pytestmark = pytest.mark.django_db


MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # the documented limit (docs/hosting/security.md, "Uploads")


class Unreadable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def read(self, *args) -> bytes:
        raise AssertionError("the body of an oversized request was read")

    readline = readinto = read


def oversized(client: Client, url: str, **headers: str):
    return client.post(
        url,
        content_type="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(MAX_UPLOAD_BYTES + 1),
        headers=headers,
        **{"wsgi.input": Unreadable()},
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_an_upload_over_the_limit_is_refused_from_its_length_before_it_is_read(
    stranger: Client, htmx: bool
) -> None:
    stranger.handler.enforce_csrf_checks = True  # as a browser's request is checked
    response = oversized(stranger, reverse(IMPORT), **({"HX-Request": "true"} if htmx else {}))

    assert response.status_code == 422  # shown in place, as the import's other errors
    html = response.content.decode()
    assert "larger than 10 MB" in html and "manage.py import_league" in html
    assert 'enctype="multipart/form-data"' in html  # the form, to choose another file
    assert not League.objects.exists()


def test_any_other_request_over_the_limit_is_refused_unread(stranger: Client) -> None:
    response = oversized(stranger, reverse("games:session_new"))
    assert response.status_code == 413
    assert "larger than 10 MB" in response.content.decode()


def test_temporary_upload_files_never_outlive_the_request(
    moved: dict, stranger: Client, settings, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spool = tmp_path / "uploads"
    spool.mkdir()
    settings.FILE_UPLOAD_TEMP_DIR = str(spool)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024  # every league file goes to disk
    seen_during: list[list[str]] = []
    real_import = import_league

    def import_and_look(*args, **kwargs):
        # While the import runs, a worker could be killed (the gunicorn timeout):
        # nothing may then be left behind with a name.
        seen_during.append(os.listdir(spool))
        return real_import(*args, **kwargs)

    monkeypatch.setattr("games.views.transfer.import_league", import_and_look)
    text = json.dumps(moved)
    assert len(text) > 1024

    assert post_file(stranger, text).status_code == 302
    moved["sessions"][0]["rounds"][0]["entries"][0]["score"] += 1
    assert post_file(stranger, json.dumps(moved)).status_code == 422  # refused: does not score
    assert post_file(stranger, "{" + " " * 5000).status_code == 422  # not JSON

    assert seen_during == [[], [], []]
    assert os.listdir(spool) == []
