"""Skull Island's rule options (RULES.md, skull-island section) and their kernel form.

Every (decision) of RULES.md that players could settle differently is an option here;
the defaults are the standard game.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.options import Option
from analyzer.games.skull_island.components import (
    CARDS,
    DECK_CARDS,
    N_CARDS,
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
    Option("card_draw", "choice", "deck",
           "deck: each turn's card comes from the shuffled deck, reshuffled when empty; independent: each turn's "
           "card is drawn afresh with the deck's proportions (the model the win solver solves exactly)",
           choices=("deck", "independent")),
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
#: the options whose values are points a turn scores or costs (a captain or a storm doubles them)
POINT_OPTIONS = ("set_values", "coin_diamond_value", "full_chest_bonus", "sea_battle_values", "island_penalty",
                 "peace_penalty")


def points_step(rules: dict) -> int:
    """The step every total and the target move in: the greatest common divisor of the points
    of ``POINT_OPTIONS`` and of ``target_score`` (100 under the standard rules)."""
    values = [rules["target_score"]]
    for name in POINT_OPTIONS:
        value = rules[name]
        values.extend(value if isinstance(value, (list, tuple)) else [value])
    return math.gcd(*(int(v) for v in values)) or 1

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


class TurnRules(NamedTuple):
    """The rules as a turn reads them: its scoring, the strategies' decisions and the solvers
    (plain integers: a value to Numba, no reference counting in the hot loop)."""

    set_3: int  # points for 3 of a kind, and so on up to 9
    set_4: int
    set_5: int
    set_6: int
    set_7: int
    set_8: int
    set_9: int
    coin_diamond_value: int  # each coin and diamond
    full_chest_bonus: int  # every die scoring
    island_penalty: int  # each opponent loses this per skull rolled on Skull Island
    peace_penalty: int  # per sword rolled under the peace card
    sea_battle_2: int  # a won sea battle of 2 sabres; also its loss
    sea_battle_3: int
    sea_battle_4: int
    target_score: int  # the total that calls the final round
    skull_island: int  # 1: four or more skulls on the first roll go to Skull Island
    sea_battle_blocks_island: int  # 1: no Skull Island under a sea-battle card

    @classmethod
    def from_rules(cls, rules: dict) -> TurnRules:
        """Validated rules as a turn reads them."""
        return cls(*rules["set_values"], rules["coin_diamond_value"], rules["full_chest_bonus"],
                   rules["island_penalty"], rules["peace_penalty"], *rules["sea_battle_values"],
                   rules["target_score"], int(rules["skull_island"]), int(rules["sea_battle_blocks_island"]))
