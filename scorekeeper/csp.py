"""django-csp's middleware, building the policy header once instead of per response.

The policy comes from settings alone unless a response carries its own (the error
pages' ``_csp_update``) or a page used a nonce: every other response gets the same
header. django-csp rebuilds it each time, about a tenth of the CPU of a live poll
answered 204; here it is built once and built again only when the settings change
(tests that override them). Anything else is django-csp's own path.
"""

from __future__ import annotations

from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# What a view or decorator may set on a response to change its policy.
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


class CSPMiddleware(DjangoCSPMiddleware):
    def process_response(self, request, response):
        nonce_used = getattr(request, "_csp_nonce", None) is not None
        if nonce_used or any(getattr(response, name, None) is not None for name in OWN_POLICY):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages, as django-csp leaves them
        for header, policy, prefixes in _headers():
            if header not in response and not request.path_info.startswith(prefixes):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
