"""Doubloons' rule options (RULES.md, doubloons section) and their kernel form.

Every (decision) of RULES.md is an option whose default is the standard game; the
(reconstructed) card group make-up comes from ``cards.toml`` as the defaults of
``group_numbers``, ``group_specials`` and ``groups_by_players``.
"""

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.doubloons.cards import CHESTS, N_CODES, SPECIALS, card_data, special_code
from analyzer.games.options import Option

_DATA = card_data()
MAX_PLAYERS_WITH_OPTION = 12

OPTIONS = (
    Option("group_numbers", "int_list", _DATA["group_numbers"],
           "the number cards of one card group (reconstructed; every number 1 to 10 must be there)",
           low=1, high=CHESTS, min_len=1, max_len=100),
    Option("group_specials", "int_map", _DATA["group_specials"],
           "how many of each special card one card group holds (reconstructed)",
           low=0, high=100, choices=SPECIALS),
    Option("groups_by_players", "int_list", _DATA["groups_by_players"],
           "card groups in the deck for 2, 3, 4, ... players (book: players + 2; 6 for 5 players)",
           low=1, high=100, min_len=1, max_len=MAX_PLAYERS_WITH_OPTION - 1),
    Option("apply_revealed_specials", "bool", True,
           "a special card uncovered in your own chest is applied as if drawn (false: discarded, the turn ends)"),
    Option("freed_parrot_moves", "bool", True,
           "a parrot replaced by its number moves at once to another closed chest (false: it is discarded)"),
    Option("final_turns", "bool", False,
           "when a pirate opens every chest the others get one more turn; all who finish win the round"),
    Option("rotate_start", "bool", True, "each new round starts with the next seat (false: seat 1 always starts)"),
    Option("rounds_to_win", "int", 2, "round wins that take the match (2: best of 3; 1: the first round decides)",
           low=1, high=CHESTS - 1),
    Option("max_turns_per_round", "int", 2000,
           "a round still running after this many turns stops the match (counted as capped)",
           low=1, high=100000),
    Option("allow_more_players", "bool", False,
           f"allow 6 to {MAX_PLAYERS_WITH_OPTION} players (the box is for 2 to 5)"),
)

def groups_for(rules: dict, players: int) -> int:
    """Card groups in the deck for this many players."""
    table = rules["groups_by_players"]
    if players - 2 >= len(table):
        raise AnalyzerError(
            f"groups_by_players has no entry for {players} players; it lists 2 to {len(table) + 1} players"
        )
    return table[players - 2]


def composition(rules: dict, players: int) -> np.ndarray:
    """How many cards of each code the deck holds, indexed by card code."""
    groups = groups_for(rules, players)
    counts = np.zeros(N_CODES, dtype=np.int64)
    for number in rules["group_numbers"]:
        counts[number] += groups
    for name, count in rules["group_specials"].items():
        counts[special_code(name)] += groups * count
    return counts


def check_rules(rules: dict, players: int) -> None:
    """Cross-option checks: a deck that can be dealt and chests that can all be opened."""
    missing = sorted(set(range(1, CHESTS + 1)) - set(rules["group_numbers"]))
    if missing:
        raise AnalyzerError(
            f"group_numbers lacks {', '.join(map(str, missing))}: every chest 1 to {CHESTS} needs its number card"
        )
    cards = int(composition(rules, players).sum())
    needed = CHESTS * players + 1
    if cards < needed:
        raise AnalyzerError(
            f"too few cards for the deal: {groups_for(rules, players)} card groups make {cards} cards, "
            f"{players} players need {needed} ({CHESTS} chests each and the first discard)"
        )


def max_rounds(rules: dict, players: int) -> int:
    """The most rounds a match can last: every round gives at least one pirate a win."""
    return players * (rules["rounds_to_win"] - 1) + 1


def longest_round(rules: dict, players: int) -> int:
    """The most turns a round can last: the turn cap, then the final turns of the others."""
    return rules["max_turns_per_round"] + players - 1


def kernel_rules(rules: dict, players: int) -> dict:
    """The rule values the kernel reads (fields of ``inputs.Inputs``), the deck's composition included."""
    deck = composition(rules, players)
    return {
        "apply_revealed_specials": bool(rules["apply_revealed_specials"]),
        "freed_parrot_moves": bool(rules["freed_parrot_moves"]),
        "final_turns": bool(rules["final_turns"]),
        "rotate_start": bool(rules["rotate_start"]),
        "rounds_to_win": int(rules["rounds_to_win"]),
        "max_turns_per_round": int(rules["max_turns_per_round"]),
        "deck_size": int(deck.sum()),
        "composition": deck,
    }
