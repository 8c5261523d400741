"""Skull Island's rule options (RULES.md, skull-island section) and their kernel form.

Every (decision) of RULES.md that a table could play differently is an option here;
the defaults are the standard game.
"""

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.options import Option
from analyzer.games.skull_island.components import (
    CARDS,
    DECK_CARDS,
    N_CARDS,
    SEA_BATTLE_2,
    SEA_BATTLE_3,
    SEA_BATTLE_4,
    STANDARD_DECK,
)

OPTIONS = (
    Option("target_score", "int", 6000, "a player ending a turn at or above it starts the final round",
           low=1, high=10**7),
    Option("set_values", "int_list", (100, 200, 500, 1000, 2000, 4000, 4000),
           "points for a set of 3, 4, 5, 6, 7, 8 and 9 of a kind", low=0, high=10**6, min_len=7, max_len=7),
    Option("coin_diamond_value", "int", 100, "points every coin and diamond scores on its own", low=0, high=10**6),
    Option("full_chest_bonus", "int", 500, "bonus when all 8 dice score", low=0, high=10**6),
    Option("sea_battle_values", "int_list", (300, 500, 1000),
           "bonus won (or points lost) for sea battles of 2, 3 and 4 sabres", low=0, high=10**6,
           min_len=3, max_len=3),
    Option("island_penalty", "int", 100,
           "points each opponent loses per skull on Skull Island (doubled by the captain)", low=0, high=10**6),
    Option("peace_penalty", "int", 1000, "points lost per sabre showing at the end of a peace turn", low=0, high=10**6),
    Option("deck", "int_map", {k: v for k, v in STANDARD_DECK.items() if k not in ("storm", "peace")},
           "fortune deck: count of each card", low=0, high=100,
           choices=tuple(c for c in DECK_CARDS if c not in ("storm", "peace"))),
    Option("promo_storm", "int", 0, "storm promo cards in the deck", low=0, high=100),
    Option("promo_peace", "int", 0, "peace promo cards in the deck", low=0, high=100),
    Option("skull_island", "bool", True,
           "4+ skulls on the first roll go to Skull Island (false: an ordinary death)"),
    Option("sea_battle_blocks_island", "bool", True,
           "a sea battle card forbids Skull Island (4+ first-roll skulls is death)"),
    Option("floor_at_zero", "bool", False, "totals never go below zero"),
    Option("tie_rule", "choice", "shared",
           "shared: tied leaders are co-winners; extra-round: they play one more turn each, up to 10 times",
           choices=("shared", "extra-round")),
    Option("seat_bonus", "int", 0, "handicap: seat k starts with (k - 1) x seat_bonus points", low=-10**6, high=10**6),
    Option("max_rounds", "int", 1000, "a game still running after this many rounds is stopped (counted as capped)",
           low=1, high=100000),
    Option("allow_more_players", "bool", False, "allow 6 to 8 players (the box is for 2 to 5)"),
)

EXTRA_ROUNDS = 10

# Indices into the kernel's integer rule vector (numba reads module ints as constants).
(R_TARGET, R_COIN_DIAMOND, R_FULL_CHEST, R_ISLAND_PENALTY, R_PEACE_PENALTY, R_SKULL_ISLAND,
 R_SEA_BLOCKS, R_FLOOR, R_TIE_EXTRA, R_SEAT_BONUS, R_MAX_ROUNDS) = range(11)
N_RULE_INTS = 11


def deck_counts(rules: dict) -> np.ndarray:
    """Cards of each kind in the fortune deck, indexed by card id."""
    counts = np.zeros(N_CARDS, dtype=np.int64)
    for name, count in rules["deck"].items():
        counts[CARDS.index(name)] = count
    counts[CARDS.index("storm")] = rules["promo_storm"]
    counts[CARDS.index("peace")] = rules["promo_peace"]
    return counts


def check_rules(rules: dict) -> None:
    if deck_counts(rules).sum() < 1:
        raise AnalyzerError("deck: the fortune deck has no cards; give at least one card a count above 0")


# The kernel's config vector: every table the scoring and the game read, as one
# int64 array (one array crosses function boundaries, not four).
CFG_SET_VALUE = 0  # 10 entries: points of a set of k of a kind, k = 0..9
CFG_SEA_NEED = 10  # per card: sabres a sea battle needs (0: not a sea battle)
CFG_SEA_VALUE = CFG_SEA_NEED + N_CARDS  # per card: the sea battle's value
CFG_RULE = CFG_SEA_VALUE + N_CARDS  # the R_* rule integers
CFG_SIZE = CFG_RULE + N_RULE_INTS


def kernel_config(rules: dict) -> np.ndarray:
    """Validated rules as the kernel's int64 config vector (see ``CFG_*``)."""
    need, value = sea_battle_tables(rules)
    return np.concatenate([set_value_table(rules), need, value, rule_ints(rules)]).astype(np.int64)


def rule_ints(rules: dict) -> np.ndarray:
    values = np.zeros(N_RULE_INTS, dtype=np.int64)
    values[R_TARGET] = rules["target_score"]
    values[R_COIN_DIAMOND] = rules["coin_diamond_value"]
    values[R_FULL_CHEST] = rules["full_chest_bonus"]
    values[R_ISLAND_PENALTY] = rules["island_penalty"]
    values[R_PEACE_PENALTY] = rules["peace_penalty"]
    values[R_SKULL_ISLAND] = rules["skull_island"]
    values[R_SEA_BLOCKS] = rules["sea_battle_blocks_island"]
    values[R_FLOOR] = rules["floor_at_zero"]
    values[R_TIE_EXTRA] = rules["tie_rule"] == "extra-round"
    values[R_SEAT_BONUS] = rules["seat_bonus"]
    values[R_MAX_ROUNDS] = rules["max_rounds"]
    return values


def set_value_table(rules: dict) -> np.ndarray:
    """Points for a set of ``k`` of a kind, indexed by k = 0..9."""
    table = np.zeros(10, dtype=np.int64)
    table[3:10] = rules["set_values"]
    return table


def sea_battle_tables(rules: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per card id: sabres a sea battle needs (0: not a sea battle) and its value."""
    need = np.zeros(N_CARDS, dtype=np.int64)
    value = np.zeros(N_CARDS, dtype=np.int64)
    for card, sabres, points in zip((SEA_BATTLE_2, SEA_BATTLE_3, SEA_BATTLE_4), (2, 3, 4), rules["sea_battle_values"],
                                   strict=True):
        need[card] = sabres
        value[card] = points
    return need, value
