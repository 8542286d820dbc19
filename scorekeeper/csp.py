"""django-csp's middleware, building the policy header once instead of per response.

The policy comes from settings alone unless a view changed it for its response (with
django-csp's decorators: the error pages' ``csp_update``) or a page used a nonce:
every other response gets the same header. django-csp rebuilds it each time, about
100 µs of CPU a response: 7 to 10 % of an unchanged share or seat poll's
(benchmarks/polls.py). Here it is built once, and again only when the settings change
(tests that override them). Anything else is django-csp's own path.

**Not public.** To tell a response whose view changed its policy, this reads the
attributes django-csp's decorators set on it (``OWN_POLICY``): the decorators are
documented, those names are not. tests/app/test_csp.py decorates a view with each
decorator and fails, naming them, the day a release of django-csp marks a response
otherwise. The rest is django-csp's documented behaviour: the nonce is true once a
page used it, and asking for it after the header is written raises CSPNonceError.
"""

from __future__ import annotations

from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.exceptions import CSPNonceError
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# What django-csp's decorators (csp, csp_update, csp_replace, csp_exempt, each with
# REPORT_ONLY or not) set on a response to change its policy.
OWN_POLICY = tuple(
    f"_csp_{what}{suffix}"
    for what in ("config", "update", "replace", "exempt")
    for suffix in ("", "_ro")
)


@cache
def _headers() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(header, policy, excluded path prefixes) for the policy and the report-only
    one, as settings give them; only those with a policy."""
    headers = []
    for header, setting, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
    ):
        policy = build_policy(report_only=report_only)
        if policy:
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES")
            headers.append((header, policy, tuple(prefixes or ())))
    return tuple(headers)


@receiver(setting_changed)
def _settings_changed(setting: str, **_) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _headers.cache_clear()


def _nonce_too_late() -> None:
    raise CSPNonceError(
        "request.csp_nonce was read after the Content-Security-Policy header was "
        "written: read it in the view or template, or move the middleware that reads "
        "it before CSPMiddleware."
    )


class CSPMiddleware(DjangoCSPMiddleware):
    def process_response(self, request, response):
        # request.csp_nonce is true once a page used it (django-csp's nonce docs).
        nonce_used = bool(getattr(request, "csp_nonce", None))
        if nonce_used or any(getattr(response, name, None) is not None for name in OWN_POLICY):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages, as django-csp leaves them
        for header, policy, prefixes in _headers():
            if header not in response and not request.path_info.startswith(prefixes):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(_nonce_too_late)
        return response
