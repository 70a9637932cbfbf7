"""REST routes of the dungeons app (mounted under /api/v1/)."""
from django.urls import path  # noqa: F401

urlpatterns: list = []
