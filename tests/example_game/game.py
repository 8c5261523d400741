"""Pig's declaration: options, strategies, kernel inputs, aggregates and statistics."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.engine.memory import padded_zeros
from analyzer.games.base import PER_DRAW, Component, Game, Mechanic, Prepared, Strategy, StrategyChoice
from analyzer.games.options import Option
from tests.example_game.kernel import Inputs, Scratch, Tally, play_game


class Pig(Game):
    id = "pig"
    title = "Pig (example)"
    description = "push-your-luck dice race: roll until you hold or roll a 1; first to the target wins"
    min_players = 2
    max_players = 6
    default_players = 2
    score_unit = "points"
    length_units = ("turns", "rounds")
    options = (
        Option("target", "int", 100, "points that win the game at once", low=1, high=1000),
        Option("die_faces", "int", 6, "faces of the die; a 1 loses the turn's points", low=2, high=20),
    )
    strategies = (
        Strategy("hold-at", "rolls until the turn's points reach hold_at, then holds",
                 (Option("hold_at", "int", 20, "hold once the turn's points reach this", low=1, high=1000),)),
    )
    default_strategy = "hold-at"
    record_columns = ("busts",)
    tally_type = Tally

    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        max_turns = 200 * players
        return Prepared(
            players=players, rules=dict(rules), seats=list(seats),
            score_bins=(0, 1, rules["target"] + 1),
            length_caps={"turns": max_turns, "rounds": -(-max_turns // players)},
            inputs=Inputs(target=rules["target"], die_faces=rules["die_faces"], max_turns=max_turns,
                          hold_at=np.array([seat.params["hold_at"] for seat in seats], np.int64)),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        return {"rolls": (1,), "busts": (prepared.players,)}

    def scratch(self, prepared: Prepared) -> Scratch:
        return Scratch(totals=padded_zeros(prepared.players))

    def mechanics(self, prepared: Prepared) -> tuple[Mechanic, ...]:
        return (Mechanic("bust", "a 1 loses the turn's points"),
                Mechanic("double-digit turn", "a turn banks 10 points or more"))

    def components(self, prepared: Prepared) -> tuple[Component, ...]:
        return (Component("a rolled 1", "die face", PER_DRAW), Component("first turn", "seat"))

    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        games = int(totals["games"][0])
        return {"rolls_per_game": int(totals["rolls"][0]) / games,
                "busts_per_game": [int(b) / games for b in totals["busts"]]}

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        busts = ", ".join(f"{b:.2f}" for b in stats["busts_per_game"])
        return f"rolls per game {stats['rolls_per_game']:.2f}; busts per game by seat {busts}"


GAME = Pig()
