"""Under ASGI the project's own middlewares run in the event loop (sync and async capable, Django's documented
way): they make no request hop to a thread, and they still answer as under WSGI (the JSON 404 of an unknown
/api/ route, the pages' security headers)."""
from __future__ import annotations

import logging

import pytest
from asgiref.sync import iscoroutinefunction
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponse
from django.test import AsyncClient

from backend.api.middleware import ApiErrorsMiddleware
from play.middleware import PageSecurityHeadersMiddleware

pytestmark = [pytest.mark.django_db, pytest.mark.anyio]

OURS = (ApiErrorsMiddleware, PageSecurityHeadersMiddleware)


async def _async_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("async")


def _sync_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("sync")


@pytest.mark.parametrize("middleware", OURS)
def test_each_is_async_over_an_async_handler_and_sync_over_a_sync_one(middleware) -> None:
    assert middleware.sync_capable and middleware.async_capable
    assert iscoroutinefunction(middleware(_async_view))
    assert not iscoroutinefunction(middleware(_sync_view))


def test_the_asgi_handler_adapts_no_middleware_to_a_thread(settings, caplog) -> None:
    # Django adapts the chain at a sync-only middleware (then every request hops to a thread and back) and
    # says so in its debug log
    settings.DEBUG = True
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        handler = ASGIHandler()
    assert iscoroutinefunction(handler._middleware_chain)
    assert [r.getMessage() for r in caplog.records if "adapted" in r.getMessage()] == []


async def test_an_unknown_api_route_is_the_json_404_under_asgi() -> None:
    response = await AsyncClient().get("/api/v1/nowhere/")
    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "No such route.", "details": {}}}


async def test_a_page_carries_its_security_headers_under_asgi() -> None:
    response = await AsyncClient().get("/play/cell-capture/")
    assert response.status_code == 200
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
