"""Uploads: a request body larger than the limit is refused from its
Content-Length before any of it is read, and an uploaded file too large to keep in
memory is spooled to a temporary file that has no name, so that it cannot outlive
the request, even when a worker is killed in the middle of it.

Only the league import takes a file; every other form posts a few fields. The
limit is one for all requests: Django itself would otherwise stream a file part
posted to any page into a temporary file (DATA_UPLOAD_MAX_MEMORY_SIZE does not
count files) before the view refuses it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.html import format_html
from django.utils.translation import gettext

from games.statuses import PAYLOAD_TOO_LARGE

# The largest request body taken (a league file of tens of thousands of rounds is
# a few megabytes); docs/hosting/security.md, "Uploads".
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_UPLOAD_MB = MAX_UPLOAD_BYTES // (1024 * 1024)


def declared_length(request: HttpRequest) -> int:
    """The body's length as the client declares it (0 if it does not: then Django
    reads nothing)."""
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class UploadLimitMiddleware:
    """Refuses a body over MAX_UPLOAD_BYTES before anything reads it.

    It must answer before Django's CsrfViewMiddleware, whose check reads
    ``request.POST`` (the whole body) before the view runs: that check is made in
    ``process_view``, after every middleware's ``__call__`` has been entered, so this
    refuses in ``__call__``. A view marked by ``answers_too_large`` answers with its
    own page (the import page: its form and the reason, 422 as its other form errors);
    anything else with a short 413 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if declared_length(request) > MAX_UPLOAD_BYTES:
            return self.too_large(request)
        return self.get_response(request)

    def too_large(self, request: HttpRequest) -> HttpResponse:
        try:
            answer = getattr(resolve(request.path_info).func, "too_large", None)
        except Resolver404:
            answer = None
        if answer is not None and request.user.is_authenticated:
            return answer(request)
        said = gettext(
            "This request is larger than {size} MB, the most this server takes; nothing was "
            "read or saved."
        ).format(size=MAX_UPLOAD_MB)
        return HttpResponse(
            format_html("<!doctype html><title>{}</title><p>{}</p>", gettext("Too large"), said),
            status=PAYLOAD_TOO_LARGE,
        )


def answers_too_large(
    answer: Callable[[HttpRequest], HttpResponse],
) -> Callable[[Callable], Callable]:
    """Marks a view that takes a file as answering an upload over the limit with
    ``answer`` (its own page, saying why), which UploadLimitMiddleware calls for a
    signed-in user instead of its short page. The outermost decorator: the URLconf
    holds what it returns."""

    def mark(view: Callable) -> Callable:
        view.too_large = answer
        return view

    return mark


class UnnamedTemporaryFileUploadHandler(FileUploadHandler):
    """Django's TemporaryFileUploadHandler, but the file has no name in the
    directory (``tempfile.TemporaryFile``: O_TMPFILE, or unlinked at once): the
    operating system frees it when it is closed at the end of the request, or when
    the process ends however it ends. A named temporary file would stay behind
    when gunicorn kills a worker at its timeout."""

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self.file = UploadedFile(
            # Closed with the request (HttpRequest.close), or by the OS.
            tempfile.TemporaryFile(dir=settings.FILE_UPLOAD_TEMP_DIR),  # noqa: SIM115
            self.file_name,
            self.content_type,
            0,
            self.charset,
            self.content_type_extra,
        )

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.file.write(raw_data)

    def file_complete(self, file_size: int) -> UploadedFile:
        self.file.seek(0)
        self.file.size = file_size
        return self.file

    def upload_interrupted(self) -> None:
        if hasattr(self, "file"):
            self.file.close()
