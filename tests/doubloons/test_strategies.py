"""The strategies' decisions on hand-built play areas, and their strength in play.

Unless said otherwise: 3 pirates, 5 card groups (5 copies of every number); every
slot not named is open. "Unseen" copies of a number are the deck's copies less the
open ones and (remembered by default) the discarded ones.
"""

import math

import numpy as np
import pytest

from analyzer.engine.runner import run
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import CHAINED_PARROT, KEY, KRAKEN, PARROT
from analyzer.games.doubloons.decisions import (
    choose_chain,
    choose_key,
    choose_parrot_slot,
    choose_source,
    choose_swap,
    rival,
)
from analyzer.games.doubloons.play_area import (
    CAND,
    F_WINS,
    SLOT_STRIDE,
    chained_chest_targets,
    chained_parrot_targets,
    key_targets,
    parrot_slots,
    pirate_swaps,
)
from analyzer.runspec import resolve
from tests.cli_checks import assert_one_line_error, run_cli
from tests.doubloons.play_areas import PARROT_HERE, PlayArea, prepared


def _source(t, p=0):
    return bool(choose_source(t.pirates, t.shared, t.inputs, p, t.rng))


# ---- deck or discard ---------------------------------------------------------------------------

@pytest.mark.parametrize("closed, chained, top, take", [
    ({4: 1}, (), 4, True),                   # the 4 opens slot 4
    ({4: 1}, (), 7, False),                  # slot 7 is open: the 7 is of no use
    ({4: PARROT_HERE}, (), 4, True),         # the 4 replaces its parrot
    ({4: PARROT_HERE}, (4,), 4, False),      # ... unless the parrot is chained
    ({4: 1}, (4,), KEY, True),               # an unused key frees the chained chest
    ({4: 1}, (), KEY, False),                # nothing to unlock
])
def test_greedy_takes_the_discard_whenever_it_opens_a_chest(closed, chained, top, take):
    t = PlayArea()
    t.lay(0, closed, chained=chained)
    t.piles(deck=[1], discard=[top])
    assert _source(t) == take


@pytest.mark.parametrize("strategy, chained, on_parrot, discarded, take", [
    ("greedy", (), 1, 4, True),             # all 5 chained parrots seen: 4 in the pile, 1 on a parrot
    ("greedy", (4,), 1, 4, False),          # ... but every closed chest is chained
    ("greedy", (), 0, 4, False),            # one chained parrot can still come
    ("greedy:parrot_chain_limit=1", (), 0, 4, True),   # ... which this greedy risks
    ("greedy:count_discards=false", (), 1, 4, False),  # forgetting the pile, 4 can still come
    ("greedy:take_parrot=false", (), 1, 4, False),     # never takes a parrot
])
def test_greedy_takes_a_parrot_only_while_few_chained_parrots_can_come(strategy, chained, on_parrot, discarded,
                                                                       take):
    # 5 chained parrots in the deck; pirate 2 holds a parrot on slot 3, chained if on_parrot
    t = PlayArea(strategies=(strategy,))
    t.lay(0, {4: 1}, chained=chained)
    t.lay(1, {3: PARROT_HERE}, chained=(3,) if on_parrot else ())
    t.piles(deck=[1], discard=[CHAINED_PARROT] * discarded + [PARROT])
    assert _source(t) == take


def test_random_takes_the_discard_half_the_time():
    t = PlayArea(strategies=("random",))
    t.lay(0, {4: 1})
    t.piles(deck=[1], discard=[7])
    n = 4000
    taken = sum(_source(t) for _ in range(n))
    assert abs(taken / n - 0.5) < 4 * math.sqrt(0.25 / n)


# ---- noise: casual players ---------------------------------------------------------------------

def test_noise_zero_draws_no_random_number():
    # the 4 on the pile opens slot 4: greedy takes it without a tie to break, and at noise 0
    # it does not draw the number that would decide whether to play at random
    t = PlayArea(strategies=("greedy:noise=0",))
    t.lay(0, {4: 1})
    t.piles(deck=[1], discard=[4])
    before = t.rng.copy()
    assert _source(t)
    assert np.array_equal(t.rng, before)


def test_noise_is_the_share_of_random_decisions():
    # the 7 on the pile is of no use: greedy draws; with noise 0.5 half its decisions are
    # random and half of those take the 7: a quarter in all
    t = PlayArea(strategies=("greedy:noise=0.5",))
    t.lay(0, {4: 1})
    t.piles(deck=[1], discard=[7])
    n = 4000
    taken = sum(_source(t) for _ in range(n))
    assert abs(taken / n - 0.25) < 4 * math.sqrt(0.25 * 0.75 / n)


@pytest.mark.parametrize("spec, label", [("greedy:noise=0", "greedy"), ("saboteur:noise=0.25", "saboteur:noise=0.25"),
                                         ("random:noise=1", "random:noise=1")])
def test_labels_name_the_noise_when_set(spec, label):
    assert resolve(game="doubloons", strategies=[spec]).seats[0].label == label


@pytest.mark.parametrize("noise", ["-0.1", "1.5", "high"])
def test_noise_outside_0_to_1_is_refused(noise):
    result = run_cli(["simulate", "--game", "doubloons", "--n", "10", "--strategy", f"greedy:noise={noise}"])
    assert_one_line_error(result, "noise")


# ---- the saboteur's rival and kraken hunt -----------------------------------------------------------

def test_the_rival_is_the_opponent_with_fewest_chests_left_counting_match_points():
    # seat 2: 3 chests left, no round won; seat 3: 4 left but one round win from the match.
    # match_point_bonus 2 makes seat 3's threat 4 - 2 = 2 < 3; with 0 it is seat 2.
    for bonus, expected in ((2, 2), (0, 1)):
        t = PlayArea(strategies=(f"saboteur:match_point_bonus={bonus}",))
        t.lay(0, {1: 2})
        t.lay(1, {1: 2, 2: 3, 3: 4})
        t.lay(2, {1: 2, 2: 3, 3: 4, 4: 5})
        t.pirates[2, F_WINS] = 1
        assert rival(t.pirates, t.shared, t.inputs, 0) == expected


HUNTER = "saboteur:kraken_hunt_at=1"


def _hunt_area(strategy, left, top, krakens_discarded=0):
    # pirate 1 has slot 5 chained; the next player (seat 2) is the rival with `left` chests
    # to open; seat 3 has five. The pile's top card is `top`, below it some krakens (5 in the deck).
    t = PlayArea(strategies=(strategy,))
    t.lay(0, {4: 1, 5: 2, 6: 3}, chained=(5,))
    t.lay(1, {s: 1 for s in range(1, left + 1)})
    t.lay(2, {1: 2, 2: 3, 3: 4, 4: 5, 5: 6})
    t.piles(deck=[1], discard=[KRAKEN] * krakens_discarded + [top])
    return t


@pytest.mark.parametrize("strategy, left, top, krakens_discarded, take", [
    (HUNTER, 1, KEY, 0, False),                   # the rival is about to finish: hunt rather than unlock
    (HUNTER + ",parrot_chain_limit=5", 1, PARROT, 4, False),  # ... or take a parrot: a kraken can still come
    ("saboteur:parrot_chain_limit=5", 1, PARROT, 4, True),     # (without the hunt it takes it)
    (HUNTER, 1, KEY, 5, True),                    # every kraken is in the pile: nothing to hunt
    (HUNTER + ",count_discards=false", 1, KEY, 5, False),  # ... unless it does not remember the pile
    (HUNTER, 2, KEY, 0, True),                    # the rival has two chests left: no hunt
    ("saboteur", 1, KEY, 0, True),                # by default it never hunts
    (HUNTER, 1, 4, 0, True),                      # a number that opens a chest is never given up
])
def test_the_saboteur_hunts_the_kraken_only_when_one_can_come_and_only_instead_of_a_parrot_or_key(
        strategy, left, top, krakens_discarded, take):
    t = _hunt_area(strategy, left, top, krakens_discarded)
    assert _source(t) == take


# ---- where the parrot goes -----------------------------------------------------------------------------

def _parrot_slot(t, p=0):
    """Where pirate p's strategy puts a parrot, among its legal slots."""
    return int(choose_parrot_slot(t.pirates, t.shared, t.inputs, p, parrot_slots(t.pirates, t.shared, p), t.rng))


def test_greedy_puts_the_parrot_where_its_number_is_least_likely_to_come():
    # closed 2, 5, 8. Unseen 2s: 5 - 2 open = 3; 5s: 5 - 2 open - 2 discarded = 1;
    # 8s: 3 -> slot 5. Forgetting the discards (count_discards = false), 5s are 3 like the
    # others: a tie, so the choice spreads over the three slots.
    t = PlayArea()
    t.lay(0, {2: 1, 5: 1, 8: 1})
    t.piles(discard=[5, 5, KRAKEN])
    count = parrot_slots(t.pirates, t.shared, 0)
    assert choose_parrot_slot(t.pirates, t.shared, t.inputs, 0, count, t.rng) == 5
    t2 = PlayArea(strategies=("greedy:count_discards=false",))
    t2.lay(0, {2: 1, 5: 1, 8: 1})
    t2.piles(discard=[5, 5, KRAKEN])
    chosen = {_parrot_slot(t2) for _ in range(60)}
    assert chosen == {2, 5, 8}


def test_random_spreads_the_parrot_uniformly():
    t = PlayArea(strategies=("random",))
    t.lay(0, {2: 1, 5: 1, 8: 1})
    n = 3000
    counts = {2: 0, 5: 0, 8: 0}
    for _ in range(n):
        counts[_parrot_slot(t)] += 1
    se = math.sqrt((1 / 3) * (2 / 3) / n)
    assert all(abs(c / n - 1 / 3) < 4 * se for c in counts.values())


# ---- the pirate, the chains and the key ----------------------------------------------------------------

def _swap_area(strategy):
    # Pirate 1 has slots 3 and 6 closed. Pirate 2 (index 1) shows 6 and is far behind;
    # pirate 3 (index 2) shows 3 and has one chest left: the rival.
    # Unseen 3s: 5 - 1 open = 4; 6s: 5 - 1 open - 2 discarded = 2 -> greedy takes the 6.
    t = PlayArea(strategies=(strategy,))
    t.lay(0, {3: 1, 6: 1})
    t.lay(1, {1: 2, 2: 2, 3: 2, 4: 2})
    t.lay(2, {6: 1})
    t.piles(discard=[6, 6, KRAKEN])
    return t


@pytest.mark.parametrize("strategy, victim, slot", [("greedy", 1, 6), ("saboteur", 2, 3)])
def test_the_pirate_robs_the_chest_that_helps_most_or_the_rival(strategy, victim, slot):
    t = _swap_area(strategy)
    count = pirate_swaps(t.pirates, t.shared, 0)
    choice = choose_swap(t.pirates, t.shared, t.inputs, 0, count, t.rng)
    assert (choice // SLOT_STRIDE, choice % SLOT_STRIDE) == (victim, slot)


def _chain_area(strategy):
    # Pirate 2 (index 1): slots 2 and 7 closed, parrot on 8 (3 chests left).
    # Pirate 3 (index 2): slot 4 closed, parrot on 9 (2 left): the saboteur's rival.
    # Unseen copies (5 less open less discarded): 2s 5-2 = 3, 7s 5-2-2 = 1, 4s 5-2-2 = 1,
    # 8s 5-2 = 3, 9s 5-2-2 = 1.
    t = PlayArea(strategies=(strategy,))
    t.lay(0, {1: 2, 3: 2, 5: 2})
    t.lay(1, {2: 1, 7: 1, 8: PARROT_HERE})
    t.lay(2, {4: 1, 9: PARROT_HERE})
    t.piles(discard=[4, 4, 7, 7, 9, 9, KRAKEN])
    return t


@pytest.mark.parametrize("targets, strategy, expected", [
    (chained_chest_targets, "greedy", (1, 2)),      # the most likely number: 2 (3 unseen)
    (chained_chest_targets, "saboteur", (2, 4)),    # the rival's only closed chest
    (chained_parrot_targets, "greedy", (1, 8)),     # 8s: 3 unseen, 9s: 1
    (chained_parrot_targets, "saboteur", (2, 9)),   # the rival's parrot
])
def test_chains_go_where_the_number_is_likely_or_to_the_saboteurs_rival(targets, strategy, expected):
    t = _chain_area(strategy)
    count = targets(t.pirates, t.shared, 0)
    choice = choose_chain(t.pirates, t.shared, t.inputs, 0, count, t.rng)
    assert (choice // SLOT_STRIDE, choice % SLOT_STRIDE) == expected


def test_greedy_unlocks_the_slot_whose_number_is_most_likely_to_come():
    # chained: slot 3 (closed) and the parrot on slot 6; unseen 3s: 5 - 2 - 2 = 1, 6s: 3
    t = PlayArea()
    t.lay(0, {3: 1, 6: PARROT_HERE}, chained=(3, 6))
    t.piles(discard=[3, 3, KRAKEN])
    count = key_targets(t.pirates, t.shared, 0)
    assert sorted(int(c) for c in t.shared[CAND:CAND + count]) == [3, 6]
    assert choose_key(t.pirates, t.shared, t.inputs, 0, count, t.rng) == 6


# ---- strength in play -------------------------------------------------------------------------------------

def test_greedy_beats_random_heads_up():
    prep = prepared(players=2, strategies=("greedy", "random"))
    totals = run(GAME, prep, 4000, seed=11, workers=1)
    share = totals["wins"][0] / 4000
    assert share - 4 * math.sqrt(share * (1 - share) / 4000) > 0.5


def test_saboteurs_make_the_rounds_longer():
    # with a saboteur playing, the rival loses chests to the pirate: rounds run longer
    # than among three greedy players (same seed, same deals: common random numbers)
    def mean_turns(strategies):
        totals = run(GAME, prepared(players=3, strategies=strategies), 4000, seed=5, workers=1)
        hist = np.asarray(totals["round_turns"], dtype=float)
        return (hist * np.arange(len(hist))).sum() / hist.sum(), hist

    greedy, hist = mean_turns(("greedy",))
    saboteur, _ = mean_turns(("saboteur",))
    values = np.arange(len(hist))
    sd = math.sqrt((hist * (values - greedy) ** 2).sum() / hist.sum())
    assert saboteur > greedy + 4 * sd * math.sqrt(2 / hist.sum())
