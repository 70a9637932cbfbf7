"""Live: the server pushes what changed (SPEC 13). The hub (``publish``, ``listen``, ``tap``), the long-poll
wait, and the streams' machinery (``sse``); docs/operations.md, "Live streams"."""
from backend.live.hub import listen, publish, tap
from backend.live.wait import MAX_WAIT_SECONDS, wait_for

__all__ = ["MAX_WAIT_SECONDS", "listen", "publish", "tap", "wait_for"]
