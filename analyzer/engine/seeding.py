"""Seeds of runs: the drawn default and the seeds derived for the sub-runs of a command.

A command's runs share its one seed (common random numbers) unless they must be
independent, as the seatings of a strategy match-up or the rounds of a tuning search:
those run from a seed derived from the command's seed and their own name. The games
of a run then draw from :mod:`analyzer.engine.rng`, seeded per game from (seed, game).
"""

import hashlib
import secrets
from typing import Any

MAX_SEED = 2**64 - 1


def draw_seed() -> int:
    """A random seed for a run given none (63 bits, so it prints as a plain positive number)."""
    return secrets.randbits(63)


def derived_seed(seed: int, *parts: Any) -> int:
    """A 64-bit seed that depends only on ``seed`` and ``parts`` (independent streams per sub-run)."""
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")
