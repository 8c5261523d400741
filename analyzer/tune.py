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

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.engine import runner
from analyzer.engine.progress import Progress
from analyzer.errors import AnalyzerError
from analyzer.experiments import derived_seed
from analyzer.games.base import Game, Strategy, StrategyChoice, canonical_label
from analyzer.games.options import Option, jsonable
from analyzer.output import Rendered
from analyzer.runspec import RunSpec, parse_strategy, resolve
from analyzer.stats import Z95, wilson_interval

SCHEMA = "pirate-analyzer/tune/1"
DEFAULT_CANDIDATES = 32
NUMERIC = ("int", "float")
PARAM_FORMS = "name=low:high, name=start:stop:step or name=a,b,c"


# -- the parameters searched ---------------------------------------------------------

@dataclass(frozen=True)
class SearchParam:
    """One searched parameter: an explicit list of values, or a range to cut into points."""

    option: Option
    values: tuple = ()
    low: float | None = None
    high: float | None = None

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def size(self) -> float:
        """How many distinct values the parameter can take in the search."""
        if not self.is_range:
            return len(self.values)
        if self.option.kind == "int":
            return self.high - self.low + 1
        return 1 if self.low == self.high else math.inf

    def points(self, count: int) -> tuple:
        """``count`` evenly spaced values of the range (fewer when the range is smaller)."""
        if not self.is_range:
            return self.values
        if self.option.kind == "int":
            return tuple(sorted({int(round(v)) for v in np.linspace(self.low, self.high, count)}))
        if count < 2 or self.low == self.high:
            return (float(self.low),)
        step = (self.high - self.low) / (count - 1)
        decimals = max(0, 1 - math.floor(math.log10(step)))
        return tuple(sorted({round(float(v), decimals) for v in np.linspace(self.low, self.high, count)}))


def parse_search_param(strategy: Strategy, text: str) -> SearchParam:
    """``name=low:high``, ``name=start:stop:step`` or ``name=a,b,c`` for one parameter of ``strategy``."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise AnalyzerError(f"--param {text!r} must be written {PARAM_FORMS}")
    table = {p.name: p for p in strategy.params}
    if name not in table:
        allowed = ", ".join(table) if table else "none"
        raise AnalyzerError(f"strategy {strategy.name} has no parameter {name!r}; parameters: {allowed}")
    option = table[name]
    where = f"--param {name}"
    if ":" not in spec:
        values = tuple(option.parse_text(v, where) for v in spec.split(",") if v.strip())
        if not values:
            raise AnalyzerError(f"--param {text!r} gives no values")
        return SearchParam(option, values=tuple(dict.fromkeys(values)))
    if option.kind not in NUMERIC:
        raise AnalyzerError(f"--param {name}: {name} is a {option.kind} parameter, not a number; "
                            f"give its values as {name}=a,b")
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3) or not all(parts):
        raise AnalyzerError(f"--param {text!r} must be written {PARAM_FORMS}")
    low, high = (option.parse_text(p, where) for p in parts[:2])
    if low > high:
        raise AnalyzerError(f"--param {text!r} is an empty range: {low} is above {high}")
    if len(parts) == 2:
        return SearchParam(option, low=low, high=high)
    step = _positive_step(option, parts[2], text)
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    return SearchParam(option, values=tuple(option.validate(low + i * step, where) for i in range(count)))


def _positive_step(option: Option, text: str, whole: str):
    try:
        step = int(text) if option.kind == "int" else float(text)
    except ValueError:
        step = None
    if step is None or not step > 0 or not math.isfinite(step):
        kind = "a whole number" if option.kind == "int" else "a number"
        raise AnalyzerError(f"--param {whole!r}: the step must be {kind} above 0")
    return step


def candidate_grid(strategy: Strategy, params: list[SearchParam], budget: int) -> list[StrategyChoice]:
    """Every combination of the searched values; ranges share ``budget`` candidates.

    Explicit value lists are taken whole; the ranges get about ``budget`` divided by
    the lists' combinations between them, the smallest range first (a range with
    fewer values than its share gives all of them and leaves the rest to the others).
    """
    if not params:
        raise AnalyzerError(f"give at least one --param to search ({PARAM_FORMS})")
    names = [p.option.name for p in params]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise AnalyzerError(f"--param {sorted(repeated)[0]} is given more than once")
    fixed = math.prod(len(p.values) for p in params if not p.is_range)
    remaining = max(1, budget // fixed)
    ranges = sorted((p for p in params if p.is_range), key=lambda p: p.size())
    values: dict[str, tuple] = {p.option.name: p.values for p in params if not p.is_range}
    for i, p in enumerate(ranges):
        share = max(2, int(math.floor(remaining ** (1 / (len(ranges) - i)) + 1e-9)))
        values[p.option.name] = p.points(int(min(share, p.size())))
        remaining = max(1, remaining // len(values[p.option.name]))
    defaults = {p.name: p.default for p in strategy.params}
    seen: dict[str, StrategyChoice] = {}
    for combination in itertools.product(*(values[n] for n in names)):
        chosen = {**defaults, **dict(zip(names, combination, strict=True))}
        label = canonical_label(strategy, chosen)
        seen.setdefault(label, StrategyChoice(strategy.name, chosen, label))
    return list(seen.values())


# -- the schedule ---------------------------------------------------------------------

def halving_schedule(candidates: int, budget: int, players: int) -> list[tuple[int, int]]:
    """(candidates in, games per candidate) for each round of the search.

    Candidates halve (rounded up) each round until two are left; every round gets an
    equal share of ``budget``; a candidate's games are a multiple of ``players`` (one
    share per seat).
    """
    sizes = [candidates]
    while sizes[-1] > 2:
        sizes.append(-(-sizes[-1] // 2))
    per_round = budget // len(sizes)
    schedule = [(size, per_round // size // players * players) for size in sizes]
    if schedule[0][1] < players:
        needed = len(sizes) * candidates * players
        raise AnalyzerError(f"--n {budget:,} is too small to search {candidates} candidates over {players} seats; "
                            f"give at least {needed:,}")
    return schedule


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
    """Search ``strategy``'s parameters (``params`` as given to ``--param``) for the best win rate.

    ``opponents`` are strategy specs: one for every other seat, or one per other seat
    in seat order (default: the game's default strategy); ``n`` is the total budget
    of games; ``candidates`` bounds the grid cut from ``low:high`` ranges.
    """
    from analyzer.api import parse_count, parse_seed

    n = parse_count(n)
    seed = parse_seed(seed)
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 2:
        raise AnalyzerError(f"--candidates {candidates!r} is not allowed: it must be a whole number of at least 2")
    base = resolve(game=game, scenario=scenario, players=players, rules=rules, sets=sets)
    the_game = base.game
    if not strategy:
        raise AnalyzerError("--strategy NAME is required: the strategy whose parameters are searched")
    searched_strategy = the_game.strategy(strategy.strip())
    if not any(p.kind in NUMERIC for p in searched_strategy.params):
        raise AnalyzerError(f"strategy {searched_strategy.name} of {the_game.id} has no numeric parameter to tune")
    search = [parse_search_param(searched_strategy, text) for text in (params or [])]
    grid = candidate_grid(searched_strategy, search, candidates)
    field_ = _opponents(the_game, opponents, base.players)
    if workers is None:
        workers = runner.default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise AnalyzerError(f"--workers {workers!r} is not allowed: it must be a whole number of at least 1")
    if len(grid) == 1:
        raise AnalyzerError(f"the --param values give one candidate ({grid[0].label}); a search needs at least two")
    schedule = halving_schedule(len(grid), n, base.players)

    pool = [Candidate(choice) for choice in grid]
    alive = list(pool)
    bar = Progress(sum(size * games for size, games in schedule), enabled=progress) if progress is not False else None
    start = time.perf_counter()
    rounds = []
    try:
        for index, (_, games) in enumerate(schedule):
            for candidate in alive:
                _play(the_game, base, candidate, field_, games, seed, index, workers, backend, scheduler, bar)
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
    return TuneResult(base, searched_strategy, search, field_, pool, alive, rounds, n, seed, workers, wall)


def _opponents(game: Game, specs: list[str] | None, players: int) -> list[StrategyChoice]:
    specs = list(specs) if specs else [game.default_strategy]
    if len(specs) == 1:
        specs = specs * (players - 1)
    elif len(specs) != players - 1:
        raise AnalyzerError(f"{len(specs)} --opponents for {players} players: give one strategy for every other "
                            f"seat, or exactly {players - 1} (one per other seat)")
    return [parse_strategy(game, s) for s in specs]


def _play(game: Game, base: RunSpec, candidate: Candidate, opponents: list[StrategyChoice], games: int, seed: int,
          round_index: int, workers: int, backend: str, scheduler: str | None, bar) -> None:
    """One round of ``candidate``: ``games`` split equally over its seats, the opponents in order around it."""
    per_seat = games // base.players
    for seat in range(base.players):
        seats = [*opponents[:seat], candidate.choice, *opponents[seat:]]
        prepared = game.prepare(base.rules, base.players, seats)
        won: list[np.ndarray] = []

        def collect(_chunk, rows, seat=seat, won=won):
            won.append(np.asarray(rows["winner"]) == seat + 1)

        round_seed = derived_seed(seed, "tune", round_index, seat)
        runner.execute(game, prepared, per_seat, round_seed, workers, backend=backend,
                       scheduler=scheduler, progress=bar, record_sink=collect)
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
            f"{d['games_played']:,} games, seed {d['seed']}",
            "",
            _line("best", best),
            _line("runner-up", other),
            f"{'difference':<10} {diff['estimate'] * 100:+.2f} points of win rate, 95% interval "
            f"{diff['ci'][0] * 100:+.2f} to {diff['ci'][1] * 100:+.2f} (paired over {diff['games']:,} common games"
            f"{'' if diff['significant'] else '; not significant'})",
            f"{'':<10} a fair share is {d['fair_win_rate'] * 100:.2f}%",
            "",
            f"{'round':>5} {'candidates':>10} {'games each':>11}  leader",
        ]
        for r in d["rounds"]:
            lines.append(f"{r['round']:>5} {r['candidates']:>10} {r['games_per_candidate']:>11,}  {r['leader']} "
                         f"({r['leader_win_rate'] * 100:.2f}%)")
        lines.append("")
        lines.append(f"{self.wall_seconds:.2f} s wall, {self.workers} workers")
        return "\n".join(lines)

    def to_csv(self) -> str:
        import pandas as pd

        rows = []
        for c in self.to_dict()["candidates"]:
            rows.append({"strategy": c["strategy"], **c["params"], "win_rate": c["win_rate"],
                         "win_rate_low": c["win_rate_ci"][0], "win_rate_high": c["win_rate_ci"][1],
                         "wins": c["wins"], "games": c["games"], "eliminated_in_round": c["eliminated_in_round"]})
        return pd.DataFrame(rows).to_csv(index=False)

    def to_markdown(self) -> str:
        d = self.to_dict()
        diff = d["difference"]
        lines = [f"# Tuning {d['strategy']} for {self.spec.game.title}", "",
                 f"Against {_field(d['opponents'])}; {d['players']} players; {d['games_played']:,} games; "
                 f"seed {d['seed']}", "",
                 "| candidate | win rate | 95% interval | games | out in round |", "|---|---:|---|---:|---:|"]
        for c in d["candidates"]:
            lo, hi = c["win_rate_ci"]
            out = c["eliminated_in_round"] or "-"
            lines.append(f"| {c['strategy']} | {c['win_rate']:.4f} | {lo:.4f}–{hi:.4f} | {c['games']} | {out} |")
        lines += ["", f"Best minus runner-up: {diff['estimate']:+.4f} ({diff['ci'][0]:+.4f} to {diff['ci'][1]:+.4f})"]
        return "\n".join(lines) + "\n"


def _finish_order(candidate: Candidate) -> tuple:
    """Finalists first, then by the round a candidate went out in (later first), then by win rate."""
    out = candidate.eliminated_in or 10**9
    return (-out, -candidate.win_rate)


def _line(title: str, c: dict) -> str:
    lo, hi = c["win_rate_ci"]
    return (f"{title:<10} {c['strategy']}: win rate {c['win_rate'] * 100:.2f}% "
            f"(95% interval {lo * 100:.2f}–{hi * 100:.2f}%, {c['games']:,} games)")


def _field(labels: list[str]) -> str:
    """The opponents in words: one label for a uniform field."""
    if len(set(labels)) == 1:
        return f"{labels[0]} in every other seat"
    return ", ".join(labels)
