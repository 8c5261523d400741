"""Dead Man's Chest's strategies: names, parameters, defaults and descriptions.

The choices themselves are jitted in :mod:`decisions` (the search player's rollouts in
:mod:`lookahead`). A strategy reaches the kernel through *profiles* (see
:func:`seat_arrays`): a profile is a strategy id plus its parameters, and each seat plays
the profile ``Match.profile`` names: its own, or, in a lookahead's rollouts, its base's.
"""

from __future__ import annotations

import numpy as np

from analyzer.games.base import Strategy, StrategyChoice
from analyzer.games.dead_mans_chest.layout import OBJECTIVES
from analyzer.games.options import Option


def _cash_reserve(default: int) -> Option:
    return Option("cash_reserve", "int", default,
                  "dollars kept in hand: optional buys (ship upgrades, extra mascots) and the choice between "
                  "ships never spend below it", low=0, high=10**7)


_FUTURE_TILES = Option("future_tiles", "float", 2.0,
                       "LIFE tiles still expected when valuing a mascot: a mascot is worth the tiles it doubles "
                       "in hand plus this many times the chance a further tile carries it", low=0, high=25)
_NOISE = Option("noise", "float", 0.0, "the probability that a decision is a uniformly random legal one",
                low=0, high=1)

_HEURISTICS = (
    Strategy("random", "every choice uniformly at random among the legal ones (optional buys included)", (_NOISE,)),
    Strategy(
        "sensible",
        "greedy expected final value: the captain with the most loot over the route; the strongest ship "
        "that keeps cash_reserve (else the cheapest); upgrades that add combat and keep the reserve; the "
        "mascot doubling the most tile value; raids the target with the best expected take; takes tiles "
        "from the leader; keeps the best Isla Cruces tile; cashes in tiles it cannot double first",
        (_cash_reserve(500), _FUTURE_TILES, _NOISE),
    ),
    Strategy(
        "aggressive",
        "strongest ships: buys the highest combat it can pay for (of equals the cheaper), upgrades whenever "
        "combat rises and cash_reserve stays, takes ships from other players; raids the leader, unless "
        "beating it would swap its ship for a weaker Black Pearl; captain with the highest loot",
        (_cash_reserve(0), _FUTURE_TILES, _NOISE),
    ),
    Strategy(
        "thrifty",
        "keeps cash: the cheapest ship and mascot, never upgrades, buys an optional mascot only when it "
        "doubles a tile already held and cash_reserve stays; otherwise plays like sensible",
        (_cash_reserve(1000), _NOISE),
    ),
)
#: the strategies a lookahead can play in its rollouts (every one but itself)
BASES = tuple(s.name for s in _HEURISTICS)
LOOKAHEAD = Strategy(
    "lookahead",
    "search player, far slower than the others (about a thousand 2-player games a second per core at "
    "its defaults, against hundreds of thousands): at each of its decisions with a choice, on its own "
    "turns and in its captain draft, it plays every option out `rollouts` times to the end of the game, "
    "every seat playing `base` at its default parameters, and takes the option with the best mean "
    "`objective`, keeping base's own choice unless another beats it by `margin` standard errors. It "
    "sees only what its player knows: in every playout the face-down LIFE tiles it does not hold are "
    "dealt again among their places, and spins and cards come from a stream of the playout's own. "
    "Decisions on other players' turns (cashing in a tile to pay them) play as base",
    (Option("rollouts", "int", 32, "playouts per option at each decision", low=1, high=100_000),
     Option("base", "choice", "sensible", "the strategy every seat plays in the playouts, at its default "
            "parameters", choices=BASES),
     Option("objective", "choice", "lead", "what a playout is worth: win = its share of the win (a shared "
            "win counts 1/k), score = its final value, lead = its final value minus the best other "
            "player's", choices=OBJECTIVES),
     Option("margin", "float", 2.0, "base's own choice stands unless another option's mean gain over it, "
            "in the same playouts, exceeds this many standard errors (0: the best mean)", low=0, high=10),
     _NOISE),
    in_skill_ladder=False,
)
STRATEGIES = (*_HEURISTICS, LOOKAHEAD)
DEFAULT_STRATEGY = "sensible"

#: what a profile's strategy reads for a parameter it does not have
_FALLBACK = {"cash_reserve": 0, "future_tiles": 2.0, "noise": 0.0}


def _profile(name: str, params: dict) -> tuple[int, int, float, float]:
    """(strategy id, cash_reserve, future_tiles, noise) of a heuristic with these parameters."""
    values = {**_FALLBACK, **params}
    return BASES.index(name), values["cash_reserve"], values["future_tiles"], values["noise"]


def _defaults(name: str) -> dict:
    return {o.name: o.default for o in _HEURISTICS[BASES.index(name)].params}


def seat_arrays(seats: list[StrategyChoice]) -> dict[str, np.ndarray]:
    """The kernel's strategy inputs (fields of ``kernel.Inputs``).

    Profiles ``0 .. players - 1`` are the seats (a lookahead seat's is its base at its
    default parameters with the lookahead's noise: what it plays where it does not search);
    profile ``players + b`` is base ``BASES[b]`` at its default parameters, what every seat
    plays in a rollout. ``rollouts`` is 0 for a seat that does not search.
    """
    players = len(seats)
    rows = []
    for seat in seats:
        if seat.name == LOOKAHEAD.name:
            rows.append(_profile(seat.params["base"], {**_defaults(seat.params["base"]),
                                                       "noise": seat.params["noise"]}))
        else:
            rows.append(_profile(seat.name, seat.params))
    rows += [_profile(name, _defaults(name)) for name in BASES]
    searching = [seat.name == LOOKAHEAD.name for seat in seats]
    return dict(
        noisy=any(r[3] > 0 for r in rows),
        searching=any(searching),
        strategy=np.array([r[0] for r in rows], np.int64),
        cash_reserve=np.array([r[1] for r in rows], np.int64),
        future_tiles=np.array([r[2] for r in rows], np.float64),
        noise=np.array([r[3] for r in rows], np.float64),
        rollouts=np.array([s.params["rollouts"] if on else 0 for s, on in zip(seats, searching, strict=True)],
                          np.int64),
        objective=np.array([OBJECTIVES.index(s.params["objective"]) if on else 0
                            for s, on in zip(seats, searching, strict=True)], np.int64),
        margin=np.array([s.params["margin"] if on else 0.0 for s, on in zip(seats, searching, strict=True)],
                        np.float64),
        base_profile=np.array([players + BASES.index(s.params["base"]) if on else s_index
                               for s_index, (s, on) in enumerate(zip(seats, searching, strict=True))], np.int64),
    )
