"""What the Skull Island kernel notes for mechanics coverage and component balance.

Mechanic ``m`` is bit ``1 << m`` of the events the kernel gathers over a game, copied to
``outcome.triggered[m]`` when the game ends (see :mod:`analyzer.engine.quality`). The
first mechanics are the fortune card kinds drawn, in card-id order (mechanic
``card - 1``: card 0, "none", is never in the deck); the turn's events and the game's
follow. The components are the same fortune card kinds, met once per draw: the
kernel adds 1 to ``outcome.holdings[seat, card - 1]`` for every card the seat draws.
"""

from analyzer.games.base import OUTCOME, PER_DRAW, PROCEDURE, RULE, SAFEGUARD, Component, Mechanic
from analyzer.games.skull_island.components import CARDS

_SEA_LOST = "else its value is lost and nothing else scores (sea_battle_values)"

#: what a designer calls each fortune card (RULES.md), by card id; "none" is never drawn
CARD_TITLES = {
    "coin": ("Gold coin", "the turn starts with one extra coin, scoring alone and in sets"),
    "diamond": ("Diamond", "the turn starts with one extra diamond, scoring alone and in sets"),
    "sorceress": ("Sorceress", "once a turn one skull may be rerolled"),
    "captain": ("Captain", "the turn's score is doubled (Skull Island: opponents lose 200 a skull)"),
    "chest": ("Treasure chest", "dice on the card still score when three skulls end the turn"),
    "monkey-business": ("Monkey business", "monkeys and parrots form one set"),
    "skull-1": ("Skull (1)", "the turn starts with one skull"),
    "skull-2": ("Skulls (2)", "the turn starts with two skulls"),
    "sea-battle-2": ("Sea battle (2 sabres)", f"end with 2+ sabres: its bonus on top, {_SEA_LOST}"),
    "sea-battle-3": ("Sea battle (3 sabres)", f"end with 3+ sabres: its bonus on top, {_SEA_LOST}"),
    "sea-battle-4": ("Sea battle (4 sabres)", f"end with 4+ sabres: its bonus on top, {_SEA_LOST}"),
    "storm": ("Storm (promo)", "one reroll; only coins and diamonds score, doubled"),
    "peace": ("Peace (promo)", "every sabre showing at the end costs 1000 (peace_penalty)"),
}
DRAWN_CARDS = CARDS[1:]
assert tuple(CARD_TITLES) == DRAWN_CARDS

#: the events after the cards drawn: (name, description), in mechanic-index order
_EVENTS = (
    ("Skull Island", "4+ skulls on the first roll: the player rolls on and each opponent loses 100 per skull "
                     "(200 with the captain)"),
    ("Sea battle blocks Skull Island", "4+ first-roll skulls under a sea battle card are an ordinary death "
                                       "(sea_battle_blocks_island)"),
    ("Skull Island off", "4+ first-roll skulls are an ordinary death (house rule skull_island = false)"),
    ("Three skulls", "a turn ended by three skulls (card skulls count), outside Skull Island"),
    ("Sorceress rerolls a skull", "the sorceress's one skull reroll was used"),
    ("Treasure chest saves points", "three skulls ended a treasure chest turn and the dice on the card scored"),
    ("Full chest bonus", "all 8 dice scored: the full chest bonus (full_chest_bonus) was paid"),
    ("Sea battle won", "a sea battle turn ended with the sabres it needs: its bonus on top"),
    ("Sea battle lost", "a sea battle turn ended without the sabres it needs (or by skulls): its value lost"),
    ("Storm skulls hit opponents", "three skulls ended a storm turn and scored as Skull Island"),
    ("Peace penalty", "a peace turn ended with sabres showing: 1000 lost per sabre (peace_penalty)"),
    ("Peace spares opponents", "on Skull Island under peace a roll showed a sabre: the opponents lost nothing"),
    ("Negative total", "a player's total fell below zero"),
    ("Floor at zero", "a total that would have fallen below zero stayed at 0 (floor_at_zero)"),
    ("Deck reshuffled", "the fortune deck ran out and the discards were reshuffled (card_draw = deck)"),
    ("Final round", "a player ended a turn at or above the target: each other player got one last turn"),
    ("Final round cancelled", "the trigger fell below the target during the last turns and play went on"),
    ("Shared win", "the game ended with tied leaders as co-winners"),
    ("Tie play-off round", "tied leaders played one more turn each (tie_rule = extra-round)"),
    ("Seat bonus", "the seats after the first started with a handicap (seat_bonus)"),
    ("Round cap", "the game was stopped at max_rounds and decided on the totals"),
)

(SKULL_ISLAND, SEA_BATTLE_BLOCKS_ISLAND, SKULL_ISLAND_OFF, THREE_SKULLS, SORCERESS_SKULL, CHEST_SAVES, FULL_CHEST,
 SEA_BATTLE_WON, SEA_BATTLE_LOST, STORM_SKULLS, PEACE_PENALTY, PEACE_SPARES, NEGATIVE_TOTAL, FLOOR_AT_ZERO,
 DECK_RESHUFFLED, FINAL_ROUND, FINAL_ROUND_CANCELLED, SHARED_WIN, TIE_PLAYOFF, SEAT_BONUS,
 ROUND_CAP) = range(len(DRAWN_CARDS), len(DRAWN_CARDS) + len(_EVENTS))
N_MECHANICS = len(DRAWN_CARDS) + len(_EVENTS)
assert N_MECHANICS < 63  # the kernel gathers them as the bits of one int64

def _in_deck(card: str):
    promo = {"storm": "promo_storm", "peace": "promo_peace"}.get(card)
    if promo:
        return lambda rules: rules[promo] > 0 or rules["deck"].get(card, 0) > 0
    return lambda rules: rules["deck"].get(card, 0) > 0


#: the rules that allow an event at all (events not named here are always possible)
_POSSIBLE = {
    "Skull Island": lambda rules: rules["skull_island"],
    "Sea battle blocks Skull Island": lambda rules: rules["skull_island"] and rules["sea_battle_blocks_island"],
    "Skull Island off": lambda rules: not rules["skull_island"],
    "Full chest bonus": lambda rules: rules["full_chest_bonus"] != 0,
    "Storm skulls hit opponents": _in_deck("storm"),
    "Peace penalty": lambda rules: _in_deck("peace")(rules) and rules["peace_penalty"] != 0,
    "Peace spares opponents": lambda rules: _in_deck("peace")(rules) and rules["skull_island"],
    "Floor at zero": lambda rules: rules["floor_at_zero"],
    "Deck reshuffled": lambda rules: rules["card_draw"] == "deck",
    "Tie play-off round": lambda rules: rules["tie_rule"] == "extra-round",
    "Seat bonus": lambda rules: rules["seat_bonus"] != 0,
}

#: what each event is (not named: a rule)
_KINDS = {
    "Negative total": OUTCOME,
    "Deck reshuffled": PROCEDURE,
    "Final round": PROCEDURE,
    "Shared win": OUTCOME,
    "Round cap": SAFEGUARD,
}

MECHANICS = (
    *(Mechanic(CARD_TITLES[card][0], f"the {CARD_TITLES[card][0].lower()} card was drawn: {CARD_TITLES[card][1]}",
               possible=_in_deck(card)) for card in DRAWN_CARDS),
    *(Mechanic(name, description, kind=_KINDS.get(name, RULE), possible=_POSSIBLE.get(name))
      for name, description in _EVENTS),
)
COMPONENTS = tuple(Component(CARD_TITLES[card][0], "fortune card", PER_DRAW) for card in DRAWN_CARDS)
