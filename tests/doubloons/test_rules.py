"""Rule options: the card data file as defaults, the deck they make, and bad input."""

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.errors import AnalyzerError
from analyzer.games.doubloons import GAME
from analyzer.games.doubloons.cards import N_CODES, SPECIALS, card_data, special_code
from analyzer.games.doubloons.rules import composition
from analyzer.games.options import defaults
from analyzer.runspec import resolve


def test_the_reconstructed_card_group_comes_from_the_data_file():
    data = card_data()
    rules = defaults(GAME.options)
    assert rules["group_numbers"] == data["group_numbers"] == tuple(range(1, 11))
    assert rules["group_specials"] == data["group_specials"] == {name: 1 for name in SPECIALS}
    assert rules["groups_by_players"][:4] == (4, 5, 6, 6)  # the book: players + 2, 6 for 5


@pytest.mark.parametrize("players, groups", [(2, 4), (3, 5), (4, 6), (5, 6)])
def test_the_deck_holds_the_books_card_groups(players, groups):
    deck = composition(defaults(GAME.options), players)
    assert deck.shape == (N_CODES,)
    assert deck.sum() == 17 * groups
    assert list(deck[1:11]) == [groups] * 10
    assert all(deck[special_code(name)] == groups for name in SPECIALS)


def test_special_counts_and_numbers_are_per_group():
    rules = resolve(game="doubloons", players=3,
                    rules={"group_numbers": list(range(1, 11)) + [10], "group_specials": {"kraken": 3}}).rules
    deck = composition(rules, 3)
    assert deck[10] == 10 and deck[9] == 5
    assert deck[special_code("kraken")] == 15 and deck[special_code("pirate")] == 5  # others keep 1


def test_more_players_use_the_extended_table():
    spec = resolve(game="doubloons", players=7, rules={"allow_more_players": True})
    assert composition(spec.rules, 7).sum() == 17 * 9


@pytest.mark.parametrize("players, rules, words", [
    (1, {}, ["players", "2 to 5"]),
    (6, {}, ["players", "allow_more_players"]),
    (7, {"allow_more_players": True, "groups_by_players": [4, 5, 6, 6]}, ["groups_by_players", "7 players"]),
    (3, {"group_numbers": []}, ["group_numbers"]),
    (3, {"group_numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9]}, ["group_numbers", "10"]),
    (3, {"group_specials": {"ghost": 1}}, ["group_specials", "ghost"]),
    (3, {"group_specials": {"pirate": -1}}, ["group_specials"]),
    (3, {"groups_by_players": [4, -5, 6, 6]}, ["groups_by_players"]),
    (3, {"groups_by_players": [1, 1, 1, 1]}, ["too few cards", "31"]),
    (3, {"rounds_to_win": 0}, ["rounds_to_win"]),
    (3, {"max_turns_per_round": 0}, ["max_turns_per_round"]),
])
def test_bad_input_is_one_line_naming_the_problem(players, rules, words):
    with pytest.raises(AnalyzerError) as error:
        resolve(game="doubloons", players=players, rules=rules)
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word.lower() in message.lower(), message


def test_check_rules_itself_refuses_player_counts_out_of_range():
    rules = defaults(GAME.options)
    for players in (1, 6):
        with pytest.raises(AnalyzerError, match="players"):
            GAME.check_rules(rules, players)
    GAME.check_rules(dict(rules, allow_more_players=True), 6)


@pytest.mark.parametrize("args, word", [
    (["--players", "6"], "allow_more_players"),
    (["--set", "group_specials=ghost:2"], "ghost"),
    (["--set", "group_specials=key:-1"], "group_specials"),
    (["--set", "group_numbers=[]"], "group_numbers"),
])
def test_the_cli_prints_one_line_and_exits_2(args, word):
    result = CliRunner().invoke(main, ["simulate", "--game", "doubloons", "--n", "100", "--quiet", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and word in lines[0] and "Traceback" not in result.output
