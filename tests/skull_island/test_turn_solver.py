"""The exact turn solver: brute force on small sub-games, hand-checked values, simulation
agreement (the solved policy and every strategy, played turn by turn with the kernel's
own pieces), legality, the cache and bad input."""

import functools
import itertools
import json
import math

import numpy as np
import pytest

from analyzer.engine.jit import njit
from analyzer.engine.rng import game_key, substream
from analyzer.errors import AnalyzerError
from analyzer.games.skull_island.cache_files import load_arrays, save_arrays
from analyzer.games.skull_island.components import CARDS, DICE, SKULL, SORCERESS, STORM
from analyzer.games.skull_island.decisions import decide, tabulate
from analyzer.games.skull_island.dice import pack
from analyzer.games.skull_island.kernel import play_turn
from analyzer.games.skull_island.rules import TurnRules
from analyzer.games.skull_island.scoring import card_skulls, score_faces
from analyzer.games.skull_island.strategies import OPTIMAL_EV, STRATEGIES, TABULATED, param_row
from analyzer.games.skull_island.turn_solver.core import AT_LEAST, EXPECTED, evaluate_card, solve_card
from analyzer.games.skull_island.turn_solver.solve import (
    SOLVABLE_STRATEGIES,
    final_round_policy,
    final_round_tables,
    load_policy,
    optimal_policies,
    parse_solvable,
    solve,
    strategy_policy,
    turn_rules,
)
from analyzer.games.skull_island.turn_solver.strategies import table_policy
from analyzer.games.skull_island.turn_states import (
    POLICIES,
    RANK_DICE,
    alive_tables,
    final_round_table,
    rank,
    sub_multiset,
    sub_multisets,
)
from analyzer.runspec import resolve
from tests.cli_checks import assert_one_line_error, run_cli


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test solves into its own cache folder."""
    monkeypatch.setenv("PIRATE_ANALYZER_CACHE", str(tmp_path / "cache"))


def standard_rules(**changes):
    return resolve(game="skull-island", rules=changes or None).rules


def card(name):
    return CARDS.index(name)


# -- independent enumeration (plain Python, dice as face-count tuples) ------------------------

@functools.cache
def multisets(n, faces=6):
    """Every multiset of ``n`` dice over ``faces`` faces, with its probability (a tuple of pairs,
    built once per ``n`` and ``faces``: the brute force asks for it about a million times)."""
    every = []
    for chosen in itertools.combinations_with_replacement(range(faces), n):
        counts = tuple(chosen.count(f) for f in range(6))
        ways = math.factorial(n) // math.prod(math.factorial(c) for c in counts)
        every.append((counts, ways / 6**n))
    return tuple(every)


def plus(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


def minus(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


def sub_counts(counts):
    """Every sub-multiset of the non-skull dice."""
    for part in itertools.product(*(range(c + 1) for c in counts[:SKULL])):
        yield (*part, 0)


class Scores:
    """Own turn scores of finished turns, from the referee's entry point, memoised."""

    def __init__(self, card_index, rules):
        self.card = card_index
        self.turn_rules = TurnRules.from_rules(rules)
        self.memo = {}

    def __call__(self, dice, chest=(0,) * 6):
        key = (dice, chest)
        if key not in self.memo:
            self.memo[key] = score_faces(self.card, list(dice), list(chest), False, self.turn_rules)[0]
        return self.memo[key]


def solver_values(card_index, rules, objective=EXPECTED, needed=0.0):
    value, values, table, _ = solve_card(card_index, TurnRules.from_rules(rules), objective, needed)
    return value, values, table


def value_of(values, counts, sorceress=False):
    return values[1 if sorceress else 0, state_rank(counts)]


@functools.cache
def state_rank(counts):
    """The solver's index of the dice ``counts`` (a tuple of face counts), memoised."""
    return rank(pack(counts))


def random_states(skulls, n, seed):
    rng = np.random.default_rng(seed)
    states = set()
    while len(states) < n:
        faces = rng.integers(0, SKULL, DICE - skulls)
        states.add(tuple(int((faces == f).sum()) for f in range(SKULL)) + (skulls,))
    return sorted(states)


def test_ranks_number_every_multiset_of_at_most_8_non_skull_dice_once():
    every = {pack(list(np.bincount(faces, minlength=SKULL + 1)))
             for size in range(DICE + 1) for faces in itertools.combinations_with_replacement(range(SKULL), size)}
    assert len(every) == len(RANK_DICE) == 1287
    assert set(RANK_DICE.tolist()) == every
    assert all(rank(int(dice)) == index for index, dice in enumerate(RANK_DICE))


# -- brute force ---------------------------------------------------------------------------

def test_storm_states_one_reroll_from_the_end_match_brute_force():
    """Storm allows one reroll: after the first roll the value is the best of stopping and
    every reroll (enumerated by die positions) followed by the score."""
    rules = standard_rules()
    scores = Scores(STORM, rules)
    _, values, _ = solver_values(STORM, rules)
    for skulls in (0, 1, 2):
        for counts in random_states(skulls, 12, seed=skulls):
            dice = [f for f in range(SKULL) for _ in range(counts[f])]
            best = scores(counts)
            for size in range(2, len(dice) + 1):
                for positions in itertools.combinations(range(len(dice)), size):
                    rerolled = tuple(sum(dice[i] == f for i in positions) for f in range(6))
                    kept = minus(counts, rerolled)
                    best = max(best, sum(p * scores(plus(kept, o)) for o, p in multisets(size)))
            assert value_of(values, counts) == pytest.approx(best, abs=1e-9), counts


def bellman_two_skulls(card_name, rules, states):
    """The Bellman equation at two-skull states, checked with the solver's values: at two
    skulls any skull kills, so the alive outcomes stay among two-skull states; an exact
    fixed point of this sub-game is its unique optimum."""
    index = card(card_name)
    scores = Scores(index, rules)
    _, values, _ = solver_values(index, rules)
    chest_card = card_name == "chest"
    for counts in states:
        best = scores(counts)
        for kept in sub_counts(counts):
            kept = plus(kept, (0, 0, 0, 0, 0, 2))
            rolled = DICE - sum(kept)
            if rolled < 2:
                continue
            outcomes = list(multisets(rolled))
            alive = sum(p * value_of(values, plus(kept, o)) for o, p in outcomes if o[SKULL] == 0)
            chests = sub_counts(kept) if chest_card else [(0,) * 6]
            death = max(sum(p * scores(plus(kept, o), chest) for o, p in outcomes if o[SKULL] > 0)
                        for chest in chests)
            best = max(best, alive + death)
        assert value_of(values, counts) == pytest.approx(best, abs=1e-6), (card_name, counts)


@pytest.mark.parametrize("card_name", ["captain", "sea-battle-3", "monkey-business", "peace"])
def test_two_skull_states_satisfy_the_bellman_equation(card_name):
    states = [c for c, _ in multisets(DICE - 2, SKULL)]
    bellman_two_skulls(card_name, standard_rules(), [(*c[:SKULL], 2) for c in states])


def test_two_skull_chest_states_choose_the_best_chest():
    bellman_two_skulls("chest", standard_rules(set_values=[100, 50, 500, 1000, 2000, 4000, 4000]),
                       random_states(2, 8, seed=5))


def test_hand_checked_storm_values():
    """Storm, one reroll left, coins and diamonds doubled, no full chest.

    6 coins + 2 monkeys: stopping scores 2 x (1000 + 600) = 3200; rerolling the monkeys
    (no death possible: 0 skulls) gives (9600 + 2 x 5600 + 8 x 5400 + 3600 + 8 x 3400
    + 16 x 3200) / 36 = 146000 / 36. 2 skulls + 4 coins + 2 monkeys: stopping (1200) beats
    rerolling the monkeys (40400 / 36 = 1122.2).
    """
    _, values, _ = solver_values(STORM, standard_rules())
    assert value_of(values, (6, 0, 2, 0, 0, 0)) == pytest.approx(146000 / 36, abs=1e-9)
    assert value_of(values, (4, 0, 2, 0, 0, 2)) == pytest.approx(1200, abs=1e-9)


def test_first_roll_strategy_matches_enumeration():
    """first-roll's exact value is the mean score of the first roll (Skull Island scores 0)."""
    rules = standard_rules()
    values = solve(rules, strategies=["first-roll"]).values["first-roll"]
    for name in ("coin", "captain", "sea-battle-2", "chest", "skull-2"):
        scores = Scores(card(name), rules)
        sea = name.startswith("sea-battle")
        mean = sum(p * (0 if o[SKULL] + card_skulls(card(name)) >= 4 and not sea else scores(o))
                   for o, p in multisets(DICE))
        assert values[card(name)] == pytest.approx(mean, abs=1e-9), name


# -- the optimum dominates -------------------------------------------------------------------

def test_no_strategy_beats_the_optimum_in_any_state():
    rules = standard_rules(promo_storm=1, promo_peace=1)
    turn_rules = TurnRules.from_rules(rules)
    for choice in parse_solvable(None):
        for index in range(1, len(CARDS)):
            best, best_values, _ = solver_values(index, rules)
            value, values, _ = evaluate_card(index, turn_rules, EXPECTED, 0.0, strategy_policy(choice, index,
                                                                                               turn_rules))
            assert value <= best + 1e-9, (choice.label, CARDS[index])
            assert np.all(values <= best_values + 1e-7), (choice.label, CARDS[index])


def test_the_optimal_table_evaluates_to_the_optimal_value():
    rules = standard_rules()
    turn_rules = TurnRules.from_rules(rules)
    for index in (card("sorceress"), card("chest"), card("sea-battle-4")):
        best, _, table = solver_values(index, rules)
        assert evaluate_card(index, turn_rules, EXPECTED, 0.0, table_policy(table))[0] == pytest.approx(best, abs=1e-6)


def test_strategies_decide_from_the_whole_dice():
    """The exact evaluation asks ``decide`` with no dice on the chest; the built-in
    strategies must decide the same whatever lies on it."""
    rules = standard_rules()
    turn_rules = TurnRules.from_rules(rules)
    for name in ("first-roll", "threshold", "set-chaser"):
        index = [s.name for s in STRATEGIES].index(name)
        params = tuple(param_row(name, parse_solvable([name])[0].params))
        for card_index in (card("chest"), card("sorceress"), card("sea-battle-2")):
            for counts, _ in multisets(DICE):
                dice = pack(counts)
                skulls = counts[SKULL] + card_skulls(card_index)
                if skulls >= 3:
                    continue
                plain = decide(index, params, card_index, dice, 0, skulls, card_index == SORCERESS, turn_rules, 0, 0,
                               False, 0)
                loose = dice & ((1 << 20) - 1)
                for j in (1, sub_multisets(loose) // 2, sub_multisets(loose) - 1):
                    chest = sub_multiset(loose, j) if card_index == card("chest") else 0
                    split = decide(index, params, card_index, dice - chest, chest, skulls,
                                   card_index == SORCERESS, turn_rules, 0, 0, False, 0)
                    assert split == plain, (name, CARDS[card_index], counts, chest)


# -- simulation agreement ----------------------------------------------------------------------


NO_THRESHOLDS = np.zeros(0, dtype=np.int64)


def kernel_tables(turn_rules, *tables):
    """The kernel's stack of per-state tables: the table of the turns that end alive
    (``tables[ALIVE]``), then the policy ``tables`` (each ``[card, state]``), from index ``POLICIES`` on."""
    return np.stack([*alive_tables(turn_rules), *tables])


@njit(cache=True)
def play_turns(strategy, params, card_index, turn_rules, seed, n, tables, table, needed):
    """``n`` turns by the kernel's own ``play_turn``, deciding by ``tables[table]`` (live
    when ``table`` is -1), as the last player of a final round who needs ``needed`` points.

    Returns (score sum, score square sum, turns scoring at least ``needed``, illegal moves).
    """
    total = 0.0
    squares = 0.0
    hits = 0
    illegal = 0
    for g in range(n):
        own, _, _, _, bad = play_turn(card_index, strategy, params, turn_rules, 0, needed - 1, True,
                                      substream(game_key(seed, g), 0), tables, table)
        total += own
        squares += own * own
        hits += own >= needed
        illegal += bad
    return total, squares, hits, illegal


def play_solved_turns(table, thresholds, tables, needed, card_index, turn_rules, seed, n):
    """``n`` optimal-ev turns with the solved ``table``, or, when ``thresholds`` is not empty,
    with the final-round table for ``needed`` among ``tables`` (``final_round_tables``),
    chosen as the kernel chooses it."""
    final_round = 1.0 if thresholds.size > 0 else 0.0
    params = tuple(param_row("optimal-ev", {"final_round": final_round}))
    if thresholds.size > 0:
        return play_turns(OPTIMAL_EV, params, card_index, turn_rules, seed, n, kernel_tables(turn_rules, *tables),
                          final_round_table(thresholds, POLICIES, needed), needed)
    return play_turns(OPTIMAL_EV, params, card_index, turn_rules, seed, n, kernel_tables(turn_rules, table),
                      POLICIES, needed)


def play_strategy_turns(strategy, params, card_index, turn_rules, seed, n, table=None):
    """``n`` turns of a heuristic, live or from its policy ``table``: (score sum, square sum, illegal moves)."""
    if table is None:
        total, squares, _, illegal = play_turns(strategy, params, card_index, turn_rules, seed, n,
                                                kernel_tables(turn_rules), -1, 0)
    else:
        total, squares, _, illegal = play_turns(strategy, params, card_index, turn_rules, seed, n,
                                                kernel_tables(turn_rules, table),
                                                POLICIES, 0)
    return total, squares, illegal


def assert_within_4_se(total, squares, n, exact, what):
    mean = total / n
    se = math.sqrt(max(squares / n - mean * mean, 0.0) / n)
    assert abs(mean - exact) < 4 * se + 1e-9, (what, mean, exact, se)


@pytest.mark.parametrize("changes", [{}, {"skull_island": False, "sea_battle_blocks_island": False,
                                          "full_chest_bonus": 1000, "promo_storm": 1, "promo_peace": 1}])
def test_solved_policy_plays_to_its_value_in_simulation(changes):
    rules = standard_rules(**changes)
    turn_rules = TurnRules.from_rules(rules)
    policies = optimal_policies(rules)
    for index in range(1, len(CARDS)):
        n = 30_000
        total, squares, _, illegal = play_solved_turns(policies.table, NO_THRESHOLDS, None, 0, index, turn_rules,
                                                       11 + index, n)
        assert illegal == 0, CARDS[index]
        assert_within_4_se(total, squares, n, policies.value[index], CARDS[index])


def test_strategy_values_agree_with_the_kernel():
    """Each strategy, played by the kernel live and (``TABULATED``) from its table, scores
    its exact value per card; live and tabulated play roll the same dice and decide the same."""
    rules = standard_rules(promo_storm=1, promo_peace=1)
    turn_rules = TurnRules.from_rules(rules)
    choices = parse_solvable([*SOLVABLE_STRATEGIES, "threshold:stop_at=800,max_skulls=1"])
    values = solve(rules, strategies=[c.label for c in choices]).values
    names = [s.name for s in STRATEGIES]
    tabulated = 0
    for choice in choices:
        strategy = names.index(choice.name)
        params = tuple(param_row(choice.name, choice.params))
        table = tabulate(strategy, params, turn_rules) if choice.name in TABULATED else None
        for index in range(1, len(CARDS)):
            n = 12_000
            live = play_strategy_turns(strategy, params, index, turn_rules, 5, n)
            assert live[2] == 0
            assert_within_4_se(live[0], live[1], n, values[choice.label][index], (choice.label, CARDS[index]))
            if table is not None:
                assert play_strategy_turns(strategy, params, index, turn_rules, 5, n, table) == live
                tabulated += 1
    assert tabulated >= 3 * (len(CARDS) - 1)


# -- the final round: P(turn score >= needed) ----------------------------------------------------

def test_final_round_policy_beats_expected_score_policy_and_plays_to_its_probability():
    rules = standard_rules()
    turn_rules = TurnRules.from_rules(rules)
    expected = load_policy(rules)
    for needed in (300, 1500):
        table = final_round_policy(rules, needed)
        gains = []
        for index in range(1, len(CARDS)):
            win, _, _ = solver_values(index, rules, AT_LEAST, float(needed))
            ev = evaluate_card(index, turn_rules, AT_LEAST, float(needed), table_policy(expected[index]))[0]
            assert win >= ev - 1e-9
            gains.append(win - ev)
            n = 20_000
            _, _, hits, illegal = play_solved_turns(table, NO_THRESHOLDS, None, needed, index, turn_rules, 3, n)
            se = math.sqrt(max(win * (1 - win), 1e-12) / n)
            assert illegal == 0
            assert abs(hits / n - win) < 4 * se + 1e-9, (needed, CARDS[index], hits / n, win)
        assert max(gains) > 0.01  # playing for the target differs from playing for points


def test_final_round_tables_pick_the_policy_of_the_needed_score():
    rules = standard_rules()
    turn_rules = TurnRules.from_rules(rules)
    thresholds, tables = final_round_tables(rules)
    assert np.all(np.diff(thresholds) > 0) and tables.shape[0] == thresholds.size + 1
    index = card("captain")
    for needed in (450, 2000):  # 450 is no score: the policy of the next score up (500)
        win, _, _ = solver_values(index, rules, AT_LEAST, float(needed))
        n = 20_000
        _, _, hits, illegal = play_solved_turns(None, thresholds, tables, needed, index, turn_rules, 9, n)
        assert illegal == 0
        assert abs(hits / n - win) < 4 * math.sqrt(win * (1 - win) / n)


# -- the cache and the interface -----------------------------------------------------------------

def test_policies_are_cached_on_disk(tmp_path):
    rules = standard_rules()
    first = optimal_policies(rules)
    assert not first.cached and first.path.exists()
    again = optimal_policies(rules)
    assert again.cached and np.array_equal(again.table, first.table) and np.array_equal(again.value, first.value)
    other = optimal_policies(standard_rules(full_chest_bonus=800))
    assert other.path != first.path and not other.cached
    # a rule that does not change a turn shares the cache
    assert optimal_policies(standard_rules(target_score=8000, seat_bonus=100)).cached
    first.path.write_bytes(b"not an npz file")  # a damaged file is recomputed
    repaired = optimal_policies(rules)
    assert not repaired.cached and np.array_equal(repaired.table, first.table)


def test_a_cache_file_read_again_is_a_copy_and_a_file_saved_anew_is_read_anew(tmp_path):
    path = tmp_path / "arrays.npz"
    save_arrays(path, table=np.arange(3))
    load_arrays(path)["table"][0] = 99  # the caller's own arrays: the next read is as the file
    assert load_arrays(path)["table"].tolist() == [0, 1, 2]
    save_arrays(path, table=np.arange(3) + 10)  # as large as before
    assert load_arrays(path)["table"].tolist() == [10, 11, 12]


def test_rule_options_change_the_values():
    base = optimal_policies(standard_rules()).value
    sea = card("sea-battle-3")
    open_island = optimal_policies(standard_rules(sea_battle_blocks_island=False)).value
    assert open_island[sea] > base[sea]  # 4+ skulls on Skull Island: 0 instead of losing the battle
    assert np.array_equal(open_island[:card("sea-battle-2")], base[:card("sea-battle-2")])
    richer = optimal_policies(standard_rules(set_values=[200, 400, 1000, 2000, 4000, 8000, 8000])).value
    assert np.all(richer[1:] > base[1:])


def test_an_unknown_rule_option_is_named():
    with pytest.raises(AnalyzerError, match="house_rule"):
        turn_rules({**standard_rules(), "house_rule": 1})


def test_endgame_is_not_solvable():
    with pytest.raises(AnalyzerError, match="endgame"):
        parse_solvable(["endgame"])



def test_cli_json_has_the_interface_keys():
    # no --game: skull-island is the only game that offers solve
    result = run_cli(["solve", "--card", "sorceress", "--card", "coin", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data["cards"]) == ["sorceress", "coin"]
    block = data["cards"]["sorceress"]
    assert set(block["strategies"]) == set(SOLVABLE_STRATEGIES)
    assert all(block["optimal"] >= v for v in block["strategies"].values())
    assert data["deck_average"]["optimal"] > data["deck_average"]["strategies"]["threshold"]


@pytest.mark.parametrize("args,word", [
    (["--card", "kraken"], "kraken"),
    (["--strategy", "endgame"], "endgame"),
    (["--set", "nope=1"], "nope"),
])
def test_cli_bad_input_is_one_line(args, word):
    result = run_cli(["solve", "--game", "skull-island", "--quiet", *args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and word in result.output


def test_cli_refuses_other_games():
    assert_one_line_error(run_cli(["solve", "--game", "lucky-pirates"]), "lucky-pirates offers no 'solve'",
                          "skull-island")
