"""The simulation through the engine: determinism, invariants, agreement with the exact chain."""

from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.play import run_chunk
from analyzer.engine.runner import run
from analyzer.games.base import StrategyChoice
from analyzer.games.lucky_pirates import GAME
from analyzer.games.options import defaults
from analyzer.runspec import resolve

NONE = StrategyChoice("none", {}, "none")
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "lucky-pirates"


def _rules(**changes):
    rules = defaults(GAME.options)
    for name, value in changes.items():
        rules[name] = GAME.option(name).validate(value, "test")
    return rules


def _scenario(name):
    """A scenario file's rules and players, read the way every command reads it."""
    spec = resolve(scenario=str(SCENARIOS / f"{name}.toml"))
    assert spec.game is GAME
    return spec.rules, spec.players


def _prepare(rules, players):
    GAME.check_rules(rules, players)
    return GAME.prepare(rules, players, [NONE] * players)


def _play(rules, players, n, seed):
    """Totals and every game's row, through the engine."""
    parts = []
    totals = run(GAME, _prepare(rules, players), n, seed, workers=2,
                 record_sink=lambda chunk, rows: parts.append(rows))
    rows = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    return totals, rows


# ---- the scenario files ------------------------------------------------------------

def test_scenarios_change_what_their_names_say():
    standard, players = _scenario("standard")
    assert standard == _rules() and players == 4
    assert _scenario("three-treasures")[0] == _rules(treasures_to_win=3)
    easy = _scenario("easy-duels")[0]
    assert easy["disk_ship_probability"] ** 2 == pytest.approx(0.5, abs=1e-15)
    assert easy == _rules(disk_ship_probability=easy["disk_ship_probability"])
    islands = _scenario("three-islands")[0]
    assert islands["circle"].count("island") == 3 and islands["circle"].count("ship") == 1
    assert len(islands["circle"]) == 7
    assert {path.stem for path in SCENARIOS.glob("*.toml")} == {
        "standard", "three-treasures", "easy-duels", "three-islands"}


# ---- determinism ------------------------------------------------------------------

def test_workers_do_not_change_a_number():
    prepared = _prepare(_rules(), 4)
    one = run(GAME, prepared, 20000, seed=11, workers=1)
    two = run(GAME, prepared, 20000, seed=11, workers=2)
    assert one.equals(two)
    assert one.equals(run(GAME, prepared, 20000, seed=11, workers=2))
    assert not one.equals(run(GAME, prepared, 20000, seed=12, workers=2))


def test_game_i_depends_only_on_seed_and_i():
    prepared = _prepare(_rules(), 3)
    _, whole = run_chunk(GAME, prepared, 5, 0, 300, record=True)
    _, tail = run_chunk(GAME, prepared, 5, 200, 100, record=True)
    for key in whole:
        assert np.array_equal(whole[key][200:], tail[key]), key


# ---- invariants over many games ----------------------------------------------------

@pytest.mark.parametrize("changes, players", [
    ({}, 4),
    ({}, 2),
    ({"treasure_supply": 7, "treasures_to_win": 4, "steal_when_empty": True,
      "duel_replaces_card": False}, 3),
    ({"circle": ["ship", "island", "seaside"], "die_faces": 3, "treasure_supply": 6}, 4),
])
def test_invariants(changes, players):
    rules = _rules(**changes)
    target, supply = rules["treasures_to_win"], rules["treasure_supply"]
    totals, rows = _play(rules, players, 20000, seed=21)
    n = 20000
    scores = np.stack([rows[f"score_{k}"] for k in range(1, players + 1)], axis=1)
    winner = rows["winner"]
    finished = winner > 0
    # the winner holds exactly the target, nobody else reaches it; no treasure is made
    assert np.all(scores[finished, winner[finished] - 1] == target)
    held_by_others = scores.copy()
    held_by_others[finished, winner[finished] - 1] = 0
    assert np.all(held_by_others < target)
    assert np.all(scores.sum(axis=1) <= supply) and np.all(scores >= 0)
    # treasures held = gained (islands, duels) - taken back by the ship - stolen
    gained = rows["island_treasures"] + rows["duel_treasures"]
    assert np.array_equal(scores.sum(axis=1), gained - rows["ship_takes"] - rows["steals"])
    assert np.all(rows["duel_treasures"] <= rows["duels"])
    assert np.all(rows["duel_throws"] >= rows["duels"])
    assert np.all(rows["steals"] <= rows["dry_draws"])
    assert np.array_equal(rows["length_rounds"], -(-rows["length_turns"] // players))
    assert np.array_equal(rows["capped"], (winner == 0).astype(rows["capped"].dtype))
    # the aggregates say the same as the rows
    assert totals["games"][0] == n
    assert totals["wins"].tolist() == [int(np.sum(winner == k)) for k in range(1, players + 1)]
    assert totals["ties"].sum() == 0 and totals["tie_games"][0] == 0
    assert totals["score_sum"].tolist() == scores.sum(axis=0).tolist()
    assert totals["score_sq"].tolist() == (scores ** 2).sum(axis=0).tolist()
    assert np.array_equal(totals["length_turns"],
                          np.bincount(rows["length_turns"], minlength=rules["max_turns"] + 1))
    assert totals["event_totals"].tolist() == [
        int(rows[name].sum()) for name in GAME.record_columns]
    assert totals["duel_sizes"].sum() == rows["duels"].sum()
    stats = GAME.game_stats(totals, _prepare(rules, players))
    assert stats["duels_per_game"] == pytest.approx(rows["duels"].mean())
    assert sum(stats["duel_size_share"].values()) == pytest.approx(1)
    assert sum(stats["final_treasures_of_others"].values()) == pytest.approx(1)
    assert GAME.game_stats_table(stats).count("\n") >= 5


def test_standard_provisions_never_run_dry():
    # 4 pirates below 5 hold at most 16 of the 17 treasures: every draw finds one
    totals, _ = _play(_rules(), 4, 20000, seed=2)
    assert totals["event_totals"][GAME.record_columns.index("dry_draws")] == 0


def test_cap_stops_games_and_counts_them():
    totals, rows = _play(_rules(max_turns=6), 2, 5000, seed=4)
    capped = int(totals["capped"][0])
    # to win in 6 turns a seat needs 5 treasures in its 3 turns plus the other's duels: rare
    assert capped > 4000
    assert np.all(rows["length_turns"][rows["capped"] == 1] == 6)
    assert totals["wins"].sum() + capped == 5000


# ---- the simulation agrees with the exact chain -----------------------------------

def _within(estimate, expected, se, what):
    assert abs(estimate - expected) <= 4 * se, f"{what}: {estimate} vs exact {expected} (se {se})"


@pytest.mark.parametrize("source, players", [
    ("standard", 4),
    ("three-treasures", 3),
    ("easy-duels", 2),
    ("three-islands", 4),
    ({"treasure_supply": 7, "treasures_to_win": 4, "steal_when_empty": True, "duel_replaces_card": False,
      "die_faces": 4}, 3),
])
def test_simulation_matches_exact(source, players):
    rules = _scenario(source)[0] if isinstance(source, str) else _rules(**source)
    exact = GAME.exact(rules, players)
    n = 100_000
    totals, rows = _play(rules, players, n, seed=2024)
    assert totals["capped"][0] == 0
    wins = totals["wins"] / n
    for seat, p in enumerate(exact["win_probability"]):
        _within(wins[seat], p, np.sqrt(p * (1 - p) / n), f"seat {seat + 1} win rate")
    turns = rows["length_turns"]
    _within(turns.mean(), exact["expected_turns"], turns.std() / np.sqrt(n), "mean turns")
    rounds = rows["length_rounds"]
    _within(rounds.mean(), exact["expected_rounds"], rounds.std() / np.sqrt(n), "mean rounds")
    p = exact["won_in_duel_probability"]
    _within(totals["won_in_duel"][0] / n, p, np.sqrt(p * (1 - p) / n), "won in a duel")
    for column, key in [("duels", "expected_duels"), ("duel_throws", "expected_duel_throws"),
                        ("ship_takes", "expected_ship_takes"), ("dry_draws", "expected_dry_draws"),
                        ("steals", "expected_steals"),
                        ("island_treasures", "expected_island_treasures")]:
        values = rows[column]
        if exact[key] == 0:
            assert values.sum() == 0, column
        else:
            _within(values.mean(), exact[key], values.std() / np.sqrt(n), column)
