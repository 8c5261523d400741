"""Component data as parameters (issue 21, item 4): ``TABLE[NAME].FIELD``, groups, and their errors.

Hand-checked against the packaged Dead Man's Chest components (captains: four with loot
250, four with 200; the Black Pearl's fee), Skull Island's deck and Doubloons' specials.
"""

import numpy as np
import pytest

from analyzer.errors import AnalyzerError
from analyzer.experiments.balance_targets import ComponentTarget, SeatTarget, parse_target
from analyzer.experiments.params import parse_search_param, parse_sweep_param, refuse_set
from analyzer.experiments.setup import rules_text
from analyzer.games.base import Component
from analyzer.games.component_params import MAX_ERROR_CHARS, parse_key, split_assignment
from analyzer.games.dead_mans_chest.layout import CAPTAIN_LOOT
from analyzer.games.dead_mans_chest.rules import components_for
from analyzer.games.options import defaults
from analyzer.games.registry import get_game
from analyzer.runspec import parse_assignment, resolve
from analyzer.scenarios import load_scenario
from analyzer.verdicts import run_args
from tests.cli_checks import assert_one_line_error, run_cli

DMC = "dead-mans-chest"
LOOT_250 = {"Elizabeth Swann", "Will Turner", "Jack Sparrow", "Hector Barbossa"}


def loot(spec) -> dict[str, int]:
    return {c.name: c.loot for c in components_for(spec.rules).captains}


def test_assignments_split_after_the_brackets():
    assert split_assignment("captains[loot=250].loot=225") == ("captains[loot=250].loot", "225")
    assert split_assignment("captains[Cutler Beckett].loot=225") == ("captains[Cutler Beckett].loot", "225")
    assert split_assignment("set_values=[1,2]") == ("set_values", "[1,2]")  # a list value: a rule option
    assert split_assignment("captains[loot=250].loot") is None
    assert parse_assignment(" captains[ Jack Sparrow ] . loot =1") == ("captains[ Jack Sparrow ] . loot", "1")
    assert parse_key(" captains[ Jack Sparrow ] . loot ", "x").text == "captains[Jack Sparrow].loot"


def test_one_captain_a_group_and_every_row():
    spec = resolve(game=DMC, sets=["captains[Cutler Beckett].loot=225"])
    assert loot(spec)["Cutler Beckett"] == 225
    assert sum(v != 225 for v in loot(spec).values()) == 7  # nobody else changed
    assert spec.changed_rules() == {"captains[Cutler Beckett].loot": 225}

    group = loot(resolve(game=DMC, sets=["captains[loot=250].loot=230"]))
    assert {name for name, value in group.items() if value == 230} == LOOT_250
    assert sorted(set(group.values())) == [200, 230]
    assert set(loot(resolve(game=DMC, sets=["captains[*].loot=1"])).values()) == {1}


def test_overrides_apply_in_order_and_groups_select_the_values_as_they_stand():
    # Jack Sparrow (250) is set to 200 first, so the group of loot 200 then takes him in
    spec = resolve(game=DMC, sets=["captains[Jack Sparrow].loot=200", "captains[loot=200].loot=210"])
    values = loot(spec)
    assert values["Jack Sparrow"] == 210 and values["Cutler Beckett"] == 210 and values["Will Turner"] == 250
    # given again, a parameter moves to the end: the last one given wins
    spec = resolve(game=DMC, sets=["captains[Jack Sparrow].loot=1", "captains[*].loot=5",
                                   "captains[Jack Sparrow].loot=9"])
    assert loot(spec)["Jack Sparrow"] == 9 and loot(spec)["Will Turner"] == 5


def test_the_kernel_plays_the_changed_numbers_and_unchanged_runs_are_as_before():
    game = get_game(DMC)
    seats = resolve(game=DMC).seats
    plain = game.prepare(resolve(game=DMC).rules, 4, seats).inputs
    same = game.prepare(resolve(game=DMC, sets=["captains[loot=250].loot=250"]).rules, 4, seats).inputs
    for field in plain._fields:
        assert np.array_equal(np.asarray(getattr(plain, field)), np.asarray(getattr(same, field))), field
    changed = game.prepare(resolve(game=DMC, sets=["captains[Cutler Beckett].loot=225",
                                                   "ships[Black Pearl].fee=1000"]).rules, 4, seats).inputs
    names = [c.name for c in components_for(defaults(game.options)).captains]
    assert changed.captains[names.index("Cutler Beckett"), CAPTAIN_LOOT] == 225
    assert 1000 in changed.ships[:, 0] and 1000 not in plain.ships[:, 0]
    assert resolve(game=DMC).rules == defaults(game.options)  # no override: the rules as before


def test_option_backed_tables_write_their_option():
    deck = resolve(game="skull-island", sets=["cards[skull-2].count=3"]).rules["deck"]
    assert deck["skull-2"] == 3 and deck["skull-1"] == 3 and deck["coin"] == 4
    deck = resolve(game="skull-island", sets=["cards[count=4].count=1"]).rules["deck"]
    assert [name for name, count in deck.items() if count == 1] == ["coin", "diamond", "sorceress", "captain",
                                                                   "chest", "monkey-business"]
    specials = resolve(game="doubloons", sets=["specials[kraken].count=2"]).rules["group_specials"]
    assert specials["kraken"] == 2 and specials["key"] == 1


def test_scenario_files_and_python_rules_take_parameters(tmp_path):
    path = tmp_path / "cheap.toml"
    path.write_text('game = "dead-mans-chest"\n[rules]\n"captains[loot=250].loot" = 220\ncaptain_draft = "random"\n')
    spec = resolve(scenario=load_scenario(path))
    assert loot(spec)["Will Turner"] == 220 and spec.rules["captain_draft"] == "random"
    assert loot(resolve(game=DMC, rules={"captains[Will Turner].loot": 1}))["Will Turner"] == 1
    assert loot(resolve(game=DMC).with_rules({"captains[Will Turner].loot": 7}))["Will Turner"] == 7


def test_the_command_line_of_a_run_names_its_parameters():
    spec = resolve(game=DMC, sets=["captains[loot=250].loot=225"])
    assert run_args(spec) == "--game dead-mans-chest --players 4 --set 'captains[loot=250].loot=225'"
    assert loot(resolve(game=DMC, sets=["captains[loot=250].loot=225"])) == loot(spec)


@pytest.mark.parametrize("game,text,start,names", [
    ("dead-mans-chest", "captain[Jack Sparrow].loot=1", "--set: dead-mans-chest has no component table 'captain'",
     "tables: captains,"),
    ("dead-mans-chest", "captains[Cutler Becket].loot=1", "--set: captains has no 'Cutler Becket'",
     "closest: Cutler Beckett,"),
    ("dead-mans-chest", "captains[Cutler Beckett].lot=1", "--set: captains has no number 'lot'", "numbers: loot"),
    ("dead-mans-chest", "captains[Cutler Beckett].loot=2.5",
     "--set: captains[Cutler Beckett].loot = '2.5' is not allowed", "a whole number"),
    ("dead-mans-chest", "captains[Cutler Beckett].loot=-1", "--set: captains[Cutler Beckett].loot = '-1'", "from 0"),
    ("dead-mans-chest", "captains[loot=999].loot=1", "--set: no row of captains has loot = 999", "values: 200, 250"),
    ("dead-mans-chest", "captains[lot=250].loot=1", "--set: captains cannot be grouped by 'lot'", "by: loot"),
    ("dead-mans-chest", "cards[action=tiles].amount=0", "cards[", "at least 1 tile"),
    ("dead-mans-chest", "captains[].loot=1", "--set: 'captains[].loot' must be written TABLE[NAME].FIELD", ""),
    ("skull-island", "cards[skul-2].count=1", "--set: cards has no 'skul-2'", "closest: skull-2, skull-1"),
    ("skull-island", "cards[coin].count=101", "--set: cards[coin].count = '101' is not allowed", "to 100"),
    ("lucky-pirates", "circle[1].kind=1", "--set: lucky-pirates has no component tables", ""),
])
def test_errors_are_one_short_line_closest_names_first(game, text, start, names):
    result = run_cli(["simulate", "--game", game, "--set", text, "--n", "10", "--quiet"])
    assert_one_line_error(result)
    line = result.output.strip().removeprefix("analyze: ")
    assert len(line) <= MAX_ERROR_CHARS
    assert line.startswith(start) and names in line, line


def test_sweep_and_balance_take_parameters_and_refuse_them_in_set_too():
    spec = resolve(game=DMC)
    option, low, high = parse_search_param(spec.game, "captains[loot=250].loot=150:350", spec.rules)
    assert (option.name, option.kind, option.default, low, high) == ("captains[loot=250].loot", "int", 250, 150, 350)
    option, values = parse_sweep_param(spec.game, "ships[Black Pearl].fee=1000:3000:1000", spec.rules)
    assert values == [1000, 2000, 3000]
    with pytest.raises(AnalyzerError, match="a search range is written LOW:HIGH"):
        parse_search_param(spec.game, "captains[Jack Sparrow].loot=1:2:3", spec.rules)
    with pytest.raises(AnalyzerError, match="captains has no 'Nobody'"):
        parse_search_param(spec.game, "captains[Nobody].loot=1:2", spec.rules)
    given = resolve(game=DMC, sets=["captains[ Jack Sparrow ].loot=1"])
    with pytest.raises(AnalyzerError, match="both set captains\\[Jack Sparrow\\].loot"):
        refuse_set("captains[Jack Sparrow].loot", given)


def test_a_component_target_counts_holders_of_the_group_against_the_rest():
    spec = resolve(game=DMC)
    target = parse_target("captains[loot=250]", spec)
    assert set(target.selected) == LOOT_250 and len(target.others) == 4
    declared = (Component("Jack Sparrow", "captain"), Component("Cutler Beckett", "captain"),
                Component("Jack Sparrow", "mascot"), Component("Will Turner", "captain"))
    totals = {"component_holders": np.array([10, 20, 99, 30]), "component_holder_wins": np.array([4, 5, 99, 6]),
              "games": np.array([15]), "wins": np.array([7, 8])}
    wins, held = ComponentTarget("captains[loot=250]", "captain", ("Jack Sparrow", "Will Turner"),
                                 ("Cutler Beckett",)).counts(totals, declared)
    assert wins.tolist() == [10, 5] and held.tolist() == [40, 20]  # the mascot of the same name is not counted
    wins, games = SeatTarget(2).counts(totals, declared)
    assert wins.tolist() == [7, 8] and games.tolist() == [15, 15]
    assert isinstance(parse_target(None, spec), SeatTarget)
    for text, message in [("captains[*]", "selects every row"), ("ships[Black Pearl]", "not components"),
                          ("captains", "must be written TABLE"), ("captains[Nobody]", "has no 'Nobody'")]:
        with pytest.raises(AnalyzerError, match=message):
            parse_target(text, spec)


def test_the_varied_parameter_is_left_out_of_the_rules_text_with_the_option_it_writes():
    varied = resolve(game="skull-island").with_rules({"cards[skull-2].count": 0})
    assert rules_text(varied, leave_out="cards[skull-2].count") == "standard rules"
    assert rules_text(varied).startswith("deck = {")
    loot_varied = resolve(game=DMC, sets=["loans=false"]).with_rules({"captains[loot=250].loot": 1})
    assert rules_text(loot_varied, leave_out="captains[loot=250].loot") == "loans = false"
