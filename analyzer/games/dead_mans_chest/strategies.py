"""Dead Man's Chest's strategies: names, parameters, defaults and descriptions.

The choices themselves are jitted in :mod:`decisions`; a strategy reaches the kernel as
its index in ``STRATEGIES`` (the ids in :mod:`layout`) plus its parameters.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.base import Strategy, StrategyChoice
from analyzer.games.options import Option


def _cash_reserve(default: int) -> Option:
    return Option("cash_reserve", "int", default,
                  "dollars kept in hand: optional buys (ship upgrades, extra mascots) and the choice between "
                  "ships never spend below it", low=0, high=10**7)


_FUTURE_TILES = Option("future_tiles", "float", 2.0,
                       "LIFE tiles still expected when valuing a mascot: a mascot is worth the tiles it doubles "
                       "in hand plus this many times the chance a further tile carries it", low=0, high=25)

STRATEGIES = (
    Strategy("random", "every choice uniformly at random among the legal ones (optional buys included)"),
    Strategy(
        "sensible",
        "greedy expected final value: the captain with the most loot over the route; the strongest ship "
        "that keeps cash_reserve (else the cheapest); upgrades that add combat and keep the reserve; the "
        "mascot doubling the most tile value; raids the target with the best expected take; takes tiles "
        "from the leader; keeps the best Isla Cruces tile; cashes in tiles it cannot double first",
        (_cash_reserve(500), _FUTURE_TILES),
    ),
    Strategy(
        "aggressive",
        "strongest ships: buys the highest combat it can pay for, upgrades whenever combat rises and "
        "cash_reserve stays, takes ships from other players; raids the leader; captain with the highest loot",
        (_cash_reserve(0), _FUTURE_TILES),
    ),
    Strategy(
        "thrifty",
        "keeps cash: the cheapest ship and mascot, never upgrades, buys an optional mascot only when it "
        "doubles a tile already held and cash_reserve stays; otherwise plays like sensible",
        (_cash_reserve(1000),),
    ),
)
DEFAULT_STRATEGY = "sensible"

_FALLBACK = {"cash_reserve": 0, "future_tiles": 2.0}


def seat_arrays(seats: list[StrategyChoice]) -> dict[str, np.ndarray]:
    """The per-seat strategy ids and parameters the kernel reads (fields of ``kernel.Inputs``)."""
    names = [s.name for s in STRATEGIES]

    def column(key):
        return [s.params.get(key, _FALLBACK[key]) for s in seats]

    return dict(
        strategy=np.array([names.index(s.name) for s in seats], np.int64),
        cash_reserve=np.array(column("cash_reserve"), np.int64),
        future_tiles=np.array(column("future_tiles"), np.float64),
    )
