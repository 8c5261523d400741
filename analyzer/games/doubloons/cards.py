"""Doubloons' cards as names and kernel integers, and the editable card data file.

A card is an integer code: the number cards are their value (1 to ``CHESTS``), the
seven special cards follow. A key that unlocked something is discarded as ``USED_KEY``
(the same physical card, marked so nobody takes it from the discard pile); it turns
back into a ``KEY`` when the discards are shuffled into a new deck.
"""

import tomllib
from functools import lru_cache
from pathlib import Path

from analyzer.errors import AnalyzerError

#: chest slots per pirate (book: two rows of five)
CHESTS = 10

SPECIALS = ("pirate", "drunk-pirate", "kraken", "parrot", "chained-parrot", "chained-chest", "key")
FIRST_SPECIAL = CHESTS + 1
PIRATE, DRUNK_PIRATE, KRAKEN, PARROT, CHAINED_PARROT, CHAINED_CHEST, KEY = range(
    FIRST_SPECIAL, FIRST_SPECIAL + len(SPECIALS))
USED_KEY = KEY + 1
#: size of arrays indexed by card code (code 0 is "no card")
N_CODES = USED_KEY + 1

CARD_DATA_FILE = Path(__file__).with_name("cards.toml")


def special_code(name: str) -> int:
    return FIRST_SPECIAL + SPECIALS.index(name)


@lru_cache(maxsize=1)
def card_data() -> dict:
    """The reconstructed group make-up and the groups per player count (``cards.toml``)."""
    with CARD_DATA_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    unknown = sorted(set(data["group"]["specials"]) - set(SPECIALS))
    if unknown:
        raise AnalyzerError(f"{CARD_DATA_FILE}: unknown special card {unknown[0]!r}; specials: {', '.join(SPECIALS)}")
    return {
        "group_numbers": tuple(data["group"]["numbers"]),
        "group_specials": {name: data["group"]["specials"].get(name, 0) for name in SPECIALS},
        "groups_by_players": tuple(data["deal"]["groups_by_players"]),
    }
