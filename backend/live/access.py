"""Who may open a stream: one-time tickets for ``EventSource`` and the cap of open streams per user (SPEC 13).

- A ticket (``POST /api/v1/streams/ticket/``) stands for its user on one stream URL: single use, 60 s. It is
  kept in the cache (Redis when ``REDIS_URL`` is set, so every instance sees it; this process's memory in the
  embedded default, which serves from one process); redeeming deletes it, and only the one request whose
  delete succeeded gets the user, so a ticket opens one stream even when two instances race for it.
- A user holds at most ``STREAMS_PER_USER`` open streams. Each open stream holds a slot: a lease renewed
  while it runs, so an instance that dies without closing its streams frees their slots when the leases
  end. With ``REDIS_URL`` the slots of every instance are counted together (one sorted set per user, checked
  and taken by one script); in the embedded default, in this process.
"""
from __future__ import annotations

import secrets
import threading
import time
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache

TICKET_SECONDS = 60
STREAMS_PER_USER = 8
#: Seconds a slot stays taken without renewal (a stream renews it at least every half of this).
SLOT_LEASE_SECONDS = 60
_TICKET_KEY = "live:ticket:{}"
_SLOTS_KEY = "live:streams:{}"

# KEYS[1]: the user's slots; ARGV: now, the new lease's end, the cap, the slot, the key's lifetime.
_TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def ticket_issue(user_id: int) -> str:
    """A new one-time ticket standing for the user for ``TICKET_SECONDS``."""
    ticket = secrets.token_urlsafe(24)
    cache.set(_TICKET_KEY.format(ticket), user_id, TICKET_SECONDS)
    return ticket


def ticket_redeem(ticket: str) -> int | None:
    """The ticket's user, once: None when it is unknown, used or expired."""
    if not ticket or len(ticket) > 64:
        return None
    key = _TICKET_KEY.format(ticket)
    user_id = cache.get(key)
    if user_id is None or not cache.delete(key):  # the delete that succeeds is the one use
        return None
    return int(user_id)


#: Redis connections the slots of one process use at most; more calls at once (e.g. a thousand streams
#: closing together) wait up to ``REDIS_WAIT_SECONDS`` for one instead of failing.
REDIS_CONNECTIONS = 20
REDIS_WAIT_SECONDS = 10


@lru_cache(maxsize=4)
def _redis(url: str) -> Any:
    import redis

    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS,
                                                 timeout=REDIS_WAIT_SECONDS, socket_connect_timeout=1,
                                                 socket_timeout=1)
    return redis.Redis(connection_pool=pool)


_local_lock = threading.Lock()
_local_slots: dict[int, dict[str, float]] = {}


def slot_take(user_id: int) -> str | None:
    """A slot for one more open stream of the user, or None when the user holds ``STREAMS_PER_USER``."""
    slot = secrets.token_hex(8)
    now = time.time()
    url = str(getattr(settings, "REDIS_URL", "") or "")
    if url:
        taken = _redis(url).eval(_TAKE_SLOT, 1, _SLOTS_KEY.format(user_id), now, now + SLOT_LEASE_SECONDS,
                                 STREAMS_PER_USER, slot, SLOT_LEASE_SECONDS * 2)
        return slot if taken else None
    with _local_lock:
        slots = {s: end for s, end in _local_slots.get(user_id, {}).items() if end > now}
        if len(slots) >= STREAMS_PER_USER:
            _local_slots[user_id] = slots
            return None
        slots[slot] = now + SLOT_LEASE_SECONDS
        _local_slots[user_id] = slots
    return slot


def slots_renew(slots: list[tuple[int, str]]) -> None:
    """Extend the leases of these ``(user, slot)`` pairs (the running streams of a process do, together,
    at least every third of a lease): one Redis round trip for all of them."""
    end = time.time() + SLOT_LEASE_SECONDS
    url = str(getattr(settings, "REDIS_URL", "") or "")
    if url:
        by_user: dict[int, dict[str, float]] = {}
        for user_id, slot in slots:
            by_user.setdefault(user_id, {})[slot] = end
        pipeline = _redis(url).pipeline(transaction=False)
        for user_id, leases in by_user.items():
            pipeline.zadd(_SLOTS_KEY.format(user_id), leases, xx=True)
            pipeline.expire(_SLOTS_KEY.format(user_id), SLOT_LEASE_SECONDS * 2)
        if by_user:
            pipeline.execute()
        return
    with _local_lock:
        for user_id, slot in slots:
            held = _local_slots.get(user_id)
            if held is not None and slot in held:
                held[slot] = end


def slot_release(user_id: int, slot: str) -> None:
    """Free the slot (the stream has ended)."""
    url = str(getattr(settings, "REDIS_URL", "") or "")
    if url:
        _redis(url).zrem(_SLOTS_KEY.format(user_id), slot)
        return
    with _local_lock:
        slots = _local_slots.get(user_id)
        if slots is not None:
            slots.pop(slot, None)
            if not slots:
                del _local_slots[user_id]


def slots_held(user_id: int) -> int:
    """How many open streams the user holds now (every instance's, with Redis)."""
    now = time.time()
    url = str(getattr(settings, "REDIS_URL", "") or "")
    if url:
        return int(_redis(url).zcount(_SLOTS_KEY.format(user_id), now, "+inf"))
    with _local_lock:
        return sum(1 for end in _local_slots.get(user_id, {}).values() if end > now)
