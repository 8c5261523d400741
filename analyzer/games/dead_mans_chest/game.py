"""dead-mans-chest (The Game of Life: Pirates of the Caribbean – Dead Man's Chest)."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.base import Game, Prepared, StrategyChoice
from analyzer.games.dead_mans_chest import rules as dmc_rules
from analyzer.games.dead_mans_chest import stats as dmc_stats
from analyzer.games.dead_mans_chest.layout import (
    EVENTS,
    INVARIANTS,
    N_VALUE_PARTS,
    Board,
    KernelRules,
    Seats,
    new_state,
)
from analyzer.games.dead_mans_chest.strategies import DEFAULT_STRATEGY, STRATEGIES, seat_arrays

#: final values from -$20,000 to $130,000 in $250 bins (outside: the end bins)
SCORE_BINS = (-20000, 250, 600)
#: ``Prepared.scalars`` key that switches the kernel's invariant checks on (tests)
CHECK_INVARIANTS = "check_invariants"


class DeadMansChest(Game):
    id = "dead-mans-chest"
    title = "The Game of Life: Pirates of the Caribbean – Dead Man's Chest"
    description = ("roll-and-move with choices: captains, ships, mascots, raids and LIFE tiles; "
                   "highest final value wins")
    min_players = 2
    max_players = 6
    default_players = 4
    score_unit = "dollars"
    length_units = ("rounds", "turns")
    options = dmc_rules.OPTIONS
    strategies = STRATEGIES
    default_strategy = DEFAULT_STRATEGY
    record_columns = EVENTS

    def check_rules(self, rules: dict[str, Any], players: int) -> None:
        dmc_rules.check_rules(rules, players)

    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        components = dmc_rules.check_rules(rules, players)
        board = components.board(rules["loot_multiplier"], dmc_rules.forced_route(rules))
        max_turns = rules["max_turns"]
        return Prepared(
            players=players,
            rules=dict(rules),
            seats=list(seats),
            score_bins=SCORE_BINS,
            length_caps={"rounds": -(-max_turns // players), "turns": max_turns},
            arrays={**{f"board_{k}": v for k, v in board._asdict().items()},
                    **{f"seats_{k}": v for k, v in seat_arrays(seats)._asdict().items()}},
            scalars={
                "kernel_rules": dmc_rules.kernel_rules(rules, components)._asdict(),
                CHECK_INVARIANTS: False,
                **dmc_stats.component_names(components),
            },
        )

    def tables(self, prepared: Prepared) -> tuple[Board, KernelRules, Seats]:
        """The kernel's board, rules and seats of a prepared run (the arrays are copies,
        so threads playing chunks at the same time share nothing)."""
        arrays = prepared.arrays
        board = Board(**{k: arrays[f"board_{k}"].copy() for k in Board._fields})
        seats = Seats(**{k: arrays[f"seats_{k}"].copy() for k in Seats._fields})
        rules = KernelRules(**{**prepared.scalars["kernel_rules"], "check": bool(prepared.scalars[CHECK_INVARIANTS])})
        return board, rules, seats

    def run_chunk(self, prepared: Prepared, seed: int, first_game: int, n_games: int, record: bool = False):
        from analyzer.games.dead_mans_chest.kernel import Aggregates, Records, play_chunk
        from analyzer.games.dead_mans_chest.match import make_match

        players = prepared.players
        board, rules, seats = self.tables(prepared)
        m = make_match(board, rules, seats, new_state(board, players))
        n_captains = board.captains.shape[0]
        n_routes = board.route_start.shape[0]
        low, width, bins = prepared.score_bins

        def zeros(*shape):
            return np.zeros(shape, np.int64)

        agg = Aggregates(
            games=zeros(1), wins=zeros(players), ties=zeros(players), tie_games=zeros(1), capped=zeros(1),
            score_sum=zeros(players), score_sq=zeros(players), score_hist=zeros(players, bins),
            length_rounds=zeros(prepared.length_caps["rounds"] + 1),
            length_turns=zeros(prepared.length_caps["turns"] + 1),
            value_parts_sum=zeros(players, N_VALUE_PARTS),
            captain_games=zeros(n_captains), captain_wins=zeros(n_captains), captain_ties=zeros(n_captains),
            captain_value_sum=zeros(n_captains), captain_value_sq=zeros(n_captains),
            route_games=zeros(n_routes), route_wins=zeros(n_routes), route_ties=zeros(n_routes),
            route_value_sum=zeros(n_routes), route_value_sq=zeros(n_routes),
            ship_games=zeros(board.ships.shape[0] + 1), ship_wins=zeros(board.ships.shape[0] + 1),
            mascot_games=zeros(board.mascot_fee.shape[0]), mascot_wins=zeros(board.mascot_fee.shape[0]),
            events_sum=zeros(len(EVENTS)), events_sq=zeros(len(EVENTS)),
            invariant_violations=zeros(len(INVARIANTS)),
        )
        rows = n_games if record else 0
        rec = Records(winner=zeros(rows), scores=zeros(rows, players), rounds=zeros(rows), turns=zeros(rows),
                      capped=zeros(rows), events=zeros(rows, len(EVENTS)))
        play_chunk(m, np.uint64(seed), first_game, n_games, agg, rec, zeros(players), zeros(players, N_VALUE_PARTS),
                   low, width)
        aggregates = agg._asdict()
        if not rules.check:
            del aggregates["invariant_violations"]
        if not record:
            return aggregates, None
        columns = {"winner": rec.winner}
        for seat in range(players):
            columns[f"score_{seat + 1}"] = rec.scores[:, seat]
        columns.update(length_rounds=rec.rounds, length_turns=rec.turns, capped=rec.capped)
        for e, name in enumerate(EVENTS):
            columns[name] = rec.events[:, e]
        return aggregates, columns

    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        return dmc_stats.game_stats(totals, prepared)

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        return dmc_stats.format_table(stats)
