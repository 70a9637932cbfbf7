"""The pages: static shells; everything they show comes from the public REST API, called with JWT."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import get_script_prefix
from django.views.decorators.http import require_safe


@require_safe  # HEAD answers as GET does, without the body (a monitor's probe, a link checker)
def cell_capture(request: HttpRequest) -> HttpResponse:
    """Cell capture (seed 001) in the browser: sign in, lobbies, the board, the log."""
    return render(request, "play/cell_capture.html", {"api_root": f"{get_script_prefix()}api/v1/"})


@require_safe
def matches(request: HttpRequest) -> HttpResponse:
    """The match shell: every match mode (lobbies, bots, the turn, the live stream, spectating, replays)."""
    return render(request, "play/matches.html", {"api_root": f"{get_script_prefix()}api/v1/"})


@require_safe
def crawler(request: HttpRequest) -> HttpResponse:
    """The dungeon crawler's home (SPEC 16, issue 29): sign in, the player, guilds; live via me/stream/."""
    return render(request, "play/crawler.html", {"api_root": f"{get_script_prefix()}api/v1/"})
