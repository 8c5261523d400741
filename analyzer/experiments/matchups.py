"""Strategy match-ups: strategies compared with every rotation of the seating played equally often."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.api import parse_count
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.batches import play_variant
from analyzer.experiments.setup import rules_text
from analyzer.formatting import format_number
from analyzer.games.base import Game
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.result import Result
from analyzer.runspec import RunSpec, parse_strategy, resolve
from analyzer.stats import mean_interval, wilson_interval


def rotations(seating: list) -> list[list]:
    """The distinct cyclic rotations of a seating (seat 1 first), in order."""
    found = []
    for shift in range(len(seating)):
        rotated = seating[shift:] + seating[:shift]
        if rotated not in found:
            found.append(rotated)
    return found


@dataclass
class StrategyRecord:
    """Pooled results of one strategy over every seat it held."""

    label: str
    seats_per_game: int
    seat_games: int = 0
    wins: int = 0
    ties: int = 0
    score_sum: float = 0.0
    score_sq: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games

    def to_dict(self) -> dict[str, Any]:
        mean, sd, half = mean_interval(self.score_sum, self.score_sq, self.seat_games)
        return {"strategy": self.label, "seats_per_game": self.seats_per_game, "seat_games": self.seat_games,
                "wins": self.wins, "ties": self.ties, "win_rate": self.win_rate,
                "win_rate_ci": list(wilson_interval(self.wins, self.seat_games)),
                "mean_score": mean, "mean_score_ci": [mean - half, mean + half]}


@dataclass
class Pairing:
    """The strategies of one seating played over all its rotations."""

    seating: list[str]
    runs: list[Result] = field(default_factory=list)

    def records(self) -> dict[str, StrategyRecord]:
        records: dict[str, StrategyRecord] = {}
        for result in self.runs:
            t = result.totals
            n = int(t["games"][0])
            for seat, choice in enumerate(result.spec.seats):
                record = records.setdefault(choice.label,
                                            StrategyRecord(choice.label, self.seating.count(choice.label)))
                record.seat_games += n
                record.wins += int(t["wins"][seat])
                record.ties += int(t["ties"][seat])
                record.score_sum += float(t["score_sum"][seat])
                record.score_sq += float(t["score_sq"][seat])
        return records

    @property
    def games(self) -> int:
        return sum(result.info.n for result in self.runs)


class Matchup(Rendered):
    """Strategies compared with every rotation of the seating played equally often."""

    SCHEMA = "pirate-analyzer/matchup/1"

    def __init__(self, game: Game, players: int, labels: list[str], table: Pairing,
                 pairs: dict[tuple[str, str], Pairing], seed: int, base: RunSpec):
        self.game = game
        self.players = players
        self.labels = labels
        self.table = table
        self.pairs = pairs
        self.seed = seed
        self.base = base

    @cached_property
    def strategies(self) -> list[StrategyRecord]:
        records = self.table.records()
        return [records[label] for label in self.labels]

    def head_to_head(self) -> list[dict[str, Any]]:
        """Each strategy's win rate per seat against each other one alone."""
        cells = []
        for (a, b), pairing in self.pairs.items():
            records = pairing.records()
            for row, column in ((a, b), (b, a)):
                record = records[row]
                cells.append({"strategy": row, "opponent": column, "games": pairing.games,
                              "win_rate": record.win_rate,
                              "win_rate_ci": list(wilson_interval(record.wins, record.seat_games))})
        return cells

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.SCHEMA,
            "game": self.game.id,
            "players": self.players,
            "n": self.table.games,
            "seed": self.seed,
            "seating": list(self.table.seating),
            "rotations": len(self.table.runs),
            "games_per_rotation": self.table.runs[0].info.n,
            "changed_rules": jsonable(self.base.changed_rules()),
            "fair_win_rate": 1 / self.players,
            "strategies": [record.to_dict() for record in self.strategies],
            "head_to_head": self.head_to_head(),
        }

    def frame(self) -> pd.DataFrame:
        """Win rates against the whole table (opponent ``all``) and head to head (the CSV)."""
        rows = [[r.label, "all", self.table.games, r.win_rate, *r.to_dict()["win_rate_ci"]] for r in self.strategies]
        rows += [[c["strategy"], c["opponent"], c["games"], c["win_rate"], *c["win_rate_ci"]]
                 for c in self.head_to_head()]
        return pd.DataFrame(rows, columns=["strategy", "opponent", "games", "win_rate", "win_rate_low",
                                           "win_rate_high"])

    def strategy_frame(self) -> pd.DataFrame:
        """Each strategy's pooled results, as shown."""
        rows = []
        for record in self.strategies:
            d = record.to_dict()
            low, high = d["win_rate_ci"]
            rows.append([record.label, str(record.seats_per_game), f"{d['win_rate'] * 100:.2f}%",
                         f"{low * 100:.2f}–{high * 100:.2f}%", f"{record.ties:,}", format_number(d["mean_score"]),
                         f"{format_number(d['mean_score_ci'][0])}–{format_number(d['mean_score_ci'][1])}"])
        return pd.DataFrame(rows, columns=["strategy", "seats", "win rate", "95% interval", "ties",
                                           f"mean {self.game.score_unit}", "95% interval"])

    def matrix_frame(self) -> pd.DataFrame:
        """Head to head: the row's win rate against the column, as shown."""
        cells = {(c["strategy"], c["opponent"]): c for c in self.head_to_head()}
        rows = []
        for row in self.labels:
            line = [row]
            for column in self.labels:
                cell = cells.get((row, column))
                line.append("–" if cell is None else
                            f"{cell['win_rate'] * 100:.1f}% ({cell['win_rate_ci'][0] * 100:.1f}–"
                            f"{cell['win_rate_ci'][1] * 100:.1f})")
            rows.append(line)
        return pd.DataFrame(rows, columns=["row vs column", *self.labels])

    def _intro(self) -> list[str]:
        t = self.table
        return [f"{self.game.title}, {rules_text(self.base)}: strategy match-up, {self.players} players, "
                f"seed {self.seed}",
                f"Seating {', '.join(t.seating)}: {len(t.runs)} rotations × {t.runs[0].info.n:,} games "
                f"({t.games:,} games). Win rates are per seat held; a fair share is {100 / self.players:.2f}%."]

    def _matrix_note(self) -> str:
        return ("Head to head: the row's win rate per seat in games of the row and the column alone "
                "(seats filled alternately, every rotation; 95% interval in brackets).")

    def _render(self, fmt: str) -> list[str]:
        return [frame_text(self.strategy_frame(), fmt), "", self._matrix_note(), "",
                frame_text(self.matrix_frame(), fmt)]

    def to_table(self) -> str:
        return "\n".join([*self._intro(), "", *self._render("table")])

    def to_markdown(self) -> str:
        return "\n".join([f"# {self.game.title}: strategy match-up", "", *self._intro(), "",
                          *self._render("markdown")])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


class RunCounter:
    """Numbers the runs of one command, so that each keeps its own checkpoint file."""

    def __init__(self):
        self.played = 0

    def next(self) -> int:
        self.played += 1
        return self.played - 1


def play_pairing(execution: Execution, base: RunSpec, seating: list[str], n: int, tag: str,
                 runs: RunCounter) -> Pairing:
    """Play ``seating`` (strategy specs, seat 1 first) over its distinct rotations, ``ceil(n / rotations)``
    games each; rotation ``r`` plays from the seed derived from the execution's, ``tag`` and ``r``, so
    two seatings played under one tag meet the same games (common random numbers)."""
    labels = [parse_strategy(base.game, spec).label for spec in seating]
    pairing = Pairing(labels)
    turns = rotations(list(seating))
    per_rotation = -(-n // len(turns))
    for r, rotated in enumerate(turns):
        run = play_variant(execution.derived(tag, r).for_run(runs.next()), base.with_seats(rotated),
                           per_rotation, batch_keys=())
        pairing.runs.append(run.result)
    return pairing


def matchup_spec(strategies: list[str], base: RunSpec, n: int | str, execution: Execution) -> Matchup:
    """Play ``strategies`` in ``base``'s game and rules with every cyclic rotation of the seating equally often.

    The list of strategies is repeated in order to fill the seats; every distinct
    rotation plays ``ceil(n / rotations)`` games from its own seed derived from the
    execution's. With three or more strategies each pair also plays ``n`` games alone
    (seats filled alternately) for the head-to-head matrix.
    """
    n = parse_count(n)
    the_game = base.game
    specs = list(strategies)
    choices = [parse_strategy(the_game, s) for s in specs]
    labels = list(dict.fromkeys(c.label for c in choices))
    if len(labels) < 2:
        raise AnalyzerError("a strategy match-up needs at least two different strategies (--strategy A --strategy B)")
    if len(specs) > base.players:
        raise AnalyzerError(f"{len(specs)} strategies for {base.players} players: a match-up seats every strategy, "
                            f"so give at most {base.players} (or raise --players)")
    specs_by_label = {c.label: s for c, s in zip(choices, specs, strict=True)}
    runs = RunCounter()

    def play(seating_labels: list[str], tag: str) -> Pairing:
        return play_pairing(execution, base, [specs_by_label[label] for label in seating_labels], n, tag, runs)

    seat_labels = [c.label for c in choices]
    table = play([seat_labels[s % len(seat_labels)] for s in range(base.players)], "table")
    pairs: dict[tuple[str, str], Pairing] = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if len(labels) == 2:
                pairs[(a, b)] = table
            else:
                pairs[(a, b)] = play([(a, b)[s % 2] for s in range(base.players)], f"pair:{a}:{b}")
    return Matchup(the_game, base.players, labels, table, pairs, execution.seed, base)


def matchup(strategies: list[str], game: str | None = None, scenario: str | Path | None = None,
            players: int | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
            n: int | str = 100_000, seed: int | None = None, workers: int | None = None,
            progress: bool | None = False, backend: str = "local", scheduler: str | None = None,
            checkpoint: str | Path | None = None) -> Matchup:
    """Play strategies against each other with every cyclic rotation of the seating equally often
    (see :func:`matchup_spec`); ``game``, ``scenario``, ``players``, ``rules`` and ``sets`` give the table."""
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players, rules=rules,
                   sets=sets)
    return matchup_spec(strategies, base, n, execution)
