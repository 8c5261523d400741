"""Doubloons' strategies: names, parameters, defaults and descriptions.

The decisions themselves are jitted in :mod:`decisions` (the search of ``lookahead`` in
:mod:`lookahead`); a strategy reaches the kernel as its index in ``STRATEGIES`` plus one
row of parameters in ``PARAM_SLOTS`` order.
"""

from analyzer.games.base import Strategy
from analyzer.games.options import Option, defaults

_NOISE = Option("noise", "float", 0.0, "the probability that a decision is a uniformly random legal one",
                low=0, high=1)
_TAKE_PARROT = Option("take_parrot", "bool", True,
                      "take a parrot from the discard pile when it has none in play (see parrot_chain_limit)")
_PARROT_CHAIN_LIMIT = Option(
    "parrot_chain_limit", "int", 0,
    "take a parrot from the discard pile only while at most this many chained parrots can still come "
    "(neither lying on a parrot nor in the discard pile it remembers): a parrot in play can be chained",
    low=0, high=100)
_COUNT_DISCARDS = Option("count_discards", "bool", True,
                         "remember the discard pile when judging which cards are still to come "
                         "(false: only the open chests and the chains in play count as seen)")

#: the strategies that decide by rules of thumb, not by search (a lookahead's possible bases)
HEURISTICS = (
    Strategy("random", "uniformly random legal decisions: deck or discard, the parrot's chest, "
                       "the pirate's swap, the chains' targets, what the key unlocks", (_NOISE,)),
    Strategy(
        "greedy",
        "takes the discard whenever it opens a chest (a key when something of its own is chained); "
        "puts the parrot on the chest whose number is least likely to come; swaps its parrot away with the "
        "pirate, else takes the number least likely to come; chains and unlocks the chests whose numbers "
        "are most likely to come",
        (_TAKE_PARROT, _PARROT_CHAIN_LIMIT, _COUNT_DISCARDS, _NOISE),
    ),
    Strategy(
        "saboteur",
        "greedy, but aims the pirate and the chains at the rival closest to winning; with kraken_hunt_at, when "
        "that rival plays next and is about to finish while a kraken can still come, it draws from the deck "
        "hoping for one rather than take a parrot or a key (never rather than a number that opens a chest)",
        (_TAKE_PARROT, _PARROT_CHAIN_LIMIT, _COUNT_DISCARDS,
         Option("match_point_bonus", "float", 2.0,
                "a rival one round win from the match counts as this many chests closer to winning",
                low=0, high=10),
         Option("kraken_hunt_at", "int", 0,
                "hunt the kraken when the next player is the rival closest to winning with at most this many "
                "chests left (0: never; hunting costs more than it gains, see docs/doubloons.md)",
                low=0, high=10),
         _NOISE),
    ),
)
OBJECTIVES = ("win", "score")
STRATEGIES = HEURISTICS + (
    Strategy(
        "lookahead",
        "searches: tries every legal choice with playouts to the end of the round, every pirate playing the "
        "base strategy and the cards it cannot see dealt at random, and plays the best on average only when fresh "
        "playouts confirm it beats the base strategy's own choice; slower than the others: at its defaults a "
        "2-player match against saboteur takes about 900 times as long as one between saboteurs",
        (Option("rollouts", "int", 64,
                "playouts per legal choice at each decision it searches (a promising choice gets 4 times as many "
                "more to confirm it)", low=1, high=10000),
         Option("base", "choice", "saboteur", "the strategy every pirate plays in the playouts, at its defaults",
                choices=tuple(s.name for s in HEURISTICS)),
         Option("evidence", "float", 2.0,
                "a promising choice replaces the base strategy's own only when fresh playouts confirm it better by "
                "more than this many standard errors (0: better on average)", low=0, high=10),
         Option("objective", "choice", "win",
                "what a playout is worth: win, 1 for the round won (shared: 1/k); score, the chests it is ahead "
                "at the round's end (the fewest an opponent still has to open, less its own)",
                choices=OBJECTIVES),
         _NOISE),
        in_skill_ladder=False,
    ),
)
DEFAULT_STRATEGY = "saboteur"

RANDOM, GREEDY, SABOTEUR, LOOKAHEAD = range(4)
SCORE = OBJECTIVES.index("score")

# Every parameter name has one slot in the kernel's per-seat parameter row; a strategy
# without that parameter gets the value in SLOT_FALLBACK.
# A choice parameter's slot holds the index of its value in CHOICE_CODES.
PARAM_SLOTS = {"take_parrot": 0, "count_discards": 1, "match_point_bonus": 2, "kraken_hunt_at": 3, "noise": 4,
               "parrot_chain_limit": 5, "rollouts": 6, "base": 7, "objective": 8, "evidence": 9}
(P_TAKE_PARROT, P_COUNT_DISCARDS, P_MATCH_POINT_BONUS, P_KRAKEN_HUNT_AT, P_NOISE, P_PARROT_CHAIN_LIMIT, P_ROLLOUTS,
 P_BASE, P_OBJECTIVE, P_EVIDENCE) = range(10)
SLOT_FALLBACK = {"take_parrot": True, "count_discards": True, "match_point_bonus": 0.0, "kraken_hunt_at": 0,
                 "noise": 0.0, "parrot_chain_limit": 100, "rollouts": 0, "base": "random", "objective": "win",
                 "evidence": 0.0}
CHOICE_CODES = {"base": tuple(s.name for s in STRATEGIES), "objective": OBJECTIVES}


def param_row(params: dict) -> list[float]:
    """A seat's parameters in kernel slot order. A lookahead's row also carries the
    defaults of its base strategy, the parameters its playouts are played with."""
    if "base" in params:
        base = next(s for s in STRATEGIES if s.name == params["base"])
        params = {**defaults(base.params), **params}
    row = []
    for key in PARAM_SLOTS:
        value = params.get(key, SLOT_FALLBACK[key])
        row.append(float(CHOICE_CODES[key].index(value) if key in CHOICE_CODES else value))
    return row
