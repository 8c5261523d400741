"""Skull Island's two-player game solved for the chance of winning (``analyze solve --objective win``).

The model: each turn's fortune card is drawn afresh with the deck's proportions (rule
option ``card_draw = "independent"``; a whole-game solve cannot remember a shuffled
deck), totals are counted in hundreds, and a game state is (the mover's total, the
opponent's, whether the opponent is the trigger and this is the mover's last turn),
see :mod:`win_solver.values`. The value of a state is P(the mover wins) + P(shared win) / 2.

The method (``POLICY_CLASS``): on each card the mover plays one turn policy of a
class: the expected-score policy and, for every score N, the policy that maximises
P(turn score >= N) (the final-round tables of :func:`solver.final_round_tables`, one
per distinct table). Each policy's exact outcome distribution comes from
:mod:`win_solver.turns`; value iteration over the score pairs then picks, per state and
card, the policy of the class that wins most (:func:`win_solver.values.solve_values`).
What the restriction may lose is measured by solving the whole turn exactly (every
turn policy, :func:`turn_solver.core.optimize`) for the utility of its ends at a sample of
states (:mod:`win_solver.bound`).

Totals below ``LOWER_BOUND`` count as ``LOWER_BOUND`` (with ``floor_at_zero`` the
bound is 0 and exact); every solve also solves with the bound ``BOUND_MOVE`` lower and
reports how much the game value moved.

The solve is cached like the turn policies (:func:`solver.cache_folder`), keyed by the
rules that change a turn or the end and by the code the values depend on. The kernel's
``optimal-win`` reads :func:`win_policy`.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError, safe_text
from analyzer.games.options import jsonable
from analyzer.games.skull_island.cache_files import cache_key, hold_arrays, load_arrays, save_arrays
from analyzer.games.skull_island.components import N_CARDS
from analyzer.games.skull_island.turn_solver.solve import DECK_OPTIONS, TURN_OPTIONS, cache_folder
from analyzer.games.skull_island.win_solver.model import Side, TurnModel, class_side, class_tables, stack
from analyzer.games.skull_island.win_solver.turns import POINTS

POLICY_CLASS = "policy-class"
SOLVED_PLAYERS = 2
LOWER_BOUND = -5000
BOUND_MOVE = -2000
TOLERANCE = 1e-12
MAX_SWEEPS = 100_000
#: states sampled for the restriction's bound (see :mod:`win_solver.bound`)
BOUND_SAMPLE = 1200
#: rule options that change the end of the game or its start (besides those of a turn)
END_OPTIONS = ("target_score", "floor_at_zero", "tie_rule", "seat_bonus")
#: rule options the solve does not depend on: the card model is ``independent`` whatever
#: ``card_draw`` says; games run to their end (max_rounds, at least ``MIN_ROUNDS``)
IGNORED_OPTIONS = ("card_draw", "max_rounds", "allow_more_players")
MIN_ROUNDS = 1000
#: the largest target solved (about 1.1 million states; the default 6000 has 23,760)
MAX_TARGET = 50_000
#: rule options counted in points: the solve counts totals in hundreds
POINT_OPTIONS = ("set_values", "coin_diamond_value", "full_chest_bonus", "sea_battle_values", "island_penalty",
                 "peace_penalty", "seat_bonus")
#: the files whose code the solved values depend on (part of the cache key), in the game's package
_SOURCES = ("components.py", "dice.py", "rules.py", "scoring.py", "decisions.py", "kernel.py",
            "steps.py", "strategies.py",
            "turn_solver/solve.py", "turn_states.py", "turn_solver/core.py", "turn_solver/strategies.py",
            "win_solver/turns.py", "win_solver/values.py", "win_solver/solve.py")


# -- what the solve honours -----------------------------------------------------------------

def check_rules(rules: dict[str, Any], players: int) -> None:
    """Refuse, by name, a player count or a rule option the solve cannot honour."""
    if players != SOLVED_PLAYERS:
        raise AnalyzerError(f"--objective win solves the {SOLVED_PLAYERS}-player game; got {players} players "
                            f"(give --players {SOLVED_PLAYERS})")
    known = {*TURN_OPTIONS, *DECK_OPTIONS, *END_OPTIONS, *IGNORED_OPTIONS}
    unknown = sorted(set(rules) - known)
    if unknown:
        raise AnalyzerError(f"the win solver cannot honour rule option {unknown[0]!r}: it does not know how it "
                            f"changes the game")
    if rules["tie_rule"] != "shared":
        raise AnalyzerError("the win solver cannot honour rule option 'tie_rule' = 'extra-round': it solves "
                            "'shared' ties only")
    if rules["max_rounds"] < MIN_ROUNDS:
        raise AnalyzerError(f"the win solver cannot honour rule option 'max_rounds' below {MIN_ROUNDS}: it plays "
                            f"games to their end")
    for name in POINT_OPTIONS:
        value = rules[name]
        if any(v % POINTS for v in (value if isinstance(value, (list, tuple)) else [value])):
            raise AnalyzerError(f"the win solver cannot honour rule option {name!r} = {value}: it counts totals in "
                                f"hundreds, so points must be multiples of {POINTS}")
    if rules["target_score"] > MAX_TARGET:
        raise AnalyzerError(f"the win solver cannot honour rule option 'target_score' above {MAX_TARGET}: its states "
                            f"grow with the target's square")
    if rules["seat_bonus"] >= rules["target_score"]:
        raise AnalyzerError("the win solver cannot honour rule option 'seat_bonus' at or above 'target_score'")


def solve_key(rules: dict[str, Any]) -> str:
    """The cache key: the rules that change a turn or the end, and the code the values depend on."""
    relevant = {name: rules[name] for name in (*TURN_OPTIONS, *DECK_OPTIONS, *END_OPTIONS)}
    return cache_key(json.dumps(jsonable(relevant), sort_keys=True), _SOURCES)


def geometry(rules: dict[str, Any], lower_bound: int, largest_gain: int) -> tuple[int, int, int, bool]:
    """``(low, top, high, floor)`` of the solved states, in hundreds (see :mod:`win_solver.values`)."""
    bonus = rules["seat_bonus"] // POINTS
    floor = bool(rules["floor_at_zero"])
    low = (0 if floor else lower_bound // POINTS) + min(0, bonus)
    top = math.ceil(rules["target_score"] / POINTS)
    return low, top, top + max(1, largest_gain), floor


# -- the cache ---------------------------------------------------------------------------------

def save(path: Path, **arrays: np.ndarray) -> None:
    """Write the solve's cache file; one that cannot be written costs only the cache (one warning line)."""
    error = save_arrays(path, **arrays)
    if error is not None:
        print(f"warning: the win solver's cache {safe_text(str(path))} cannot be written "
              f"({error.strerror or error}); the solve is not kept", file=sys.stderr)


# -- the solve ---------------------------------------------------------------------------------

#: the stages of a solve shown by its progress bar: the model (built once, whatever the lower
#: bound), the values per lower bound solved, then the checks
MODEL_STAGES = ("turn policies", "turn outcomes")
VALUE_STAGE = "value iteration"
MOVED_STAGE = "value iteration, lower bound moved"
CHECK_STAGES = ("play", "restriction bound")


def stage(progress, name: str):
    """``progress.stage(name)``, or nothing without a bar."""
    return contextlib.nullcontext() if progress is None else progress.stage(name)


def build_model(rules: dict[str, Any], progress=None) -> dict[str, Any]:
    """The policy class and the exact outcomes of its turn policies: what a solve needs whatever its
    lower bound (``progress``: a :class:`~analyzer.engine.progress.Stages` bar to advance by
    ``MODEL_STAGES``)."""
    with stage(progress, MODEL_STAGES[0]):
        model = TurnModel(rules)
        thresholds, tables, members, member_of = class_tables(rules, model.cards)
    with stage(progress, MODEL_STAGES[1]):
        side = class_side(rules, model, tables, members)
    table_of = np.zeros((N_CARDS, side.dist.shape[1]), np.int64)
    for card, js in members.items():
        table_of[card, :len(js)] = js
    return {"rules": rules, "model": model, "side": side, "thresholds": thresholds, "members": members,
            "member_of": member_of, "table_of": table_of}


def solve_values_at(built: dict[str, Any], lower_bound: int, progress=None, name: str = VALUE_STAGE) -> dict[str, Any]:
    """The built model (:func:`build_model`) solved with this lower bound: its values, choices and
    geometry added (``progress`` advances by one stage, ``name``)."""
    from analyzer.engine.progress import wait_interruptibly
    from analyzer.games.skull_island.win_solver.values import solve_values

    side = built["side"]
    low, top, high, floor = geometry(built["rules"], lower_bound, side.largest_gain)
    by_outcome = np.ascontiguousarray(side.dist.transpose(0, 2, 1))  # [card, outcome, policy]
    with stage(progress, name):
        values, choices, sweeps, change = wait_interruptibly(
            solve_values, built["model"].probs, side.own, side.opponent, side.n_outcomes, by_outcome, side.n_policies,
            low, top, high, floor, TOLERANCE, MAX_SWEEPS, progress=progress)
    return {**built, "values": values, "choices": choices, "sweeps": sweeps, "change": change,
            "geometry": (low, top, high, floor)}


def solve_model(rules: dict[str, Any], lower_bound: int, progress=None) -> dict[str, Any]:
    """Solve over the policy class with this lower bound: the values, choices and class
    (``progress`` advances by ``MODEL_STAGES`` and ``VALUE_STAGE``)."""
    return solve_values_at(build_model(rules, progress), lower_bound, progress)


def start_state(rules: dict[str, Any], low: int) -> tuple[int, int, int]:
    """Seat 1 to move at the start: (phase, x - low, y - low)."""
    return 0, -low, rules["seat_bonus"] // POINTS - low


def play(solved: dict[str, Any], sides: list[Side], choices: list[np.ndarray],
         progress=None) -> tuple[np.ndarray, np.ndarray]:
    """Side 0 against side 1, each by its choices: ``(wins, shared)`` per side to move and state."""
    from analyzer.engine.progress import wait_interruptibly
    from analyzer.games.skull_island.win_solver.values import play_values

    low, top, high, floor = solved["geometry"]
    own, opponent, n_outcomes, dist = stack(sides)
    wins, shared, _ = wait_interruptibly(play_values, solved["model"].probs, own, opponent, n_outcomes, dist,
                                         np.stack(choices), low, top, high, floor, TOLERANCE, MAX_SWEEPS,
                                         progress=progress)
    return wins, shared


def solve_stages(bound_sample: int) -> int:
    """How many stages a solve that is not cached shows (see :func:`solve_game`): the model once, the
    values once per lower bound, and the checks."""
    return len(MODEL_STAGES) + (2 if bound_sample > 0 else 1) + len(CHECK_STAGES)


def solve_game(rules: dict[str, Any], players: int, bound_sample: int = BOUND_SAMPLE, progress=None,
               keep: bool = True) -> dict[str, Any]:
    """The solved game, cached: value, size, time, the policy as the kernel reads it
    (``win_choices``: final-round table index per phase, totals and card) and, with
    ``bound_sample`` > 0, the checks: the lower bound moved, and the restriction's bound
    on that many sampled states (a cached solve with fewer is solved again).

    ``progress``: a :class:`~analyzer.engine.progress.Stages` bar of :func:`solve_stages`
    stages. ``keep=False`` leaves the cache file to the caller (:func:`save` of the result's
    ``stored``), so that a command interrupted later leaves the cache as it was."""
    check_rules(rules, players)
    path = cache_folder() / f"game-win-{solve_key(rules)}.npz"
    stored = load_arrays(path)
    if stored is not None and STORED <= set(stored) and int(stored["bound_sample"]) >= bound_sample:
        return {**stored, "cached": True, "path": path}
    from analyzer.games.skull_island.win_solver.bound import restriction_gains

    start = time.perf_counter()
    solved = solve_model(rules, LOWER_BOUND, progress)
    low, top, high, floor = solved["geometry"]
    state = start_state(rules, low)
    side = solved["side"]
    with stage(progress, CHECK_STAGES[0]):
        wins, shared = play(solved, [side, side], [solved["choices"], solved["choices"]], progress)
    seconds = time.perf_counter() - start
    checked = bound_sample > 0 and not floor
    moved = solve_values_at(solved, LOWER_BOUND + BOUND_MOVE, progress, MOVED_STAGE)["values"] if checked else None
    if bound_sample > 0 and not checked:
        with stage(progress, MOVED_STAGE):  # floor_at_zero: the bound is exact, nothing to move
            pass
    result = {
        "seat_1": np.float64(wins[(0, *state)]), "shared": np.float64(shared[(0, *state)]),
        "value": np.float64(solved["values"][state]),
        "value_moved_bound": np.float64(moved[start_state(rules, low + BOUND_MOVE // POINTS)] if checked
                                        else solved["values"][state]),
        "geometry": np.array([low, top, high], np.int64), "floor": np.bool_(floor),
        "states": np.int64((top - low) * (top - low) + (top - low) * (high - top)),
        "sweeps": np.int64(solved["sweeps"]), "seconds": np.float64(seconds),
        "win_choices": _table_choices(solved),
        "policies": np.array([len(solved["members"].get(c, [])) for c in range(N_CARDS)], np.int64),
        "bound_sample": np.int64(bound_sample),
    }
    with stage(progress, CHECK_STAGES[1]):
        result["bound_gains"] = restriction_gains(solved, bound_sample)
    if keep:
        save(path, **result)
    else:
        hold_arrays(path, **result)  # what this process reads as the cache until the caller saves
    return {**result, "cached": False, "path": path, "solved": solved, "stored": result}


#: what a cached solve holds (a file without all of it is solved again)
STORED = frozenset(("seat_1", "shared", "value", "value_moved_bound", "geometry", "floor", "states", "sweeps",
                    "seconds", "win_choices", "policies", "bound_sample", "bound_gains"))


def _table_choices(solved: dict[str, Any]) -> np.ndarray:
    """The solved choices as final-round table indices (what the kernel's ``win_table`` adds)."""
    choices = solved["choices"]
    table_of = solved["table_of"]
    cards = np.arange(N_CARDS)[None, None, None, :]
    return table_of[cards, choices].astype(np.int16)


def win_policy(rules: dict[str, Any]) -> tuple[np.ndarray, int]:
    """``(choices, low)`` for the kernel's :func:`win_solver.values.win_table` (solved for 2 players,
    played by 3 to 5 against the leader).

    A solve in the cache serves (:func:`solve_game`'s). Else only the values are solved: the kernel
    needs the choices alone, not the solve's checks nor its exact chances to win and to share (the
    play stage, a fifth of a solve), and the policy is kept as ``win-policy-<key>.npz``."""
    check_rules(rules, SOLVED_PLAYERS)
    key = solve_key(rules)
    policy_path = cache_folder() / f"win-policy-{key}.npz"
    for path in (cache_folder() / f"game-win-{key}.npz", policy_path):
        stored = load_arrays(path)
        if stored is not None and {"win_choices", "geometry"} <= set(stored):
            return stored["win_choices"].astype(np.int64), int(stored["geometry"][0])
    solved = solve_model(rules, LOWER_BOUND)
    low, top, high, _ = solved["geometry"]
    choices = _table_choices(solved)
    save(policy_path, win_choices=choices, geometry=np.array([low, top, high], np.int64))
    return choices.astype(np.int64), int(low)
