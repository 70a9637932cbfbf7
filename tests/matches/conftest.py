"""Match tests: the test-only hidden-information modes are registered next to the real ones."""

from matches.modes import register
from tests.matches.toy_mode import SecretRaceMode, SecretStartRaceMode

register(SecretRaceMode())
register(SecretStartRaceMode())
