"""The exact solver on tiny games solved by hand, and the simulation on the same games.

With a one-faced die and ``disk_ship_probability = 1`` (the arriving pirate wins every
duel at the first throw) a game is fully determined, so the simulation must play it
exactly as worked out below, every time.
"""

import numpy as np
import pytest

from analyzer.engine.play import run_chunk
from analyzer.errors import AnalyzerError
from analyzer.games.base import StrategyChoice
from analyzer.games.lucky_pirates import GAME
from analyzer.games.lucky_pirates.commands import ExactSolution, exact_solution
from analyzer.games.options import defaults

NONE = StrategyChoice("none", {}, "none")


def _rules(**changes):
    rules = defaults(GAME.options)
    rules.update(changes)
    return rules


def _simulate_rows(rules, players, n=50, seed=3):
    prepared = GAME.prepare(rules, players, [NONE] * players)
    _, rows = run_chunk(GAME, prepared, seed, 0, n, record=True)
    return rows


def test_duel_on_arrival_first_throw_is_the_arriving_pirates():
    # circle ship-seaside-island, die always 1, first to 1 treasure, q = 1/4.
    # Turn 1: seat 1 to the seaside, alone. Turn 2: seat 2 joins it: duel, seat 2
    # throws first and wins with (1/4) / (1 - (3/4)^2) = 4/7. Either way it ends.
    result = exact_solution({"circle": ["ship", "seaside", "island"], "die_faces": 1,
                             "treasures_to_win": 1}, 2)
    assert result["win_probability"] == pytest.approx([3 / 7, 4 / 7], abs=1e-14)
    assert result["expected_turns"] == pytest.approx(2, abs=1e-12)
    assert result["expected_rounds"] == pytest.approx(1, abs=1e-12)
    assert result["length"] == {"unit": "turns", "mean": pytest.approx(2), "median": 2, "p5": 2, "p95": 2}
    assert result["expected_duels"] == pytest.approx(1)
    assert result["expected_duel_throws"] == pytest.approx(4)
    assert result["won_in_duel_probability"] == pytest.approx(1)
    # 2 seats x 3 x 3 card layouts x 1 holding (nobody holds a treasure and plays on)
    assert result["states"] == 18


def test_three_way_duel_in_clockwise_order():
    # a circle of the ship alone: seat 1 rolls and lands on the ship again, where the
    # other three stand: a duel thrown in the order 1, 2, 3, 4 with q = 1/4:
    # seat k wins with (3/4)^(k-1) (1/4) / (1 - (3/4)^4) = 64, 48, 36, 27 out of 175.
    expected = np.array([64, 48, 36, 27]) / 175
    result = exact_solution({"circle": ["ship"], "treasures_to_win": 1}, 4)
    assert result["win_probability"] == pytest.approx(expected, abs=1e-14)
    assert result["expected_turns"] == pytest.approx(1)
    # the simulation: any roll of the d6 goes round the one-card circle back to the ship
    n = 20000
    rows = _simulate_rows(_rules(circle=("ship",), treasures_to_win=1), 4, n=n)
    assert set(rows["length_turns"]) == {1} and set(rows["duels"]) == {1}
    share = np.bincount(rows["winner"], minlength=5)[1:] / n
    assert np.all(np.abs(share - expected) < 4 * np.sqrt(expected * (1 - expected) / n))


@pytest.mark.parametrize("disk, first_duel", [(1.0, 1.0), (0.5, 4 / 7)])
def test_geometric_game_by_hand(disk, first_duel):
    # circle ship-seaside, die 1-2, first to 1 treasure. Seat 1 opens: a 2 lands on
    # the ship with seat 2 (duel, seat 1 wins it with a = 1 / (2 - q)); a 1 goes to
    # the seaside alone. From then on seat 1 stands on the seaside and seat 2 on the
    # ship, and every turn the mover meets the other with a 1-in-2 chance (a duel
    # the mover wins with a) or lands alone where nothing happens (seaside, or the
    # ship with nothing to lose). So the game ends each turn with chance 1/2 and
    # P(seat 1) = (1/2)(a + (1 - a)/2) / (1 - 1/4) = (1 + a) / 3; E[turns] = 2;
    # P(turns <= t) = 1 - 2^-t: median 1, p95 5 (1 - 1/16 < 0.95 <= 1 - 1/32).
    a = first_duel
    result = exact_solution({"circle": ["ship", "seaside"], "die_faces": 2, "treasures_to_win": 1,
                             "disk_ship_probability": disk}, 2)
    assert result["win_probability"] == pytest.approx([(1 + a) / 3, (2 - a) / 3], abs=1e-13)
    assert result["first_player_advantage"] == pytest.approx((1 + a) / 3 - 1 / 2, abs=1e-13)
    assert result["expected_turns"] == pytest.approx(2, abs=1e-12)
    assert (result["length"]["median"], result["length"]["p5"], result["length"]["p95"]) == (1, 1, 5)
    assert result["expected_duels"] == pytest.approx(1, abs=1e-12)
    assert result["expected_ship_takes"] == 0
    assert result["unfinished_probability"] < 1e-13


# circle ship-island, die always 1, first to 2, the arriving pirate wins every duel.
#   duel replaces the card: T1 seat 1 on the island alone: 1-0. T2 seat 2 joins:
#   duel won by seat 2: 1-1. T3 seat 1 to the ship alone, it takes one: 0-1.
#   T4 seat 2 joins: duel won by seat 2: 0-2, seat 2 wins at turn 4 (1 ship take).
#   card first: T2 seat 2 takes the island's treasure (1-1), then wins the duel: 1-2.
DETERMINISTIC = {"circle": ["ship", "island"], "die_faces": 1, "disk_ship_probability": 1.0,
                 "treasures_to_win": 2}


@pytest.mark.parametrize("replaces, turns, ship_takes, duel_treasures, island_treasures", [
    (True, 4, 1, 2, 1),
    (False, 2, 0, 1, 2),
])
def test_duel_replaces_card_by_hand(replaces, turns, ship_takes, duel_treasures, island_treasures):
    rules = dict(DETERMINISTIC, duel_replaces_card=replaces)
    result = exact_solution(rules, 2)
    assert result["win_probability"] == pytest.approx([0, 1])
    assert result["expected_turns"] == pytest.approx(turns)
    assert result["expected_ship_takes"] == pytest.approx(ship_takes)
    assert result["expected_duel_treasures"] == pytest.approx(duel_treasures)
    assert result["expected_island_treasures"] == pytest.approx(island_treasures)
    rows = _simulate_rows(_rules(**rules), 2)
    assert set(rows["winner"]) == {2}
    assert set(rows["length_turns"]) == {turns}
    assert set(rows["ship_takes"]) == {ship_takes}
    assert set(rows["score_1"]) == {0 if replaces else 1} and set(rows["score_2"]) == {2}


# circle ship-island-island, die always 1, first to 2, only 2 treasures, arriving wins.
#   T1 seat 1 on island 1: 1-0 (1 left). T2 seat 2 joins, wins the duel: 1-1 (0 left).
#   T3 seat 1 on island 2: the provisions are dry.
#     steal_when_empty: seat 1 takes seat 2's treasure: 2-0, seat 1 wins at turn 3.
#     otherwise nothing. T4 seat 2 joins, wins the duel for nothing (dry). T5 seat 1 to
#     the ship alone, which takes its treasure: 0-1 (1 left). T6 seat 2 joins, wins the
#     duel: 0-2, seat 2 wins at turn 6.
SCARCE = {"circle": ["ship", "island", "island"], "die_faces": 1, "disk_ship_probability": 1.0,
          "treasures_to_win": 2, "treasure_supply": 2}


@pytest.mark.parametrize("steal, winner, turns, dry, steals, ship_takes", [
    (True, 1, 3, 1, 1, 0),
    (False, 2, 6, 2, 0, 1),
])
def test_empty_provisions_by_hand(steal, winner, turns, dry, steals, ship_takes):
    rules = dict(SCARCE, steal_when_empty=steal)
    result = exact_solution(rules, 2)
    expected = [1.0, 0.0] if winner == 1 else [0.0, 1.0]
    assert result["win_probability"] == pytest.approx(expected)
    assert result["expected_turns"] == pytest.approx(turns)
    assert result["expected_dry_draws"] == pytest.approx(dry)
    assert result["expected_steals"] == pytest.approx(steals)
    assert result["expected_ship_takes"] == pytest.approx(ship_takes)
    rows = _simulate_rows(_rules(**rules), 2)
    assert set(rows["winner"]) == {winner}
    assert set(rows["length_turns"]) == {turns}
    assert set(rows["dry_draws"]) == {dry}
    assert set(rows["steals"]) == {steals}


def test_standard_three_players_sums_to_one_and_favours_the_opener():
    # seat 1 moves first, so it is ahead in the race (as every simulation shows)
    result = exact_solution({}, 3)
    p = np.array(result["win_probability"])
    assert abs(p.sum() - 1) < 1e-12
    assert p[0] > p[1] > p[2]
    assert result["unfinished_probability"] < 1e-13
    # 3 seats x 7^3 layouts x 5^3 holdings (17 treasures always cover 3 x 4)
    assert result["states"] == 3 * 7 ** 3 * 5 ** 3


def test_states_count_only_holdings_the_supply_allows():
    # 2 players, first to 3, supply 3: holdings (a, b) with a, b <= 2 and a + b <= 3: 8
    result = exact_solution({"treasures_to_win": 3, "treasure_supply": 3}, 2)
    assert result["states"] == 2 * 7 ** 2 * 8


def test_game_that_cannot_end_is_reported_and_capped():
    # circle of the ship alone, die always 1, arriving pirate wins every duel, first
    # to 2 with only 2 treasures, 3 players: T1 seat 1 wins a duel (1 left), T2 seat 2
    # (0 left), and from T3 on every duel is won for nothing from empty provisions,
    # while the ship never acts (the duel replaces it): the game cannot end.
    rules = {"circle": ["ship"], "die_faces": 1, "disk_ship_probability": 1.0,
             "treasures_to_win": 2, "treasure_supply": 2}
    with pytest.raises(AnalyzerError, match="did not converge"):
        exact_solution(rules, 3)
    rows = _simulate_rows(_rules(**rules, max_turns=40), 3, n=5)
    assert set(rows["winner"]) == {0} and set(rows["capped"]) == {1}
    assert set(rows["length_turns"]) == {40} and set(rows["length_rounds"]) == {14}
    assert set(rows["dry_draws"]) == {38}
    assert [set(rows[f"score_{k}"]) for k in (1, 2, 3)] == [{1}, {1}, {0}]


@pytest.mark.parametrize("changes, players", [
    ({"circle": ["ship"] + ["seaside"] * 63}, 4),   # 64^4 card layouts
    ({"treasures_to_win": 40, "treasure_supply": 200}, 4),  # 40^4 holdings
    ({"circle": ["ship"] + ["island"] * 20, "treasures_to_win": 1, "die_faces": 100}, 4),  # moves
])
def test_too_large_is_refused_before_allocating(changes, players):
    with pytest.raises(AnalyzerError, match="too large"):
        exact_solution(changes, players)


def test_exact_table_shows_every_seat():
    text = ExactSolution(exact_solution({}, 2)).to_table()
    assert "0.513503313" in text and "0.486496686" in text
    assert "max_turns" in text
