"""``analyze solve --game skull-island --objective win``: the solved two-player game, as printed.

:func:`solve_win` solves (or loads) the game (:mod:`win_solver.solve`), plays the built-in
strategies against ``optimal-win`` on the same model (:mod:`win_solver.strategies`), and
simulates ``optimal-win`` against itself under the shuffled deck (``card_draw = "deck"``),
the model the solve cannot hold. The strategies and the simulation are cached beside
the solve.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.options import jsonable
from analyzer.games.skull_island.components import CARDS
from analyzer.games.skull_island.win_solver.solve import (
    BOUND_MOVE,
    BOUND_SAMPLE,
    LOWER_BOUND,
    POINTS,
    POLICY_CLASS,
    TOLERANCE,
    save,
    solve_game,
    solve_model,
    solve_stages,
    stage,
)
from analyzer.output import Rendered, atomic_path

SCHEMA = "pirate-analyzer/solve-game/1"
DECK_GAMES = 100_000
DECK_SEED = 15
SHARED_NOTE = "a shared win counts one half"
METHOD_TEXT = ("policy class: on each card the expected-score policy or a policy maximising P(turn score >= N) for "
               "some N, picked per state")


def _load_extras(path: Path) -> dict[str, Any]:
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def deck_simulation(rules: dict[str, Any], games: int) -> dict[str, Any]:
    """optimal-win against itself with the shuffled deck: seat 1's and the shared share of ``games``."""
    from analyzer import api

    result = api.simulate(game="skull-island", players=2, strategies=["optimal-win"], n=games, seed=DECK_SEED,
                          rules={**jsonable(rules), "card_draw": "deck"}).to_dict()
    seat_1 = result["seats"][0]
    return {"games": games, "seed": DECK_SEED, "seat_1": seat_1["win_rate"], "seat_1_ci": seat_1["win_rate_ci"],
            "seat_2": result["seats"][1]["win_rate"], "shared": result["tie_rate"]}


def solve_win(rules: dict[str, Any], players: int, strategy_specs: list[str] | None = None,
              deck_games: int = DECK_GAMES, bound_sample: int = BOUND_SAMPLE,
              progress: bool | None = False) -> GameSolution:
    """The solved game, the strategies against it, and the shuffled deck's simulated value.

    ``progress`` (None: on a terminal) shows the stages of a solve that is not cached. The
    cache files are written only at the end: a run interrupted earlier leaves the cache as
    it was."""
    from analyzer.engine.progress import Stages
    from analyzer.games.skull_island.win_solver.strategies import against_optimal_win, parse_specs

    choices = parse_specs(strategy_specs)
    bar = None if progress is False else Stages(solve_stages(bound_sample) + 2, "solve stages", enabled=progress)
    try:
        solved = solve_game(rules, players, bound_sample, progress=bar, keep=False)
        extras_path = solved["path"].with_suffix(".json")
        extras = _load_extras(extras_path)
        strategies = extras.setdefault("strategies", {})
        missing = [c for c in choices if c.label not in strategies]
        deck_key = f"deck-{deck_games}"
        changed = bool(missing) or deck_key not in extras
        with stage(bar, "strategies against it"):
            if missing:
                model = solved.get("solved") or solve_model(rules, LOWER_BOUND)
                strategies.update(against_optimal_win(rules, model, missing))
        with stage(bar, "shuffled-deck games"):
            if deck_key not in extras:
                extras[deck_key] = deck_simulation(rules, deck_games)
    finally:
        if bar is not None:
            bar.close()
    if not solved["cached"]:
        save(solved["path"], **solved["stored"])
    if changed:
        with contextlib.suppress(OSError):  # the solve's own cache file has warned already
            with atomic_path(extras_path) as temp:
                temp.write_text(json.dumps(extras), encoding="utf-8")
    return GameSolution(rules, players, solved, {c.label: strategies[c.label] for c in choices}, extras[deck_key])


class GameSolution(Rendered):
    """What ``analyze solve --objective win`` prints."""

    def __init__(self, rules: dict[str, Any], players: int, solved: dict[str, Any], strategies: dict[str, Any],
                 deck: dict[str, Any]):
        self.rules = rules
        self.players = players
        self.solved = solved
        self.strategies = strategies
        self.deck = deck

    def _bound(self) -> dict[str, Any]:
        gains = np.asarray(self.solved["bound_gains"]).reshape(-1, 6)  # win_solver.bound.GAIN_COLUMNS
        diff = np.maximum(gains[:, 5] - gains[:, 4], 0.0) if gains.size else np.zeros(1)
        worst = int(np.argmax(diff)) if gains.size else None
        return {"sampled_states": int(len({tuple(row[:3]) for row in gains.tolist()})), "sampled_turns": len(gains),
                "max_gain": float(diff.max()), "mean_gain": float(diff.mean()),
                "worst": None if worst is None else {
                    "phase": "last turn" if gains[worst, 0] else "before the end", "own_total": int(gains[worst, 1]),
                    "opponent_total": int(gains[worst, 2]), "card": CARDS[int(gains[worst, 3])]}}

    def to_dict(self) -> dict[str, Any]:
        s = self.solved
        seat_1, shared = float(s["seat_1"]), float(s["shared"])
        low = int(s["geometry"][0]) * POINTS
        return {
            "schema": SCHEMA, "game": "skull-island", "objective": "win", "players": self.players,
            "method": POLICY_CLASS, "method_detail": METHOD_TEXT,
            "card_model": "independent: each turn's card drawn with the deck's proportions (the solve is exact for it)",
            "value_counts": f"P(win) + P(shared) / 2: {SHARED_NOTE}",
            "rules": jsonable(self.rules),
            "game_value": {"seat_1": seat_1, "seat_2": 1.0 - seat_1 - shared, "shared": shared},
            "first_player_value": float(s["value"]),
            "states": int(s["states"]), "solve_seconds": float(s["seconds"]), "sweeps": int(s["sweeps"]),
            "tolerance": TOLERANCE,
            "policies_per_card": {CARDS[c]: int(n) for c, n in enumerate(s["policies"]) if n},
            "lower_bound": {"points": low, "exact": bool(s["floor"]), "moved_to": low + BOUND_MOVE,
                            "value_change": abs(float(s["value_moved_bound"]) - float(s["value"]))},
            "policy_class_bound": self._bound(),
            "deck_simulation": self.deck,
            "strategies": self.strategies,
            "from_cache": bool(s["cached"]), "cache_file": str(s["path"]),
        }

    def to_table(self) -> str:
        d = self.to_dict()
        value, bound, deck, lower = d["game_value"], d["policy_class_bound"], d["deck_simulation"], d["lower_bound"]
        half = (deck["seat_1_ci"][1] - deck["seat_1_ci"][0]) / 2
        lines = [
            f"Skull Island, {self.players} players, played to win (target {self.rules['target_score']}); "
            f"values are P(win) + P(shared)/2 ({SHARED_NOTE})",
            f"method: {POLICY_CLASS} ({METHOD_TEXT}); value iteration until no value moves by {TOLERANCE:g}",
            "card model: independent draws with the deck's proportions (card_draw = independent): exact",
            "",
            f"game value: seat 1 wins {value['seat_1']:.4%}, seat 2 {value['seat_2']:.4%}, shared {value['shared']:.4%}"
            f" (seat 1's value {d['first_player_value']:.4%})",
            f"shuffled deck (card_draw = deck), simulated: seat 1 wins {deck['seat_1']:.2%} ± {half:.2%}, "
            f"shared {deck['shared']:.2%} ({deck['games']:,} games, seed {deck['seed']})",
            f"{d['states']:,} states (totals pair and phase) x {len(d['policies_per_card'])} cards; "
            f"{d['sweeps']} sweeps, {'loaded from' if d['from_cache'] else 'solved in'} "
            + ("the cache" if d["from_cache"] else f"{d['solve_seconds']:.1f} s") + f" ({d['cache_file']})",
            f"lower bound: totals below {lower['points']} count as {lower['points']}"
            + (" (exact: floor_at_zero)" if lower["exact"] else
               f"; moving it to {lower['moved_to']} changes the value by {lower['value_change']:.1e}"),
            f"policy-class bound: the whole turn solved exactly at {bound['sampled_states']} sampled states "
            f"({bound['sampled_turns']} state-card pairs) wins at most {bound['max_gain']:.4f} more in that turn "
            f"(mean {bound['mean_gain']:.4f})",
            "",
            "strategies against optimal-win (exact, same model), and against themselves:",
            f"{'strategy':<30} {'seat 1':>8} {'seat 2':>8} {'self-play seat 1':>17}",
        ]
        for label, row in self.strategies.items():
            lines.append(f"{label:<30} {row['seat_1']:>8.2%} {row['seat_2']:>8.2%} "
                         f"{row['self_play']['seat_1'] + row['self_play']['shared'] / 2:>17.2%}")
        return "\n".join(lines)

    def _rows(self) -> list[dict[str, Any]]:
        return [{"strategy": label, "seat_1": row["seat_1"], "seat_2": row["seat_2"],
                 "self_play_seat_1": row["self_play"]["seat_1"], "self_play_shared": row["self_play"]["shared"]}
                for label, row in self.strategies.items()]

    def to_csv(self) -> str:
        import pandas as pd

        value = self.to_dict()["game_value"]
        rows = [{"strategy": "optimal-win", "seat_1": value["seat_1"] + value["shared"] / 2,
                 "seat_2": value["seat_2"] + value["shared"] / 2, "self_play_seat_1": value["seat_1"],
                 "self_play_shared": value["shared"]}, *self._rows()]
        return pd.DataFrame(rows).to_csv(index=False)

    def to_markdown(self) -> str:
        value = self.to_dict()["game_value"]
        lines = [f"# Skull Island, {self.players} players, played to win", "",
                 f"Game value ({POLICY_CLASS}): seat 1 {value['seat_1']:.4f}, seat 2 {value['seat_2']:.4f}, "
                 f"shared {value['shared']:.4f} ({SHARED_NOTE}).", "",
                 "| strategy | vs optimal-win, seat 1 | seat 2 |", "|---|---:|---:|"]
        lines += [f"| {r['strategy']} | {r['seat_1']:.4f} | {r['seat_2']:.4f} |" for r in self._rows()]
        return "\n".join(lines) + "\n"
