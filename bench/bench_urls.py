"""The real URL map plus ``/bench/baseline/``: a bare Django JSON view behind the same JWT auth,
the floor that the benchmarks compare API endpoints against."""
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import InvalidToken

from backend.api.errors import error_body

_jwt = JWTAuthentication()


def baseline(request: HttpRequest) -> JsonResponse:
    """Authenticate the bearer token like every API view (one user query), answer a tiny payload."""
    try:
        authenticated = _jwt.authenticate(request)
    except (InvalidToken, AuthenticationFailed):
        authenticated = None
    if authenticated is None:
        return JsonResponse(error_body("not_authenticated", "Bearer token required."), status=401)
    user, _token = authenticated
    return JsonResponse({"ok": True, "user": user.pk})


urlpatterns = [
    path("bench/baseline/", baseline, name="bench-baseline"),
    path("", include("backend.urls")),
]

handler404 = "backend.api.errors.not_found_view"
handler500 = "backend.api.errors.server_error_view"
