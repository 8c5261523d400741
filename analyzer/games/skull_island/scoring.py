"""The one scoring implementation of a finished Skull Island turn.

Used by the kernel for every simulated turn and by ``analyze score``. ``dice`` holds
all 8 dice at the end of the turn, those on the treasure chest card included, and
``chest`` the dice lying on the chest card, both packed (see :mod:`dice`); ``turn_rules`` is
the rules as a turn reads them (:class:`rules.TurnRules`), plain integers, so the compiled
code holds no array and does no reference counting.
"""

from analyzer.engine.jit import njit
from analyzer.games.skull_island.components import (
    CAPTAIN,
    CHEST,
    COIN,
    COIN_CARD,
    DIAMOND,
    DIAMOND_CARD,
    MONKEY,
    MONKEY_BUSINESS,
    PARROT,
    PEACE,
    SEA_BATTLE_2,
    SEA_BATTLE_3,
    SEA_BATTLE_4,
    SKULL,
    SKULL_1,
    SKULL_2,
    STORM,
    SWORD,
)
from analyzer.games.skull_island.dice import count, pack


@njit(cache=True, inline="always")
def card_skulls(card):
    """Skulls a card starts the turn with."""
    if card == SKULL_1:
        return 1
    if card == SKULL_2:
        return 2
    return 0


@njit(cache=True, inline="always")
def sabres_needed(card):
    """Sabres the card's sea battle needs (0: not a sea battle)."""
    if card == SEA_BATTLE_2:
        return 2
    if card == SEA_BATTLE_3:
        return 3
    if card == SEA_BATTLE_4:
        return 4
    return 0


@njit(cache=True, inline="always")
def sea_battle_value(turn_rules, card):
    """What the card's sea battle wins or loses (0: not a sea battle)."""
    if card == SEA_BATTLE_2:
        return turn_rules.sea_battle_2
    if card == SEA_BATTLE_3:
        return turn_rules.sea_battle_3
    if card == SEA_BATTLE_4:
        return turn_rules.sea_battle_4
    return 0


@njit(cache=True, inline="always")
def set_value(turn_rules, size):
    """Points of a set of ``size`` of a kind."""
    if size < 3:
        return 0
    if size == 3:
        return turn_rules.set_3
    if size == 4:
        return turn_rules.set_4
    if size == 5:
        return turn_rules.set_5
    if size == 6:
        return turn_rules.set_6
    if size == 7:
        return turn_rules.set_7
    if size == 8:
        return turn_rules.set_8
    return turn_rules.set_9


@njit(cache=True, inline="always")
def island_allowed(card, turn_rules):
    """Do 4+ skulls on the first roll go to Skull Island under this card?"""
    return turn_rules.skull_island != 0 and not (sabres_needed(card) > 0 and turn_rules.sea_battle_blocks_island != 0)


@njit(cache=True, inline="always")
def every_die_scores(card, dice):
    """Do all the dice score (the full chest, storm aside)? No skull, and every monkey, parrot
    and sabre in a set of 3 or more (monkeys and parrots together under monkey business) or a
    sabre that the card's sea battle needs and has; coins and diamonds always score."""
    if count(dice, SKULL) != 0:
        return False
    monkeys = count(dice, MONKEY)
    parrots = count(dice, PARROT)
    if card == MONKEY_BUSINESS:
        if 0 < monkeys + parrots < 3:
            return False
    elif 0 < monkeys < 3 or 0 < parrots < 3:
        return False
    swords = count(dice, SWORD)
    need = sabres_needed(card)
    return not (0 < swords < 3 and not (need > 0 and swords >= need))


@njit(cache=True)
def set_points(card, dice, turn_rules, full_chest_allowed):
    """Points of the dice as they lie, before captain doubling and sea-battle bonus.

    Sets of each face (monkeys and parrots together under monkey business; the coin
    or diamond card counting as one more die of its face), 100 per coin and diamond,
    and the full-chest bonus when every die scores (:func:`every_die_scores`).
    """
    coins = count(dice, COIN) + (1 if card == COIN_CARD else 0)
    diamonds = count(dice, DIAMOND) + (1 if card == DIAMOND_CARD else 0)
    points = set_value(turn_rules, coins) + set_value(turn_rules,
                                                      diamonds) + turn_rules.coin_diamond_value * (coins + diamonds)
    if card == STORM:
        return 2 * points
    monkeys = count(dice, MONKEY)
    parrots = count(dice, PARROT)
    if card == MONKEY_BUSINESS:
        points += set_value(turn_rules, monkeys + parrots)
    else:
        points += set_value(turn_rules, monkeys) + set_value(turn_rules, parrots)
    points += set_value(turn_rules, count(dice, SWORD))
    if full_chest_allowed and every_die_scores(card, dice):
        points += turn_rules.full_chest_bonus
    return points


@njit(cache=True)
def score_turn(card, dice, chest, island, sword_seen, turn_rules):
    """The turn's result as ``(own change, change for each opponent)``.

    ``island``: the turn was on Skull Island; ``sword_seen``: (peace on Skull Island)
    a roll of the turn showed a sabre, which cancels the opponents' loss.
    """
    skulls = count(dice, SKULL) + card_skulls(card)
    if island:
        if card == PEACE and sword_seen:
            return 0, 0
        per_skull = turn_rules.island_penalty * (2 if card == CAPTAIN else 1)
        return 0, -per_skull * skulls
    dead = skulls >= 3
    if card == STORM and dead:
        return 0, -turn_rules.island_penalty * skulls
    need = sabres_needed(card)
    sea_value = sea_battle_value(turn_rules, card)
    if need > 0 and (dead or count(dice, SWORD) < need):
        return -sea_value, 0
    swords = count(dice, SWORD)
    if card == PEACE and swords > 0:
        return -turn_rules.peace_penalty * swords, 0
    if dead:
        if card == CHEST:
            return set_points(card, chest, turn_rules, False), 0
        return 0, 0
    points = set_points(card, dice, turn_rules, True) + sea_value
    if card == CAPTAIN:
        points *= 2
    return points, 0


@njit(cache=True)
def _score_entry(card, dice, chest, island, sword_seen, turn_rules):
    return score_turn(card, dice, chest, island, sword_seen, turn_rules)


def score_faces(card: int, dice, chest, island: bool, turn_rules) -> tuple[int, int]:
    """Python entry point for ``analyze score``: face counts in, (own, opponents) out."""
    own, opponents = _score_entry(card, pack(dice), pack(chest), island, island and dice[SWORD] > 0, turn_rules)
    return int(own), int(opponents)
