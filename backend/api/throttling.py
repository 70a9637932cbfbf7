"""Throttles that count atomically and fail open: a cache outage must not turn logins into server errors.

The client address is ``REMOTE_ADDR`` unless ``REST_FRAMEWORK["NUM_PROXIES"]`` (env ``NUM_PROXIES``,
default 0) says how many proxies in front of the server append to ``X-Forwarded-For``: DRF then
takes the address that many hops from the right. With DRF's own default (None) every forged
``X-Forwarded-For`` value was a new client, so the login throttle never fired (issue 11).
"""
from __future__ import annotations

import hashlib
import logging
import math
import unicodedata

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class FailOpen(BaseThrottle):
    """Lets the request through (and logs) when the cache is unreachable.

    Throttling is abuse protection, not a game rule: with Redis down we prefer answering players
    over refusing everyone with a 500.
    """

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            logger.warning("throttle cache unavailable; allowing request", exc_info=True)
            return True


class AtomicRateThrottle(SimpleRateThrottle):
    """Counts requests with one atomic increment per request, so concurrent requests cannot share a slot.

    DRF's throttles read the key's list of request times, append and write it back: concurrent requests
    all read the same list, so 30 wrong passwords at once let 23 through a limit of 20 (issue 24). Here
    each window of the rate's duration has a counter (``cache.add`` then ``cache.incr``: atomic on Redis,
    and on the per-process local memory cache of the embedded mode); a request is allowed if the count it
    got, plus the previous window's count weighted by how much of it is still within the duration, is at
    most the limit. A refused request takes its increment back, so only allowed requests count, as in DRF.
    """

    _wait: float = 0.0
    # Set by SimpleRateThrottle.__init__ from the rate (parse_rate); the stubs do not declare them.
    num_requests: int
    duration: int

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window, into = divmod(now, self.duration)
        current = f"{key}:{int(window)}"
        count = self._increment(current)
        previous = self.cache.get(f"{key}:{int(window) - 1}", 0)
        remaining = 1 - into / self.duration  # of the previous window, the part still within the duration
        if count + previous * remaining <= self.num_requests:
            return True
        self.cache.decr(current)
        self._wait = self._time_to_a_free_slot(count - 1, previous, into)
        return False

    def _increment(self, key: str) -> int:
        # The counter lives two windows: it is the previous window's during the next one.
        for _ in range(2):
            self.cache.add(key, 0, self.duration * 2)  # only if absent (SET NX EX on Redis)
            try:
                return int(self.cache.incr(key))
            except ValueError:  # evicted between the two calls: create it again
                continue
        return int(self.cache.incr(key))

    def _time_to_a_free_slot(self, count: int, previous: int, into: float) -> float:
        """Seconds until one more request fits, if no other comes: the previous window's weight fades
        within this one, then this window's own count fades within the next."""
        slots = self.num_requests - 1 - count
        if previous and slots >= 0:
            return max(0.0, self.duration * (1 - slots / previous) - into)
        left = self.duration - into
        return left + self.duration * max(0.0, 1 - (self.num_requests - 1) / max(count, 1))

    def wait(self) -> float:
        return math.ceil(self._wait)


class ResilientScopedRateThrottle(FailOpen, ScopedRateThrottle, AtomicRateThrottle):
    """The view's ``throttle_scope`` per client address, counted atomically, failing open."""


class UsernameRateThrottle(FailOpen, AtomicRateThrottle):
    """Token requests per username asked for, whatever the client address (scope ``auth_username``), counted
    atomically, failing open.

    A per-address limit does not stop guessing one account's password from many addresses; this
    one does. The key is a hash of the username's case-folded NFKC form, so look-alike spellings
    share one bucket and an attacker-chosen string never becomes a cache key as it is.
    """

    scope = "auth_username"
    username: str | None = None

    def allow_request(self, request: Request, view: APIView) -> bool:
        # Read the body before FailOpen's guard: a malformed body is the client's 400, not a cache outage.
        data = request.data
        username = data.get("username") if hasattr(data, "get") else None
        self.username = username if isinstance(username, str) and username else None
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if self.username is None:
            return None  # the serializer refuses the request; nothing to count
        folded = unicodedata.normalize("NFKC", self.username).strip().casefold()
        ident = hashlib.sha256(folded.encode("utf-8", "surrogatepass")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}
