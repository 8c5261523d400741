"""Rule options, their cross-checks and the one strategy: bad input is one clear line."""

import math

import pytest

from analyzer.errors import AnalyzerError
from analyzer.games.base import StrategyChoice
from analyzer.games.lucky_pirates import GAME
from analyzer.games.lucky_pirates.rules import ISLAND, SEASIDE, SHIP, rule_values
from analyzer.games.options import defaults

NONE = StrategyChoice("none", {}, "none")


def _rules(**changes):
    rules = defaults(GAME.options)
    rules.update(changes)
    return rules


def _error(call, *words):
    with pytest.raises(AnalyzerError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


def test_declared_surface():
    assert GAME.id == "lucky-pirates"
    assert (GAME.min_players, GAME.max_players, GAME.default_players) == (2, 4, 4)
    assert GAME.score_unit == "treasures"
    assert GAME.length_units == ("turns", "rounds")
    assert [s.name for s in GAME.strategies] == ["none"] and GAME.default_strategy == "none"
    names = {o.name for o in GAME.options}
    assert {"circle", "die_faces", "disk_ship_probability", "treasures_to_win", "treasure_supply",
            "duel_replaces_card", "steal_when_empty", "max_turns"} <= names


def test_defaults_are_the_rules_md_game():
    rules = defaults(GAME.options)
    assert rules["circle"] == ("ship", "seaside", "island", "seaside", "seaside", "island", "seaside")
    assert rules["die_faces"] == 6
    assert rules["disk_ship_probability"] == 0.5
    assert rules["treasures_to_win"] == 5
    assert rules["treasure_supply"] == 17
    assert rules["duel_replaces_card"] is True
    assert rules["steal_when_empty"] is False
    assert rules["max_turns"] == 10000


def test_rule_values_rotate_the_circle_to_start_at_the_ship():
    values = rule_values(_rules(circle=("island", "seaside", "ship", "island")), 3)
    assert values.circle.tolist() == [SHIP, ISLAND, ISLAND, SEASIDE]
    assert values.two_ships_probability == 0.25


def test_other_strategies_are_refused():
    assert GAME.strategy("none").name == "none"
    _error(lambda: GAME.strategy("threshold"), "no decisions", "threshold")
    seats = [StrategyChoice("random", {}, "random")] * 2
    _error(lambda: GAME.prepare(_rules(), 2, seats), "no decisions")


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four(players):
    _error(lambda: GAME.check_rules(_rules(), players), "players", str(players))
    _error(lambda: GAME.exact({}, players), "players")


@pytest.mark.parametrize("circle, count", [
    (("seaside", "island", "seaside"), "0"),
    (("ship", "island", "ship", "seaside"), "2"),
])
def test_circle_needs_exactly_one_ship(circle, count):
    _error(lambda: GAME.check_rules(_rules(circle=circle), 4), "circle", "one ship", count)


def test_target_above_what_the_supply_pays_out():
    _error(lambda: GAME.check_rules(_rules(treasures_to_win=6, treasure_supply=5), 2),
           "treasures_to_win", "treasure_supply")
    GAME.check_rules(_rules(treasures_to_win=5, treasure_supply=5), 4)  # exactly enough is fine


@pytest.mark.parametrize("name, value", [
    ("die_faces", 0),
    ("disk_ship_probability", 0.0),
    ("disk_ship_probability", -0.5),
    ("disk_ship_probability", 1.5),
    ("disk_ship_probability", math.nan),
    ("treasures_to_win", 0),
    ("treasure_supply", 0),
    ("max_turns", 0),
    ("circle", ()),
    ("circle", ("ship", "volcano")),
])
def test_impossible_option_values(name, value):
    _error(lambda: GAME.option(name).validate(value, "test"), name)


def test_exact_refuses_unknown_options_and_bad_values():
    _error(lambda: GAME.exact({"nope": 1}, 2), "nope")
    _error(lambda: GAME.exact({"disk_ship_probability": 0}, 2), "disk_ship_probability")
    _error(lambda: GAME.exact({"circle": ["seaside", "island"]}, 2), "circle")


def test_prepare_sizes_the_histograms():
    prepared = GAME.prepare(_rules(treasures_to_win=3, max_turns=10), 4, [NONE] * 4)
    assert prepared.score_bins == (0, 1, 4)
    assert prepared.length_caps == {"turns": 10, "rounds": 3}
