"""The policy header built once (scorekeeper/csp.py): every response a view did not
change gets the header django-csp would build, a view that changed its policy with
django-csp's decorators, or used a nonce, gets django-csp's own answer, and the day a
release of django-csp marks a decorated response otherwise, a test here says so."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from csp.constants import NONCE, SELF, UNSAFE_INLINE
from csp.decorators import csp, csp_exempt, csp_replace, csp_update
from csp.exceptions import CSPNonceError
from csp.utils import build_policy
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from scorekeeper.csp import OWN_POLICY, CSPMiddleware
from scorekeeper.errors import server_error

DECORATORS = {
    "csp": lambda report_only: csp({"default-src": [SELF]}, REPORT_ONLY=report_only),
    "csp_update": lambda report_only: csp_update({"img-src": ["x.test"]}, REPORT_ONLY=report_only),
    "csp_replace": lambda report_only: csp_replace(
        {"img-src": ["x.test"]}, REPORT_ONLY=report_only
    ),
    "csp_exempt": lambda report_only: csp_exempt(REPORT_ONLY=report_only),
}


def answer(view: Callable[[HttpRequest], HttpResponse], path: str = "/x/") -> HttpResponse:
    """``view``'s response as the middleware sends it."""
    return CSPMiddleware(view)(RequestFactory().get(path))


def plain(request: HttpRequest) -> HttpResponse:
    return HttpResponse("plain")


@pytest.mark.parametrize("report_only", [False, True], ids=["policy", "report-only"])
@pytest.mark.parametrize("name", DECORATORS)
def test_each_of_django_csps_decorators_marks_its_response_as_scorekeeper_csp_reads_it(
    name: str, report_only: bool
) -> None:
    # scorekeeper/csp.py tells a response whose view changed its policy by the
    # attributes django-csp's decorators set, which django-csp does not document. If
    # this fails after an upgrade of django-csp, every response would get the policy
    # of the settings, the decorators' changes lost: read what they set now.
    marked = DECORATORS[name](report_only)(plain)(RequestFactory().get("/x/"))

    found = [attribute for attribute in OWN_POLICY if hasattr(marked, attribute)]
    assert found, (
        f"django-csp's {name}(REPORT_ONLY={report_only}) no longer sets any of "
        f"{', '.join(OWN_POLICY)}: scorekeeper/csp.py must learn what it sets now"
    )


def test_a_response_left_alone_gets_the_policy_django_csp_builds() -> None:
    response = answer(plain)

    assert response["Content-Security-Policy"] == build_policy()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("csp", lambda: "default-src 'self'"),
        ("csp_update", lambda: build_policy(update={"img-src": ["x.test"]})),
        ("csp_replace", lambda: build_policy(replace={"img-src": ["x.test"]})),
        ("csp_exempt", lambda: None),
    ],
)
def test_a_decorated_view_gets_django_csps_own_answer(
    name: str, expected: Callable[[], str | None]
) -> None:
    response = answer(DECORATORS[name](False)(plain))

    assert response.get("Content-Security-Policy") == expected()
    assert expected() != build_policy()


@override_settings(
    CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": [SELF], "style-src": [NONCE]}}
)
def test_a_page_that_used_its_nonce_names_it_in_its_header() -> None:
    def nonced(request: HttpRequest) -> HttpResponse:
        return HttpResponse(f'<style nonce="{request.csp_nonce}"></style>')

    request = RequestFactory().get("/x/")
    response = CSPMiddleware(nonced)(request)

    nonce = response.content.decode().split('"')[1]
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]


def test_a_nonce_asked_for_after_the_header_is_written_is_an_error() -> None:
    request = RequestFactory().get("/x/")
    CSPMiddleware(plain)(request)

    assert not request.csp_nonce  # as django-csp's docs say: false, not generated
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


def test_the_error_pages_relax_styles_through_django_csps_decorator() -> None:
    response = answer(server_error)

    assert UNSAFE_INLINE in response["Content-Security-Policy"]
    assert response["Content-Security-Policy"] != build_policy()
