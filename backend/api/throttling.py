"""Throttles that fail open: a cache outage must not turn logins into server errors.

The client address is ``REMOTE_ADDR`` unless ``REST_FRAMEWORK["NUM_PROXIES"]`` (env ``NUM_PROXIES``,
default 0) says how many proxies in front of the server append to ``X-Forwarded-For``: DRF then
takes the address that many hops from the right. With DRF's own default (None) every forged
``X-Forwarded-For`` value was a new client, so the login throttle never fired (issue 11).
"""
from __future__ import annotations

import hashlib
import logging
import unicodedata

from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class FailOpen:
    """Lets the request through (and logs) when the cache is unreachable.

    Throttling is abuse protection, not a game rule: with Redis down we prefer answering players
    over refusing everyone with a 500.
    """

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception:  # noqa: BLE001 - any cache backend error (redis.ConnectionError, timeouts)
            logger.warning("throttle cache unavailable; allowing request", exc_info=True)
            return True


class ResilientScopedRateThrottle(FailOpen, ScopedRateThrottle):
    """The view's ``throttle_scope`` per client address, failing open."""


class UsernameRateThrottle(FailOpen, SimpleRateThrottle):
    """Token requests per username asked for, whatever the client address (scope ``auth_username``).

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
