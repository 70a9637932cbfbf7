"""Small statistics helpers for the engine's distribution tests (no scipy in the project)."""
from __future__ import annotations

import math
from collections.abc import Mapping

# Upper critical values of the chi-square distribution at p = 0.001, by degrees of freedom:
# a correct generator fails a test with one fixed seed with probability 1/1000 at most, and the
# seed being fixed makes each test deterministic anyway.
CHI2_CRITICAL_P001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
                      8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264}


def chi_square(observed: Mapping[object, int],
               expected_probabilities: Mapping[object, float]) -> tuple[float, int]:
    """Pearson's statistic and its degrees of freedom; outcomes of probability 0 must not occur."""
    total = sum(observed.values())
    statistic = 0.0
    cells = 0
    for outcome, probability in expected_probabilities.items():
        if probability == 0:
            assert observed.get(outcome, 0) == 0, f"{outcome!r} has probability 0 but occurred"
            continue
        expected = total * probability
        statistic += (observed.get(outcome, 0) - expected) ** 2 / expected
        cells += 1
    unexpected = set(observed) - set(expected_probabilities)
    assert not unexpected, f"outcomes outside the model: {unexpected}"
    return statistic, cells - 1


def assert_follows(observed: Mapping[object, int], expected_probabilities: Mapping[object, float]) -> None:
    statistic, dof = chi_square(observed, expected_probabilities)
    assert statistic < CHI2_CRITICAL_P001[dof], (statistic, dof, dict(observed), dict(expected_probabilities))


def assert_rate_within_sigmas(hits: int, trials: int, probability: float, sigmas: float = 4.0) -> None:
    """The observed rate lies within ``sigmas`` binomial standard deviations of ``probability``."""
    sd = math.sqrt(probability * (1 - probability) / trials)
    rate = hits / trials
    assert abs(rate - probability) <= sigmas * sd, (rate, probability, sd)
