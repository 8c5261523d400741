"""Every rule of RULES.md (doubloons) on small hand-built play areas.

Each case lays out the chests and piles, plays one turn (or one round) through the
jitted rule functions and compares with the result worked out by hand in the comment.
Unless said otherwise: 3 pirates, 5 card groups (5 copies of every number), greedy
strategies; every slot not named is open; the deck's top card is the last listed.
"""

import numpy as np
import pytest

from analyzer.games.doubloons.audit import audit
from analyzer.games.doubloons.cards import (
    CHAINED_CHEST,
    CHAINED_PARROT,
    CHESTS,
    DRUNK_PIRATE,
    KEY,
    KRAKEN,
    PARROT,
    PIRATE,
    USED_KEY,
)
from analyzer.games.doubloons.play_area import (
    CAND,
    CARD,
    CLOSED,
    DISCARD_COUNT,
    F_CHESTS,
    F_PARROT,
    F_ROUND_WON,
    F_UNOPENED,
    F_WINS,
    HOLDS_PARROT,
    OPEN,
    OPEN_COUNT,
    SLOT_STRIDE,
    UNUSED,
    V_DECK_N,
    V_DIRECTION,
    V_DISCARD_AT,
    V_DISCARD_N,
    V_REDEALS,
    V_REFILLS,
    V_SKIP,
    V_TURNS,
    WON_IN_FINAL_TURNS,
    WON_ROUND,
    can_take_discard,
    chained_chest_targets,
    deal_round,
    new_play_area,
    pirate_swaps,
    refill_deck,
)
from analyzer.games.doubloons.turns import (
    E_DISCARD_TAKES,
    E_LOST_TURNS,
    E_PARROT_MOVES,
    E_PASSES,
    E_REFILLS,
    E_SPECIALS,
    FROM_CHEST,
    FROM_DECK,
    N_SPECIALS,
    ROUND_CAPPED,
    ROUND_OVER,
    USED,
    begin_round,
    continue_round,
    next_player,
)
from tests.doubloons.play_areas import PARROT_HERE, PlayArea


def _play(t, inputs, start):
    """The dealt round played from seat ``start``: (turns, capped, audit violations)."""
    begin_round(t.shared, start)
    outcome, violations = continue_round(t.pirates, t.shared, inputs, t.events, t.rng)
    assert outcome in (ROUND_OVER, ROUND_CAPPED)
    return int(t.shared[V_TURNS]), outcome == ROUND_CAPPED, violations


def _turn(t, p=0):
    """Pirate p plays one turn: the round played out under a cap of one turn."""
    _play(t, t.inputs._replace(max_turns_per_round=1), p)


def _special_count(t, p, origin, card):
    return int(t.events[p, E_SPECIALS + origin * N_SPECIALS + card - PIRATE])


def _candidates(shared, count):
    return sorted((int(c) // SLOT_STRIDE, int(c) % SLOT_STRIDE) for c in shared[CAND:CAND + count])


# ---- numbers and the chain of openings ------------------------------------------------------

def test_a_number_opens_its_chest_and_the_chain_goes_on():
    # 3 opens slot 3 (holds 7) -> 7 opens slot 7 (holds 9) -> 9 opens slot 9 (holds 3)
    # -> slot 3 is open now: the 3 is discarded. Slot 5 stays closed.
    t = PlayArea()
    t.lay(0, {3: 7, 7: 9, 9: 3, 5: 2})
    t.piles(deck=[1, 3])
    _turn(t)
    assert [t.state(0, s) for s in (3, 7, 9, 5)] == [OPEN, OPEN, OPEN, CLOSED]
    assert [t.card(0, s) for s in (3, 7, 9, 5)] == [3, 7, 9, 2]
    assert t.discard() == [3] and t.deck() == [1]
    assert t.field(0, F_UNOPENED) == 1
    # every pirate now shows 3, 7 and 9 open; the discarded 3 is counted as seen
    assert t.shared[OPEN_COUNT + 3] == 3 and t.shared[OPEN_COUNT + 5] == 2 and t.shared[DISCARD_COUNT + 3] == 1


@pytest.mark.parametrize("closed, chests, chained, drawn", [
    ({5: 2}, CHESTS, (), 4),      # slot 4 already open
    ({5: 2}, 8, (), 9),           # a pirate with 8 chests has no slot 9
    ({4: 6}, CHESTS, (4,), 4),    # slot 4 is chained
])
def test_a_number_that_cannot_be_placed_is_discarded(closed, chests, chained, drawn):
    t = PlayArea()
    t.lay(0, closed, chests=chests, chained=chained)
    before = t.pirates.copy()
    t.piles(deck=[drawn])
    _turn(t)
    assert t.discard() == [drawn]
    assert np.array_equal(t.pirates, before)


@pytest.mark.parametrize("apply", [True, False])
def test_a_special_found_in_a_chest_is_applied_as_if_drawn(apply):
    # 5 opens slot 5 and uncovers a drunk pirate: applied (direction reverses) or,
    # with apply_revealed_specials = false, discarded; either way it ends the turn
    t = PlayArea(apply_revealed_specials=apply)
    t.lay(0, {5: DRUNK_PIRATE, 6: 1})
    t.piles(deck=[5])
    _turn(t)
    assert t.state(0, 5) == OPEN and t.state(0, 6) == CLOSED
    assert t.discard() == [DRUNK_PIRATE]
    assert t.direction == (-1 if apply else 1)
    assert _special_count(t, 0, FROM_CHEST, DRUNK_PIRATE) == 1
    assert _special_count(t, 0, USED, DRUNK_PIRATE) == (1 if apply else 0)


# ---- the parrot ----------------------------------------------------------------------------------

def test_the_parrot_takes_a_closed_chest_and_the_chain_goes_on():
    # 2 players, 4 groups: 4 copies of each number. Closed: slot 2 (holds 8), slot 8 (holds 1).
    # Copies of 2 in sight: pirate 2's slot 2 and two in the discard -> 1 unseen;
    # copies of 8: pirate 2's slot 8 -> 3 unseen. Greedy puts the parrot on slot 2,
    # which uncovers 8 -> slot 8 opens and uncovers 1 -> slot 1 is open: discarded.
    t = PlayArea(players=2)
    t.lay(0, {2: 8, 8: 1})
    t.piles(deck=[PARROT], discard=[2, 2, KRAKEN])
    _turn(t)
    assert t.state(0, 2) == HOLDS_PARROT and t.field(0, F_PARROT) == 2
    assert t.state(0, 8) == OPEN
    assert t.discard() == [2, 2, KRAKEN, 1]
    assert t.field(0, F_UNOPENED) == 1  # a parrot still has to be replaced
    assert _special_count(t, 0, FROM_DECK, PARROT) == 1 and _special_count(t, 0, USED, PARROT) == 1


def test_a_second_parrot_is_discarded():
    t = PlayArea()
    t.lay(0, {5: PARROT_HERE, 6: 3})
    t.piles(deck=[PARROT])
    _turn(t)
    assert t.discard() == [PARROT]
    assert t.state(0, 6) == CLOSED and t.field(0, F_PARROT) == 5
    assert _special_count(t, 0, USED, PARROT) == 0


def test_a_parrot_with_no_free_closed_chest_is_discarded():
    # the only closed chest is chained
    t = PlayArea()
    t.lay(0, {4: 6}, chained=(4,))
    t.piles(deck=[PARROT])
    _turn(t)
    assert t.discard() == [PARROT] and t.field(0, F_PARROT) == 0


@pytest.mark.parametrize("moves", [True, False])
def test_the_parrot_freed_by_its_number(moves):
    # the parrot sits on slot 4; drawing 4 opens slot 4. freed_parrot_moves: the parrot
    # moves to the only closed chest (6), which uncovers 10 -> slot 10 is open: discarded.
    # Otherwise the parrot is discarded and slot 6 stays closed.
    t = PlayArea(freed_parrot_moves=moves)
    t.lay(0, {4: PARROT_HERE, 6: 10})
    t.piles(deck=[4])
    _turn(t)
    assert t.state(0, 4) == OPEN and t.card(0, 4) == 4
    assert t.field(0, F_UNOPENED) == 1
    if moves:
        assert t.state(0, 6) == HOLDS_PARROT and t.field(0, F_PARROT) == 6
        assert t.discard() == [10]
        assert t.events[0, E_PARROT_MOVES] == 1
    else:
        assert t.state(0, 6) == CLOSED and t.card(0, 6) == 10 and t.field(0, F_PARROT) == 0
        assert t.discard() == [PARROT]


def test_replacing_the_last_parrot_opens_the_last_chest():
    t = PlayArea()
    t.lay(0, {4: PARROT_HERE})
    t.piles(deck=[4])
    _turn(t)
    assert t.field(0, F_UNOPENED) == 0 and t.discard() == [PARROT]


def test_a_chained_parrot_cannot_be_replaced():
    t = PlayArea()
    t.lay(0, {4: PARROT_HERE}, chained=(4,))
    t.piles(deck=[4])
    _turn(t)
    assert t.discard() == [4] and t.state(0, 4) == HOLDS_PARROT


# ---- the pirate ----------------------------------------------------------------------------------

def test_the_pirate_swaps_a_closed_chest_for_an_open_number():
    # Legal swaps: slot 3 with pirate 2 (index 1), slot 6 with pirate 3 (index 2).
    # Unseen 3s: 5 - 1 open = 4; unseen 6s: 5 - 1 open - 3 discarded = 1 -> greedy takes 6.
    # Pirate 1 gets the open 6; pirate 3 gets pirate 1's face-down card (a 2) in slot 6.
    t = PlayArea()
    t.lay(0, {3: 9, 6: 2})
    t.lay(1, {6: 5})
    t.lay(2, {3: 1})
    t.piles(deck=[PIRATE], discard=[6, 6, 6, KRAKEN])
    assert _candidates(t.shared, pirate_swaps(t.pirates, t.shared, 0)) == [(1, 3), (2, 6)]
    _turn(t)
    assert t.state(0, 6) == OPEN and t.card(0, 6) == 6
    assert t.state(2, 6) == CLOSED and t.card(2, 6) == 2
    assert t.field(0, F_UNOPENED) == 1 and t.field(2, F_UNOPENED) == 2
    assert t.discard()[-1] == PIRATE and _special_count(t, 0, USED, PIRATE) == 1


def test_the_pirate_gives_the_parrot_only_to_a_pirate_without_one():
    # Pirate 1's parrot is on slot 3. Pirate 2 (index 1) has a parrot: it cannot receive
    # another, so slot 3 may only go to pirate 3 (index 2). Slot 7 (closed) may go to
    # either. Greedy gives the parrot away first.
    t = PlayArea()
    t.lay(0, {3: PARROT_HERE, 7: 4})
    t.lay(1, {8: PARROT_HERE})
    t.lay(2, {5: 1})
    t.piles(deck=[PIRATE])
    assert _candidates(t.shared, pirate_swaps(t.pirates, t.shared, 0)) == [(1, 7), (2, 3), (2, 7)]
    _turn(t)
    assert t.state(0, 3) == OPEN and t.field(0, F_PARROT) == 0
    assert t.state(2, 3) == HOLDS_PARROT and t.field(2, F_PARROT) == 3 and t.field(2, F_UNOPENED) == 2


@pytest.mark.parametrize("mine, theirs, chained", [
    ({4: 2}, {}, (4,)),                     # my only closed chest is chained
    ({3: 5}, {3: PARROT_HERE}, ()),         # their slot 3 holds a parrot: no taking parrots
])
def test_the_pirate_without_a_legal_swap_is_discarded_unused(mine, theirs, chained):
    t = PlayArea()
    t.lay(0, mine, chained=chained)
    t.lay(1, theirs)
    t.lay(2, {3: 1} if 3 in mine else {})
    t.piles(deck=[PIRATE])
    before = t.pirates.copy()
    _turn(t)
    assert t.discard() == [PIRATE] and np.array_equal(t.pirates, before)
    assert _special_count(t, 0, FROM_DECK, PIRATE) == 1 and _special_count(t, 0, USED, PIRATE) == 0


# ---- drunk pirate, kraken and the order of play ---------------------------------------------------

def test_the_drunk_pirate_reverses_the_direction():
    t = PlayArea()
    t.lay(0, {5: 1})
    t.piles(deck=[DRUNK_PIRATE])
    assert next_player(t.pirates, t.shared, t.events, 0) == 1
    _turn(t)
    assert t.direction == -1 and t.discard() == [DRUNK_PIRATE]
    assert next_player(t.pirates, t.shared, t.events, 0) == 2


@pytest.mark.parametrize("players, direction, expected, loser", [
    (3, 1, 2, 1),    # seat 2 loses the turn, seat 3 plays
    (3, -1, 1, 2),   # counter-clockwise: seat 3 loses it, seat 2 plays
    (2, 1, 0, 1),    # two players: the kraken's owner plays again
])
def test_the_kraken_costs_the_next_player_a_turn(players, direction, expected, loser):
    t = PlayArea(players=players)
    t.lay(0, {5: 1})
    t.shared[V_DIRECTION] = direction
    t.piles(deck=[KRAKEN])
    _turn(t)
    assert t.shared[V_SKIP] == 1 and t.discard() == [KRAKEN]
    assert next_player(t.pirates, t.shared, t.events, 0) == expected
    assert t.events[loser, E_LOST_TURNS] == 1 and t.shared[V_SKIP] == 0


# ---- chains and keys -------------------------------------------------------------------------------

def test_the_chained_parrot_lies_on_an_opponents_parrot():
    t = PlayArea()
    t.lay(0, {5: 1})
    t.lay(1, {7: PARROT_HERE})
    t.piles(deck=[7, CHAINED_PARROT])
    _turn(t, 0)
    assert t.chained(1, 7) and t.discard() == []  # the chain card lies on the parrot
    _turn(t, 1)  # pirate 2 draws 7: its parrot is chained, the 7 cannot replace it
    assert t.discard() == [7] and t.state(1, 7) == HOLDS_PARROT


def test_chained_chest_targets_are_the_opponents_closed_unchained_chests():
    t = PlayArea()
    t.lay(0, {1: 5})
    t.lay(1, {2: 3, 4: 5}, chained=(4,))
    t.lay(2, {9: 1, 10: PARROT_HERE})
    assert _candidates(t.shared, chained_chest_targets(t.pirates, t.shared, 0)) == [(1, 2), (2, 9)]


def test_the_chained_chest_blocks_its_number():
    # greedy chains the chest whose number is most likely to come: 2s unseen 5 - 2 = 3,
    # 9s unseen 5 - 2 - 2 discarded = 1 -> slot 2 of pirate 2
    t = PlayArea()
    t.lay(0, {1: 5})
    t.lay(1, {2: 3})
    t.lay(2, {9: 1})
    t.piles(deck=[2, CHAINED_CHEST], discard=[9, 9, KRAKEN])
    _turn(t, 0)
    assert t.chained(1, 2) and not t.chained(2, 9)
    _turn(t, 1)
    assert t.state(1, 2) == CLOSED and t.discard()[-1] == 2


@pytest.mark.parametrize("card", [CHAINED_PARROT, CHAINED_CHEST])
def test_a_chain_without_target_is_discarded_unused(card):
    t = PlayArea()
    t.lay(0, {5: 1})
    t.piles(deck=[card])
    _turn(t)
    assert t.discard() == [card] and _special_count(t, 0, USED, card) == 0


@pytest.mark.parametrize("locked, chain_card", [(6, CHAINED_CHEST), (PARROT_HERE, CHAINED_PARROT)])
def test_the_key_unlocks_and_both_cards_go_to_the_discard(locked, chain_card):
    t = PlayArea()
    t.lay(0, {5: locked}, chained=(5,))
    t.piles(deck=[KEY])
    _turn(t)
    assert not t.chained(0, 5)
    assert t.discard() == [chain_card, USED_KEY]
    assert not can_take_discard(t.pirates, 1, USED_KEY)  # a used key stays on the pile


def test_a_key_with_nothing_to_unlock_is_discarded_unused_and_may_be_taken():
    t = PlayArea()
    t.lay(0, {5: 1})
    t.piles(deck=[KEY])
    _turn(t)
    assert t.discard() == [KEY] and _special_count(t, 0, USED, KEY) == 0
    assert can_take_discard(t.pirates, 1, KEY)


# ---- drawing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("card, has_parrot, allowed", [
    (3, False, True), (10, True, True), (KEY, False, True), (USED_KEY, False, False),
    (PARROT, False, True), (PARROT, True, False),
    (PIRATE, False, False), (DRUNK_PIRATE, False, False), (KRAKEN, False, False),
    (CHAINED_PARROT, False, False), (CHAINED_CHEST, False, False), (0, False, False),
])
def test_what_may_be_taken_from_the_discard_pile(card, has_parrot, allowed):
    t = PlayArea()
    t.lay(0, {5: PARROT_HERE} if has_parrot else {5: 1})
    assert can_take_discard(t.pirates, 0, card) == allowed


def test_the_only_card_to_draw_is_the_discard_top():
    # empty deck, one card on the discard pile: nothing to refill, the 3 must be taken
    t = PlayArea()
    t.lay(0, {3: 1, 4: 2})
    t.piles(discard=[3])
    _turn(t)
    assert t.state(0, 3) == OPEN and t.discard() == [1]
    assert t.events[0, E_DISCARD_TAKES] == 1


def test_nothing_to_draw_passes_the_turn():
    t = PlayArea()
    t.lay(0, {3: 1})
    t.piles(discard=[KRAKEN])
    before = t.pirates.copy()
    _turn(t)
    assert t.events[0, E_PASSES] == 1 and np.array_equal(t.pirates, before) and t.discard() == [KRAKEN]


def test_the_empty_deck_is_refilled_from_the_discards_but_the_top_card():
    t = PlayArea()
    t.piles(discard=[3, USED_KEY, 5, 7])
    refill_deck(t.shared, t.rng)
    assert sorted(t.deck()) == [3, 5, KEY]  # the used key is a key again
    assert t.discard() == [7] and t.shared[V_REFILLS] == 1
    assert t.shared[DISCARD_COUNT + 7] == 1 and t.shared[DISCARD_COUNT + 3] == 0


def test_a_turn_with_an_empty_deck_refills_it_first():
    # discard [4, 9, KRAKEN]: the deck becomes {4, 9}, the kraken stays on the pile and
    # cannot be taken, so the pirate draws from the new deck (4 or 9; both slots open)
    t = PlayArea()
    t.lay(0, {5: 1})
    t.piles(discard=[4, 9, KRAKEN])
    _turn(t)
    assert t.events[0, E_REFILLS] == 1
    assert len(t.deck()) == 1 and t.discard()[0] == KRAKEN and len(t.discard()) == 2


# ---- the deal -----------------------------------------------------------------------------------------

def test_the_deal_gives_each_pirate_its_chests_and_turns_up_a_number():
    # pirates with 0, 1 and 2 round wins play with 10, 9 and 8 chests
    t = PlayArea()
    for p, chests in enumerate((10, 9, 8)):
        t.pirates[p, F_CHESTS] = chests
        t.pirates[p, F_WINS] = 10 - chests
    deal_round(t.pirates, t.shared, t.inputs, t.rng)
    for p, chests in enumerate((10, 9, 8)):
        assert [t.state(p, s) for s in range(1, CHESTS + 1)] == [CLOSED] * chests + [UNUSED] * (10 - chests)
        assert t.field(p, F_UNOPENED) == chests
    assert len(t.discard()) == 1 and 1 <= t.discard()[0] <= CHESTS
    assert len(t.deck()) == 85 - 27 - 1
    assert audit(t.pirates, t.shared, t.inputs.composition) == 0


def _dealt():
    t = PlayArea()
    deal_round(t.pirates, t.shared, t.inputs, t.rng)
    assert audit(t.pirates, t.shared, t.inputs.composition) == 0
    return t


def test_the_audit_notices_a_lost_card():
    t = _dealt()
    t.shared[V_DECK_N] -= 1
    assert audit(t.pirates, t.shared, t.inputs.composition) == 1


def test_the_audit_notices_a_card_turned_into_another():
    # one 5 too few, one kraken too many
    t = _dealt()
    t.pirates[0, CARD + 1] = 5 if t.card(0, 1) == KRAKEN else KRAKEN
    assert audit(t.pirates, t.shared, t.inputs.composition) >= 2


def test_the_audit_notices_a_chest_count_not_matching_the_round_wins():
    t = _dealt()
    t.pirates[1, F_WINS] = 1  # a round won, yet 10 chests
    assert audit(t.pirates, t.shared, t.inputs.composition) == 1


def test_the_deal_is_redone_until_a_number_is_left_to_start_the_discard_pile():
    # a deck of one 5 and 20 pirates for two pirates of 10 chests: the 5 must end up as the
    # first discard, so every deal that hands it out is redone
    t = PlayArea(players=2)
    composition = np.zeros_like(t.inputs.composition)
    composition[5] = 1
    composition[PIRATE] = 20
    inputs = t.inputs._replace(composition=composition, deck_size=21)
    pirates, shared = new_play_area(2, 21)
    pirates[:, F_CHESTS] = 10
    redeals = []
    for seed in range(20):
        t.rng[:] = (seed + 1, 7, 11, 13)
        deal_round(pirates, shared, inputs, t.rng)
        redeals.append(int(shared[V_REDEALS]))
        assert audit(pirates, shared, composition) == 0
        assert shared[V_DISCARD_N] == 1 and shared[shared[V_DISCARD_AT]] == 5
    assert max(redeals) > 0  # 20/21 of the deals hand the 5 out


# ---- a round ---------------------------------------------------------------------------------------

def _round(t, start=0):
    return _play(t, t.inputs, start)


def _race(final_turns, direction=1, under_five=2):
    # pirate 1 finishes with the 5 (slot 5 uncovers a 2: open, discarded); pirate 2 only
    # needs a 6, pirate 3 a 6 and an 8. The deck is 5, 6, 9 from the top down; the kraken
    # on the discard pile cannot be taken.
    t = PlayArea(final_turns=final_turns)
    t.lay(0, {5: under_five})
    t.lay(1, {6: 3})
    t.lay(2, {6: 1, 8: 2})
    t.shared[V_DIRECTION] = direction
    t.piles(deck=[9, 6, 5], discard=[KRAKEN])
    return t


def test_the_round_ends_at_once_by_default():
    t = _race(final_turns=False)
    assert _round(t) == (1, False, 0)
    assert [t.field(p, F_ROUND_WON) for p in range(3)] == [WON_ROUND, 0, 0]


def test_final_turns_give_everyone_else_one_more_turn():
    # pirate 2 draws the 6 and finishes too (slot 6 uncovers a 3: discarded); pirate 3
    # cannot use the 3, draws the 9 (slot 9 open) and does not finish
    t = _race(final_turns=True)
    assert _round(t) == (3, False, 0)
    assert [t.field(p, F_ROUND_WON) for p in range(3)] == [WON_ROUND, WON_IN_FINAL_TURNS, 0]


def test_final_turns_follow_the_direction_of_play():
    # counter-clockwise: pirate 3 plays first and uses the 6 (slot 6 uncovers a 1: open,
    # discarded), then pirate 2 draws the 9 (slot 9 open): nobody else finishes.
    t = _race(final_turns=True, direction=-1)
    assert _round(t) == (3, False, 0)
    assert [t.field(p, F_ROUND_WON) for p in range(3)] == [WON_ROUND, 0, 0]


def test_a_kraken_in_the_winning_turn_costs_the_next_pirate_the_final_turn():
    # slot 5 of pirate 1 uncovers a kraken: pirate 2 loses the final turn and the 6 goes
    # to pirate 3, who still has slot 8 to open
    t = _race(final_turns=True, under_five=KRAKEN)
    assert _round(t) == (2, False, 0)
    assert [t.field(p, F_ROUND_WON) for p in range(3)] == [WON_ROUND, 0, 0]
    assert t.events[1, E_LOST_TURNS] == 1


def test_a_round_stops_at_the_turn_cap():
    # nobody can place a 9 and the deck holds only 9s
    t = PlayArea(max_turns_per_round=4)
    for p in range(3):
        t.lay(p, {5: 1})
    t.piles(deck=[9] * 10, discard=[KRAKEN])
    assert _round(t) == (4, True, 0)
    assert all(t.field(p, F_ROUND_WON) == 0 for p in range(3))
    assert len(t.deck()) == 6
