"""Security headers of the browser pages: what a page under /play/ may load and how it may be read."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from backend.api.middleware import ResponseMiddleware

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


class PageSecurityHeadersMiddleware(ResponseMiddleware):
    """Sets the Content-Security-Policy and ``X-Content-Type-Options: nosniff`` on every /play/ response.

    A middleware rather than a decorator so that a page added later cannot miss them; nosniff is set here
    too because Django sets it only while ``SECURE_CONTENT_TYPE_NOSNIFF`` stays on. Sync and async capable
    (``ResponseMiddleware``): under ASGI it runs in the event loop, no thread hop.
    """

    def finish(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path_info.startswith(PAGES_PREFIX):
            response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
            response["X-Content-Type-Options"] = "nosniff"
        return response
