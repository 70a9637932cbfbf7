"""The one exception handler: every error leaves the API as SPEC's JSON error body.

``{"error": {"code": "...", "message": "...", "details": {...}}}`` with a fitting status.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import (
    BadRequest,
    DisallowedHost,
    PermissionDenied as DjangoPermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.conf import settings
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from backend.errors import DomainError

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
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _drf_code(exc: exceptions.APIException) -> str:
    for cls in type(exc).__mro__:
        if cls in _DRF_CODES:
            return _DRF_CODES[cls]  # type: ignore[index]
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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
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
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        details["retry_after"] = int(exc.wait) + 1
    response.data = error_body(_drf_code(exc), message, details)
    return response


def bad_request_view(request, exception=None):  # noqa: ANN001 - Django handler signature
    return JsonResponse(bad_request_body(exception), status=status.HTTP_400_BAD_REQUEST)


def permission_denied_view(request, exception=None):  # noqa: ANN001 - Django handler signature
    return JsonResponse(error_body("permission_denied", "You may not do this."), status=status.HTTP_403_FORBIDDEN)


def not_found_view(request, exception=None):  # noqa: ANN001 - Django handler signature
    return JsonResponse(error_body("not_found", "No such route."), status=status.HTTP_404_NOT_FOUND)


def server_error_view(request):  # noqa: ANN001 - Django handler signature
    return JsonResponse(error_body("server_error", "Internal server error."), status=500)
