"""Domain errors raised by services; the API layer turns them into SPEC's JSON error body.

Services raise these (never DRF exceptions) so that they stay usable from tasks, the admin
and scripts. ``RuleViolation`` is a game rule refusing an action (409): it is raised before
anything is written, or inside the transaction that it rolls back, so a refusal changes nothing.
"""
from __future__ import annotations

from typing import Any

from gamekit.results import Impossible


class DomainError(Exception):
    status_code = 400
    default_code = "invalid"

    def __init__(self, code: str | None = None, message: str = "", details: dict[str, Any] | None = None):
        self.code = code or self.default_code
        self.message = message or self.code.replace("_", " ")
        self.details = details or {}
        super().__init__(f"{self.code}: {self.message}")


class InvalidInput(DomainError):
    """The request is well-formed JSON but its values make no sense (400)."""


class NotAllowed(DomainError):
    """The caller is known but may not do this (403), e.g. ``not_leader``."""

    status_code = 403
    default_code = "not_allowed"


class NotFound(DomainError):
    """The object does not exist or the caller may not see it (404)."""

    status_code = 404
    default_code = "not_found"


class NotAuthenticated(DomainError):
    """No valid credentials (401), e.g. a used stream ticket: outside DRF, where DRF's own would not apply."""

    status_code = 401
    default_code = "not_authenticated"


class TooMany(DomainError):
    """The caller holds too many of something at once (429), e.g. ``too_many_streams``."""

    status_code = 429
    default_code = "too_many"


class RuleViolation(DomainError):
    """A game rule refuses the action (409); the code names the rule."""

    status_code = 409
    default_code = "rule_violation"


def refused(impossible: Impossible) -> InvalidInput | RuleViolation:
    """The API error of a refusal that an engine or a game mode returned as a value: a malformed input is a
    400 ``InvalidInput``, a move the rules refuse a 409 ``RuleViolation``, with the refusal's code, message
    and details. The one place where a result value becomes an exception (matches and battles alike)."""
    error = InvalidInput if impossible.kind == "input" else RuleViolation
    return error(impossible.code, impossible.message, dict(impossible.details))
