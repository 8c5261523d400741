"""Dice faces and fortune cards of Skull Island, as names and kernel integers."""

FACES = ("coin", "diamond", "monkey", "parrot", "sword", "skull")
COIN, DIAMOND, MONKEY, PARROT, SWORD, SKULL = range(6)
DICE = 8

CARDS = (
    "none", "coin", "diamond", "sorceress", "captain", "chest", "monkey-business",
    "skull-1", "skull-2", "sea-battle-2", "sea-battle-3", "sea-battle-4", "storm", "peace",
)
(NO_CARD, COIN_CARD, DIAMOND_CARD, SORCERESS, CAPTAIN, CHEST, MONKEY_BUSINESS,
 SKULL_1, SKULL_2, SEA_BATTLE_2, SEA_BATTLE_3, SEA_BATTLE_4, STORM, PEACE) = range(14)
N_CARDS = len(CARDS)

#: the fortune deck (RULES.md: the published English edition's make-up; promos 0)
STANDARD_DECK = {
    "coin": 4, "diamond": 4, "sorceress": 4, "captain": 4, "chest": 4, "monkey-business": 4,
    "skull-1": 3, "skull-2": 2, "sea-battle-2": 2, "sea-battle-3": 2, "sea-battle-4": 2,
    "storm": 0, "peace": 0,
}
DECK_CARDS = tuple(STANDARD_DECK)
