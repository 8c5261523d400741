"""What a Doubloons match reports beyond its outcome: the mechanics that happened and the
special cards each pirate met (see :mod:`analyzer.engine.quality`).

The mechanics are read off the match's per-seat ``events`` (see :mod:`turns`) once the
match is over, and off the play area after each round (:func:`note_round`), so the
turn loop itself counts nothing more. ``MECHANICS`` and ``COMPONENTS`` are in the order
of ``outcome.triggered`` and ``outcome.holdings``.
"""

from analyzer.engine.jit import njit
from analyzer.games.base import OUTCOME, PER_DRAW, PROCEDURE, SAFEGUARD, Component, Mechanic
from analyzer.games.doubloons.cards import FIRST_SPECIAL, PARROT
from analyzer.games.doubloons.play_area import F_PARROT, F_ROUND_WON, F_WINS, V_REDEALS, WON_IN_FINAL_TURNS
from analyzer.games.doubloons.turns import (
    E_DISCARD_TAKES,
    E_PARROT_MOVES,
    E_PASSES,
    E_REFILLS,
    E_SPECIALS,
    FROM_CHEST,
    FROM_DECK,
    FROM_DISCARD,
    N_SPECIALS,
    USED,
)

#: the special cards in ``cards.SPECIALS`` order: the mechanic (it acted) and the component (it was met)
SPECIAL_NAMES = ("Pirate", "Drunk pirate", "Kraken", "Parrot", "Chained parrot", "Chained chest", "Key")
PARROT_KIND = PARROT - FIRST_SPECIAL

# mechanics (``outcome.triggered``): the specials that acted come first, in ``cards.SPECIALS`` order
(M_UNUSED_SPECIAL, M_UNCOVERED_SPECIAL, M_DISCARD_TAKE, M_SPECIAL_FROM_DISCARD, M_PARROT_FREED,
 M_PARROT_MOVES, M_PARROT_DISCARDED, M_REFILL, M_PASS, M_REDEAL, M_FEWER_CHESTS, M_FINAL_TURN_WIN,
 M_ROUND_CAP) = range(N_SPECIALS, N_SPECIALS + 13)

MECHANICS = (
    Mechanic("Pirate swap", "a pirate card swaps one of its owner's chests for another pirate's open chest"),
    Mechanic("Drunk pirate", "a drunk pirate reverses the direction of play"),
    Mechanic("Kraken", "a kraken makes the next pirate lose a turn"),
    Mechanic("Parrot placed", "a parrot goes, wild, on a closed chest and the chain goes on with the card found"),
    Mechanic("Chained parrot", "a chain card locks an opponent's parrot"),
    Mechanic("Chained chest", "a chain card locks an opponent's closed chest"),
    Mechanic("Key", "a key frees its owner's chained parrot or chest"),
    Mechanic("Special discarded unused", "a special card with nothing to act on (no target, a second parrot, "
                                         "or uncovered with apply_revealed_specials off) is discarded", kind=OUTCOME),
    Mechanic("Special uncovered in a chest", "a special card turns up in the pirate's own chest", kind=OUTCOME),
    Mechanic("Discard pile taken", "a pirate takes the discard pile's top card instead of drawing"),
    Mechanic("Special taken from the discard", "a pirate takes a parrot or an unused key from the discard pile"),
    Mechanic("Parrot freed", "a number card replaces the pirate's parrot"),
    Mechanic("Freed parrot moves on", "the freed parrot moves at once to another closed chest "
                                      "(freed_parrot_moves)", possible=lambda rules: rules["freed_parrot_moves"]),
    Mechanic("Freed parrot discarded", "the freed parrot is discarded (no closed chest left for it, "
                                       "or freed_parrot_moves off)", kind=PROCEDURE),
    Mechanic("Deck refill", "the deck runs out and is refilled from the discard pile", kind=PROCEDURE),
    Mechanic("Turn passed", "nothing can be drawn: the deck is empty and the discard pile's top card is barred",
             kind=PROCEDURE),
    Mechanic("Redeal", "the deal is redone: no number card was left to start the discard pile", kind=PROCEDURE),
    Mechanic("Fewer chests", "a pirate plays a round with one chest fewer for each round it has won"),
    Mechanic("Win in the final turns", "a pirate also finishes the round in the final turns (final_turns)",
             possible=lambda rules: rules["final_turns"]),
    Mechanic("Round cap", "a round reaches max_turns_per_round and the match stops unfinished", kind=SAFEGUARD),
)

COMPONENTS = tuple(Component(name, "special card", PER_DRAW) for name in SPECIAL_NAMES)


@njit(cache=True, inline="always")
def note_round_start(pirates, outcome):
    """Before a round is dealt: a pirate with round wins plays it with fewer chests."""
    for q in range(pirates.shape[0]):
        if pirates[q, F_WINS] > 0:
            outcome.triggered[M_FEWER_CHESTS] = 1


@njit(cache=True, inline="always")
def note_round(pirates, shared, outcome, capped):
    """After a round (its wins added to ``F_WINS``): the mechanics seen on the play area.

    Returns the parrots still on a chest, which were placed but never freed.
    """
    if shared[V_REDEALS] > 0:
        outcome.triggered[M_REDEAL] = 1
    if capped:
        outcome.triggered[M_ROUND_CAP] = 1
    parrots = 0
    for q in range(pirates.shape[0]):
        if pirates[q, F_ROUND_WON] == WON_IN_FINAL_TURNS:
            outcome.triggered[M_FINAL_TURN_WIN] = 1
        if pirates[q, F_PARROT] != 0:
            parrots += 1
    return parrots


@njit(cache=True, inline="always")
def note_match(events, parrots_left, outcome):
    """After the match: the mechanics counted in ``events`` and the special cards each pirate
    met (drawn, taken from the discard pile or uncovered in its own chest).

    Every parrot placed (drawn and used, or a freed parrot moving on) is either freed by
    its number or still on a chest when its round ends (``parrots_left``, all rounds), so
    the parrots freed are the placements less those left.
    """
    placements = 0
    moves = 0
    for q in range(events.shape[0]):
        for kind in range(N_SPECIALS):
            drawn = events[q, E_SPECIALS + FROM_DECK * N_SPECIALS + kind]
            taken = events[q, E_SPECIALS + FROM_DISCARD * N_SPECIALS + kind]
            uncovered = events[q, E_SPECIALS + FROM_CHEST * N_SPECIALS + kind]
            used = events[q, E_SPECIALS + USED * N_SPECIALS + kind]
            outcome.holdings[q, kind] = drawn + taken + uncovered
            if used:
                outcome.triggered[kind] = 1
            if drawn + taken + uncovered > used:
                outcome.triggered[M_UNUSED_SPECIAL] = 1
            if uncovered:
                outcome.triggered[M_UNCOVERED_SPECIAL] = 1
            if taken:
                outcome.triggered[M_SPECIAL_FROM_DISCARD] = 1
        placements += events[q, E_SPECIALS + USED * N_SPECIALS + PARROT_KIND] + events[q, E_PARROT_MOVES]
        moves += events[q, E_PARROT_MOVES]
        if events[q, E_DISCARD_TAKES]:
            outcome.triggered[M_DISCARD_TAKE] = 1
        if events[q, E_REFILLS]:
            outcome.triggered[M_REFILL] = 1
        if events[q, E_PASSES]:
            outcome.triggered[M_PASS] = 1
    freed = placements - parrots_left
    if freed > 0:
        outcome.triggered[M_PARROT_FREED] = 1
    if moves > 0:
        outcome.triggered[M_PARROT_MOVES] = 1
    if freed > moves:
        outcome.triggered[M_PARROT_DISCARDED] = 1
