"""Throttles that fail open: a cache outage must not turn logins into server errors."""
from __future__ import annotations

import logging

from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class ResilientScopedRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle that lets the request through (and logs) when the cache is unreachable.

    Throttling is abuse protection, not a game rule: with Redis down we prefer answering players
    over refusing everyone with a 500.
    """

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # noqa: BLE001 - any cache backend error (redis.ConnectionError, timeouts)
            logger.warning("throttle cache unavailable; allowing request", exc_info=True)
            return True
