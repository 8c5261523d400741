"""The randomized-assignment measurement and the fix search (issue 21, items 3 and 4)."""

import math

import pytest

from analyzer.execution import Execution
from analyzer.experiments.component_effects import (
    RANDOM_ASSIGNMENT,
    ComponentFix,
    _group_effect,
    assigned_components,
    candidates,
    component_fix,
    fix_command,
    search_range,
    strongest,
)
from analyzer.runspec import resolve

LOOT_250 = ("Elizabeth Swann", "Will Turner", "Jack Sparrow", "Hector Barbossa")
LOOT_200 = ("James Norrington", "Cutler Beckett", "Joshamee Gibbs", "Bootstrap Bill Turner")


def captain(name: str, seat_games: int, win_rate: float) -> dict:
    return {"component": name, "kind": "captain", "seat_games": seat_games, "win_rate": win_rate}


def dealt(rates_250: float, rates_200: float, seat_games: int = 10_000) -> list[dict]:
    return ([captain(n, seat_games, rates_250) for n in LOOT_250]
            + [captain(n, seat_games, rates_200) for n in LOOT_200])


def test_a_group_effect_by_hand():
    # 2 x 100 seat-games at 30% against 200 at 20%: +10 points, se sqrt(.3*.7/200 + .2*.8/200)
    records = [captain("a", 100, 0.3), captain("b", 100, 0.3), captain("c", 200, 0.2)]
    effect, se = _group_effect(records, {"a", "b"})
    assert effect == pytest.approx(0.1) and se == pytest.approx(math.sqrt(0.3 * 0.7 / 200 + 0.2 * 0.8 / 200))
    assert _group_effect(records, {"a", "b", "c"}) is None  # no rest to compare with


def test_the_strongest_is_the_group_of_loot_250_when_it_splits_the_captains():
    spec = resolve(game="dead-mans-chest")
    found = {c.rows: c for c in candidates(spec, dealt(0.27, 0.23))}
    assert set(found) == {"captains[loot=200]", "captains[loot=250]", *(f"captains[{n}]" for n in LOOT_250 + LOOT_200)}
    assert found["captains[loot=250]"].effect == pytest.approx(0.04)
    assert found["captains[Jack Sparrow]"].effect == pytest.approx(0.27 - (3 * 0.27 + 4 * 0.23) / 7)
    best = strongest(spec, dealt(0.27, 0.23))
    assert (best.rows, best.parameter, best.current, best.label) == (
        "captains[loot=250]", "captains[loot=250].loot", 250, "the captains with loot 250")
    assert strongest(spec, dealt(0.25, 0.25)) is None  # no effect excludes zero: nothing to fix


def test_a_fair_table_gets_no_fix_from_one_chance_interval():
    # one captain 1 point below the rest of a fair table: its own 95% interval excludes zero
    # (se about 0.45 points), but not once widened for picking among the 10 candidates
    records = dealt(0.25, 0.25)
    records[0] = captain("Elizabeth Swann", 10_000, 0.241)
    found = {c.rows: c for c in candidates(resolve(game="dead-mans-chest"), records)}
    assert found["captains[Elizabeth Swann]"].ci[1] < 0
    assert strongest(resolve(game="dead-mans-chest"), records) is None


def test_candidates_are_the_numbers_the_run_plays():
    # with every loot evened out to 200 there are no loot groups, and a captain's number is 200
    spec = resolve(game="dead-mans-chest", sets=["captains[loot=250].loot=200"])
    found = candidates(spec, dealt(0.25, 0.25))
    assert len(found) == 8 and {c.current for c in found} == {200}


def test_one_captain_is_the_strongest_when_it_alone_stands_out():
    records = dealt(0.25, 0.25)
    records[5] = captain("Cutler Beckett", 10_000, 0.15)
    best = strongest(resolve(game="dead-mans-chest"), records)
    assert best.rows == "captains[Cutler Beckett]" and best.effect < 0


def test_search_range_and_the_command():
    assert search_range(250) == (125, 375)
    assert search_range(0) == (0, 1)
    fix = ComponentFix("the captains with loot 250", "captains[loot=250].loot",
                       "--game dead-mans-chest --players 4 --set captain_draft=random --target 'captains[loot=250]'",
                       250, None)
    assert fix_command(fix) == ("analyze balance --game dead-mans-chest --players 4 --set captain_draft=random "
                                "--target 'captains[loot=250]' --param 'captains[loot=250].loot=125:375'")


def test_games_without_assigned_components_measure_nothing():
    spec = resolve(game="skull-island")
    assert assigned_components(spec, 100, Execution.create(1, 1)) is None
    assert component_fix(spec, None, 100, Execution.create(1, 1)) is None


def test_the_random_deal_measures_the_captains_and_the_fix_search_runs():
    spec = resolve(game="dead-mans-chest")
    execution = Execution.create(5, 2)
    records = assigned_components(spec, 4000, execution)
    assert {r["kind"] for r in records} == {"captain", "start route"}
    assert len(records) == 10 and all(r["evidence"] == RANDOM_ASSIGNMENT for r in records)
    assert records[0]["evidence_run"] == {"rules": {"captain_draft": "random"}, "games": 4000, "seed": 5}
    # every seat-game holds one captain: the captains' seat-games add up to games x players
    assert sum(r["seat_games"] for r in records if r["kind"] == "captain") == 4000 * 4
    left_out = component_fix(spec, dealt(0.27, 0.23), None, execution)
    assert left_out.balance is None and "--no-balance" in left_out.note
    fix = component_fix(spec, dealt(0.27, 0.23), 1000, execution)
    assert fix.parameter == "captains[loot=250].loot" and fix.current == 250
    assert fix.balance["target"] == "captains[loot=250]" and fix.balance["low"] == 125
    assert 125 <= fix.balance["recommended"] <= 375
    assert "--set captain_draft=random" in fix.run_args
