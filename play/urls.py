"""Routes of the browser pages (mounted under /play/)."""
from django.urls import path

from play import views

urlpatterns = [
    path("cell-capture/", views.cell_capture, name="play-cell-capture"),
    path("matches/", views.matches, name="play-matches"),
    path("", views.crawler, name="play-crawler"),
]
