"""The built-in strategies against ``optimal-win``, exactly, on the win solver's model.

A strategy whose turn play can be tabulated is a :class:`win_solver.model.Side`: one outcome
distribution per card (``first-roll``, ``random``, ``threshold``, ``set-chaser``,
``optimal-ev``), or, for ``optimal-ev`` with ``final_round``, the policy class with its
choice: the expected-score policy, and in its last turn the final-round policy for the
points it needs to beat the leader (as the kernel plays it). ``endgame`` decides from
the totals live and is not tabulated. Each strategy plays ``optimal-win`` from either
seat (:func:`win_solver.values.play_values`), and itself (its first-player advantage).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.base import StrategyChoice
from analyzer.games.skull_island.strategies import PLAYED_AS
from analyzer.games.skull_island.turn_solver.solve import EXPECTED_LABEL, SOLVABLE_STRATEGIES, refuse_noise
from analyzer.games.skull_island.win_solver.solve import POINTS, play, start_state

#: the strategies evaluated by default
DEFAULT_SPECS = (*SOLVABLE_STRATEGIES, EXPECTED_LABEL, f"{EXPECTED_LABEL}:final_round=true")


def parse_specs(specs: list[str] | None) -> list[StrategyChoice]:
    """Strategy specs to play against optimal-win (default ``DEFAULT_SPECS``); refuses the others by name."""
    from analyzer.games.skull_island import GAME
    from analyzer.runspec import parse_strategy

    choices = [parse_strategy(GAME, spec) for spec in (specs or DEFAULT_SPECS)]
    for choice in choices:
        if PLAYED_AS.get(choice.name, choice.name) not in (*SOLVABLE_STRATEGIES, EXPECTED_LABEL):
            raise AnalyzerError(f"strategy {choice.name} cannot be evaluated by the win solver: its turn play cannot "
                                f"be tabulated; it evaluates {', '.join(SOLVABLE_STRATEGIES)}, {EXPECTED_LABEL}")
        refuse_noise(choice)
    return list({c.label: c for c in choices}.values())


def final_round_choices(solved: dict[str, Any]) -> np.ndarray:
    """The class choices of ``optimal-ev:final_round=true``: the expected-score policy (0),
    in the last turn the final-round policy for the points needed to beat the leader."""
    low, top, high, _ = solved["geometry"]
    choices = np.zeros_like(solved["choices"])
    x = np.arange(low, top)[:, None]
    y = np.arange(top, high)[None, :]
    tables = np.searchsorted(solved["thresholds"], (y - x + 1) * POINTS)
    for card, member_of in solved["member_of"].items():
        choices[1, :, top - low:, card] = member_of[tables]
    return choices


def strategy_side(rules: dict[str, Any], solved: dict[str, Any], choice: StrategyChoice):
    """``(side, choices)`` of a strategy on the solved model."""
    from analyzer.games.skull_island.turn_solver.solve import load_policy, strategy_policy
    from analyzer.games.skull_island.turn_solver.strategies import table_policy

    model = solved["model"]
    expected_score_play = PLAYED_AS.get(choice.name, choice.name) == EXPECTED_LABEL
    if expected_score_play and choice.params.get("final_round"):
        return solved["side"], final_round_choices(solved)
    if expected_score_play:
        expected = load_policy(rules)
        policies = {card: [table_policy(expected[card])] for card in model.cards}
    else:
        policies = {card: [strategy_policy(choice, card, model.turn_rules)] for card in model.cards}
    return model.side(policies), np.zeros_like(solved["choices"])


def against_optimal_win(rules: dict[str, Any], solved: dict[str, Any],
                        choices: list[StrategyChoice]) -> dict[str, dict[str, Any]]:
    """Label -> ``seat_1``, ``seat_2`` (its P(win) + P(shared)/2 against optimal-win from that
    seat) and ``self_play`` (seat 1's P(win), P(shared) when both seats play it)."""
    state = start_state(rules, solved["geometry"][0])
    best = (solved["side"], solved["choices"])
    results = {}
    for choice in choices:
        side, picks = strategy_side(rules, solved, choice)
        wins, shared = play(solved, [side, best[0]], [picks, best[1]])
        self_wins, self_shared = play(solved, [side, side], [picks, picks])
        results[choice.label] = {
            "seat_1": float(wins[(0, *state)] + shared[(0, *state)] / 2),
            "seat_2": float(1.0 - wins[(1, *state)] - shared[(1, *state)] / 2),
            "self_play": {"seat_1": float(self_wins[(0, *state)]), "shared": float(self_shared[(0, *state)]),
                          "seat_2": float(1.0 - self_wins[(0, *state)] - self_shared[(0, *state)])},
        }
    return results
