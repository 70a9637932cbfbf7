"""JSON errors where Django itself would answer: an unknown /api/ route, a lost database outside DRF."""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from backend.api.errors import database_unavailable, database_unavailable_response, not_found_view

#: The API's routes: what a client of the JSON API may call, known or not.
API_PREFIX = "/api/"


class ApiErrorsMiddleware:
    """An unknown route under /api/ is the API's JSON 404 with ``DEBUG`` on too (Django's debug page is HTML;
    ``handler404`` answers only with ``DEBUG`` off), and a lost database connection in a view outside DRF
    (the admin) is the same 503 ``database_unavailable`` as in DRF's (``backend.api.errors``).

    It sits below ``CommonMiddleware``, so ``APPEND_SLASH`` still redirects ``/api/v1/me`` to ``/api/v1/me/``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # No resolver match: no route at all (a view's own 404, e.g. the browsable API's, is left as it is).
        if (response.status_code == 404 and request.resolver_match is None
                and request.path_info.startswith(API_PREFIX)):
            return not_found_view(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if database_unavailable(exception):
            return database_unavailable_response(exception)
        return None
