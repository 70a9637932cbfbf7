"""Pure helpers every game engine shares (no Django): the result of a move, ``Success | Impossible``."""
from gamekit.results import Impossible, Refusal, Result, Success

__all__ = ["Impossible", "Refusal", "Result", "Success"]
