"""The real URL map plus ``/bench/baseline/``: a bare Django JSON view behind the same JWT auth,
the floor that the benchmarks compare API endpoints against; ``/bench/baseline-write/``, the
same with one committed UPDATE, the floor for write endpoints; and ``/bench/statements/``, how many SQL
statements this server process has run so far (those of the deadline clock apart, and the latest thousand,
each after its time and whose it was), read without running one."""
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import InvalidToken

from backend import deadlines
from backend.api.errors import error_body

_jwt = JWTAuthentication()


def baseline(request: HttpRequest) -> JsonResponse:
    """Authenticate the bearer token like every API view (one user query), answer a tiny payload."""
    try:
        authenticated = _jwt.authenticate(request)  # type: ignore[arg-type]  # reads only the header
    except (InvalidToken, AuthenticationFailed):
        authenticated = None
    if authenticated is None:
        return JsonResponse(error_body("not_authenticated", "Bearer token required."), status=401)
    user, _token = authenticated
    return JsonResponse({"ok": True, "user": user.pk})


@csrf_exempt  # bearer tokens, not cookies: like every API view
def baseline_write(request: HttpRequest) -> JsonResponse:
    """POST: authenticate like ``baseline``, then one UPDATE of the caller's own user row (its
    ``last_login``), committed on its own: the least a write endpoint can do."""
    if request.method != "POST":
        return JsonResponse(error_body("method_not_allowed", "POST only."), status=405)
    try:
        authenticated = _jwt.authenticate(request)  # type: ignore[arg-type]  # reads only the header
    except (InvalidToken, AuthenticationFailed):
        authenticated = None
    if authenticated is None:
        return JsonResponse(error_body("not_authenticated", "Bearer token required."), status=401)
    user, _token = authenticated
    updated = get_user_model().objects.filter(pk=user.pk).update(last_login=timezone.now())
    return JsonResponse({"ok": True, "user": user.pk, "updated": updated})


#: The deadline clock's module: a statement run under it is the clock's (it re-reads every 30 s regardless).
_CLOCK_FILE = str(Path(deadlines.__file__))


class _Statements:
    """Counts every statement run on any database connection of this process (installed on each connection
    as it is made), and apart those the deadline clock runs."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.clock = 0
        self.recent: deque[str] = deque(maxlen=1000)

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename != _CLOCK_FILE:
            frame = frame.f_back  # type: ignore[assignment]
        by_clock = frame is not None
        with self.lock:
            self.count += 1
            self.clock += by_clock
            who = "clock" if by_clock else "other"
            self.recent.append(f"{time.time():.1f} {who} {' '.join(str(sql).split())[:120]}")
        return execute(sql, params, many, context)


_statements = _Statements()


def _count_statements(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    if _statements not in connection.execute_wrappers:
        connection.execute_wrappers.append(_statements)


connection_created.connect(_count_statements)


def statements(request: HttpRequest) -> JsonResponse:
    """GET: the statements this process has run so far (no authentication, no SQL: a benchmark's probe)."""
    with _statements.lock:
        return JsonResponse({"count": _statements.count, "clock": _statements.clock,
                             "recent": list(_statements.recent)})


urlpatterns = [
    path("bench/baseline/", baseline, name="bench-baseline"),
    path("bench/statements/", statements, name="bench-statements"),
    path("bench/baseline-write/", baseline_write, name="bench-baseline-write"),
    path("", include("backend.urls")),
]

handler404 = "backend.api.errors.not_found_view"
handler500 = "backend.api.errors.server_error_view"
