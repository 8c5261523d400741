"""The rule functions of one turn, fed small constructed states (RULES.md, lucky-pirates).

Every expected value is worked out by hand in the comment beside it.
"""

import numpy as np
import pytest

from analyzer.engine.rng import seed_game
from analyzer.games.lucky_pirates.mechanics import (
    EV_DRY_DRAWS,
    EV_DUEL_GAINS,
    EV_DUELS,
    EV_ISLAND_GAINS,
    EV_SHIP_TAKES,
    EV_STEALS,
    LANE_BITS,
    MAX_SEATS,
    N_EVENTS,
    NO_DUEL,
    card_effect,
    duel_order,
    duel_win_probabilities,
    fight_duel,
    held,
    one_for,
    packed_treasures,
    settle_arrival,
    take_treasure,
)
from analyzer.games.lucky_pirates.rules import ISLAND, SEASIDE, SHIP


def _events():
    return np.zeros(N_EVENTS, np.int64)


def _held(*values):
    return np.array(values, np.int64)


def _word(*values):
    """The word of treasures of seats holding ``values``."""
    return packed_treasures(_held(*values))


def _counts(treasures, players):
    """Each seat's treasures in the word ``treasures``."""
    return [held(treasures, seat) for seat in range(players)]


# ---- the word of treasures ------------------------------------------------------------

def test_a_word_holds_each_seats_treasures_apart():
    # 16 bits a seat: 1000 (the most the options allow) in seat 4, 1 in seat 1
    treasures = _word(1, 0, 999, 1000)
    assert treasures == 1 + 999 * 2 ** 32 + 1000 * 2 ** 48
    assert _counts(treasures, 4) == [1, 0, 999, 1000]
    assert _counts(treasures + one_for(1) - one_for(3), 4) == [1, 1, 999, 999]


def test_the_options_keep_a_word_of_treasures_in_its_bits():
    # a seat's lane of 16 bits holds its count below 2**15 (the standings' top_seats needs its top bit free)
    from analyzer.games.lucky_pirates.game import GAME

    options = {option.name: option for option in GAME.options}
    assert options["treasure_supply"].high < 2 ** (LANE_BITS - 1)
    assert GAME.max_players <= MAX_SEATS


# ---- taking a treasure ------------------------------------------------------------

def _take(counts, provisions, taker, steal, events):
    treasures, provisions, gained = take_treasure(_word(*counts), provisions, taker, len(counts), steal, events)
    return _counts(treasures, len(counts)), provisions, gained


def test_take_from_provisions():
    events = _events()
    counts, provisions, gained = _take((1, 2, 0), 3, 2, False, events)
    assert (provisions, gained) == (2, True)
    assert counts == [1, 2, 1]
    assert events.sum() == 0


def test_take_from_empty_provisions_gives_nothing_by_default():
    # steal_when_empty = false: nothing is taken; the draw is counted as dry
    events = _events()
    counts, provisions, gained = _take((1, 4, 0), 0, 2, False, events)
    assert (provisions, gained) == (0, False)
    assert counts == [1, 4, 0]
    assert events[EV_DRY_DRAWS] == 1 and events[EV_STEALS] == 0


def test_steal_takes_from_the_richest_other_pirate():
    # seat 1 (index 0) takes; the richest other is seat 3 with 3
    events = _events()
    counts, provisions, gained = _take((1, 2, 3, 0), 0, 0, True, events)
    assert (provisions, gained) == (0, True)
    assert counts == [2, 2, 2, 0]
    assert events[EV_DRY_DRAWS] == 1 and events[EV_STEALS] == 1


def test_steal_tie_goes_to_the_first_clockwise_from_the_taker():
    # taker seat 3 (index 2); seats 1 and 4 both hold 2; clockwise from seat 3: 4, 1, 2
    assert _take((2, 0, 1, 2), 0, 2, True, _events())[0] == [2, 0, 2, 1]
    # taker seat 4 (index 3); seats 1 and 3 hold 2; clockwise from seat 4: 1, 2, 3
    assert _take((2, 0, 2, 0), 0, 3, True, _events())[0] == [1, 0, 2, 1]


def test_steal_from_pirates_with_nothing_takes_nothing():
    events = _events()
    counts, provisions, gained = _take((3, 0, 0), 0, 0, True, events)
    assert (provisions, gained) == (0, False)
    assert counts == [3, 0, 0]
    assert events[EV_DRY_DRAWS] == 1 and events[EV_STEALS] == 0


# ---- the cards --------------------------------------------------------------------

def _card(counts, provisions, pirate, kind, events):
    treasures, provisions = card_effect(_word(*counts), provisions, pirate, len(counts), kind, False, events)
    return _counts(treasures, len(counts)), provisions


def test_island_gives_a_treasure():
    events = _events()
    assert _card((0, 0), 5, 1, ISLAND, events) == ([0, 1], 4)
    assert events[EV_ISLAND_GAINS] == 1


def test_island_with_empty_provisions_gains_nothing():
    events = _events()
    assert _card((0, 2), 0, 0, ISLAND, events) == ([0, 2], 0)
    assert events[EV_ISLAND_GAINS] == 0 and events[EV_DRY_DRAWS] == 1


def test_ship_takes_one_treasure_back():
    events = _events()
    assert _card((3, 1), 10, 0, SHIP, events) == ([2, 1], 11)
    assert events[EV_SHIP_TAKES] == 1


def test_ship_cannot_take_from_a_pirate_without_treasure():
    events = _events()
    assert _card((0, 1), 10, 0, SHIP, events) == ([0, 1], 10)
    assert events.sum() == 0


def test_seaside_does_nothing():
    events = _events()
    assert _card((2, 1), 10, 0, SEASIDE, events) == ([2, 1], 10)
    assert events.sum() == 0


# ---- what follows a landing -------------------------------------------------------

def _settle(counts, provisions, mover, kind, duel_winner, replaces=True, steal=False, target=5):
    """``(each seat's treasures after, provisions, winner, fought, events)``."""
    events = _events()
    treasures, provisions, winner, fought = settle_arrival(_word(*counts), provisions, mover, len(counts), kind,
                                                           duel_winner, target, replaces, steal, events)
    return _counts(treasures, len(counts)), provisions, winner, fought, events


@pytest.mark.parametrize("replaces, expected", [(True, [1, 1]), (False, [2, 1])])
def test_duel_replaces_card_or_card_acts_first(replaces, expected):
    # seat 1 lands on an island where seat 2 stands; seat 2 wins the duel
    counts, provisions, winner, fought, events = _settle((1, 0), 5, 0, ISLAND, 1, replaces)
    assert counts == expected
    assert (winner, fought) == (-1, True)
    assert provisions == (4 if replaces else 3)
    assert events[EV_DUELS] == 1 and events[EV_DUEL_GAINS] == 1
    assert events[EV_ISLAND_GAINS] == (0 if replaces else 1)


def test_duel_replaces_the_ship_too():
    assert _settle((2, 0), 5, 0, SHIP, 0, replaces=True)[0] == [3, 0]  # no ship take, then the duel's treasure
    assert _settle((2, 0), 5, 0, SHIP, 0, replaces=False)[0] == [2, 0]  # the ship takes one, the duel gives it back


def test_card_that_wins_first_means_no_duel():
    # card first: seat 1 reaches 5 on the island and wins; the duel is not fought
    counts, _provisions, winner, fought, events = _settle((4, 0), 5, 0, ISLAND, 1, replaces=False)
    assert (winner, fought) == (0, False)
    assert counts == [5, 0]
    assert events[EV_DUELS] == 0


def test_arriving_alone_the_card_always_acts():
    counts, provisions, winner, fought, events = _settle((1, 0), 5, 0, SHIP, NO_DUEL)
    assert (provisions, winner, fought) == (6, -1, False)
    assert counts == [0, 0]
    assert events[EV_SHIP_TAKES] == 1 and events[EV_DUELS] == 0


def test_duel_winner_reaching_the_target_wins():
    counts, provisions, winner, fought, _ = _settle((0, 4), 2, 0, SEASIDE, 1)
    assert (provisions, winner, fought) == (1, 1, True)
    assert counts == [0, 5]


def test_duel_won_from_empty_provisions():
    counts, provisions, winner, fought, events = _settle((2, 4), 0, 0, SEASIDE, 1)
    assert (provisions, winner, fought) == (0, -1, True)  # won for nothing
    assert counts == [2, 4]
    assert events[EV_DUEL_GAINS] == 0 and events[EV_DRY_DRAWS] == 1
    counts, provisions, winner, fought, events = _settle((2, 4), 0, 0, SEASIDE, 1, steal=True)
    assert (winner, fought) == (1, True)  # steals seat 1's treasure and wins
    assert counts == [1, 5]
    assert events[EV_STEALS] == 1 and events[EV_DUEL_GAINS] == 1


# ---- duels ------------------------------------------------------------------------

def test_duel_order_is_clockwise_from_the_arriving_pirate():
    # seat 3 (index 2) arrives on card 3, where seats 1 and 4 stand; seat 2 is elsewhere
    order = np.zeros(4, np.int64)
    count = duel_order(_held(3, 0, 3, 3), 2, order)
    assert count == 3
    assert order[:count].tolist() == [2, 3, 0]


def test_duel_order_alone():
    order = np.zeros(3, np.int64)
    assert duel_order(_held(1, 2, 0), 0, order) == 1
    assert order[0] == 0


def test_duel_win_probabilities_by_hand():
    out = np.zeros(4)
    order = np.array([2, 0, 1, 3], np.int64)
    # two ships with q = 1/4: first thrower q / (1 - (3/4)^2) = (1/4) / (7/16) = 4/7
    duel_win_probabilities(order, 2, 0.25, out)
    assert out == pytest.approx([3 / 7, 0, 4 / 7, 0], abs=1e-15)
    # three throwers: (1/4) / (1 - 27/64) = 16/37, then 12/37, 9/37
    duel_win_probabilities(order, 3, 0.25, out)
    assert out == pytest.approx([12 / 37, 9 / 37, 16 / 37, 0], abs=1e-15)
    # q = 1: the arriving pirate always wins at once
    duel_win_probabilities(order, 4, 1.0, out)
    assert out.tolist() == [0, 0, 1, 0]


def test_fight_duel_always_wins_first_throw_when_q_is_one():
    state = np.zeros(4, np.uint64)
    seed_game(1, 0, state)
    order = np.array([1, 0], np.int64)
    for _ in range(100):
        assert fight_duel(state, order, 2, 1.0) == (1, 1)


@pytest.mark.parametrize("q", [0.25, 0.01])  # drawn throw by throw / in one step
def test_fight_duel_matches_the_geometric_law(q):
    # three duellists: the i-th thrower wins with q (1 - q)^i / (1 - (1 - q)^3)
    # (q = 1/4: 16/37, 12/37, 9/37); throws are geometric: mean 1/q, variance
    # (1 - q)/q^2; the winner threw last: order[(throws - 1) % 3]
    state = np.zeros(4, np.uint64)
    seed_game(7, 0, state)
    order = np.array([2, 0, 1], np.int64)
    n = 40000
    wins = np.zeros(3)
    throws = np.zeros(n)
    for i in range(n):
        winner, t = fight_duel(state, order, 3, q)
        assert winner == order[(t - 1) % 3]
        wins[winner] += 1
        throws[i] = t
    first = q / (1 - (1 - q) ** 3)
    expected = np.array([first * (1 - q), first * (1 - q) ** 2, first])  # seats 0, 1, 2
    se = np.sqrt(expected * (1 - expected) / n)
    assert np.all(np.abs(wins / n - expected) < 4 * se)
    assert abs(throws.mean() - 1 / q) < 4 * np.sqrt((1 - q) / q ** 2 / n)
