"""A Doubloons round turn by turn (jitted): the loop that plays it on from where it stands.

Where the round stands lives in ``shared`` (``V_PLAYER``, ``V_TURNS``, ``V_FINAL``,
``V_STEP``, ``V_CARD``, ``V_ORIGIN``): :func:`begin_round` puts it at the first turn,
:func:`continue_round` plays on until the round ends or a pirate who decides by search
(``lookahead``) must choose. It then stops with the legal candidates in
``shared[CAND:CAND + V_CHOICES]`` and the card being played in ``V_CARD`` (0: the
choice of deck or discard, where candidate 1 takes the discard); :func:`resolve` plays
the candidate chosen and leaves the round mid-turn, ready to go on. The searching
pirate's own playouts (:mod:`lookahead`) resume copies of the round the same way.

The per-seat counters of a match are ``events[p, E_*]``.
"""

from analyzer.engine.jit import njit
from analyzer.games.doubloons.audit import audit
from analyzer.games.doubloons.cards import CHESTS, FIRST_SPECIAL, PARROT, SPECIALS
from analyzer.games.doubloons.decisions import choose_parrot_slot, choose_source, searches
from analyzer.games.doubloons.play_area import (
    CAND,
    F_PARROT,
    F_ROUND_WON,
    F_UNOPENED,
    HOLDS_PARROT,
    ORDER,
    STATE,
    V_CARD,
    V_CHOICES,
    V_DECK_N,
    V_DIRECTION,
    V_DISCARD_N,
    V_FINAL,
    V_ORIGIN,
    V_PLAYER,
    V_SKIP,
    V_STEP,
    V_TURNS,
    WON_IN_FINAL_TURNS,
    WON_ROUND,
    can_place,
    can_take_discard,
    discard_top,
    parrot_slots,
    place_number,
    pop_deck,
    pop_discard,
    push_discard,
    put_parrot,
    refill_deck,
)
from analyzer.games.doubloons.specials import apply_special, play_choice

N_SPECIALS = len(SPECIALS)

# how a special card reached a pirate, and USED: it acted (events[p, E_SPECIALS + origin * 7 + kind])
FROM_DECK, FROM_DISCARD, FROM_CHEST, USED = range(4)
N_ORIGINS = 4
E_SPECIALS = 0
(E_TURNS, E_DISCARD_TAKES, E_REFILLS, E_LOST_TURNS, E_PASSES, E_PARROT_MOVES) = range(
    N_ORIGINS * N_SPECIALS, N_ORIGINS * N_SPECIALS + 6)
N_EVENTS = N_ORIGINS * N_SPECIALS + 6

#: what continue_round stopped for (PLAYING: the round goes on)
ROUND_OVER, ROUND_CAPPED, DECIDE, PLAYING = range(4)
#: V_STEP: a turn begins with the draw, or goes on with the card V_CARD (0: the turn is over)
DRAW, PLAY = range(2)
#: the candidate of the deck-or-discard decision that takes the discard (0 draws)
TAKE_DISCARD = 1


@njit(cache=True)
def next_player(pirates, shared, events, p):
    """The seat after p in the direction of play, passing over one who loses the turn."""
    players = pirates.shape[0]
    direction = shared[V_DIRECTION]
    skip = shared[V_SKIP]
    shared[V_SKIP] = 0
    q = (p + direction + players) % players
    events[q, E_LOST_TURNS] += skip
    if skip:
        q = (q + direction + players) % players
    return q


@njit(cache=True)
def begin_round(shared, start):
    """Put the dealt round at its first turn, seat ``start``'s."""
    shared[V_PLAYER] = start
    shared[V_TURNS] = 0
    shared[V_FINAL] = -1
    shared[V_STEP] = DRAW


@njit(cache=True, inline="always")
def draw(shared, events, p, take_discard):
    """Take the discard pile's top card or draw the deck's: (the card, where it came from)."""
    if take_discard:
        events[p, E_DISCARD_TAKES] += 1
        return pop_discard(shared), FROM_DISCARD
    return pop_deck(shared), FROM_DECK


@njit(cache=True, inline="always")
def _stop(shared, p, turns, final, card, choices):
    """Write down where the round stands (``card`` and ``choices``: the decision it waits for)."""
    shared[V_PLAYER] = p
    shared[V_TURNS] = turns
    shared[V_FINAL] = final
    shared[V_CARD] = card
    shared[V_CHOICES] = choices


@njit(cache=True, inline="always")
def draw_step(pirates, shared, inputs, events, p, rng):
    """The turn's first step: pirate ``p`` draws from the deck or takes the discard pile's
    top card (passes when neither can be done). Returns (the card, where it came from,
    whether a searching pirate must choose first: then ``shared[CAND:CAND + 2]`` holds the
    candidates and no card is taken)."""
    events[p, E_TURNS] += 1
    if shared[V_DECK_N] == 0 and shared[V_DISCARD_N] > 1:
        refill_deck(shared, rng)
        events[p, E_REFILLS] += 1
    can_deck = shared[V_DECK_N] > 0
    can_discard = can_take_discard(pirates, p, discard_top(shared))
    if can_deck and can_discard:
        if searches(inputs, p):
            shared[CAND] = 0
            shared[CAND + 1] = TAKE_DISCARD
            return 0, FROM_DECK, True
        take_discard = choose_source(pirates, shared, inputs, p, rng)
    else:
        take_discard = can_discard
    if not can_deck and not can_discard:
        events[p, E_PASSES] += 1
        return 0, FROM_DECK, False
    card, origin = draw(shared, events, p, take_discard)
    return card, origin, False


@njit(cache=True, inline="always")
def play_chain(pirates, shared, inputs, events, p, card, origin, rng):
    """Pirate ``p`` plays ``card`` (from ``origin``): a number opens its chest and the chain
    goes on with the card found there, until a card cannot be placed (discarded) or a
    special ends the turn. Returns (the card a searching pirate must decide on, its number of
    choices), or (0, 0) once the turn's cards are played."""
    while card:
        if card <= CHESTS:
            if not can_place(pirates, p, card):
                push_discard(shared, card)
                return 0, 0
            freed_parrot = pirates[p, STATE + card] == HOLDS_PARROT
            under = place_number(pirates, shared, p, card)
            if freed_parrot:
                # the number freed p's parrot: it moves on, or is discarded
                count = parrot_slots(pirates, shared, p) if inputs.freed_parrot_moves else 0
                if count == 0:
                    push_discard(shared, PARROT)
                    return 0, 0
                events[p, E_PARROT_MOVES] += 1
                if searches(inputs, p):
                    return PARROT, count
                under = put_parrot(pirates, p, choose_parrot_slot(pirates, shared, inputs, p, count, rng))
            card = under
            origin = FROM_CHEST
            continue
        kind = card - FIRST_SPECIAL
        events[p, E_SPECIALS + origin * N_SPECIALS + kind] += 1
        if origin == FROM_CHEST and not inputs.apply_revealed_specials:
            push_discard(shared, card)
            return 0, 0
        if card == PARROT:
            count = parrot_slots(pirates, shared, p) if pirates[p, F_PARROT] == 0 else 0
            if count == 0:
                push_discard(shared, card)
                return 0, 0
            events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
            if searches(inputs, p):
                return PARROT, count
            card = put_parrot(pirates, p, choose_parrot_slot(pirates, shared, inputs, p, count, rng))
            origin = FROM_CHEST
            continue
        acted, choices = apply_special(pirates, shared, inputs, p, card, rng)
        if choices:
            return card, choices
        if acted:
            events[p, E_SPECIALS + USED * N_SPECIALS + kind] += 1
        return 0, 0
    return 0, 0


@njit(cache=True, inline="always")
def end_turn(pirates, shared, inputs, events, p, turns, final):
    """What follows pirate ``p``'s turn, the round's ``turns``-th: a pirate who has opened every
    chest wins the round, which ends there or hands out the final turns; the turn cap; the
    next pirate. Returns (PLAYING, ROUND_OVER or ROUND_CAPPED, the pirate who plays next
    (once the round is over: the last to play, or -1 after the final turns), ``final``)."""
    players = pirates.shape[0]
    if pirates[p, F_UNOPENED] == 0 and pirates[p, F_ROUND_WON] == 0:
        pirates[p, F_ROUND_WON] = WON_ROUND if final < 0 else WON_IN_FINAL_TURNS
        if final < 0:
            if not inputs.final_turns:
                return ROUND_OVER, p, final
            q = p
            for i in range(players - 1):
                q = (q + shared[V_DIRECTION] + players) % players
                shared[ORDER + i] = q
            final = 0
    if final < 0:
        if turns >= inputs.max_turns_per_round:
            return ROUND_CAPPED, p, final
        return PLAYING, next_player(pirates, shared, events, p), final
    p = -1
    while final < players - 1 and p < 0:
        q = shared[ORDER + final]
        final += 1
        if shared[V_SKIP]:
            shared[V_SKIP] = 0
            events[q, E_LOST_TURNS] += 1
        else:
            p = q
    return (PLAYING if p >= 0 else ROUND_OVER), p, final


@njit(cache=True, refcounts=False)
def continue_round(pirates, shared, inputs, events, rng):
    """Play the round on from where it stands; marks its winners in ``F_ROUND_WON``.

    A turn: the pirate draws from the deck or takes the discard pile's top card
    (:func:`draw_step`), then plays it and the chain of cards it opens (:func:`play_chain`);
    :func:`end_turn` then finds who plays next, or ends the round.

    With ``final_turns``, once a pirate has opened every chest each other pirate plays
    one more turn, in the order of play at that moment (a kraken still costs the next
    of them the turn; a drunk pirate changes that order no more). The turn cap is
    checked after each turn, before the next player is known (so a cap of 1 plays
    exactly one turn).

    Compiled without reference counts (see :mod:`analyzer.engine.jit`): its callers, the match
    and the lookahead's playouts, hold every array it is handed. With them, matches took 1.3
    times as long, and 1.6 once the turn was split into these steps.

    Returns (ROUND_OVER, ROUND_CAPPED or DECIDE, audit violations (``inputs.audit``; else 0));
    the turns played so far are in ``V_TURNS``.
    """
    check = inputs.audit
    violations = 0
    p = shared[V_PLAYER]
    turns = shared[V_TURNS]
    final = shared[V_FINAL]  # before the round is won: -1; then the number of final turns handed out
    card = shared[V_CARD]
    origin = shared[V_ORIGIN]
    drawn = shared[V_STEP] == PLAY
    while True:
        if not drawn:
            card, origin, decide = draw_step(pirates, shared, inputs, events, p, rng)
            if decide:
                _stop(shared, p, turns, final, 0, 2)
                return DECIDE, violations
        drawn = False
        card, choices = play_chain(pirates, shared, inputs, events, p, card, origin, rng)
        if choices:
            _stop(shared, p, turns, final, card, choices)
            return DECIDE, violations
        turns += 1
        if check:
            violations += audit(pirates, shared, inputs.composition)
        stopped, p, final = end_turn(pirates, shared, inputs, events, p, turns, final)
        if stopped != PLAYING:
            _stop(shared, p, turns, final, 0, 0)
            return stopped, violations


@njit(cache=True)
def resolve(pirates, shared, events, choice):
    """Play ``choice``, the candidate chosen for the decision the round stopped for, and
    leave the round at the card to be played next (none: the turn is over)."""
    p = shared[V_PLAYER]
    card = shared[V_CARD]
    follow = 0
    origin = FROM_CHEST
    if card == 0:
        follow, origin = draw(shared, events, p, choice == TAKE_DISCARD)
    elif card == PARROT:
        follow = put_parrot(pirates, p, choice)
    else:
        play_choice(pirates, shared, p, card, choice)
        events[p, E_SPECIALS + USED * N_SPECIALS + card - FIRST_SPECIAL] += 1
    shared[V_STEP] = PLAY
    shared[V_CARD] = follow
    shared[V_ORIGIN] = origin
