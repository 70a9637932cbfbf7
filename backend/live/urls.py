"""Routes of the live machinery under /api/v1/ (the streams themselves are their apps' routes)."""
from django.urls import path

from backend.live import apis

urlpatterns = [
    path("streams/ticket/", apis.StreamTicketApi.as_view(), name="stream-ticket"),
]
