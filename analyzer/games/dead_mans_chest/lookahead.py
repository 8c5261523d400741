"""The search player ``lookahead``: at each of its decisions with a choice, every option
is tried with ``rollouts`` playouts to the end of the game under a base policy, and the
option with the best mean outcome is taken (flat Monte Carlo with determinization).

A lookahead seat's step (its captain draft or a turn) is played by :func:`search_step`:
the game state is saved at the start of the step, and the step replayed from there, once
per probe and per rollout, the game's own stream giving the same spins and draws up to
the decision under search (:mod:`search_state` holds the decisions to it). Decisions are
searched one after the other in the order the step meets them: a probe finds the next
one and counts its options; each option then gets ``rollouts`` playouts, rollout ``r``
of every option on the same stream (common random numbers); the best is settled and the
next probe goes on from there. The probe that meets no further decision is the step as
really played. Rollouts never search, so the kernel's calls never loop back.

Every function here is inlined into :func:`play_steps`, and that into the kernel's
``play_game``. Numba compiles a function called on its own with everything it calls
linked in: each of these, compiled apart, optimised and emitted the whole turn's code
once more. Inlined, the game's kernel compiles in 31 s instead of 39 s (medians of 3, fresh
caches) and plays as fast.
"""

from analyzer.engine.arrays import copy_into
from analyzer.engine.jit import njit
from analyzer.engine.quality import NO_NOTES, note_leaders
from analyzer.games.dead_mans_chest.layout import OBJECTIVE_LEAD, OBJECTIVE_SCORE, TURNS_PLAYED
from analyzer.games.dead_mans_chest.search_state import (
    GAME_KEY,
    NO_TARGET,
    NOT_FORCED,
    S_ACTIVE,
    S_CANDIDATE,
    S_DECISION,
    S_FIXED,
    S_OPTIONS,
    S_POLICY,
    S_PROBING,
    S_ROLLOUT,
    S_SEAT,
    S_SERIAL,
    S_TARGET,
    draw_from_rollout_stream,
)
from analyzer.games.dead_mans_chest.turns import (
    GAME_OVER,
    TURN_STEP,
    final_values,
    next_step,
    play_step,
    standing_leaders,
)


@njit(cache=True, nogil=True)
def new_search(m, key):
    """A new game: no search under way; rollouts draw from sub-streams of the game's ``key``."""
    m.search[:] = 0
    m.search_key[GAME_KEY] = key


@njit(cache=True, nogil=True, inline="always")
def play_steps(m, outcome):
    """Play a set-up game to its end, step by step: a lookahead seat's steps by search.

    The standings after a round (:func:`turns.standing_leaders`) are noted in ``outcome.standings``
    (see :mod:`analyzer.engine.quality`) when the next round begins, at seat 1's turn (turns go
    round from seat 1: no division a turn). Returned are the game's notes (see
    :func:`~analyzer.engine.quality.note_round`), kept in local variables, not in the outcome: a
    store there may change, for all the compiler can tell, any array the game reads (1,500 more
    instructions a game, callgrind). The last round's standings are the final count, which the
    caller notes; it saves the notes."""
    counters = m.counters
    players = m.players.shape[0]
    searching = m.searching
    notes = NO_NOTES
    while True:
        step, p = next_step(counters, players, m.max_turns)
        if step == GAME_OVER:
            return notes
        if step == TURN_STEP and p == 0 and counters[TURNS_PLAYED] > 1:
            notes = note_leaders(outcome.standings, standing_leaders(m), notes)
        if searching and m.rollouts[p] > 0:
            search_step(m, step, p)
        else:
            play_step(m, step, p)


@njit(cache=True, nogil=True, inline="always")
def _replay(m, step, p, probing, target):
    """Play seat ``p``'s step from its saved start with the settled decisions, up to
    decision ``target`` (a probe counts its options; a rollout takes ``S_CANDIDATE`` there
    and leaves the real game)."""
    s = m.search
    s[S_ACTIVE] = 1
    s[S_PROBING] = probing
    s[S_DECISION] = 0
    s[S_TARGET] = target
    s[S_OPTIONS] = 0
    s[S_POLICY] = NOT_FORCED
    play_step(m, step, p)
    s[S_ACTIVE] = 0


@njit(cache=True, nogil=True, inline="always")
def search_step(m, step, p):
    """Seat ``p``'s step, each of its decisions with a choice made by rollouts."""
    s = m.search
    copy_into(m.game_state, m.saved_state)
    s[S_SEAT] = p
    s[S_FIXED] = 0
    while True:
        settled = s[S_FIXED]
        _replay(m, step, p, 1, settled if settled < m.fixed.shape[0] else NO_TARGET)
        options = s[S_OPTIONS]
        if options == 0:
            return  # no decision left to search: the probe played the step
        # the base's own option is the incumbent (a random base notes none: the first option)
        m.fixed[settled] = best_option(m, step, p, options, max(s[S_POLICY], 0))
        s[S_FIXED] = settled + 1
        s[S_SERIAL] += 1
        copy_into(m.saved_state, m.game_state)


@njit(cache=True, nogil=True, inline="always")
def best_option(m, step, p, options, incumbent):
    """The option of the decision under search with the best mean outcome over
    ``rollouts`` playouts each, measured as the mean gain over the base policy's own
    option ``incumbent`` in the same rollouts; the incumbent stays unless that gain
    exceeds ``margin`` standard errors."""
    s = m.search
    gains = m.option_values
    squares = m.option_squares
    gains[:options] = 0.0
    squares[:options] = 0.0
    rollouts = m.rollouts[p]
    for r in range(rollouts):
        s[S_ROLLOUT] = r
        incumbent_value = 0.0
        for k in range(options):
            c = (incumbent + k) % options  # the incumbent first
            copy_into(m.saved_state, m.game_state)
            s[S_CANDIDATE] = c
            _replay(m, step, p, 0, s[S_FIXED])
            play_out(m)
            value = outcome(m, p)
            if k == 0:
                incumbent_value = value
            else:
                gains[c] += value - incumbent_value
                squares[c] += (value - incumbent_value) ** 2
    best = incumbent
    best_gain = 0.0
    for c in range(options):
        mean = gains[c] / rollouts
        if c == incumbent or mean <= best_gain:
            continue
        variance = max(squares[c] / rollouts - mean * mean, 0.0) * rollouts / max(rollouts - 1, 1)
        if mean > m.margin[p] * (variance / rollouts) ** 0.5:
            best = c
            best_gain = mean
    return best


@njit(cache=True, nogil=True, inline="always")
def play_out(m):
    """A rollout from where the searched decision left it to the game's end, every seat
    by its profile (no search), each step drawing from its own stream."""
    counters = m.counters
    players = m.players.shape[0]
    while True:
        step, p = next_step(counters, players, m.max_turns)
        if step == GAME_OVER:
            return
        draw_from_rollout_stream(m)
        play_step(m, step, p)


@njit(cache=True, nogil=True, inline="always")
def outcome(m, p):
    """What a rollout is worth to ``p``: its final value (score), that minus the best other
    player's (lead), or its share of the win."""
    scores = m.rollout_scores
    final_values(m, m.parts, scores)
    objective = m.objective[p]
    if objective == OBJECTIVE_SCORE:
        return float(scores[p])
    best = scores[0 if p != 0 else 1]
    for q in range(scores.shape[0]):
        if q != p:
            best = max(best, scores[q])
    if objective == OBJECTIVE_LEAD:
        return float(scores[p] - best)
    if scores[p] < best:
        return 0.0
    winners = 0
    for q in range(scores.shape[0]):
        winners += scores[q] == scores[p]
    return 1.0 / winners
