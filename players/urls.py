"""REST routes of the players app (mounted under /api/v1/)."""
from django.urls import path

from players import apis

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/token/", apis.TokenApi.as_view(), name="auth-token"),
    path("auth/token/refresh/", apis.TokenRefreshApi.as_view(), name="auth-token-refresh"),
    path("me/", apis.MeApi.as_view(), name="me"),
]
