"""The engine's own PRNG: PCG32 must match the published reference and serialise exactly."""
from collections import Counter

import pytest

from engine.rng import Rng


def test_pcg32_matches_reference_vector():
    # pcg32-demo (pcg-random.org minimal C library): srandom(42, 54) prints these first outputs.
    rng = Rng(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_state_round_trip_continues_the_same_sequence():
    rng = Rng(7)
    for _ in range(10):
        rng.next_u32()
    copy = Rng.from_json(rng.to_json())
    assert [rng.die(6) for _ in range(50)] == [copy.die(6) for _ in range(50)]


def test_below_is_uniform_and_in_range():
    rng = Rng(1)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    # chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    a, b = list(range(20)), list(range(20))
    Rng(1).shuffle(a)
    Rng(2).shuffle(b)
    assert sorted(a) == list(range(20)) and a != b


@pytest.mark.parametrize("bad", [[1], [1, 2], ["x", 3], [1, 2, 3]])
def test_from_json_rejects_malformed_state(bad):
    with pytest.raises(ValueError):
        Rng.from_json(bad)


def test_below_rejects_empty_range():
    with pytest.raises(ValueError):
        Rng(1).below(0)
