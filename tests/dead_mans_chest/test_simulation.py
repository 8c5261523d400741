"""Whole games through the engine: determinism, every game ending, the aggregates and
game_stats, statistics against exact values, rule options end to end, scenario files."""

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.chunks import iter_chunks
from analyzer.engine.runner import run, run_chunks
from analyzer.games.dead_mans_chest import GAME
from analyzer.runspec import resolve

from .rigged_game import prepared

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "dead-mans-chest"
MIXED = ("aggressive", "thrifty", "sensible", "random")


@pytest.fixture(scope="module")
def mixed_run():
    prep = prepared(4, MIXED)
    return prep, run(GAME, prep, 6000, seed=11, workers=2)


def test_determinism(mixed_run):
    prep, totals = mixed_run
    assert run(GAME, prep, 6000, seed=11, workers=1).equals(totals)   # 3 chunks, 1 or 2 threads
    assert run(GAME, prep, 6000, seed=11, workers=2).equals(totals)
    assert not run(GAME, prep, 6000, seed=12, workers=2).equals(totals)


def test_every_game_ends_and_wins_add_up(mixed_run):
    _, totals = mixed_run
    games = int(totals["games"][0])
    assert games == 6000 and totals["capped"][0] == 0
    assert totals["wins"].sum() + totals["tie_games"][0] == games
    assert totals["ties"].sum() >= 2 * totals["tie_games"][0]
    rounds = totals["length_rounds"]
    assert rounds.sum() == games and rounds[:8].sum() == 0 and rounds[40:].sum() == 0


def test_game_stats(mixed_run):
    prep, totals = mixed_run
    stats = GAME.game_stats(totals, prep)
    json.dumps(stats)
    assert stats["components_file"].endswith("dead_mans_chest/components.toml")
    games = int(totals["games"][0])
    assert sum(c["games"] for c in stats["captains"].values()) == 4 * games
    assert sum(r["games"] for r in stats["start_routes"].values()) == 4 * games
    # the composition adds up to the mean final value, exactly
    assert stats["final_value_composition"]["total"] == pytest.approx(totals.as_float("score_sum").sum() / (4 * games))
    for seat, row in enumerate(stats["final_value_composition_by_seat"]):
        total = row["tiles"] + row["mascot_bonus"] + row["cash"] + row["ship"] + row["mascots"] - row["unpaid_loans"]
        assert total == pytest.approx(totals.as_float("score_sum")[seat] / games)
        assert row["strategy"] == MIXED[seat]
    assert 0 < stats["raids"]["per_game"] and 0.3 < stats["raids"]["attacker_success_rate"] < 0.7
    assert sum(s["held_at_end"] for s in stats["ships"].values()) == pytest.approx(1.0)
    assert "Jack Sparrow" in GAME.game_stats_table(stats)


def test_records_match_the_aggregates():
    prep = prepared(3, ("sensible", "random", "thrifty"))
    chunks = []
    totals = run_chunks(GAME, prep, 3, iter_chunks(2500), record_sink=lambda ch, r: chunks.append(r))
    rows = {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}
    scores = np.stack([rows[f"score_{s}"] for s in (1, 2, 3)], axis=1)
    assert np.array_equal(scores.sum(axis=0), totals["score_sum"].astype(np.int64))
    best = scores.max(axis=1)
    unique = (scores == best[:, None]).sum(axis=1) == 1
    assert np.array_equal(rows["winner"][unique] - 1, scores[unique].argmax(axis=1))
    assert np.all(rows["winner"][~unique] == 0)
    assert np.array_equal(rows["length_rounds"], -(-rows["length_turns"] // 3))
    assert set(GAME.record_columns) <= set(rows)
    assert rows["raids"].sum() == totals["events_sum"][0]


def test_random_draft_gives_every_captain_equally():
    # random players keep a random one of two random captains: each captain plays in a
    # 4-player game with probability 4/8
    totals = run(GAME, prepared(4, ("random",)), 20000, seed=3, workers=2)
    p = 0.5
    share = totals.as_float("captain_games") / 20000
    assert np.all(np.abs(share - p) < 4 * (p * (1 - p) / 20000) ** 0.5)


def test_double_loot_adds_the_loot_once_more():
    # with common random numbers, doubling the loot raises the mean final value by the mean
    # loot income (loot x Share the Loot spaces on the captain's route), give or take the
    # knock-on effects of richer players (fewer loans, dearer ships), under 2%
    base = prepared(4, ("sensible",))
    double = prepared(4, ("sensible",), {"loot_multiplier": 2.0})
    a = run(GAME, base, 6000, seed=5, workers=2)
    b = run(GAME, double, 6000, seed=5, workers=2)
    income = (a.as_float("captain_games") * base.inputs.captains[:, 2]).sum()
    gain = b.as_float("score_sum").sum() - a.as_float("score_sum").sum()
    assert abs(gain / income - 1) < 0.02


@pytest.mark.parametrize("players,rules,check", [
    (4, {"raids": False}, lambda s: s["raids"]["per_game"] == 0),
    (4, {"loans": False},
     lambda s: s["loans"]["per_game"] == 0 and s["final_value_composition"]["unpaid_loans"] == 0),
    (4, {"start_money": 0}, lambda s: s["loans"]["per_game"] > 1 and s["shipyard"]["forced_loans_per_game"] > 0.1),
    (4, {"start_route": "landlubber"}, lambda s: s["start_routes"]["pirate"]["games"] == 0),
    (4, {}, lambda s: s["tile_pile_ran_dry"]["rate"] < 0.05),
    (6, {"isla_cruces_tiles": 0, "retired_tile_spin": 1},
     lambda s: s["tile_pile_ran_dry"]["rate"] > 0.2 and s["tiles_taken"]["per_game"] > 2),
])
def test_rule_options_end_to_end(players, rules, check):
    prep = prepared(players, ("sensible",), rules)
    assert check(GAME.game_stats(run(GAME, prep, 2048, seed=2, workers=1), prep))


def test_turn_cap():
    prep = prepared(4, ("sensible",), {"max_turns": 10})
    totals = run(GAME, prep, 100, seed=1, workers=1)
    assert totals["capped"][0] == 100
    assert totals["length_turns"][10] == 100 and totals["length_rounds"][3] == 100


@pytest.mark.parametrize("name,rules", [
    ("standard", {}),
    ("no-raids", {"raids": False}),
    ("double-loot", {"loot_multiplier": 2.0}),
    ("all-landlubbers", {"start_route": "landlubber"}),
    ("no-loans", {"loans": False}),
    ("rich-start", {"start_money": 5000}),
    ("first-player-drafts", {"draft_start": "first-player"}),
    ("captains-dealt", {"captain_draft": "random"}),
    ("even-captains", {"captains[loot=250].loot": 200}),
])
def test_scenario_files(name, rules):
    spec = resolve(scenario=str(SCENARIOS / f"{name}.toml"))
    assert spec.game is GAME and spec.players == 4
    assert spec.changed_rules() == rules
    prep = GAME.prepare(spec.rules, spec.players, spec.seats)
    assert run(GAME, prep, 500, seed=1, workers=1)["games"][0] == 500


def test_api_result(tmp_path):
    """The public API's JSON: units, lengths and the component file in game_stats."""
    import analyzer

    result = analyzer.simulate(game="dead-mans-chest", n=2048, players=3, seed=4, workers=1,
                               strategies=["thrifty:cash_reserve=2000"]).to_dict()
    json.dumps(result)
    assert result["score_unit"] == "dollars" and result["length"]["unit"] == "rounds"
    assert set(result["lengths"]) == {"rounds", "turns"}
    assert result["seats"][0]["strategy"] == "thrifty:cash_reserve=2000"
    assert result["rules"]["components"] == "packaged"
    assert result["game_stats"]["components_file"].endswith("components.toml")
