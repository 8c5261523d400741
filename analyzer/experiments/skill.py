"""The skill ladder: how each strategy fares against the game's default, and how much skill matters.

Each strategy on the ladder takes one seat against the reference (the game's default
strategy) on every other seat, rotated over every seat; all strategies meet the same
games (common random numbers). Every strategy also plays a table of its own, every seat
playing it, for the verdicts a designer reads under that level of play: the seat
advantage, the length and the tie rate. How much skill matters is the head-to-head win
rate of the top of the ladder against ``random``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.api import parse_count
from analyzer.errors import AnalyzerError
from analyzer.execution import Execution
from analyzer.experiments.batches import play_variant
from analyzer.experiments.matchups import Pairing, RunCounter, StrategyRecord, play_pairing
from analyzer.experiments.mixed_tables import EXPERT, VERDICT_NOISE, casual_spec, mixed_verdict, play_mixed_tables
from analyzer.experiments.setup import rules_text
from analyzer.games.base import Game
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.result import Result
from analyzer.runspec import RunSpec, parse_strategy, resolve
from analyzer.stats import wilson_interval
from analyzer.verdicts import Verdict, skill_verdict
from analyzer.wrapping import fill, wrap

#: the strategy every game with decisions has, the bottom of every ladder
RANDOM = "random"
#: the ladder's table unless the user says otherwise: the head-to-head a player meets first
DEFAULT_PLAYERS = 2


@dataclass
class Rung:
    """One strategy on the ladder (as given, and its label): its seat against the reference, and a table
    of its own."""

    spec: str
    label: str
    against_reference: StrategyRecord
    self_play: Result

    def to_dict(self) -> dict[str, Any]:
        record = self.against_reference.to_dict()
        played = self.self_play.to_dict()
        advantage = played["first_player_advantage"]
        return {"strategy": self.label, "win_rate": record["win_rate"], "win_rate_ci": record["win_rate_ci"],
                "games": self.against_reference.seat_games,
                "first_player_advantage": advantage["estimate"], "first_player_advantage_ci": advantage["ci"],
                "length_mean": played["length"]["mean"], "tie_rate": played["tie_rate"]}


class SkillLadder(Rendered):
    """Strategies ranked by their win rate against the reference, best first (``rungs`` come ranked)."""

    SCHEMA = "pirate-analyzer/skill/1"

    def __init__(self, base: RunSpec, reference: str, rungs: list[Rung], versus_random: Pairing | None,
                 strongest: str, n: int, seed: int, mixed_tables: list[dict[str, Any]] | None = None):
        self.base = base
        self.game: Game = base.game
        self.players = base.players
        self.reference = reference
        self.rungs = rungs  # best first
        self.versus_random = versus_random
        self.strongest = strongest
        self.n = n
        self.seed = seed
        #: the expert at a casual table and the reverse (:mod:`analyzer.experiments.mixed_tables`)
        self.mixed_tables = mixed_tables or []

    def skill(self) -> dict[str, Any]:
        """The strongest strategy's head-to-head win rate against random (None without a random strategy)."""
        if self.versus_random is None:
            return {"strongest": self.strongest, "versus_random": None, "versus_random_ci": None, "games": 0,
                    "mixed_tables": self.mixed_tables}
        record = self.versus_random.records()[self.strongest]
        return {"strongest": self.strongest, "versus_random": record.win_rate,
                "versus_random_ci": list(wilson_interval(record.wins, record.seat_games)),
                "games": self.versus_random.games, "mixed_tables": self.mixed_tables}

    def mixed_verdict(self) -> Verdict | None:
        """The expert at a casual table, in words (None without mixed tables)."""
        return mixed_verdict(self.mixed_tables, self.strongest, casual_spec(self.base, VERDICT_NOISE))

    def mixed_frame(self) -> pd.DataFrame:
        """The mixed tables as shown: who holds the one seat, who the others, the win rate of the one seat."""
        rows = []
        for table in self.mixed_tables:
            casual = casual_spec(self.base, table["casual_noise"])
            alone, others = (self.strongest, casual) if table["lone"] == EXPERT else (casual, self.strongest)
            low, high = table["win_rate_ci"]
            rows.append([f"{table['lone']}: {alone}", others, f"{table['win_rate'] * 100:.2f}%",
                         f"{low * 100:.2f}–{high * 100:.2f}%", f"{table['fair_share'] * 100:.1f}%"])
        return pd.DataFrame(rows, columns=["one seat", "every other seat", "win rate", "95% interval", "fair"])

    def _mixed_lines(self, fmt: str) -> list[str]:
        if not self.mixed_tables:
            return []
        games = self.mixed_tables[0]["games"]
        about = (f"Mixed tables, {self.players} players, {games:,} games each: one seat (rotated over every seat) "
                 f"against the others; a casual player is {self.reference} with noise (the share of random "
                 f"decisions).")
        verdict = self.mixed_verdict()
        words = [] if verdict is None else [f"{verdict.title}: {verdict.text}"]
        return ["", *wrap(about), "", frame_text(self.mixed_frame(), fmt, left=2), "",
                *(fill(line) for line in words)]

    def to_dict(self) -> dict[str, Any]:
        return {"schema": self.SCHEMA, "game": self.game.id, "players": self.players, "n": self.n,
                "seed": self.seed, "reference": self.reference,
                "changed_rules": jsonable(self.base.changed_rules()), "fair_win_rate": 1 / self.players,
                "ladder": [rung.to_dict() for rung in self.rungs], "skill": self.skill()}

    def frame(self) -> pd.DataFrame:
        """The ladder with numbers (the CSV)."""
        rows = []
        for rung in (r.to_dict() for r in self.rungs):
            rows.append([rung["strategy"], rung["win_rate"], *rung["win_rate_ci"], rung["first_player_advantage"],
                         *rung["first_player_advantage_ci"], rung["length_mean"], rung["tie_rate"]])
        return pd.DataFrame(rows, columns=["strategy", "win_rate", "win_rate_low", "win_rate_high",
                                           "first_player_advantage", "first_player_advantage_low",
                                           "first_player_advantage_high", "length_mean", "tie_rate"])

    def ladder_frame(self) -> pd.DataFrame:
        """The ladder as shown: rates in percent, the seat advantage in points."""
        unit = self.game.length_units[0]
        rows = []
        for rank, rung in enumerate((r.to_dict() for r in self.rungs), start=1):
            low, high = rung["win_rate_ci"]
            a_low, a_high = rung["first_player_advantage_ci"]
            rows.append([str(rank), rung["strategy"], f"{rung['win_rate'] * 100:.2f}%",
                         f"{low * 100:.2f}–{high * 100:.2f}%", f"{rung['first_player_advantage'] * 100:+.2f}",
                         f"{a_low * 100:+.2f} to {a_high * 100:+.2f}", f"{rung['length_mean']:.2f}",
                         f"{rung['tie_rate'] * 100:.2f}%"])
        return pd.DataFrame(rows, columns=["rank", "strategy", "win rate", "95% interval",
                                           "first-player adv.", "95% interval", f"mean {unit}", "ties"])

    def summary_lines(self) -> list[str]:
        """How much skill matters and how the seat advantage moves with the level of play, in words."""
        fair = 1 / self.players
        lines = []
        skill = self.skill()
        if skill["versus_random"] is not None:
            low, high = skill["versus_random_ci"]
            lines.append(f"Skill: {self.strongest} wins {skill['versus_random'] * 100:.2f}% "
                         f"({low * 100:.2f}–{high * 100:.2f}%) of its seats head to head against random "
                         f"(a fair share is {fair * 100:.2f}%): {skill_verdict(skill['versus_random'], low, fair)}.")
        advantages = [(r.to_dict()["first_player_advantage"], r.label) for r in self.rungs]
        (least, least_label), (most, most_label) = min(advantages), max(advantages)
        lines.append(f"The first-player advantage ranges from {least * 100:+.2f} points ({least_label} on every "
                     f"seat) to {most * 100:+.2f} points ({most_label}): quote the one measured under the play "
                     f"your players meet.")
        return lines

    def _intro(self) -> list[str]:
        about = (f"Each strategy holds one seat against {self.reference} on the others, every rotation, "
                 f"{self.n:,} {self.game.games_noun}; its seat advantage, length and ties come from {self.n:,} "
                 f"{self.game.games_noun} with it on every seat.")
        return [f"{self.game.title}, {rules_text(self.base)}: skill ladder, {self.players} players, seed {self.seed}",
                *wrap(about)]

    def to_table(self) -> str:
        return "\n".join([*self._intro(), "", frame_text(self.ladder_frame(), "table", left=2), "",
                          *(fill(line) for line in self.summary_lines()),
                          *self._mixed_lines("table")])

    def to_markdown(self) -> str:
        return "\n".join([f"# {self.game.title}: skill ladder", "", *self._intro(), "",
                          frame_text(self.ladder_frame(), "markdown", left=2), "", *self.summary_lines(),
                          *self._mixed_lines("markdown")])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


def ladder_strategies(game: Game, specs: list[str]) -> list[str]:
    """The default ladder (every strategy marked for it, at default parameters) with ``specs`` added;
    a spec replaces the default entry of the same strategy name."""
    chosen = {strategy.name: strategy.name for strategy in game.strategies if strategy.in_skill_ladder}
    for spec in specs:
        chosen[parse_strategy(game, spec).name] = spec
    return list(chosen.values())


def against_reference(execution: Execution, base: RunSpec, spec: str, reference: str, n: int,
                      runs: RunCounter) -> StrategyRecord:
    """``spec`` in one seat against ``reference`` on the others, every rotation, ``n`` games: its record."""
    seating = [spec] + [reference] * (base.players - 1)
    return play_pairing(execution, base, seating, n, "ladder", runs).records()[parse_strategy(base.game, spec).label]


def play_versus_random(execution: Execution, base: RunSpec, spec: str, n: int, runs: RunCounter) -> Pairing | None:
    """``spec`` head to head against random (seats filled alternately, every rotation), ``n`` games; None
    when the game has no random strategy or ``spec`` is random."""
    game = base.game
    if RANDOM not in {s.name for s in game.strategies} or parse_strategy(game, spec).label == RANDOM:
        return None
    seating = [(spec, RANDOM)[seat % 2] for seat in range(base.players)]
    return play_pairing(execution, base, seating, n, "versus-random", runs)


def strongest_strategy(base: RunSpec, n: int, execution: Execution, runs: RunCounter) -> tuple[str, str]:
    """(spec, label) of the top of ``base``'s default skill ladder but random: each strategy in one seat
    against the default on the others, ``n`` games each (the ladder's games, without its own tables);
    ``runs`` numbers the runs of the command it is part of."""
    game = base.game
    ranked = sorted(((against_reference(execution, base, spec, game.default_strategy, n, runs).win_rate, spec)
                     for spec in ladder_strategies(game, [])), key=lambda item: -item[0])
    labels = [(spec, parse_strategy(game, spec).label) for _, spec in ranked]
    return next((item for item in labels if item[1] != RANDOM), labels[0])


def skill_spec(base: RunSpec, n: int | str, execution: Execution, specs: list[str] | None = None,
               mixed_tables: bool = True) -> SkillLadder:
    """The skill ladder of ``base``'s game, rules and players (see :class:`SkillLadder`), with the mixed
    tables of its strongest strategy unless ``mixed_tables`` is false."""
    game = base.game
    if not game.has_decisions:
        raise AnalyzerError(f"{game.id} has no decisions: every strategy plays alike, so there is no skill ladder")
    n = parse_count(n)
    reference = game.default_strategy
    strategies = ladder_strategies(game, list(specs or []))
    runs = RunCounter()
    rungs = []
    for spec in strategies:
        label = parse_strategy(game, spec).label
        record = against_reference(execution, base, spec, reference, n, runs)
        own_table = play_variant(execution.derived("own-table").for_run(runs.next()), base.with_seats([spec]), n,
                                 batch_keys=())
        rungs.append(Rung(spec, label, record, own_table.result))
    rungs.sort(key=lambda rung: -rung.against_reference.win_rate)
    strongest = next((rung for rung in rungs if rung.label != RANDOM), rungs[0])
    versus_random = play_versus_random(execution, base, strongest.spec, n, runs)
    mixed = play_mixed_tables(base, strongest.spec, n, execution, runs) if mixed_tables else []
    return SkillLadder(base, parse_strategy(game, reference).label, rungs, versus_random, strongest.label, n,
                       execution.seed, mixed)


def skill(game: str | None = None, scenario: str | Path | None = None, players: int | None = None,
          strategies: list[str] | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
          n: int | str = 100_000, seed: int | None = None, workers: int | None = None,
          progress: bool | None = False) -> SkillLadder:
    """The skill ladder of a game (2 players unless ``players``): see :func:`skill_spec`."""
    execution = Execution.create(seed, workers, progress=progress)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario),
                   players=DEFAULT_PLAYERS if players is None else players, rules=rules, sets=sets)
    return skill_spec(base, n, execution, strategies)
