"""Tuning a strategy's numeric parameters for the highest win rate against a field.

The search (``analyze tune``) works for every game through the Game contract only:

- **Candidates**: a grid over the searched parameters (``name=low:high`` ranges are
  cut into evenly spaced points, whole numbers for int parameters; ``start:stop:step``
  and ``a,b,c`` give the values explicitly). Parameters not searched keep their
  defaults.
- **Seats**: the candidate sits in each seat in turn, for the same number of games,
  with the opponents in the other seats, so seat advantage cancels out.
- **Common random numbers**: every candidate plays the very same games (game ``i`` of
  a run draws from the stream of ``(seed, i)``), so differences between candidates are
  differences of play, not of luck.
- **Successive halving**: the budget of ``n`` games is split evenly over rounds; each
  round plays its share among the candidates still in, then keeps the better half, so
  bad candidates cost few games; the last round has two candidates: the best and the
  runner-up, compared game by game (a paired interval of the difference).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analyzer.api import parse_count
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.tuning_grid import NUMERIC, SearchParam, candidate_grid, halving_schedule, parse_tuning_param
from analyzer.games.base import Game, Strategy, StrategyChoice
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.runspec import RunSpec, parse_strategy, resolve
from analyzer.stats import Z95, wilson_interval

SCHEMA = "pirate-analyzer/tune/1"
DEFAULT_CANDIDATES = 32


# -- the search -----------------------------------------------------------------------

@dataclass
class Candidate:
    choice: StrategyChoice
    wins: int = 0
    games: int = 0
    eliminated_in: int | None = None
    #: per game played (same order for every candidate): did the candidate win?
    outcomes: list[np.ndarray] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    def summary(self, searched: list[str]) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.games)
        return {"strategy": self.choice.label, "params": {k: jsonable(self.choice.params[k]) for k in searched},
                "win_rate": self.win_rate, "win_rate_ci": [low, high], "wins": self.wins, "games": self.games,
                "eliminated_in_round": self.eliminated_in}


def tune(game: str | None = None, strategy: str | None = None, params: list[str] | None = None,
         opponents: list[str] | None = None, n: int | str = 100_000, players: int | None = None,
         rules: dict[str, Any] | None = None, scenario: str | None = None, sets: list[str] | None = None,
         seed: int | None = None, workers: int | None = None, candidates: int = DEFAULT_CANDIDATES,
         progress: bool | None = False, backend: str = "local", scheduler: str | None = None) -> TuneResult:
    """Search ``strategy``'s parameters (``params`` as given to ``--param``) for the best win rate
    (see :func:`tune_spec`); ``game``, ``scenario``, ``players``, ``rules`` and ``sets`` give the table."""
    execution = Execution.create(seed, workers, backend, scheduler, progress=progress)
    base = resolve(game=game, scenario=scenario, players=players, rules=rules, sets=sets)
    return tune_spec(base, strategy, params, opponents, n, execution, candidates)


def tune_spec(base: RunSpec, strategy: str | None, params: list[str] | None, opponents: list[str] | None,
              n: int | str, execution: Execution, candidates: int = DEFAULT_CANDIDATES) -> TuneResult:
    """Search ``strategy``'s parameters for the best win rate at ``base``'s table.

    ``opponents`` are strategy specs: one for every other seat, or one per other seat
    in seat order (default: the game's default strategy); ``n`` is the total budget
    of games; ``candidates`` bounds the grid cut from ``low:high`` ranges.
    """
    n = parse_count(n)
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 2:
        raise AnalyzerError(f"--candidates {candidates!r} is not allowed: it must be a whole number of at least 2")
    if execution.checkpoint is not None:
        raise AnalyzerError("a search is many short runs, which a checkpoint cannot resume: leave out --checkpoint")
    the_game = base.game
    if not strategy:
        raise AnalyzerError("--strategy NAME is required: the strategy whose parameters are searched")
    searched_strategy = the_game.strategy(strategy.strip())
    if not any(p.kind in NUMERIC for p in searched_strategy.params):
        raise AnalyzerError(f"strategy {searched_strategy.name} of {the_game.id} has no numeric parameter to tune")
    search = [parse_tuning_param(searched_strategy, text) for text in (params or [])]
    grid = candidate_grid(searched_strategy, search, candidates)
    field_ = _opponents(the_game, opponents, base.players)
    if len(grid) == 1:
        raise AnalyzerError(f"the --param values give one candidate ({grid[0].label}); a search needs at least two")
    schedule = halving_schedule(len(grid), n, base.players)

    pool = [Candidate(choice) for choice in grid]
    alive = list(pool)
    bar = execution.progress_bar(sum(size * games for size, games in schedule))
    start = time.perf_counter()
    rounds = []
    try:
        for index, (_, games) in enumerate(schedule):
            for candidate in alive:
                _play(base, candidate, field_, games, execution, index, bar)
            alive.sort(key=lambda c: -c.win_rate)  # stable: ties keep grid order
            keep = schedule[index + 1][0] if index + 1 < len(schedule) else len(alive)
            rounds.append({"round": index + 1, "candidates": len(alive), "games_per_candidate": games,
                           "leader": alive[0].choice.label, "leader_win_rate": alive[0].win_rate})
            for dropped in alive[keep:]:
                dropped.eliminated_in = index + 1
                dropped.outcomes = []
            alive = alive[:keep]
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - start
    return TuneResult(base, searched_strategy, search, field_, pool, alive, rounds, n, execution.seed,
                      execution.workers, wall)


def _opponents(game: Game, specs: list[str] | None, players: int) -> list[StrategyChoice]:
    specs = list(specs) if specs else [game.default_strategy]
    if len(specs) == 1:
        specs = specs * (players - 1)
    elif len(specs) != players - 1:
        raise AnalyzerError(f"{len(specs)} --opponents for {players} players: give one strategy for every other "
                            f"seat, or exactly {players - 1} (one per other seat)")
    return [parse_strategy(game, s) for s in specs]


def _play(base: RunSpec, candidate: Candidate, opponents: list[StrategyChoice], games: int,
          execution: Execution, round_index: int, bar) -> None:
    """One round of ``candidate``: ``games`` split equally over its seats, the opponents in order around it.

    Each seat's games come from a seed derived from the round and the seat, the same for
    every candidate of the round (common random numbers).
    """
    game = base.game
    per_seat = games // base.players
    for seat in range(base.players):
        seats = [*opponents[:seat], candidate.choice, *opponents[seat:]]
        prepared = game.prepare(base.rules, base.players, seats)
        won: list[np.ndarray] = []

        def collect(_chunk, rows, seat=seat, won=won):
            won.append(np.asarray(rows["winner"]) == seat + 1)

        execution.derived("tune", round_index, seat).play(game, prepared, per_seat, progress=bar, record_sink=collect)
        outcome = np.concatenate(won)
        candidate.outcomes.append(outcome)
        candidate.wins += int(outcome.sum())
        candidate.games += outcome.size


# -- the result -----------------------------------------------------------------------

class TuneResult(Rendered):
    """A finished search: the finalists (best first), every candidate's record, the rounds."""

    def __init__(self, base: RunSpec, strategy: Strategy, search: list[SearchParam], opponents: list[StrategyChoice],
                 pool: list[Candidate], finalists: list[Candidate], rounds: list[dict], budget: int, seed: int,
                 workers: int, wall_seconds: float):
        self.spec = base
        self.strategy = strategy
        self.search = search
        self.opponents = opponents
        self.pool = pool
        self.finalists = finalists
        self.rounds = rounds
        self.budget = budget
        self.seed = seed
        self.workers = workers
        self.wall_seconds = wall_seconds

    @property
    def best(self) -> Candidate:
        return self.finalists[0]

    @property
    def runner_up(self) -> Candidate:
        return self.finalists[1]

    def difference(self) -> dict[str, Any]:
        """Best minus runner-up win rate, paired game by game (both played the same games)."""
        paired = (np.concatenate(self.best.outcomes).astype(np.float64)
                  - np.concatenate(self.runner_up.outcomes).astype(np.float64))
        games = paired.size
        estimate = float(paired.mean())
        half = Z95 * float(paired.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
        low, high = estimate - half, estimate + half
        return {"estimate": estimate, "ci": [low, high], "significant": not low <= 0.0 <= high, "games": games}

    def to_dict(self) -> dict[str, Any]:
        searched = [p.option.name for p in self.search]
        return {
            "schema": SCHEMA,
            "game": self.spec.game.id,
            "scenario": self.spec.name,
            "strategy": self.strategy.name,
            "players": self.spec.players,
            "opponents": [o.label for o in self.opponents],
            "rules": jsonable(self.spec.rules),
            "n": self.budget,
            "games_played": sum(c.games for c in self.pool),
            "seed": self.seed,
            "searched": {p.option.name: jsonable(list(v)) for p, v in zip(self.search, self._grid_values(),
                                                                            strict=True)},
            "best": self.best.summary(searched),
            "runner_up": self.runner_up.summary(searched),
            "difference": self.difference(),
            "fair_win_rate": 1 / self.spec.players,
            "rounds": self.rounds,
            "candidates": [c.summary(searched) for c in sorted(self.pool, key=_finish_order)],
            "run": {"wall_seconds": self.wall_seconds, "workers": self.workers},
        }

    def _grid_values(self) -> list[list]:
        values = []
        for p in self.search:
            seen = dict.fromkeys(c.choice.params[p.option.name] for c in self.pool)
            values.append(sorted(seen))
        return values

    def to_table(self) -> str:
        d = self.to_dict()
        best, other, diff = d["best"], d["runner_up"], d["difference"]
        lines = [
            f"{self.spec.game.title}: tuning {d['strategy']} ({', '.join(d['searched'])}) against "
            f"{_field(d['opponents'])}; {d['players']} players, the candidate in every seat equally",
            f"{len(self.pool)} candidates, successive halving over {len(self.rounds)} rounds, "
            f"{d['games_played']:,} games in all, seed {d['seed']}",
            "",
            _line("best", best),
            _line("runner-up", other),
            f"{'difference':<10} {diff['estimate'] * 100:+.2f} points of win rate, 95% interval "
            f"{diff['ci'][0] * 100:+.2f} to {diff['ci'][1] * 100:+.2f} (paired over {diff['games']:,} common games"
            f"{'' if diff['significant'] else '; not significant'})",
            f"{'':<10} a fair share is {d['fair_win_rate'] * 100:.2f}%",
            "",
            frame_text(self.rounds_frame(), "table", left=["leader"]),
            "",
            f"{self.wall_seconds:.2f} s wall, {self.workers} workers",
        ]
        return "\n".join(lines)

    def rounds_frame(self) -> pd.DataFrame:
        """The rounds of the search and their leaders, as shown."""
        rows = [[str(r["round"]), str(r["candidates"]), f"{r['games_per_candidate']:,}",
                 f"{r['leader']} ({r['leader_win_rate'] * 100:.2f}%)"] for r in self.rounds]
        return pd.DataFrame(rows, columns=["round", "candidates", "games each", "leader"])

    def frame(self) -> pd.DataFrame:
        """One row per candidate, finalists first, with its searched parameters (the CSV)."""
        rows = []
        for c in self.to_dict()["candidates"]:
            rows.append({"strategy": c["strategy"], **c["params"], "win_rate": c["win_rate"],
                         "win_rate_low": c["win_rate_ci"][0], "win_rate_high": c["win_rate_ci"][1],
                         "wins": c["wins"], "games": c["games"], "eliminated_in_round": c["eliminated_in_round"]})
        return pd.DataFrame(rows)

    def candidate_frame(self) -> pd.DataFrame:
        """Every candidate, finalists first, as shown."""
        rows = []
        for c in self.to_dict()["candidates"]:
            low, high = c["win_rate_ci"]
            rows.append([c["strategy"], f"{c['win_rate'] * 100:.2f}%", f"{low * 100:.2f}–{high * 100:.2f}%",
                         f"{c['games']:,}", str(c["eliminated_in_round"] or "-")])
        return pd.DataFrame(rows, columns=["candidate", "win rate", "95% interval", "games in all rounds",
                                           "out in round"])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")

    def to_markdown(self) -> str:
        d = self.to_dict()
        diff = d["difference"]
        lines = [f"# Tuning {d['strategy']} for {self.spec.game.title}", "",
                 f"Against {_field(d['opponents'])}; {d['players']} players; {d['games_played']:,} games in all; "
                 f"seed {d['seed']}", "", frame_text(self.candidate_frame(), "markdown"), "",
                 f"Best minus runner-up: {diff['estimate'] * 100:+.2f} points of win rate (95% interval "
                 f"{diff['ci'][0] * 100:+.2f} to {diff['ci'][1] * 100:+.2f})"]
        return "\n".join(lines) + "\n"


def _finish_order(candidate: Candidate) -> tuple:
    """Finalists first, then by the round a candidate went out in (later first), then by win rate."""
    out = candidate.eliminated_in or 10**9
    return (-out, -candidate.win_rate)


def _line(title: str, c: dict) -> str:
    lo, hi = c["win_rate_ci"]
    return (f"{title:<10} {c['strategy']}: win rate {c['win_rate'] * 100:.2f}% "
            f"(95% interval {lo * 100:.2f}–{hi * 100:.2f}%, {c['games']:,} games over all its rounds)")


def _field(labels: list[str]) -> str:
    """The opponents in words: one label for a uniform field."""
    if len(set(labels)) == 1:
        return f"{labels[0]} in every other seat"
    return ", ".join(labels)
