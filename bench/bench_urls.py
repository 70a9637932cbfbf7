"""The real URL map plus ``/bench/baseline/``: a bare Django JSON view behind the same JWT auth,
the floor that the benchmarks compare API endpoints against; and ``/bench/baseline-write/``, the
same with one committed UPDATE, the floor for write endpoints."""
from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import InvalidToken

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


urlpatterns = [
    path("bench/baseline/", baseline, name="bench-baseline"),
    path("bench/baseline-write/", baseline_write, name="bench-baseline-write"),
    path("", include("backend.urls")),
]

handler404 = "backend.api.errors.not_found_view"
handler500 = "backend.api.errors.server_error_view"
