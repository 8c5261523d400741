"""The strategies' decisions, jitted.

Each decision gets the legal candidates already in ``shared[CAND:CAND + count]`` (written
by the legal-move functions of :mod:`play_area`) and returns the chosen one, so a
strategy can only make legal moves. A seat's strategy and parameters are
``inputs.strategy_ids[p]`` and ``inputs.params[p]`` (see :class:`inputs.Inputs`).
``random`` chooses uniformly; ``greedy`` and ``saboteur`` score every candidate (lower
is better) and choose uniformly among the best. Their notion of "likely to come" is
:func:`play_area.unseen`: copies of a number neither open on a chest nor (with
``count_discards``) in the discard pile. Every strategy makes a decision uniformly at
random with probability ``noise`` (:func:`plays_randomly`).
"""

from analyzer.engine.jit import njit
from analyzer.engine.rng import randint, random01
from analyzer.games.doubloons.cards import CHAINED_PARROT, CHESTS, KRAKEN, PARROT
from analyzer.games.doubloons.play_area import (
    CAND,
    CAND_SCORE,
    CHAINED,
    F_PARROT,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    SLOT_STRIDE,
    STATE,
    V_DIRECTION,
    can_place,
    discard_top,
    discarded,
    key_targets,
    parrot_slots,
    unseen,
)
from analyzer.games.doubloons.strategies import (
    LOOKAHEAD,
    P_COUNT_DISCARDS,
    P_KRAKEN_HUNT_AT,
    P_MATCH_POINT_BONUS,
    P_NOISE,
    P_PARROT_CHAIN_LIMIT,
    P_TAKE_PARROT,
    RANDOM,
    SABOTEUR,
)

#: added to the score of a candidate that does not hit the saboteur's rival
OFF_TARGET = 1000


@njit(cache=True, refcounts=False, inline="always")
def searches(inputs, p):
    """Does seat p decide by search (``lookahead``: see :mod:`lookahead`) rather than here?"""
    return inputs.strategy_ids[p] == LOOKAHEAD


@njit(cache=True, refcounts=False, inline="always")
def plays_randomly(inputs, p, rng):
    """Does seat p make this decision uniformly at random? The random strategy always
    does; any other with probability ``noise`` (a noise of 0 draws no random number)."""
    noise = inputs.params[p, P_NOISE]
    return inputs.strategy_ids[p] == RANDOM or (noise > 0 and random01(rng) < noise)


@njit(cache=True, refcounts=False)
def pick_lowest(shared, count, rng):
    """The candidate with the lowest score; uniformly among ties."""
    best = shared[CAND_SCORE]
    ties = 1
    for i in range(1, count):
        score = shared[CAND_SCORE + i]
        if score < best:
            best = score
            ties = 1
        elif score == best:
            ties += 1
    nth = randint(rng, ties) if ties > 1 else 0
    for i in range(count):
        if shared[CAND_SCORE + i] == best:
            if nth == 0:
                return shared[CAND + i]
            nth -= 1
    return shared[CAND]


@njit(cache=True, refcounts=False)
def rival(pirates, shared, inputs, p):
    """The opponent closest to winning: fewest chests still to open, less
    ``match_point_bonus`` for one a round win from the match; ties go to the first
    after p in the direction of play."""
    players = pirates.shape[0]
    direction = shared[V_DIRECTION]
    bonus = inputs.params[p, P_MATCH_POINT_BONUS]
    match_point = inputs.rounds_to_win - 1
    best = -1
    best_threat = 0.0
    q = p
    for _ in range(players - 1):
        q = (q + direction + players) % players
        threat = pirates[q, F_UNOPENED] - (bonus if pirates[q, F_WINS] >= match_point else 0.0)
        if best < 0 or threat < best_threat:
            best = q
            best_threat = threat
    return best


@njit(cache=True, refcounts=False)
def hunts_kraken(pirates, shared, inputs, p):
    """The saboteur's kraken hunt: its rival plays next with at most ``kraken_hunt_at``
    chests left, and a kraken can still come (not every kraken is in the discard pile
    it remembers)."""
    hunt_at = inputs.params[p, P_KRAKEN_HUNT_AT]
    if inputs.strategy_ids[p] != SABOTEUR or hunt_at == 0:
        return False
    players = pirates.shape[0]
    target = rival(pirates, shared, inputs, p)
    if target != (p + shared[V_DIRECTION] + players) % players or pirates[target, F_UNOPENED] > hunt_at:
        return False
    seen = discarded(shared, KRAKEN) if inputs.params[p, P_COUNT_DISCARDS] != 0 else 0
    return inputs.composition[KRAKEN] > seen


@njit(cache=True, refcounts=False)
def chained_parrots_to_come(pirates, shared, inputs, p):
    """Chained parrots that could still come: neither lying on a parrot nor in the
    discard pile (when the strategy remembers it)."""
    lying = 0
    for q in range(pirates.shape[0]):
        slot = pirates[q, F_PARROT]
        if slot > 0 and pirates[q, CHAINED + slot]:
            lying += 1
    seen = discarded(shared, CHAINED_PARROT) if inputs.params[p, P_COUNT_DISCARDS] != 0 else 0
    return inputs.composition[CHAINED_PARROT] - lying - seen


@njit(cache=True, refcounts=False, inline="always")
def choose_source(pirates, shared, inputs, p, rng):
    """True: take the discard pile's top card; False: draw from the deck (both legal).

    A number that opens a chest is always taken; a parrot only while few chained parrots
    can still come (``parrot_chain_limit``); a parrot or a key that would help is left
    for the saboteur's kraken hunt. Inlined into :func:`turns.draw_step`: it runs on most
    turns."""
    if plays_randomly(inputs, p, rng):
        return randint(rng, 2) == 1
    top = discard_top(shared)
    if top <= CHESTS:
        return can_place(pirates, p, top)
    if top == PARROT:
        take = (inputs.params[p, P_TAKE_PARROT] != 0 and parrot_slots(pirates, shared, p) > 0
                and chained_parrots_to_come(pirates, shared, inputs, p) <= inputs.params[p, P_PARROT_CHAIN_LIMIT])
    else:  # the key: the only other card that can be taken
        take = key_targets(pirates, shared, p) > 0
    return take and not hunts_kraken(pirates, shared, inputs, p)


@njit(cache=True, refcounts=False)
def choose_parrot_slot(pirates, shared, inputs, p, count, rng):
    """Where the parrot goes: greedy picks the number least likely to come."""
    if plays_randomly(inputs, p, rng):
        return shared[CAND + randint(rng, count)]
    remember = inputs.params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        shared[CAND_SCORE + i] = unseen(shared, inputs.composition, shared[CAND + i], remember)
    return pick_lowest(shared, count, rng)


@njit(cache=True, refcounts=False)
def _aim(pirates, shared, inputs, p, count):
    """The saboteur's aim: push candidates not hitting its rival behind the others."""
    if inputs.strategy_ids[p] != SABOTEUR:
        return
    target = rival(pirates, shared, inputs, p)
    for i in range(count):
        if shared[CAND + i] // SLOT_STRIDE != target:
            shared[CAND_SCORE + i] += OFF_TARGET


@njit(cache=True, refcounts=False)
def choose_swap(pirates, shared, inputs, p, count, rng):
    """The pirate's swap: greedy gives its own parrot away if it can, else takes the
    number least likely to come."""
    if plays_randomly(inputs, p, rng):
        return shared[CAND + randint(rng, count)]
    remember = inputs.params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        slot = shared[CAND + i] % SLOT_STRIDE
        if pirates[p, STATE + slot] == HOLDS_PARROT:
            shared[CAND_SCORE + i] = -1
        else:
            shared[CAND_SCORE + i] = unseen(shared, inputs.composition, slot, remember)
    _aim(pirates, shared, inputs, p, count)
    return pick_lowest(shared, count, rng)


@njit(cache=True, refcounts=False)
def choose_chain(pirates, shared, inputs, p, count, rng):
    """A chain's target (an opponent's parrot or closed chest): greedy chains the one
    whose number is most likely to come."""
    if plays_randomly(inputs, p, rng):
        return shared[CAND + randint(rng, count)]
    remember = inputs.params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        shared[CAND_SCORE + i] = -unseen(shared, inputs.composition, shared[CAND + i] % SLOT_STRIDE, remember)
    _aim(pirates, shared, inputs, p, count)
    return pick_lowest(shared, count, rng)


@njit(cache=True, refcounts=False)
def choose_key(pirates, shared, inputs, p, count, rng):
    """What the key unlocks: greedy frees the slot whose number is most likely to come."""
    if plays_randomly(inputs, p, rng):
        return shared[CAND + randint(rng, count)]
    remember = inputs.params[p, P_COUNT_DISCARDS] != 0
    for i in range(count):
        shared[CAND_SCORE + i] = -unseen(shared, inputs.composition, shared[CAND + i], remember)
    return pick_lowest(shared, count, rng)

