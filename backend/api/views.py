"""Helpers of the thin API views: ``valid``, the input check every view uses (backend/api/compiled.py)."""
from __future__ import annotations

from backend.api.compiled import validated as valid

__all__ = ["valid"]
