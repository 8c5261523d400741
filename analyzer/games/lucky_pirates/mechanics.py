"""The rules of one turn as jitted functions, shared by the simulation kernel and the
exact solver (so both play exactly the same game).

The table state is ``treasures`` and ``provisions`` (ints, returned). ``treasures`` holds
every seat's treasures in one int64 word, 16 bits a seat (:func:`held`, :func:`one_for`;
:func:`packed_treasures` packs an array of them, :func:`unpack_treasures` unpacks one): a game
has at most :data:`MAX_SEATS` seats and at most 1,000 treasures (the options' limits), so a
seat's count never reaches the next seat's bits, nor bit 15 of its own. A word, not an array:
it stays in a register for the whole game, and the kernel logs it after every turn with one
store, from which it notes the standings after each round when the game is over (see
``kernel.note_standings_from_log``). With the treasures in an array, the standings were noted at
each round's end, in a branch taken every fourth turn that the processor mispredicted about once
a round, and a game took 1.045 times as long (single-thread, 10 pairs, 2026-12-04; the same to
the bit).
Every function that can trigger a counted event adds it to ``events`` (indices ``EV_*``).

The functions a turn calls allocate nothing and are compiled without reference counts
(``refcounts=False``, see :mod:`analyzer.engine.jit`): counted, each call of a game's some
24 turns took and gave back a reference to each array it was handed, about 240 calls into
Numba's runtime a game that LLVM could not optimise across: without them a game takes 21% fewer
instructions (callgrind). And they are inlined into their callers (``inline="always"``): as calls,
each turn passed them every array as its seven words on the stack (LLVM did not inline them itself),
and a game took 934 ns instead of 663 (single thread, 2026-12-04; results the same to the bit).
"""

import numpy as np

from analyzer.engine.jit import njit
from analyzer.engine.rng import random01
from analyzer.games.lucky_pirates.rules import ISLAND, SHIP

# events counted per game (the indices of an ``events`` array)
EV_ISLAND_GAINS = 0   # treasures gained on an island (from the provisions or stolen)
EV_DUEL_GAINS = 1     # treasures gained by winning a duel
EV_SHIP_TAKES = 2     # treasures the pirate ship took back to the provisions
EV_DRY_DRAWS = 3      # a pirate was due a treasure and the provisions were empty
EV_STEALS = 4         # ... and took it from another pirate instead (steal_when_empty)
EV_DUELS = 5          # duels fought
EV_DUEL_THROWS = 6    # throws of the two disks, over all duels
N_EVENTS = 7
#: the events before EV_DUEL_THROWS are also the game's mechanics (same index; ``Game.mechanics_tally``)
N_MECHANICS = EV_DUEL_THROWS
#: the events' names, by index (the per-game columns of ``--save-games``)
EVENT_NAMES = ("island_treasures", "duel_treasures", "ship_takes", "dry_draws", "steals",
               "duels", "duel_throws")


#: the seats a word of treasures holds, and the bits of each (its lane)
MAX_SEATS = 4
LANE_BITS = 16
LANE_MASK = (1 << LANE_BITS) - 1


@njit(cache=True, nogil=True, inline="always")
def held(treasures, seat):
    """The treasures ``seat`` holds in the word ``treasures``."""
    return (treasures >> (LANE_BITS * seat)) & LANE_MASK


@njit(cache=True, nogil=True, inline="always")
def one_for(seat):
    """One treasure of ``seat``, to add to or take from a word of treasures."""
    return np.int64(1) << (LANE_BITS * seat)


@njit(cache=True, nogil=True)
def packed_treasures(counts):
    """The word of treasures holding ``counts[seat]`` for each seat (at most MAX_SEATS)."""
    treasures = np.int64(0)
    for seat in range(counts.shape[0]):
        treasures += counts[seat] * one_for(seat)
    return treasures


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def unpack_treasures(treasures, counts):
    """Write each seat's treasures in the word ``treasures`` into ``counts`` (one entry a seat):
    :func:`packed_treasures` undone."""
    for seat in range(counts.shape[0]):
        counts[seat] = held(treasures, seat)


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def take_treasure(treasures, provisions, taker, players, steal_when_empty, events):
    """``taker`` is due a treasure: from the provisions, or when they are empty (a dry
    draw) from the richest other pirate (the first of them clockwise from the taker)
    if ``steal_when_empty``, else nothing. Returns ``(treasures, provisions, gained)``."""
    if provisions > 0:
        return treasures + one_for(taker), provisions - 1, True
    events[EV_DRY_DRAWS] += 1
    if not steal_when_empty:
        return treasures, provisions, False
    victim = -1
    richest = 0
    for step in range(1, players):
        seat = (taker + step) % players
        if held(treasures, seat) > richest:
            richest = held(treasures, seat)
            victim = seat
    if victim < 0:
        return treasures, provisions, False
    events[EV_STEALS] += 1
    return treasures - one_for(victim) + one_for(taker), provisions, True


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def card_effect(treasures, provisions, pirate, players, kind, steal_when_empty, events):
    """The arrival card acts on ``pirate``: an island gives a treasure, the ship takes
    one back (if the pirate has any), seaside does nothing. Returns ``(treasures, provisions)``."""
    if kind == ISLAND:
        treasures, provisions, gained = take_treasure(treasures, provisions, pirate, players, steal_when_empty, events)
        if gained:
            events[EV_ISLAND_GAINS] += 1
    elif kind == SHIP and held(treasures, pirate) > 0:
        treasures -= one_for(pirate)
        provisions += 1
        events[EV_SHIP_TAKES] += 1
    return treasures, provisions


#: ``duel_winner`` of an arrival without a duel (the mover alone on the card)
NO_DUEL = -1


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def settle_arrival(treasures, provisions, mover, players, kind, duel_winner, treasures_to_win,
                   duel_replaces_card, steal_when_empty, events):
    """Everything that follows the mover's landing on a card of ``kind``, given the
    winner of the duel fought there (``NO_DUEL`` when the mover is alone).

    The card acts on the mover unless a duel replaces it (``duel_replaces_card``);
    otherwise it acts first, and a mover it brings to the target wins before the duel,
    which is then not fought. The duel's winner takes a treasure and may win.
    Returns ``(treasures, provisions, the game's winner or -1, whether the duel was fought)``.
    """
    duel = duel_winner != NO_DUEL
    if not (duel and duel_replaces_card):
        treasures, provisions = card_effect(treasures, provisions, mover, players, kind, steal_when_empty, events)
        if held(treasures, mover) >= treasures_to_win:
            return treasures, provisions, mover, False
    if not duel:
        return treasures, provisions, -1, False
    events[EV_DUELS] += 1
    treasures, provisions, gained = take_treasure(treasures, provisions, duel_winner, players, steal_when_empty,
                                                  events)
    if gained:
        events[EV_DUEL_GAINS] += 1
        if held(treasures, duel_winner) >= treasures_to_win:
            return treasures, provisions, duel_winner, True
    return treasures, provisions, -1, True


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def duel_order(positions, arriving, order):
    """Fill ``order`` with the pirates on the arriving pirate's card, clockwise from
    the arriving pirate (who comes first); return how many there are (1 = no duel)."""
    players = positions.shape[0]
    card = positions[arriving]
    order[0] = arriving
    count = 1
    seat = arriving
    for _ in range(1, players):
        seat += 1  # clockwise; a wrap by hand is much cheaper than an integer modulo
        if seat == players:
            seat = 0
        if positions[seat] == card:
            order[count] = seat
            count += 1
    return count


#: below this two-ship chance a duel's length is drawn in one step instead of throw by throw
THROW_BY_THROW_MIN = 1.0 / 16.0


@njit(cache=True, nogil=True, refcounts=False, inline="always")
def fight_duel(state, order, count, two_ships_probability):
    """Throw the two disks round ``order[:count]`` until someone throws two ships.
    Returns ``(winner seat, throws)``.

    Each throw shows two ships with probability q, independently. For a likely
    success the throws are drawn one by one; for a small q (long duels) the number of
    failed throws, geometric, is drawn in one step by inversion: the same law.
    """
    if two_ships_probability >= THROW_BY_THROW_MIN:
        thrower = 0
        throws = 1
        while random01(state) >= two_ships_probability:
            throws += 1
            thrower += 1
            if thrower == count:
                thrower = 0
        return order[thrower], throws
    failed = np.int64(np.floor(np.log1p(-random01(state)) / np.log1p(-two_ships_probability)))
    return order[failed % count], failed + 1


@njit(cache=True, nogil=True)
def duel_win_probabilities(order, count, two_ships_probability, out):
    """The exact chance that each seat wins a duel among ``order[:count]``: the i-th
    thrower wins with q (1 - q)^i / (1 - (1 - q)^count), q the two-ship chance.
    ``out`` (one entry per seat) is overwritten; non-duellists get 0."""
    out[:] = 0.0
    miss = 1.0 - two_ships_probability
    share = two_ships_probability / -np.expm1(count * np.log1p(-two_ships_probability))
    for i in range(count):
        out[order[i]] = share
        share *= miss
