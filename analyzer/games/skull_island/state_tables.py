"""The per-state tables a Skull Island run reads (:class:`kernel.Inputs`), kept for the runs to come.

A report, sweep or balance search prepares dozens of runs of one rule set, and each would stack
the same tables again (about 37 MB with the final-round policies, 50-250 ms a run). The tables
depend only on the turn's rules (:class:`rules.TurnRules`, the target among them) and on which
policies the seats play by, so the last few stacks are kept, keyed on that: the seats' order,
the seat bonus, the deck or the round cap do not touch them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from analyzer.games.base import StrategyChoice
from analyzer.games.skull_island import rules as rules_module
from analyzer.games.skull_island.components import N_CARDS
from analyzer.games.skull_island.strategies import PLAYS_TO_WIN, SOLVED, TABULATED, kernel_index, param_row

#: stacks kept: a report's standard rules, its variant and the mixes of its skill ladder
KEPT_STACKS = 4
_keeping = threading.Lock()
_recent_stacks: OrderedDict[tuple, tuple[np.ndarray, np.ndarray, int, int]] = OrderedDict()


def _table_key(seat: StrategyChoice) -> tuple | None:
    """What a seat's policy table depends on besides the rules (None: the seat decides live)."""
    if seat.name in TABULATED:
        return (seat.name, tuple(param_row(seat.name, seat.params)))
    if seat.name in SOLVED:
        return ("solved", ())
    return None


def _plays_final_round_tables(seat: StrategyChoice) -> bool:
    return (seat.name in SOLVED and bool(seat.params.get("final_round"))) or seat.name == PLAYS_TO_WIN


def _stack(rules, turn_rules, table_keys: list[tuple], final_round: bool) -> tuple[np.ndarray, np.ndarray, int, int]:
    """``(tables, thresholds, first_round_table, first_policy_table)``: the table of the turns that
    end alive, then one policy table per key in ``table_keys``' order from ``first_policy_table`` on,
    then the final-round tables when ``final_round``."""
    from analyzer.games.skull_island.decisions import tabulate
    from analyzer.games.skull_island.turn_states import alive_tables

    tables = [*alive_tables(turn_rules)]  # tables[ALIVE]
    first_policy_table = len(tables)
    for name, params in table_keys:
        if name in TABULATED:
            tables.append(tabulate(kernel_index(name), params, turn_rules))
        else:
            from analyzer.games.skull_island.turn_solver.solve import load_policy

            tables.append(load_policy(rules))
    if not final_round:
        return np.stack(tables), np.zeros(0, np.int64), -1, first_policy_table
    from analyzer.games.skull_island.turn_solver.solve import final_round_tables

    thresholds, round_tables = final_round_tables(rules)
    return np.concatenate([np.stack(tables), round_tables]), thresholds, len(tables), first_policy_table


def state_tables(rules, seats: list[StrategyChoice]) -> dict:
    """The per-state tables of a run, as :class:`kernel.Inputs` holds them: the table of
    the turns that end alive (``turn_states.alive_tables``) and the policy tables the seats play by.

    A strategy that reads only the turn's dice (``TABULATED``) is tabulated here, once
    per distinct parameter set; optimal-ev reads the solver's tables, solved once per
    rule set and cached on disk (see :mod:`turn_solver.solve`), with the final-round tables after
    them when a seat plays its last turn to beat the leader or plays to win (optimal-win,
    every turn a final-round table picked by the solved game). Other seats decide live.
    """
    turn_rules = rules_module.TurnRules.from_rules(rules)
    seat_keys = [_table_key(seat) for seat in seats]
    table_keys = sorted({key for key in seat_keys if key is not None})
    final_round = any(_plays_final_round_tables(seat) for seat in seats)
    solver_key = None
    if final_round or any(name not in TABULATED for name, _ in table_keys):
        from analyzer.games.skull_island.turn_solver.solve import rules_key

        solver_key = rules_key(rules)  # what the solver's tables depend on
    key = (turn_rules, solver_key, tuple(table_keys), final_round)
    with _keeping:  # a Dask worker prepares runs on several threads
        stack = _recent_stacks.get(key)
        if stack is None:
            stack = _recent_stacks[key] = _stack(rules, turn_rules, table_keys, final_round)
            if len(_recent_stacks) > KEPT_STACKS:
                _recent_stacks.popitem(last=False)
        else:
            _recent_stacks.move_to_end(key)
    stacked, thresholds, first_round_table, first_policy_table = stack
    seat_tables = [-1 if seat_key is None else first_policy_table + table_keys.index(seat_key)
                   for seat_key in seat_keys]
    win_choices, win_low = np.zeros((2, 1, 1, N_CARDS), np.int64), 0
    if any(seat.name == PLAYS_TO_WIN for seat in seats):
        from analyzer.games.skull_island.win_solver.solve import win_policy

        win_choices, win_low = win_policy(rules)
    return {"tables": stacked, "seat_tables": np.array(seat_tables, np.int64), "thresholds": thresholds,
            "first_round_table": first_round_table, "win_choices": win_choices, "win_low": win_low}
