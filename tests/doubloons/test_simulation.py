"""Whole matches: determinism, card conservation, plain Garbage, rule options in play.

Statistical checks use fixed seeds and 4 standard errors.
"""

import math
import random

import numpy as np
import pytest

from analyzer.engine.play import run_chunk
from analyzer.engine.runner import run
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import CHESTS, SPECIALS
from tests.doubloons.play_areas import prepared

NO_SPECIALS = {name: 0 for name in SPECIALS}


# ---- determinism ---------------------------------------------------------------------------

def test_totals_do_not_depend_on_workers_and_follow_the_seed():
    prep = prepared(players=3, strategies=("greedy", "saboteur", "random"))
    one = run(GAME, prep, 5000, seed=77, workers=1)
    assert run(GAME, prep, 5000, seed=77, workers=2).equals(one)
    assert run(GAME, prep, 5000, seed=77, workers=1).equals(one)
    assert not run(GAME, prep, 5000, seed=78, workers=1).equals(one)


def test_recorded_rows_match_the_aggregates():
    prep = prepared(players=3)
    aggregates, rows = run_chunk(GAME, prep, 9, 0, 3000, record=True)
    wins = np.bincount(rows["winner"], minlength=4)[1:]
    assert np.array_equal(wins, aggregates["wins"])
    assert np.array_equal(np.bincount(rows["length_rounds"], minlength=len(aggregates["length_rounds"])),
                          aggregates["length_rounds"])
    assert rows["deck_refills"].sum() == aggregates["seat_deck_refills"].sum()
    assert rows["lost_turns"].sum() == aggregates["seat_lost_turns"].sum()
    # the first round's winner won at least that round
    won_first = rows["first_round_winner"]
    for seat in (1, 2, 3):
        assert np.all(rows[f"score_{seat}"][won_first == seat] >= 1)


# ---- every card is always somewhere -----------------------------------------------------------

@pytest.mark.parametrize("players, strategies, rules", [
    (3, ("greedy",), {}),
    (3, ("random",), {}),
    (4, ("saboteur", "greedy", "random", "saboteur"), {"final_turns": True, "rounds_to_win": 3}),
    (2, ("random", "saboteur"), {"apply_revealed_specials": False, "freed_parrot_moves": False}),
    (5, ("random",), {"rotate_start": False}),
    (3, ("greedy", "random", "saboteur"), {"group_specials": NO_SPECIALS}),
    (3, ("random",), {"group_specials": {name: 2 for name in SPECIALS}}),
    # a short deck crowded with chains: refills, passes and chain cards lying everywhere
    (3, ("random", "saboteur", "greedy"),
     {"groups_by_players": [2, 2, 2, 2], "group_specials": {name: 3 for name in SPECIALS}}),
    (7, ("random", "greedy", "saboteur", "random", "greedy", "saboteur", "random"), {"allow_more_players": True}),
])
def test_cards_are_conserved_after_every_turn(players, strategies, rules):
    # the kernel's audit runs after the deal and after every turn: deck + discard pile +
    # every chest + chain cards lying on chained items = the cards dealt, and the
    # bookkeeping (open/unopened counts, parrots, chains) agrees with the slots
    prep = prepared(players, strategies, **rules)
    assert GAME.audit_games(prep, seed=players, n_games=1500) == 0


# ---- plain Garbage ---------------------------------------------------------------------------------

def _garbage_match(players, rng, rounds_to_win):
    """An independent implementation of Garbage (no special cards) played by the greedy
    rule (take the discard if it opens a chest), with the match rules of RULES.md.
    Returns (seat that won, turns, rounds)."""
    groups = {2: 4, 3: 5, 4: 6, 5: 6}[players]
    wins = [0] * players
    start, turns, rounds = 0, 0, 0
    while True:
        rounds += 1
        deck = [n for n in range(1, 11) for _ in range(groups)]
        rng.shuffle(deck)
        chests = [CHESTS - w for w in wins]
        closed = []
        for p in range(players):
            closed.append({slot: deck.pop() for slot in range(1, chests[p] + 1)})
        discard = [deck.pop()]
        p = start
        while True:
            turns += 1
            if not deck and len(discard) > 1:
                deck, discard = discard[:-1], discard[-1:]
                rng.shuffle(deck)
            if discard and (discard[-1] in closed[p] or not deck):
                card = discard.pop()
            else:
                card = deck.pop()
            while card in closed[p]:
                card = closed[p].pop(card)
            discard.append(card)
            if not closed[p]:
                break
            p = (p + 1) % players
        wins[p] += 1
        if wins[p] == rounds_to_win:
            return p, turns, rounds
        start = (start + 1) % players


def _mean_and_se(values):
    values = np.asarray(values, dtype=float)
    return values.mean(), values.std() / math.sqrt(len(values))


@pytest.mark.parametrize("players, rounds_to_win", [(2, 1), (3, 2)])
def test_without_specials_the_engine_plays_plain_garbage(players, rounds_to_win):
    n = 3000
    rng = random.Random(players)
    reference = [_garbage_match(players, rng, rounds_to_win) for _ in range(n)]
    prep = prepared(players, ("greedy",), group_specials=NO_SPECIALS, rounds_to_win=rounds_to_win)
    _, rows = run_chunk(GAME, prep, 4, 0, n, record=True)
    for ours, theirs in (
        (rows["length_turns"], [r[1] for r in reference]),
        (rows["length_rounds"], [r[2] for r in reference]),
        (rows["winner"] == 1, [r[0] == 0 for r in reference]),
    ):
        (m1, s1), (m2, s2) = _mean_and_se(ours), _mean_and_se(theirs)
        assert abs(m1 - m2) <= 4 * math.hypot(s1, s2), (m1, m2)


def test_garbage_has_no_special_events():
    prep = prepared(3, ("greedy",), group_specials=NO_SPECIALS)
    totals = run(GAME, prep, 3000, seed=3, workers=1)
    stats = GAME.game_stats(totals, prep)
    assert all(row["drawn"] == row["uncovered"] == row["used"] == 0 for row in stats["specials"].values())
    assert stats["lost_turns"]["total"] == 0 and stats["parrot_left"]["rounds"] == 0


# ---- match rules in play -------------------------------------------------------------------------------

def test_every_match_ends_in_a_win_a_tie_or_the_cap():
    for rules, capped in (({}, False), ({"max_turns_per_round": 1}, True)):
        prep = prepared(3, ("greedy",), **rules)
        totals = run(GAME, prep, 2000, seed=8, workers=1)
        games = int(totals["games"][0])
        assert int(totals["wins"].sum()) + int(totals["tie_games"][0]) + int(totals["capped"][0]) == games
        # one turn cannot open ten chests unless a chain runs through all of them
        assert (int(totals["capped"][0]) > 0.99 * games) if capped else int(totals["capped"][0]) == 0


def test_a_single_round_decides_the_match():
    prep = prepared(3, ("greedy",), rounds_to_win=1)
    totals = run(GAME, prep, 3000, seed=2, workers=1)
    assert int(totals["length_rounds"][1]) == 3000 and int(totals["rounds"][0]) == 3000
    assert int(totals["score_hist"][:, 1].sum()) == 3000  # exactly one round winner per match


def test_final_turns_share_rounds_and_can_tie_matches():
    plain = run(GAME, prepared(2, ("greedy",)), 3000, seed=6, workers=1)
    assert int(plain["shared_rounds"][0]) == 0 and int(plain["tie_games"][0]) == 0
    final = run(GAME, prepared(2, ("greedy",), final_turns=True), 3000, seed=6, workers=1)
    assert int(final["final_turn_wins"][0]) == int(final["shared_rounds"][0]) > 0
    assert int(final["tie_games"][0]) > 0
    assert int(final["ties"].sum()) == 2 * int(final["tie_games"][0])
    assert int(final["wins"].sum()) + int(final["tie_games"][0]) == 3000


@pytest.mark.parametrize("rotate", [True, False])
def test_the_start_rotates_to_the_next_seat(rotate):
    # without rotation seat 1 starts every round, so a win by the starter is a win by seat 1
    totals = run(GAME, prepared(3, ("greedy",), rotate_start=rotate), 3000, seed=4, workers=1)
    same = np.array_equal(totals["round_wins"], totals["round_wins_by_order"])
    assert same != rotate


def test_the_audit_checks_chests_against_round_wins_over_long_matches():
    # first to 4 round wins: pirates play down to 7 chests; the audit after every turn
    # checks each pirate has 10 - (rounds won) chests, besides card conservation
    prep = prepared(3, ("greedy", "random", "saboteur"), rounds_to_win=4)
    assert GAME.audit_games(prep, seed=21, n_games=500) == 0


def test_game_stats_agree_with_the_totals():
    prep = prepared(3, ("greedy", "saboteur", "random"), final_turns=True)
    totals = run(GAME, prep, 3000, seed=12, workers=1)
    stats = GAME.game_stats(totals, prep)
    rounds = stats["rounds"]
    wins = stats["round_wins"]
    assert sum(wins["by_seat"]) == sum(wins["by_start_offset"]) == rounds + wins["final_turn_wins"]
    assert stats["turns_per_round"]["count"] == rounds
    assert abs(sum(s for s in wins["share_by_seat"]) - 1) < 1e-12
    for name, row in stats["specials"].items():
        assert 0 <= row["used"] <= row["drawn"] + row["taken_from_discard"] + row["uncovered"], name
    assert stats["specials"]["drunk-pirate"]["used_rate"] == 1.0  # the drunk pirate always acts
    assert stats["specials"]["pirate"]["taken_from_discard"] == 0  # never allowed
    assert 0 < stats["parrot_left"]["rate"] <= 1 and stats["deck_refills"]["total"] > 0
    # every kraken costs a turn, unless the round ends before the next player's turn
    krakens = stats["specials"]["kraken"]["used"]
    assert 0 <= krakens - stats["lost_turns"]["total"] <= rounds + stats["capped_matches"]
    assert GAME.game_stats_table(stats).startswith("Rounds played")
