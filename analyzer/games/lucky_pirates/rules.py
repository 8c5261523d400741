"""lucky-pirates rule options, their cross-checks, and the numbers the kernels read.

Every option follows RULES.md (lucky-pirates section); the defaults are the book's
game plus our (decision) readings of its gaps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.options import Option

#: card kinds as the kernels see them (index into ``CARD_NAMES``)
SEASIDE = 0
ISLAND = 1
SHIP = 2
CARD_NAMES = ("seaside", "island", "ship")

STANDARD_CIRCLE = ("ship", "seaside", "island", "seaside", "seaside", "island", "seaside")

OPTIONS: tuple[Option, ...] = (
    Option(
        "circle", "str_list", STANDARD_CIRCLE,
        "the cards clockwise from the pirate ship, where every pirate starts (exactly one ship)",
        choices=("ship", "seaside", "island"), min_len=1, max_len=64,
    ),
    Option("die_faces", "int", 6, "faces of the die (a roll moves 1 to die_faces cards)",
           low=1, high=100),
    Option("disk_ship_probability", "float", 0.5,
           "chance that one wooden disk shows a ship; a duel throw wins with two ships",
           low=0.001, high=1.0),
    Option("treasures_to_win", "int", 5, "treasures that win the game the moment a pirate holds them",
           low=1, high=1000),
    Option("treasure_supply", "int", 17, "treasures in the provisions at the start", low=1, high=1000),
    Option("duel_replaces_card", "bool", True,
           "a duel replaces the arrival card's effect for the arriving pirate "
           "(false: the card acts first, then the duel is fought)"),
    Option("steal_when_empty", "bool", False,
           "a pirate due a treasure from empty provisions takes one from the richest other pirate"),
    Option("max_turns", "int", 10000, "turn cap: a game still running after this many turns is stopped",
           low=1, high=1_000_000),
)


def check_rules(rules: dict[str, Any], players: int, min_players: int, max_players: int) -> None:
    """Cross-option checks (each option alone is already valid)."""
    if not min_players <= players <= max_players:
        raise AnalyzerError(
            f"lucky-pirates is for {min_players} to {max_players} players, not {players}"
        )
    ships = rules["circle"].count("ship")
    if ships != 1:
        raise AnalyzerError(
            f"circle must hold exactly one ship (the pirates' start), it holds {ships}"
        )
    if rules["treasures_to_win"] > rules["treasure_supply"]:
        raise AnalyzerError(
            f"treasures_to_win = {rules['treasures_to_win']} is more than the treasure_supply "
            f"of {rules['treasure_supply']} can pay out"
        )


@dataclass(frozen=True)
class RuleValues:
    """The rules as plain numbers: what both the simulation and the exact solver read.

    ``circle`` holds card kinds, rotated so that index 0 is the ship.
    """

    players: int
    circle: np.ndarray
    die_faces: int
    two_ships_probability: float
    treasures_to_win: int
    treasure_supply: int
    duel_replaces_card: bool
    steal_when_empty: bool
    max_turns: int


def rule_values(rules: dict[str, Any], players: int) -> RuleValues:
    names = list(rules["circle"])
    start = names.index("ship")
    names = names[start:] + names[:start]
    return RuleValues(
        players=players,
        circle=np.array([CARD_NAMES.index(n) for n in names], dtype=np.int64),
        die_faces=int(rules["die_faces"]),
        two_ships_probability=float(rules["disk_ship_probability"]) ** 2,
        treasures_to_win=int(rules["treasures_to_win"]),
        treasure_supply=int(rules["treasure_supply"]),
        duel_replaces_card=bool(rules["duel_replaces_card"]),
        steal_when_empty=bool(rules["steal_when_empty"]),
        max_turns=int(rules["max_turns"]),
    )
