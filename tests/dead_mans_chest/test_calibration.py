"""The packaged reconstruction is calibrated so that every mechanic the rulebook gives a
section to happens under the default strategy (issue 13): at 4 players loans, Shipyard
waits and every captain kept in some games; at 5 and 6 players an empty tile pile.

Each share is measured from ``game_stats`` over 20,000 games at a fixed seed and must
clear its threshold by 4 standard errors (taken from the reported 95% interval).
"""

import pytest

from analyzer.engine.runner import run
from analyzer.games.dead_mans_chest import GAME

from .rigged_game import prepared

GAMES = 20000
Z95 = 1.959964
MARGIN = 4  # standard errors


def default_stats(players: int) -> dict:
    prep = prepared(players, (GAME.default_strategy,))
    return GAME.game_stats(run(GAME, prep, GAMES, seed=13, workers=2), prep)


def clears(value: float, interval: list[float], threshold: float) -> bool:
    """``value`` lies at least ``MARGIN`` standard errors above ``threshold``."""
    se = (interval[1] - interval[0]) / (2 * Z95)
    return value - MARGIN * se >= threshold


@pytest.fixture(scope="module")
def four_players():
    return default_stats(4)


def test_loans(four_players):
    loans = four_players["loans"]
    assert clears(loans["per_game"], loans["per_game_ci"], 0.15), loans


def test_shipyard_waits(four_players):
    shipyard = four_players["shipyard"]
    assert clears(shipyard["waits_per_game"], shipyard["waits_per_game_ci"], 0.10), shipyard


def test_every_captain_is_kept(four_players):
    # threshold: kept at all; margin: each captain plays in at least 5% of the games
    shares = {name: row["games"] / GAMES for name, row in four_players["captains"].items()}
    assert min(shares.values()) >= 0.05, shares


@pytest.mark.parametrize("players", [5, 6])
def test_tile_pile_runs_dry(players):
    dry = default_stats(players)["tile_pile_ran_dry"]
    assert clears(dry["rate"], dry["ci"], 0.10), dry
