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


def test_sha256_is_the_standard_one_without_openssl_loaded():
    # docs/fairness.md: commitments and stream seeds are SHA-256; CPython's own module gives the
    # same digests as hashlib's (FIPS 180-2 vectors, and random inputs against hashlib)
    import hashlib
    import random as _random

    from engine import rng as R
    assert R.sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert R.sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    r = _random.Random(7)
    for n in (1, 55, 56, 64, 1000):
        data = bytes(r.randrange(256) for _ in range(n))
        assert R.sha256_digest(data) == hashlib.sha256(data).digest()


def test_the_console_and_the_screens_start_without_openssl():
    # import hashlib loads OpenSSL's libcrypto (about 3.5 MB resident, a tenth of the simulator's
    # 40 MB budget); nothing the device or the console imports at start needs it
    import subprocess
    import sys
    code = ("import sys, firmware.console, firmware.app, firmware.device, engine.rng; "
            "print('_hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
