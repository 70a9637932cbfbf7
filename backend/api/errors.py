"""The one exception handler: every error leaves the API as SPEC's JSON error body.

``{"error": {"code": "...", "message": "...", "details": {...}}}`` with a fitting status.
"""
from __future__ import annotations

import logging
import sys
from typing import Any

from django import db
from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    DisallowedHost,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import (
    PermissionDenied as DjangoPermissionDenied,
)
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from backend.errors import DomainError

logger = logging.getLogger(__name__)

#: Seconds a client should wait after a 503 ``database_unavailable``: a lost connection is replaced by the
#: next request (the pool checks each one it lends), a restarting or failing-over PostgreSQL takes seconds.
DATABASE_RETRY_AFTER_SECONDS = 2
#: PostgreSQL's codes of a connection that the server ended or refused: class 08 (connection exception)
#: and the shutdowns of class 57 (pg_terminate_backend, a crash, a server still starting).
_LOST_CONNECTION_SQLSTATES = ("08", "57P01", "57P02", "57P03")

# DRF exception class -> our machine-readable code.
_DRF_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """SPEC's error body. The message is read in the request's language where a catalogue has it (the
    plumbing's own in backend/locale/, DRF's, any app's); the code never changes with the language."""
    return {"error": {"code": code, "message": gettext(message), "details": details or {}}}


def _drf_code(exc: exceptions.APIException) -> str:
    for cls in type(exc).__mro__:
        if cls in _DRF_CODES:
            return _DRF_CODES[cls]
    return str(getattr(exc, "default_code", "error"))


def _message_and_details(exc: exceptions.APIException) -> tuple[str, dict[str, Any]]:
    detail = exc.detail
    if isinstance(exc, exceptions.ValidationError):
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        return "The request body is invalid.", {"fields": fields}
    if isinstance(detail, dict):
        return "Request refused.", dict(detail)
    if isinstance(detail, list):
        return "; ".join(str(item) for item in detail), {}
    return str(detail), {}


def bad_request_body(exc: BaseException | None) -> dict[str, Any]:
    """The 400 body for a request Django refused before or while reading it (size, fields, Host)."""
    if isinstance(exc, RequestDataTooBig):
        return error_body("request_too_large", "The request body is too large.",
                          {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return error_body("too_many_fields", "The request has too many fields.",
                          {"limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS})
    if isinstance(exc, DisallowedHost):
        return error_body("disallowed_host", "This server does not answer for that host name.")
    return error_body("bad_request", "Bad request.")


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` is the database out of reach (a connection lost, refused, or none free in the pool in
    time), as opposed to one statement failing (a constraint, a deadlock, a bug: those stay errors)."""
    if not isinstance(exc, (db.OperationalError, db.InterfaceError)):
        return False
    cause = exc.__cause__
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # an installation without PostgreSQL: SQLite has no connection to lose
        return False
    if isinstance(cause, (psycopg_pool.PoolTimeout, psycopg.InterfaceError)):
        return True
    if isinstance(cause, psycopg.OperationalError):
        # No code: the client library's own "connection is lost" / "server closed the connection".
        return cause.sqlstate is None or cause.sqlstate.startswith(_LOST_CONNECTION_SQLSTATES)
    return False


def database_unavailable_body() -> dict[str, Any]:
    return error_body("database_unavailable", "The game's database is unavailable for a moment; try again.",
                      {"retry_after": DATABASE_RETRY_AFTER_SECONDS})


def _database_unavailable_logged(exc: BaseException) -> None:
    logger.warning("database unavailable: answered 503", exc_info=exc)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if database_unavailable(exc):
        # The service's transaction was rolled back with its connection: nothing of the request is written.
        _database_unavailable_logged(exc)
        return Response(database_unavailable_body(), status=status.HTTP_503_SERVICE_UNAVAILABLE,
                        headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)})
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, (SuspiciousOperation, BadRequest)):
        return Response(bad_request_body(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    message, details = _message_and_details(exc)
    # Throttled sets ``wait`` in its __init__; the stubs do not declare it.
    wait: float | None = exc.wait if isinstance(exc, exceptions.Throttled) else None  # type: ignore[attr-defined]
    if wait is not None:
        details["retry_after"] = int(wait) + 1
    response.data = error_body(_drf_code(exc), message, details)
    return response


def bad_request_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(bad_request_body(exception), status=status.HTTP_400_BAD_REQUEST)


def permission_denied_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("permission_denied", "You may not do this."),
                        status=status.HTTP_403_FORBIDDEN)


def database_unavailable_response(exc: BaseException) -> JsonResponse:
    """The 503 of a lost database outside DRF's views (the admin, a middleware)."""
    _database_unavailable_logged(exc)
    response = JsonResponse(database_unavailable_body(), status=status.HTTP_503_SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
    return response


def not_found_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", "No such route."), status=status.HTTP_404_NOT_FOUND)


def server_error_view(request: HttpRequest) -> JsonResponse:
    exc = sys.exc_info()[1]  # handler500 is called while the error is being handled
    if exc is not None and database_unavailable(exc):  # e.g. in a middleware, before any view ran
        return database_unavailable_response(exc)
    return JsonResponse(error_body("server_error", "Internal server error."), status=500)
