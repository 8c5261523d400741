"""The exact solution of lucky-pirates: an absorbing Markov chain, one step per turn.

A state is (every pirate's card, every pirate's treasures, the player to move). The
provisions need no coordinate of their own: they are the supply minus the treasures
held. A pirate at ``treasures_to_win`` has won, so transient states hold at most
``treasures_to_win - 1`` each. Everything that happens inside a turn (the die, the
card, a duel of any length and its winner) is folded into that turn's transition
probabilities: a duel among k pirates with two-ship chance q per throw is won by the
i-th thrower with probability q (1 - q)^i / (1 - (1 - q)^k).

The chain is solved forwards: starting from the opening position (all pirates on
the ship, no treasures, seat 1 to move), the probability distribution over states is
pushed one turn at a time. The mass absorbed at turn t is P(game ends at turn t,
won by seat s), which gives the win probabilities, the exact distribution of the
length (mean, median, percentiles), and, through the expected number of visits to
every state, the expected number of duels, ship takes and other events. The player
to move at turn t is seat ``t mod players``, so the distribution of one turn lives on
(cards, treasures) alone. It stops when the probability that the game is still
running falls below ``tolerance``; that probability bounds the error of every win
probability. The turn cap (``max_turns``) plays no part: the values are those of
games played to the end.

The turn's transitions factor into a move part (cards, depending on the cards only)
and a treasure part (depending on the treasures, the mover, the arrival card's kind
and the duel's winner only). Both are tabulated once, the treasure part with the same
jitted rule functions the simulation uses.
"""

from __future__ import annotations

import numpy as np

from analyzer.engine.arrays import add_into
from analyzer.engine.jit import njit
from analyzer.engine.progress import wait_interruptibly
from analyzer.errors import AnalyzerError
from analyzer.games.lucky_pirates.mechanics import (
    EV_DRY_DRAWS,
    EV_DUEL_GAINS,
    EV_DUELS,
    EV_ISLAND_GAINS,
    EV_SHIP_TAKES,
    EV_STEALS,
    N_EVENTS,
    NO_DUEL,
    duel_order,
    duel_win_probabilities,
    packed_treasures,
    settle_arrival,
    unpack_treasures,
)
from analyzer.games.lucky_pirates.rules import CARD_NAMES, RuleValues

#: the largest problems solved (memory: about 8 * (players + 2) bytes a cell of the
#: (card layouts x treasure holdings) grid, 88 bytes a move, 64 bytes a treasure outcome)
MAX_CELLS = 40_000_000
MAX_MOVES = 5_000_000
MAX_OUTCOMES = 6_000_000
#: the most turns pushed before giving up (a game that need not end, or ends very slowly),
#: and the most work (turns x cells x die faces, about 2 ns each: a minute)
MAX_TURNS = 100_000
MAX_WORK = 30_000_000_000
CARD_KINDS = len(CARD_NAMES)


@njit(cache=True, nogil=True)
def _decode(index, base, digits):
    """Mixed-radix digits of ``index`` (least significant = seat 1)."""
    for i in range(digits.shape[0]):
        digits[i] = index % base
        index //= base


@njit(cache=True, nogil=True)
def _encode(digits, base):
    index = 0
    for i in range(digits.shape[0] - 1, -1, -1):
        index = index * base + digits[i]
    return index


@njit(cache=True, nogil=True)
def build_moves(players, circle, die_faces, two_ships_probability):
    """For each mover, card layout and die face: the new layout, the arrival card's kind
    and the possible duel winners with their probabilities.

    A slot is a duel winner's seat, or ``players`` for "no duel". Returns
    ``(dest, kind, slot_count, slot, slot_probability)`` indexed ``[mover, layout, face]``.
    """
    cards = circle.shape[0]
    layouts = cards ** players
    dest = np.zeros((players, layouts, die_faces), np.int64)
    kind = np.zeros((players, layouts, die_faces), np.int64)
    slot_count = np.zeros((players, layouts, die_faces), np.int64)
    slot = np.zeros((players, layouts, die_faces, players), np.int64)
    slot_probability = np.zeros((players, layouts, die_faces, players), np.float64)
    positions = np.zeros(players, np.int64)
    order = np.zeros(players, np.int64)
    win_share = np.zeros(players, np.float64)
    for mover in range(players):
        for layout in range(layouts):
            for face in range(die_faces):
                _decode(layout, cards, positions)
                card = (positions[mover] + 1 + face) % cards
                positions[mover] = card
                dest[mover, layout, face] = _encode(positions, cards)
                kind[mover, layout, face] = circle[card]
                duellists = duel_order(positions, mover, order)
                if duellists == 1:
                    slot_count[mover, layout, face] = 1
                    slot[mover, layout, face, 0] = players
                    slot_probability[mover, layout, face, 0] = 1.0
                    continue
                duel_win_probabilities(order, duellists, two_ships_probability, win_share)
                slot_count[mover, layout, face] = duellists
                for i in range(duellists):
                    slot[mover, layout, face, i] = order[i]
                    slot_probability[mover, layout, face, i] = win_share[order[i]]
    return dest, kind, slot_count, slot, slot_probability


@njit(cache=True, nogil=True)
def build_outcomes(players, treasures_to_win, treasure_supply, duel_replaces_card, steal_when_empty):
    """For each mover, arrival card kind, slot (duel winner or no duel) and treasure
    holding: the holding after the turn, or the end of the game.

    ``next_holding[mover, kind, slot, holding]`` is the new holding's index, or
    ``-1 - code`` when the game ends, ``code`` being the winner's seat (won by a card)
    or ``players`` + seat (won in a duel). ``events`` counts what happened on the way.
    Holdings whose total exceeds the supply cannot occur; their entries are unused.
    """
    holdings = treasures_to_win ** players
    slots = players + 1
    next_holding = np.zeros((players, CARD_KINDS, slots, holdings), np.int64)
    events = np.zeros((players, CARD_KINDS, slots, holdings, N_EVENTS), np.int64)
    treasures = np.zeros(players, np.int64)
    for mover in range(players):
        for kind in range(CARD_KINDS):
            for slot in range(slots):
                duel_winner = slot if slot < players else NO_DUEL
                for holding in range(holdings):
                    _decode(holding, treasures_to_win, treasures)
                    provisions = treasure_supply - treasures.sum()
                    after, _, winner, fought = settle_arrival(
                        packed_treasures(treasures), provisions, mover, players, kind, duel_winner, treasures_to_win,
                        duel_replaces_card, steal_when_empty, events[mover, kind, slot, holding])
                    if winner < 0:
                        unpack_treasures(after, treasures)
                        next_holding[mover, kind, slot, holding] = _encode(treasures, treasures_to_win)
                    else:
                        next_holding[mover, kind, slot, holding] = -1 - winner - (players if fought else 0)
    return next_holding, events


@njit(cache=True, nogil=True)
def push_turn(mover, dist, out, ended, die_faces, dest, kind, slot_count, slot, slot_probability,
              next_holding):
    """One turn of ``mover``: add the next turn's distribution to ``out`` (zeroed by the
    caller) and the mass of the games that end to ``ended`` (indexed by end code)."""
    layouts, holdings = dist.shape
    face_probability = 1.0 / die_faces
    for layout in range(layouts):
        row = dist[layout]
        if not row.any():
            continue
        for face in range(die_faces):
            target = out[dest[mover, layout, face]]
            card_kind = kind[mover, layout, face]
            for j in range(slot_count[mover, layout, face]):
                weight = face_probability * slot_probability[mover, layout, face, j]
                table = next_holding[mover, card_kind, slot[mover, layout, face, j]]
                for holding in range(holdings):
                    mass = row[holding]
                    if mass == 0.0:
                        continue
                    after = table[holding]
                    if after >= 0:
                        target[after] += mass * weight
                    else:
                        ended[-1 - after] += mass * weight


@njit(cache=True, nogil=True)
def run_chain(players, die_faces, dest, kind, slot_count, slot, slot_probability, next_holding,
              layouts, holdings, tolerance, max_turns):
    """Push the opening position turn by turn until the game is over but for less
    than ``tolerance``, or ``max_turns`` have been pushed.

    Returns ``(turns pushed, probability still running, ended, ended_by_turn, visits)``:
    ``ended[code]`` the probability of each end (see ``build_outcomes``),
    ``ended_by_turn[t]`` the probability that the game ends at turn t + 1, and
    ``visits[mover]`` the expected number of turns played from each state.
    """
    dist = np.zeros((layouts, holdings))
    dist[0, 0] = 1.0  # everyone on the ship (card 0) with no treasure
    out = np.zeros((layouts, holdings))
    visits = np.zeros((players, layouts, holdings))
    ended = np.zeros(2 * players)
    ended_by_turn = np.zeros(max_turns)
    running = 1.0
    turn = 0
    while running >= tolerance and turn < max_turns:
        mover = turn % players
        for layout in range(layouts):  # visits[mover] += dist (see engine.arrays)
            add_into(dist[layout], visits[mover, layout])
        out[:] = 0.0
        before = ended.sum()
        push_turn(mover, dist, out, ended, die_faces, dest, kind, slot_count, slot,
                  slot_probability, next_holding)
        ended_by_turn[turn] = ended.sum() - before
        dist, out = out, dist
        running = dist.sum()
        turn += 1
    return turn, running, ended, ended_by_turn[:turn], visits


@njit(cache=True, nogil=True)
def expected_turn_events(mover, visits, die_faces, kind, slot_count, slot, slot_probability, events,
                         total):
    """Add to ``total`` the expected event counts of ``mover``'s turns, given the
    expected number of visits to each (layout, holding) with ``mover`` to move."""
    layouts, holdings = visits.shape
    face_probability = 1.0 / die_faces
    for layout in range(layouts):
        row = visits[layout]
        for face in range(die_faces):
            card_kind = kind[mover, layout, face]
            for j in range(slot_count[mover, layout, face]):
                weight = face_probability * slot_probability[mover, layout, face, j]
                counts = events[mover, card_kind, slot[mover, layout, face, j]]
                for holding in range(holdings):
                    mass = row[holding] * weight
                    if mass == 0.0:
                        continue
                    for e in range(N_EVENTS):
                        total[e] += mass * counts[holding, e]


def _quantile(cumulative: np.ndarray, q: float) -> int:
    """The smallest length t (turns, from 1) with P(length <= t) >= q."""
    return int(np.searchsorted(cumulative, q - 1e-12)) + 1


def valid_holdings(players: int, treasures_to_win: int, treasure_supply: int) -> int:
    """How many treasure holdings (each below the target, total within the supply) exist."""
    digits = np.indices((treasures_to_win,) * players).reshape(players, -1)
    return int(np.count_nonzero(digits.sum(axis=0) <= treasure_supply))


def check_size(players: int, layouts: int, holdings: int, die_faces: int) -> None:
    """Refuse, in one line, a chain too large to solve on this machine."""
    cells = layouts * holdings
    moves = players * layouts * die_faces
    outcomes = players * CARD_KINDS * (players + 1) * holdings
    if cells > MAX_CELLS or moves > MAX_MOVES or outcomes > MAX_OUTCOMES:
        raise AnalyzerError(
            f"the exact solution is too large: {players * cells:,} states, {moves:,} moves and "
            f"{outcomes:,} treasure outcomes (at most {players * MAX_CELLS:,}, {MAX_MOVES:,} "
            f"and {MAX_OUTCOMES:,}); use fewer players, a shorter circle, a smaller die "
            "or a lower treasures_to_win"
        )


def solve(rules: RuleValues, tolerance: float = 1e-14) -> dict:
    """The exact win probabilities, length distribution and expected event counts."""
    players = rules.players
    cards = rules.circle.shape[0]
    layouts = cards ** players
    holdings = rules.treasures_to_win ** players
    check_size(players, layouts, holdings, rules.die_faces)
    moves = build_moves(players, rules.circle, rules.die_faces, rules.two_ships_probability)
    dest, kind, slot_count, slot, slot_probability = moves
    next_holding, events = build_outcomes(players, rules.treasures_to_win, rules.treasure_supply,
                                          rules.duel_replaces_card, rules.steal_when_empty)

    work_per_turn = layouts * holdings * rules.die_faces
    max_turns = int(min(MAX_TURNS, MAX_WORK // work_per_turn))
    # on another thread, so that Ctrl-C stops the solve at once (compiled code sees it only on return)
    turn, running, ended, length, visits = wait_interruptibly(
        run_chain, players, rules.die_faces, dest, kind, slot_count, slot, slot_probability, next_holding,
        layouts, holdings, tolerance, max_turns)
    if running >= tolerance:
        if max_turns == MAX_TURNS:
            cap = f"its cap of {MAX_TURNS:,} turns (under these rules the game may never end)"
        else:
            cap = (f"its work cap of {MAX_WORK:,} steps (turns x states x die faces), {max_turns:,} turns "
                   f"of these rules")
        raise AnalyzerError(
            f"the exact solution did not converge: it stopped at {cap}, the game still running with "
            f"probability {running:.3g}; `analyze simulate` plays these rules instead"
        )

    expected_events = np.zeros(N_EVENTS)
    for mover in range(players):
        expected_turn_events(mover, visits[mover], rules.die_faces, kind, slot_count, slot,
                             slot_probability, events, expected_events)

    turns = np.arange(1, len(length) + 1)
    cumulative = np.cumsum(length)
    win_probability = ended[:players] + ended[players:]
    return {
        "players": players,
        "win_probability": win_probability.tolist(),
        "first_player_advantage": float(win_probability[0] - 1.0 / players),
        "expected_turns": float(visits.sum()),
        "expected_rounds": float(np.sum(length * -(-turns // players))),
        "length": {
            "unit": "turns",
            "mean": float(visits.sum()),
            "median": _quantile(cumulative, 0.5),
            "p5": _quantile(cumulative, 0.05),
            "p95": _quantile(cumulative, 0.95),
        },
        "won_in_duel_probability": float(ended[players:].sum()),
        "expected_duels": float(expected_events[EV_DUELS]),
        "expected_duel_throws": float(expected_events[EV_DUELS] / rules.two_ships_probability),
        "expected_ship_takes": float(expected_events[EV_SHIP_TAKES]),
        "expected_dry_draws": float(expected_events[EV_DRY_DRAWS]),
        "expected_steals": float(expected_events[EV_STEALS]),
        "expected_island_treasures": float(expected_events[EV_ISLAND_GAINS]),
        "expected_duel_treasures": float(expected_events[EV_DUEL_GAINS]),
        "states": players * layouts * valid_holdings(players, rules.treasures_to_win,
                                                     rules.treasure_supply),
        "turns_computed": turn,
        "unfinished_probability": running,
        "note": "games played to the end: the turn cap (max_turns) does not enter exact values",
    }
