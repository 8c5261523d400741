"""Skull Island's strategies: names, parameters, defaults and descriptions.

The decisions themselves are jitted in :mod:`decisions`; a strategy reaches the kernel
as its index in ``STRATEGIES`` plus its parameters in declaration order.
"""

from analyzer.games.base import Strategy
from analyzer.games.options import Option


def _stop_at(default: int) -> Option:
    return Option("stop_at", "int", default, "stop once the turn would score at least this many points",
                  low=0, high=100000)


#: every strategy takes it (random plays at random anyway)
_NOISE = Option("noise", "float", 0.0, "the probability that a decision is a uniformly random legal one "
                "(a casual player); 0 draws no random number", low=0, high=1)


def _max_skulls(default: int) -> Option:
    return Option("max_skulls", "int", default, "stop once this many skulls are showing (card skulls count)",
                  low=1, high=2)


STRATEGIES = (
    Strategy("first-roll", "never rerolls: scores the first roll (the no-risk baseline)", (_NOISE,)),
    Strategy("random", "uniformly random legal decisions: stop or reroll, which dice, the chest, the sorceress",
             (_NOISE,)),
    Strategy(
        "threshold",
        "keeps coins, diamonds and the largest set, rerolls the rest; stops at stop_at points or max_skulls skulls",
        (_stop_at(400), _max_skulls(2), _NOISE),
    ),
    Strategy(
        "set-chaser",
        "plays every card: chases sea-battle sabres, banks kept dice on the treasure chest, spends the sorceress, "
        "pools monkeys and parrots, avoids sabres under peace, rerolls junk when it cannot die (full chest)",
        (_stop_at(500), _max_skulls(2),
         Option("chase_full_chest", "bool", True, "reroll non-scoring dice whenever that roll cannot kill"), _NOISE),
    ),
    Strategy(
        "optimal-ev",
        "the solved policy (analyze solve) that maximises the expected own turn score on every card; "
        "with final_round it plays its last turn for the best chance to beat the leader",
        (Option("final_round", "bool", False,
                "in the final round, maximise the chance to beat the leader instead of the expected score"), _NOISE),
    ),
    Strategy(
        "endgame",
        "set-chaser that reads the scoreboard: risks more when behind and someone nears the target; "
        "in its last turn it plays to beat the leader, not for points",
        (_stop_at(500), _max_skulls(2),
         Option("danger_zone", "int", 1500, "an opponent this close to the target counts as near it",
                low=0, high=100000),
         Option("behind_stop_at", "int", 1200, "stop_at used when behind the leader and someone nears the target",
                low=0, high=100000), _NOISE),
    ),
    Strategy(
        "optimal-win",
        "plays to win: the two-player game solved for the chance of winning (analyze solve --objective win) "
        "picks each turn's policy from the totals; with 3 to 5 players it plays against the leader's total",
        (_NOISE,),
        in_skill_ladder=False,
    ),
    Strategy(
        "solved",
        "the solved turn policy of optimal-ev with its final-round play on (in its last turn it "
        "plays for the best chance to beat the leader); the strongest strategy that needs no whole-game solve",
        (Option("final_round", "bool", True,
                "in the final round, maximise the chance to beat the leader instead of the expected score"), _NOISE),
    ),
)
DEFAULT_STRATEGY = "solved"

FIRST_ROLL, RANDOM, THRESHOLD, SET_CHASER, OPTIMAL_EV, ENDGAME, OPTIMAL_WIN = range(7)
#: strategies the kernel plays as another: ``solved`` is optimal-ev with other defaults
PLAYED_AS = {"solved": "optimal-ev"}

# Every parameter name has one slot in the kernel's per-seat parameter row; a strategy
# without that parameter gets the value here (endgame always chases the full chest).
PARAM_SLOTS = {"stop_at": 0, "max_skulls": 1, "chase_full_chest": 2, "danger_zone": 3, "behind_stop_at": 4,
               "final_round": 5, "noise": 6}
P_STOP_AT, P_MAX_SKULLS, P_CHASE_FULL_CHEST, P_DANGER_ZONE, P_BEHIND_STOP_AT, P_FINAL_ROUND, P_NOISE = range(7)
SLOT_FALLBACK = {"stop_at": 0, "max_skulls": 2, "chase_full_chest": True, "danger_zone": 0, "behind_stop_at": 0,
                 "final_round": False, "noise": 0.0}
#: strategies that read the solved policy tables
SOLVED = ("optimal-ev", "solved")
#: the strategy that reads the solved game (``win_solver.solve.win_policy``) and the final-round tables
PLAYS_TO_WIN = "optimal-win"
#: strategies whose decisions depend on the turn's dice alone: the kernel plays them
#: from a table of every decision (``decisions.tabulate``), one lookup per roll
TABULATED = ("first-roll", "threshold", "set-chaser")


def kernel_index(name: str) -> int:
    """The strategy's number in the kernel (a strategy in ``PLAYED_AS`` is played as the other)."""
    played = PLAYED_AS.get(name, name)
    return next(i for i, strategy in enumerate(STRATEGIES) if strategy.name == played)


def param_row(name: str, params: dict) -> list[float]:
    """A seat's parameters in kernel slot order."""
    row = [0.0] * len(PARAM_SLOTS)
    for key, slot in PARAM_SLOTS.items():
        row[slot] = float(params.get(key, SLOT_FALLBACK[key]))
    return row
