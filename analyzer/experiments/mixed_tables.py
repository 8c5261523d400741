"""Mixed tables: an expert at a table of casual players, and a casual player among experts.

The expert is the strongest strategy of the skill ladder; a casual player is the game's
default strategy with ``noise`` (the probability of a uniformly random legal decision)
0.1, 0.3 and 0.5. The lone player's seat is rotated over every seat; every table of one
kind meets the same games (common random numbers). Each win rate is per seat held, with
its 95% interval, against the fair share ``1 / players``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.execution import Execution
from analyzer.experiments.matchups import RunCounter, play_pairing
from analyzer.runspec import RunSpec, parse_strategy
from analyzer.stats import wilson_interval
from analyzer.verdicts import Verdict
from analyzer.verdicts.core import effect

#: the noise of the casual players' decisions
CASUAL_NOISES = (0.1, 0.3, 0.5)
#: the casual level the verdict speaks of
VERDICT_NOISE = 0.3
#: a casual player among experts who still wins at least this share of a fair share makes a family game
FAMILY_SHARE = 0.5
#: who holds the one seat of a table
EXPERT, CASUAL = "expert", "casual"


@dataclass(frozen=True)
class MixedTable:
    """One table's result: ``lone`` (expert or casual) holds one seat, the other kind every other seat."""

    lone: str
    strategy: str
    expert_noise: float
    casual_noise: float
    players: int
    games: int
    wins: int
    seat_games: int

    def to_dict(self) -> dict[str, Any]:
        return {"lone": self.lone, "strategy": self.strategy, "players": self.players,
                "expert_noise": self.expert_noise, "casual_noise": self.casual_noise,
                "win_rate": self.wins / self.seat_games,
                "win_rate_ci": list(wilson_interval(self.wins, self.seat_games)),
                "fair_share": 1 / self.players, "games": self.games}


def casual_spec(base: RunSpec, noise: float) -> str:
    return f"{base.game.default_strategy}:noise={noise:g}"


def play_mixed_tables(base: RunSpec, expert: str, n: int, execution: Execution,
                      runs: RunCounter) -> list[dict[str, Any]]:
    """Every mixed table of ``base``'s player count: the expert (a spec) alone among casual players at each
    noise of :data:`CASUAL_NOISES`, then a casual player alone among experts; ``n`` games each. No table when
    the game's default strategy takes no ``noise``."""
    game = base.game
    if "noise" not in {p.name for p in game.strategy(game.default_strategy).params}:
        return []  # no casual player to seat: the default strategy plays without noise
    expert_choice = parse_strategy(game, expert)
    expert_noise = float(expert_choice.params.get("noise", 0.0))
    tables = []
    played = {}
    for lone in (EXPERT, CASUAL):
        for noise in CASUAL_NOISES:
            casual = casual_spec(base, noise)
            alone, others = (expert, casual) if lone == EXPERT else (casual, expert)
            label = parse_strategy(game, alone).label
            if parse_strategy(game, others).label == label:
                continue  # the expert is this casual player: no mixed table
            if lone == CASUAL and base.players == 2:  # one of each: the expert's table is the casual's too
                pairing = played[noise]
            else:
                pairing = play_pairing(execution, base, [alone] + [others] * (base.players - 1), n,
                                       f"mixed-{lone}", runs)
                played[noise] = pairing
            record = pairing.records()[label]
            tables.append(MixedTable(lone, label, expert_noise, noise, base.players, pairing.games, record.wins,
                                     record.seat_games).to_dict())
    return tables


def mixed_verdict(tables: list[dict[str, Any]], expert: str, casual: str) -> Verdict | None:
    """The expert at a casual table and the casual player among experts, at :data:`VERDICT_NOISE`, in words."""
    chosen = {t["lone"]: t for t in tables if t["casual_noise"] == VERDICT_NOISE}
    if set(chosen) != {EXPERT, CASUAL}:
        return None
    strong, weak = chosen[EXPERT], chosen[CASUAL]
    fair = strong["fair_share"]
    players = strong["players"]

    def rate(table):
        low, high = table["win_rate_ci"]
        return f"{table['win_rate'] * 100:.0f}% (95% interval {low * 100:.1f}–{high * 100:.1f}%)"

    shows = strong["win_rate_ci"][0] > fair
    text = (f"an expert ({expert}) wins {rate(strong)} of {players}-player games against casual players ({casual}), "
            f"{fair * 100:.0f}% being fair: " + ("skill shows" if shows else "no measurable edge for the expert"))
    family = weak["win_rate"] >= FAMILY_SHARE * fair
    text += (f"; a casual player among experts still wins {rate(weak)}: "
             + ("family-friendly." if family else "beginners rarely win at a table of experts."))
    action = ("None: experts win more often and beginners still win games." if shows and family else
              "Consider a handicap or a catch-up rule so that a beginner still wins games against experts."
              if not family else "If the game should reward good play, make the decisions weigh more.")
    return Verdict(kind="skill", title="An expert at a casual table", text=text, action=action,
                   effect=effect(strong["win_rate"], strong["win_rate_ci"], "win rate against casual players"),
                   null=fair, yardstick=1 - fair)
