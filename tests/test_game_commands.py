"""Commands that games offer (``Game.commands()``): the CLI builds them from the registry."""

import json

import click
import pytest

from analyzer.cli import offered
from analyzer.games.commands import GameCommand, declare, declared_commands, offered_commands
from analyzer.games.registry import available_ids, get_game
from analyzer.output import Rendered
from tests.cli_checks import assert_one_line_error, run_cli


def test_every_offered_command_is_listed_by_help():
    help_text = run_cli(["--help"]).stdout
    for name in offered_commands():
        assert f"  {name} " in help_text


def test_a_game_returns_the_commands_its_package_declares():
    for game_id in available_ids():
        assert get_game(game_id).commands() == declared_commands(game_id)


def test_games_lists_what_each_game_offers():
    rows = {row["id"]: row["offers"] for row in json.loads(run_cli(["games", "--json"]).stdout)}
    assert rows.keys() == set(available_ids())
    for name, offering in offered_commands().items():
        for game_id in rows:
            assert (name in rows[game_id]["commands"]) == (game_id in offering)
    assert all(offers["exact_solution"] == ("exact" in offers["commands"]) for offers in rows.values())
    assert rows["pig"] == {"commands": [], "exact_solution": False, "own_report_pages": False}
    text = run_cli(["games"]).stdout
    for offers in rows.values():
        for name in offers["commands"]:
            assert f"analyze {name}" in text


@pytest.mark.parametrize("name", sorted(offered_commands()))
def test_a_game_without_the_command_gets_one_line(name):
    offering = ", ".join(offered_commands()[name])
    assert_one_line_error(run_cli([name, "--game", "pig"]),
                          f"pig offers no '{name}' command; games that do: {offering}")


def test_an_unknown_game_gets_the_registry_line():
    name = sorted(offered_commands())[0]
    assert_one_line_error(run_cli([name, "--game", "no-such-game"]), "unknown game", "no-such-game")


class _Echo(Rendered):
    def __init__(self, values):
        self.values = values

    def to_dict(self):
        return self.values

    def to_table(self):
        return repr(self.values)

    to_csv = to_markdown = to_table


def _echo(spec, **values):
    return _Echo({"game": spec.game.id, "players": spec.players, **values})


@pytest.fixture
def two_games_offer_echo(monkeypatch):
    """``echo``, offered by two games: one with a player count and a --loud flag, one with neither."""
    offering = {"echo": {
        "pig": GameCommand("echo", "Echo for pig.", _echo, (click.Option(["--loud"], is_flag=True),), players=True),
        "lucky-pirates": GameCommand("echo", "Echo for lucky-pirates.", _echo),
    }}
    monkeypatch.setattr(offered, "offered_commands", lambda: offering)


def test_a_command_of_two_games_needs_the_game(two_games_offer_echo):
    assert "echo" in offered.offered_names()
    assert_one_line_error(run_cli(["echo"]), "no game given", "pig, lucky-pirates")
    pig = json.loads(run_cli(["echo", "--game", "pig", "--players", "3", "--loud", "--json"]).stdout)
    assert pig == {"game": "pig", "players": 3, "loud": True}
    lucky = json.loads(run_cli(["echo", "--game", "lucky-pirates", "--json"]).stdout)
    assert lucky == {"game": "lucky-pirates", "players": get_game("lucky-pirates").default_players}


@pytest.mark.parametrize("option", [["--loud"], ["--players", "3"]])
def test_options_of_another_game_are_refused(two_games_offer_echo, option):
    assert_one_line_error(run_cli(["echo", "--game", "lucky-pirates", *option]), f"takes no {option[0]}")


def test_declare_names_each_command():
    first, second = GameCommand("a", "A.", _echo), GameCommand("b", "B.", _echo)
    assert declare(first, second) == {"a": first, "b": second}
