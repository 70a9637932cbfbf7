"""JSON errors where Django itself would answer: an unknown /api/ route, a lost database outside DRF; and
``ResponseMiddleware``, the sync and async capable base of the project's middlewares that only look at the
response (so that under ASGI no request hops to a thread for them)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from backend.api.errors import database_unavailable, database_unavailable_response, not_found_view

#: The API's routes: what a client of the JSON API may call, known or not.
API_PREFIX = "/api/"


class ResponseMiddleware:
    """A middleware that only looks at (or replaces) the response, in ``finish``: sync and async capable,
    Django's documented way ("Asynchronous support" in the middleware docs). Under ASGI it runs in the event
    loop (a sync-only middleware would make every request hop to a thread and back); under WSGI, in the
    request's thread."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if self.is_async:
            return self.__acall__(request)
        return self.finish(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        return self.finish(request, await self.get_response(request))

    def finish(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        raise NotImplementedError


class ApiErrorsMiddleware(ResponseMiddleware):
    """An unknown route under /api/ is the API's JSON 404 with ``DEBUG`` on too (Django's debug page is HTML;
    ``handler404`` answers only with ``DEBUG`` off), and a lost database connection in a view outside DRF
    (the admin) is the same 503 ``database_unavailable`` as in DRF's (``backend.api.errors``).

    It sits below ``CommonMiddleware``, so ``APPEND_SLASH`` still redirects ``/api/v1/me`` to ``/api/v1/me/``.
    """

    def finish(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        # No resolver match: no route at all (a view's own 404, e.g. the browsable API's, is left as it is).
        if (response.status_code == 404 and request.resolver_match is None
                and request.path_info.startswith(API_PREFIX)):
            return not_found_view(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if database_unavailable(exception):
            return database_unavailable_response(exception)
        return None
