"""Verdicts first (issue 17): a run's findings ranked, with intervals and actions, in the report and simulate."""

import json
import math
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from analyzer.execution import Execution
from analyzer.experiments import balance_spec
from analyzer.report import report
from analyzer.runspec import resolve
from analyzer.verdicts import (
    SeatCompensation,
    component_verdicts,
    mechanics_verdict,
    run_verdicts,
    seat_verdict,
)
from tests.cli_checks import assert_one_line_error, run_cli

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"


def run_dict(rates, n=100_000, strategies=None, **extra) -> dict:
    """A run's JSON as ``Result.to_dict`` shapes it, with the keys verdicts read."""
    players = len(rates)
    strategies = strategies or ["solved"] * players
    fair = 1 / players
    half = 1.96 * math.sqrt(rates[0] * (1 - rates[0]) / n)
    return {"game": "skull-island", "n": n, "players": players, "score_unit": "points",
            "seats": [{"seat": i + 1, "strategy": s, "win_rate": r}
                      for i, (r, s) in enumerate(zip(rates, strategies, strict=True))],
            "first_player_advantage": {"estimate": rates[0] - fair, "ci": [rates[0] - fair - half,
                                                                           rates[0] - fair + half]},
            "length": {"unit": "rounds", "mean": 8.24, "median": 8, "p5": 4, "p95": 13, "max": 28}, **extra}


FAVOURED = [0.2877, 0.26, 0.2363, 0.2154]
BALANCE = {"low": 0, "high": 1000, "recommended": 210, "interval": [185, 236], "precision_reached": True,
           "measured_balance": 0.992, "n_per_value": 20_000, "evaluations": [{}] * 11}
ASSIGNED = {"measure": "presence", "origin": "assigned", "evidence": "random assignment"}
COMPONENTS = [
    {"component": "Sea Turtle", "kind": "ship", "measure": "presence", "origin": "acquired", "evidence": "association",
     "win_rate_effect": 0.004, "win_rate_effect_ci": [-0.002, 0.010], "score_effect": 10.0,
     "score_effect_ci": [-5.0, 25.0]},
    {"component": "Norrington", "kind": "captain", **ASSIGNED, "win_rate_effect": -0.07,
     "win_rate_effect_ci": [-0.075, -0.065], "score_effect": -900.0, "score_effect_ci": [-950.0, -850.0]},
    {"component": "Jack Sparrow", "kind": "captain", **ASSIGNED, "win_rate_effect": 0.075,
     "win_rate_effect_ci": [0.07, 0.08], "score_effect": 1200.0, "score_effect_ci": [1150.0, 1250.0]},
]


def test_seat_verdict_with_the_balance_search_names_the_value_that_equalises():
    compensation = SeatCompensation("seat_bonus", 1000, "--game skull-island --players 4", balance=BALANCE)
    verdict = seat_verdict(run_dict(FAVOURED), compensation)
    assert verdict.kind == "seat-advantage" and verdict.title == "Seat 1 favoured, seat 4 disadvantaged"
    assert "gap of 7.23 points of win rate (95% interval 6.64 to 7.82, allowing for picking the extremes of 4 " \
           "seats)" in verdict.text
    assert "Set seat_bonus = 210" in verdict.action and "95% interval 185 to 236" in verdict.action
    assert "11 values × 20,000 games each" in verdict.action
    assert verdict.measurable and verdict.size == pytest.approx(0.0723 * 4)
    assert verdict.to_dict()["effect"]["value"] == pytest.approx(0.0723)
    assert verdict.to_dict()["effect"]["unit"] == "win rate" and verdict.to_dict()["effect"]["ci"][0] > 0


def test_seat_verdict_without_the_search_names_the_command_and_the_sign():
    compensation = SeatCompensation("seat_bonus", 1000, "--game skull-island --players 4")
    assert "analyze balance --game skull-island --players 4 --param seat_bonus=0:1000" in seat_verdict(
        run_dict(FAVOURED), compensation).action
    # seat 1 disadvantaged: the bonus that helps later seats would be negative
    verdict = seat_verdict(run_dict(FAVOURED[::-1]), compensation)
    assert verdict.title == "Seat 4 favoured, seat 1 disadvantaged"
    assert "--param seat_bonus=-1000:0" in verdict.action
    # played with a bonus already: the search starts from it
    compensation = SeatCompensation("seat_bonus", 1000, "--game skull-island --players 4", current=100)
    assert "--param seat_bonus=100:1100" in seat_verdict(run_dict(FAVOURED), compensation).action
    # a game without such an option: the size and the seat that gains, and a house rule to try
    verdict = seat_verdict(run_dict(FAVOURED))
    assert "Seat 1 wins 28.77%" in verdict.text and "no rule option that compensates seats" in verdict.action


def test_no_measurable_seat_advantage_is_not_measurable():
    verdict = seat_verdict(run_dict([0.252, 0.249, 0.25, 0.249], n=10_000))
    assert verdict.title == "No measurable seat advantage" and not verdict.measurable
    # a gap of 2.3 standard errors: outside a plain 95% interval, inside one that allows for picking the extreme
    # pair of 4 seats (6 pairs); with 2 seats there is one pair and the plain interval
    assert seat_verdict(run_dict([0.258, 0.25, 0.25, 0.242], n=10_000)).title == "No measurable seat advantage"
    two = seat_verdict(run_dict([0.508, 0.492], n=100_000))
    assert two.title == "Seat 1 favoured, seat 2 disadvantaged" and "extremes" not in two.text


def test_seats_with_different_strategies_are_not_a_seat_advantage():
    verdict = seat_verdict(run_dict([0.6, 0.4], strategies=["threshold", "random"]))
    assert "not measurable from this run alone" in verdict.text
    assert "analyze compare --game skull-island --players 2 --strategy threshold --strategy random" in verdict.action


def test_verdicts_are_ranked_on_one_scale_and_skip_what_the_json_lacks():
    plain = run_verdicts(run_dict(FAVOURED))
    assert [v.kind for v in plain] == ["seat-advantage"]  # no components, mechanics, quality, target, ladder
    mechanics = {"skull island": 0.031, "storm": 0.0, "kraken": 0.004, "treasure": 0.5}
    quality = {"comeback_rate": {"value": 0.04, "ci": [0.035, 0.045]},
               "lead_changes": {"value": 1.2, "ci": [1.1, 1.3]}, "decisive_point": {"value": 0.4, "ci": [0.38, 0.42]}}
    ladder = {"n": 2000, "fair_win_rate": 0.5, "skill": {"strongest": "solved", "versus_random": 0.9,
                                               "versus_random_ci": [0.88, 0.92], "games": 2000}}
    verdicts = run_verdicts(run_dict(FAVOURED, components=COMPONENTS, mechanics=mechanics, quality=quality,
                                     target_length=10), ladder=ladder)
    # fairness first, by size (effect / fair share): component 0.075 × 4 = 0.30, seat 0.0723 × 4 = 0.289;
    # then the others by size: skill (0.9 - 0.5) / 0.5 = 0.8, quality (0.1 - 0.04) / 0.1 = 0.6,
    # mechanics 2 of 4 rules = 0.5, length 17.6% short
    assert [v.kind for v in verdicts] == ["component", "seat-advantage", "skill", "quality", "mechanics", "length"]
    assert [round(v.size, 3) for v in verdicts] == [0.3, 0.289, 0.8, 0.6, 0.5, 0.176]
    component, _, skill, quality_verdict, rare, length = verdicts
    assert component.title == "Jack Sparrow is the strongest captain"
    assert "the seats that get it win 7.50 points more often than the others (95% interval +7.00 to +8.00)" in \
        component.text
    assert "scores +1200.0 points" in component.text and "At the other end, Norrington: " in component.text
    assert component.action.startswith("Weaken Jack Sparrow")
    assert quality_verdict.title == "Runaway leader" and "4.00% of games" in quality_verdict.text
    assert length.title == "Games end too soon" and "target of 10 rounds: 18% shorter" in length.text
    assert rare.title == "2 of 4 rules almost never happen"
    assert "storm never" in rare.text and "kraken 0.40%" in rare.text and "skull island" not in rare.text
    assert "skill decides" in skill.text and "2,000 games per strategy" in skill.text
    for verdict in verdicts:
        effect = verdict.to_dict()["effect"]
        assert set(effect) == {"value", "ci", "unit", "null"} and effect["unit"]


def test_a_verdict_not_measurable_never_outranks_a_measurable_one():
    """A huge effect within chance ranks below a small one outside it, whatever their kinds."""
    from analyzer.verdicts import Verdict, ranked

    small = Verdict(kind="length", title="t", text="x", action="a", effect={"value": 0.02, "ci": [0.01, 0.03],
                                                                            "unit": "u"})
    large = Verdict(kind="seat-advantage", title="t", text="x", action="a",
                    effect={"value": 0.4, "ci": [-0.1, 0.9], "unit": "win rate"}, yardstick=0.25)
    assert ranked([large, small]) == [small, large]
    variant = Verdict(kind="variant", title="t", text="x", action="a", effect={"value": -0.2, "ci": None, "unit": "u"})
    assert not variant.measurable and variant.to_dict()["size"] == 0.2


def test_skill_grades_separate_a_decisive_edge_from_a_large_one():
    def grade(rate, fair=0.5):
        ladder = {"n": 20000, "fair_win_rate": fair, "skill": {"strongest": "best", "versus_random": rate,
                                                             "versus_random_ci": [rate - 0.005, rate + 0.005]}}
        return next(v.text for v in run_verdicts(run_dict([0.5, 0.5]), ladder=ladder) if v.kind == "skill")

    assert "skill decides" in grade(0.984)  # Skull Island, 2 players
    assert "skill matters a lot" in grade(0.811)  # Doubloons
    assert "skill matters: " in grade(0.6) and "luck dominates" in grade(0.52)
    assert "does not measurably matter" in grade(0.501)


def test_a_component_effect_within_chance_is_no_finding():
    verdict = run_verdicts(run_dict(FAVOURED, components=[{**COMPONENTS[0], **ASSIGNED}]))[-1]
    assert verdict.kind == "component" and not verdict.measurable
    assert verdict.title == "No ship measurably moves the win rate"


def test_unmeasured_values_are_left_out():
    """As the JSON gives them: a component never dealt has null effects, a quality measure without games is null."""
    never = {"component": "Bootstrap Bill", "kind": "captain", **ASSIGNED, "win_rate_effect": None,
             "win_rate_effect_ci": None, "score_effect": None, "score_effect_ci": None}
    draw = {"component": "sea-battle-4", "kind": "fortune card", "measure": "per draw", "win_rate_effect": -0.02,
            "win_rate_effect_ci": [-0.025, -0.015], "score_effect": -190.0, "score_effect_ci": None}
    quality = {"comeback_rate": {"value": None, "ci": None, "games": 0},
               "lead_changes": {"value": None, "ci": None}}
    verdicts = run_verdicts(run_dict(FAVOURED, components=[never, draw], quality=quality))
    assert [v.kind for v in verdicts] == ["seat-advantage", "luck"]  # a card met by chance favours no one
    assert verdicts[1].title == "sea-battle-4 swings games most"  # a card every player meets: per draw
    said = verdicts[1].text
    assert "the seat that meets it wins 2.00 points less often than the average seat, per time met (95% interval " \
           "-2.50 to -1.50)" in said and "scores -190.0 points." in said
    assert [v.kind for v in run_verdicts(run_dict(FAVOURED, components=[never]))] == ["seat-advantage"]


BLACK_PEARL = {"component": "Black Pearl", "kind": "ship at the end", "measure": "presence", "origin": "acquired",
               "evidence": "association", "attributes": {"fee": 2500}, "parameter": "ships[Black Pearl]",
               "price": "fee", "win_rate_effect": 0.06, "win_rate_effect_ci": [0.05, 0.07], "score_effect": 800.0,
               "score_effect_ci": [700.0, 900.0]}


def _captain(name, loot, rate, games=25_000):
    effect = rate - 0.25
    return {"component": name, "kind": "captain", "measure": "presence", "origin": "assigned",
            "evidence": "random assignment", "attributes": {"loot": loot}, "parameter": f"captains[{name}]",
            "seat_games": games, "win_rate": rate, "win_rate_effect": effect,
            "win_rate_effect_ci": [effect - 0.006, effect + 0.006], "score_effect": None, "score_effect_ci": None}


CAPTAINS = [_captain(f"Rich {i}", 250, 0.257) for i in range(4)] + [_captain(f"Poor {i}", 200, 0.22)
                                                                     for i in range(4)]


def test_an_acquired_component_is_an_association_never_weakened():
    dmc = run_dict(FAVOURED, components=[BLACK_PEARL])
    dmc["game"] = "dead-mans-chest"
    (verdict,) = component_verdicts(dmc)
    assert verdict.title == "Black Pearl is associated with winning" and not verdict.measurable
    assert "association, not a measured cause" in verdict.text and "Weaken" not in verdict.action
    assert "vary its fee" in verdict.action
    # it never outranks a measurable finding, however large
    assert run_verdicts(dmc)[-1] == verdict


def test_captains_drafted_are_compared_by_loot_as_an_association():
    drafted = [{**c, "evidence": "association", "randomize": "captain_draft=random"} for c in CAPTAINS]
    dmc = run_dict(FAVOURED, components=drafted)
    dmc["game"] = "dead-mans-chest"
    (group,) = [v for v in component_verdicts(dmc) if v.kind == "component-group"]
    assert not group.measurable and "associated" in group.title
    assert "assigned at random" in group.action and "Weaken" not in group.action


def test_captains_assigned_at_random_are_compared_in_groups_by_their_declared_loot():
    from analyzer.verdicts import ComponentFix

    dmc = run_dict(FAVOURED, components=[BLACK_PEARL])
    dmc["game"] = "dead-mans-chest"
    def group_of(verdicts):
        return next(v for v in verdicts if v.kind == "component-group")

    group = group_of(run_verdicts(dmc, assigned_components=CAPTAINS))
    assert group.kind == "component-group" and group.measurable
    assert group.title == "Captains with more loot win more often: loot 250 against 200"
    assert "loot 250 (4 captains: Rich 0, Rich 1, Rich 2, Rich 3) 25.70%" in group.text
    # 3.7 points, Bonferroni over one pair: se = sqrt(.257 .743 / 1e5 + .22 .78 / 1e5)
    se = math.sqrt(0.257 * 0.743 / 1e5 + 0.22 * 0.78 / 1e5)
    assert group.effect["ci"] == pytest.approx([0.037 - 1.96 * se, 0.037 + 1.96 * se], abs=1e-4)
    assert "a balance search over one captain's loot" in group.action
    fix = ComponentFix(component="the loot 250 captains", parameter="captains[Rich 0].loot",
                       run_args="--game dead-mans-chest --players 4", current=250, balance={**BALANCE, "low": 150,
                                                                                            "high": 350})
    group = group_of(run_verdicts(dmc, assigned_components=CAPTAINS, component_fix=fix))
    assert group.action.startswith("Set captains[Rich 0].loot = 210: it equalises the loot 250 captains with the "
                                   "rest (95% interval 185 to 236")
    assert "11 values × 20,000 games each" in group.action
    unsearched = ComponentFix(component="Rich 0", parameter="captains[Rich 0].loot",
                              run_args="--game dead-mans-chest --players 4", current=250)
    assert ("`analyze balance --game dead-mans-chest --players 4 --param 'captains[Rich 0].loot=125:375'`"
            in group_of(run_verdicts(dmc, assigned_components=CAPTAINS, component_fix=unsearched)).action)


def test_only_rules_are_called_rare():
    run = run_dict(FAVOURED)
    run["mechanics"] = {"raid": 0.97, "mutiny": 0.004, "turn cap reached": 0.0, "redeal": 0.0, "shared win": 0.001}
    run["mechanic_kinds"] = {"raid": "rule", "mutiny": "rule", "turn cap reached": "safeguard",
                             "redeal": "procedure", "shared win": "outcome"}
    run["safeguards"] = ["turn cap reached"]
    verdict = mechanics_verdict(run)
    assert verdict.title == "1 of 2 rules almost never happen"
    assert "mutiny" in verdict.text and "turn cap" not in verdict.text and "redeal" not in verdict.text
    assert "shared win" not in verdict.text
    run["mechanics"]["storm"] = 0.0
    run["switched_off"] = ["storm"]  # a promo card the rules leave out of the deck
    verdict = mechanics_verdict(run)
    assert verdict.title == "1 of 2 rules almost never happen"
    assert "Switched off by these rules, so not counted: storm." in verdict.text


def test_round_starters_are_judged_like_seats():
    run = run_dict([0.5, 0.5, 0.0])
    run["round_starts"] = {"wins_by_offset": [3160, 3340, 3500]}
    verdict = next(v for v in run_verdicts(run) if v.kind == "round-starter")
    assert verdict.title == "The third in a round's turn order is favoured, the round's starter disadvantaged"
    assert "starter 31.60%, second 33.40%, third 35.00%" in verdict.text
    assert verdict.measurable and verdict.size == pytest.approx(0.034 * 3)


def test_exact_win_rates_replace_the_simulated_gap():
    verdict = seat_verdict(run_dict([0.27, 0.25, 0.25, 0.23]), exact=[0.28, 0.26, 0.24, 0.22])
    assert verdict.title == "Seat 1 favoured, seat 4 disadvantaged" and verdict.measurable
    assert "a gap of 6.00 points" in verdict.text and "Simulated beside it, 100,000 games: seat 1 27.00%" in \
        verdict.text


def test_length_on_target():
    verdict = run_verdicts(run_dict(FAVOURED, target_length=8))[-1]
    assert verdict.title == "Length on target" and "3% longer" in verdict.text


@pytest.fixture(scope="module")
def skull_report(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "skull-island.pdf"
    outcome = report(game="skull-island", n=2000, seed=5, out=path, skill_n=2000)
    return outcome, [page.extract_text() for page in PdfReader(path).pages]


def test_the_report_opens_with_the_verdicts_and_the_fair_seat_bonus(skull_report):
    outcome, texts = skull_report
    page = texts[1]
    assert page.startswith("Verdicts, most important first")
    # the same search as analyze balance, with the report's balance seed and its own (here: the report's) count
    execution = Execution.create(seed=5).derived("balance", 0)
    search = balance_spec("seat_bonus=0:1000", resolve(game="skull-island"), 2000, execution)
    assert f"Set seat_bonus = {search.recommended}:" in " ".join(page.split())
    assert "× 2,000 games each" in page
    assert "How much skill matters" in page  # the skill ladder of the first scenario
    kinds = [v.kind for v in outcome.verdicts[0]]
    assert "seat-advantage" in kinds and outcome.verdicts[0][0].measurable
    assert all(v.kind in ("seat-advantage", "component") for v in outcome.verdicts[0][:kinds.index("seat-advantage")])


def test_several_scenarios_get_verdicts_each_and_no_balance_leaves_the_search_out(tmp_path):
    path = tmp_path / "two.pdf"
    result = run_cli(["report", "--scenario", SCENARIOS / "standard.toml", "--scenario",
                      SCENARIOS / "target-8000.toml", "--n", 2000, "--seed", 1, "--quiet", "--no-skill",
                      "--no-balance", "-o", path])
    assert result.exit_code == 0, result.output
    texts = [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]
    page = " ".join(text for text in texts[1:] if text.startswith("Verdicts, most important first"))
    # the comparison answers first; each scenario's own verdicts follow in the appendix
    assert texts[1].startswith("The comparison's verdicts") and page
    assert page.index("Scenario Standard") < page.index("Scenario Target 8000")
    assert page.count("the report's search was left out with --no-balance") == 2
    assert "analyze balance --scenario" in page and "--param seat_bonus=0:1000" in page


def test_simulate_prints_the_verdicts(tmp_path):
    args = ["simulate", "--game", "skull-island", "--n", 2000, "--seed", 1, "--quiet"]
    text = run_cli(args).output
    assert "Verdicts, most important first:\n1. Seat 1 favoured" in text  # before the fortune card's luck
    assert "analyze balance --game skull-island --players 4 --param seat_bonus=0:1000" in " ".join(text.split())
    assert text.index("Verdicts") < text.index("Per fortune card")
    markdown = run_cli([*args, "--format", "markdown"]).output
    assert "1. **Seat 1 favoured, seat 4 disadvantaged**:" in markdown
    data = json.loads(run_cli([*args, "--json"]).output)
    assert data["target_length"] is None
    # the seats' fairness first; the fortune card that swings games is luck, after it though larger
    assert [v["kind"] for v in data["verdicts"][:2]] == ["seat-advantage", "luck"]
    assert data["verdicts"][0]["size"] < data["verdicts"][1]["size"]
    assert {"kind", "title", "text", "action", "effect", "measurable", "size"} == set(data["verdicts"][0])
    assert data["mechanic_kinds"]["Round cap"] == "safeguard" and data["mechanic_kinds"]["Skull Island"] == "rule"
    assert {(c["origin"], c["evidence"]) for c in data["components"]} == {("dealt", "random draw")}


def test_different_strategies_per_seat_say_the_seat_advantage_is_not_measurable(tmp_path):
    args = ["--game", "skull-island", "--players", 2, "--strategy", "threshold", "--strategy", "random",
            "--n", 2000, "--seed", 1, "--quiet"]
    # a command longer than a line continues with backslashes: read it as the shell does
    text = " ".join(run_cli(["simulate", *args]).output.replace("\\\n", " ").split())
    assert "not measurable as a seat advantage" in text and "disadvantage" not in text
    assert "analyze compare --game skull-island --players 2 --strategy threshold --strategy random" in text
    path = tmp_path / "mixed.pdf"
    assert run_cli(["report", *args, "--no-skill", "-o", path]).exit_code == 0
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]
    summary = next(page for page in pages if "A fair game gives every seat" in page)
    assert "not measurable from this run alone" in summary and "at a disadvantage" not in summary
    assert "Fairest seat" not in summary and "no seat is fairer or less fair from this run alone" in summary
    assert "Seat advantage not measurable here" in pages[1]


def test_target_length_is_read_shown_and_judged(tmp_path):
    scenario = tmp_path / "short.toml"
    scenario.write_text('game = "skull-island"\nname = "Short"\ntarget_length = 5\n', encoding="utf-8")
    data = json.loads(run_cli(["simulate", "--scenario", scenario, "--n", 2000, "--seed", 1, "--quiet",
                               "--json"]).output)
    assert data["target_length"] == 5
    length = next(v for v in data["verdicts"] if v["kind"] == "length")
    assert length["title"] == "Games run too long" and "target of 5 rounds" in length["text"]


@pytest.mark.parametrize("value", ["0", "-3", '"x"', "true", "nan", "inf", "[1]"])
def test_a_target_length_that_is_not_a_positive_number_is_one_line(tmp_path, value):
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f'game = "skull-island"\ntarget_length = {value}\n', encoding="utf-8")
    result = run_cli(["simulate", "--scenario", scenario, "--n", 10, "--quiet"])
    assert_one_line_error(result, "target_length", "positive number")


def test_a_report_names_its_balance_count_in_the_action():
    action = seat_verdict(run_dict(FAVOURED), SeatCompensation("seat_bonus", 1000, "--game skull-island",
                                                               balance={**BALANCE, "interval": None,
                                                                        "precision_reached": False})).action
    assert re.search(r"no interval: too few batches of games; .*11 values × 20,000 games each\)", action)
    assert action.endswith("--param seat_bonus=0:1000 --n 2e5`.")


def test_doubloons_round_starters_come_from_its_round_wins_by_start_offset():
    data = json.loads(run_cli(["simulate", "--game", "doubloons", "--n", 2000, "--seed", 1, "--quiet",
                               "--json"]).output)
    assert data["round_starts"]["wins_by_offset"] == data["game_stats"]["round_wins"]["by_start_offset"]
    verdict = next(v for v in data["verdicts"] if v["kind"] == "round-starter")
    assert verdict["effect"]["unit"] == "share of round wins" and verdict["effect"]["ci"] is not None
    assert data["mechanic_kinds"]["Redeal"] == "procedure" and data["mechanic_kinds"]["Round cap"] == "safeguard"
    fixed = json.loads(run_cli(["simulate", "--game", "doubloons", "--n", 200, "--seed", 1, "--quiet", "--set",
                                "rotate_start=false", "--json"]).output)
    assert fixed["round_starts"] is None  # seat 1 always starts: the seat verdict covers it


def test_a_game_without_a_compensating_option_is_told_the_size_of_head_start_to_try():
    from analyzer.verdicts.seats import head_start

    favoured = {"seat": 1, "mean_score": 3.034, "mean_score_ci": [3.012, 3.056]}
    disadvantaged = {"seat": 4, "mean_score": 2.776, "mean_score_ci": [2.754, 2.798]}
    run = {"score_unit": "treasures"}
    assert head_start(run, favoured, disadvantaged) == (
        " of about 0.26 treasures (seat 1 ends with 3.03 on average, 95% interval 3.01 to 3.06; seat 4 with 2.78, "
        "2.75 to 2.80: a size to try first)")
    # intervals that overlap give no size: the scores do not say which seat ends ahead
    assert head_start(run, favoured, {**disadvantaged, "mean_score_ci": [2.9, 3.02]}) == ""
    # the favoured seat scoring less (a game won by a threshold, not by the total) gives no size either
    assert head_start(run, disadvantaged, favoured) == ""
