"""Security headers of the browser pages: what a page under /play/ may load and how it may be read."""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

#: A page runs only its own files, talks only to this server's API and cannot be framed: no inline
#: script or style (they live in play/static/), no foreign origin. ``data:`` images are the pages' empty
#: favicon (``<link rel="icon" href="data:,">``, which spares a request that would only 404).
CSP_DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
CONTENT_SECURITY_POLICY = "; ".join(CSP_DIRECTIVES)
#: Every response under this path gets the headers (pages, their 404s and 405s alike).
PAGES_PREFIX = "/play/"


class PageSecurityHeadersMiddleware:
    """Sets the Content-Security-Policy and ``X-Content-Type-Options: nosniff`` on every /play/ response.

    A middleware rather than a decorator so that a page added later cannot miss them; nosniff is set here
    too because Django sets it only while ``SECURE_CONTENT_TYPE_NOSNIFF`` stays on.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path_info.startswith(PAGES_PREFIX):
            response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
            response["X-Content-Type-Options"] = "nosniff"
        return response
