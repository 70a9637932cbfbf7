"""Match tests: the test-only hidden-information mode is registered next to the real ones."""

from matches.modes import register
from tests.matches.toy_mode import SecretRaceMode

register(SecretRaceMode())
