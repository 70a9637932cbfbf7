"""Helpers of the thin API views."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

# TEMPORARY (issue 25): re-exported until dungeons/, matches/ and darkness/ import it from players.caller;
# the plumbing knows no app (tests/test_import_layers.py lists this import as waiting).
from players.caller import PlayerApi

__all__ = ["PlayerApi", "valid"]


def valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """Validate request data with an input serializer (400 ``invalid`` with field errors if bad)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
