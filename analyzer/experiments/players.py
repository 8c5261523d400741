"""Player counts side by side: the same scenario at every player count the game allows.

Each count plays ``n`` games from the same seed, so game ``i`` of every count starts from
the same random stream (common random numbers, as far as a game with more seats draws
the same numbers). At each count the strongest strategy of the skill ladder also holds
one seat against random on every other seat, rotated (how much skill matters at that
count, against a fair share of ``1 / players``); the ladder is ranked once, at a stated
count and number of games. The verdicts
(:mod:`analyzer.experiments.player_verdicts`) name the fairest and most open counts and
any count to leave off the box.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.api import parse_count, run_spec
from analyzer.errors import AnalyzerError, param
from analyzer.execution import Execution
from analyzer.experiments.matchups import Pairing, RunCounter, play_pairing
from analyzer.experiments.player_verdicts import count_verdicts
from analyzer.experiments.setup import rules_text
from analyzer.experiments.skill import DEFAULT_PLAYERS, RANDOM, strongest_strategy
from analyzer.games.options import jsonable
from analyzer.output import Rendered, frame_text
from analyzer.playing_time import HIGH_QUANTILE, LOW_QUANTILE, quantile, time_note
from analyzer.result import Result
from analyzer.runspec import RunSpec, resolve
from analyzer.stats import wilson_interval
from analyzer.verdicts import Verdict, seat_gap, verdict_lines

SCHEMA = "pirate-analyzer/players/1"
#: the skill ladder that picks the strongest strategy plays this share of ``n`` games per strategy
LADDER_SHARE = 10
#: ... but at least this many (or ``n``, when fewer)
LADDER_MIN_GAMES = 1_000
#: player counts side by side in one block of the text table, and the width of the text (80 columns)
COUNTS_PER_BLOCK = 4
TEXT_WIDTH = 80


@dataclass
class Strongest:
    """The strongest strategy of the skill ladder (not random), ranked at ``players`` with ``games`` each."""

    spec: str
    label: str
    players: int
    games: int


@dataclass
class CountRun:
    """One player count: its run (every seat the scenario's strategy) and the strongest strategy against random."""

    players: int
    result: Result
    versus_random: Pairing | None

    def skill(self, strongest: Strongest | None) -> dict[str, Any] | None:
        if strongest is None or self.versus_random is None:
            return None
        record = self.versus_random.records()[strongest.label]
        return {"strongest": strongest.label, "versus_random": record.win_rate,
                "versus_random_ci": list(wilson_interval(record.wins, record.seat_games)),
                "fair_share": 1 / self.players, "games": self.versus_random.games}

    def to_dict(self, strongest: Strongest | None) -> dict[str, Any]:
        """The count's figures, keyed as in ``simulate``'s JSON, with the seat gap, the length's 10th and 90th
        percentiles and the skill against random added."""
        run = self.result.to_dict()
        _, _, gap, ci = seat_gap(run)
        entry = {key: run[key] for key in ("players", "n", "seed", "seats", "first_player_advantage", "tie_rate",
                                           "capped_games", "quality", "target_length")}
        entry["seat_gap"] = {"estimate": gap, "ci": list(ci)}
        entry["lengths"] = {unit: {**block, **self._deciles(unit)} for unit, block in run["lengths"].items()}
        entry["length"] = entry["lengths"][run["length"]["unit"]]
        if "minutes" in run:
            entry["minutes"] = run["minutes"]
        entry["skill"] = self.skill(strongest)
        return entry

    def _deciles(self, unit: str) -> dict[str, int]:
        counts = self.result.totals[f"length_{unit}"]
        return {"p10": quantile(counts, LOW_QUANTILE), "p90": quantile(counts, HIGH_QUANTILE)}


class PlayerCounts(Rendered):
    """Every player count's run, the strongest strategy and what they add up to (JSON, text, markdown)."""

    def __init__(self, base: RunSpec, counts: list[CountRun], strongest: Strongest | None, n: int, seed: int):
        self.base = base
        self.game = base.game
        self.counts = counts
        self.strongest = strongest
        self.n = n
        self.seed = seed

    @cached_property
    def entries(self) -> list[dict[str, Any]]:
        return [count.to_dict(self.strongest) for count in self.counts]

    def verdicts(self) -> list[Verdict]:
        return count_verdicts(self.entries, self.game.length_units[0])

    def to_dict(self) -> dict[str, Any]:
        entries = self.entries
        strongest = None if self.strongest is None else {
            "strategy": self.strongest.label, "ranked_at_players": self.strongest.players,
            "games_per_strategy": self.strongest.games}
        return {"schema": SCHEMA, "game": self.game.id, "scenario": self.base.name, "n": self.n, "seed": self.seed,
                "player_counts": [entry["players"] for entry in entries], "strategy": self.base.seats[0].label,
                "changed_rules": jsonable(self.base.changed_rules()), "strongest": strongest, "counts": entries,
                "verdicts": [verdict.to_dict() for verdict in self.verdicts()]}

    def frame(self) -> pd.DataFrame:
        """One row per count with numbers (the CSV)."""
        rows = []
        for e in self.entries:
            skill = e["skill"] or {"versus_random": None, "versus_random_ci": [None, None]}
            comeback = e["quality"]["comeback_rate"]
            row = {"players": e["players"], "games": e["n"], "seat_gap": e["seat_gap"]["estimate"],
                   "seat_gap_low": e["seat_gap"]["ci"][0], "seat_gap_high": e["seat_gap"]["ci"][1],
                   "first_player_advantage": e["first_player_advantage"]["estimate"],
                   "first_player_advantage_low": e["first_player_advantage"]["ci"][0],
                   "first_player_advantage_high": e["first_player_advantage"]["ci"][1]}
            for unit, block in e["lengths"].items():
                row.update({f"{unit}_median": block["median"], f"{unit}_p10": block["p10"],
                            f"{unit}_p90": block["p90"]})
            if "minutes" in e:
                row.update({f"minutes_{key}": e["minutes"][key] for key in ("median", "p10", "p90")})
            row.update({"tie_rate": e["tie_rate"], "comeback_rate": comeback["value"],
                        "lead_changes": e["quality"]["lead_changes"]["value"],
                        "versus_random": skill["versus_random"], "versus_random_low": skill["versus_random_ci"][0],
                        "versus_random_high": skill["versus_random_ci"][1]})
            rows.append(row)
        return pd.DataFrame(rows)

    def shown_rows(self) -> list[tuple[str, list[str]]]:
        """(figure, one cell per count) as shown: rates in percent, gaps in points, intervals below."""
        e = self.entries
        rows = [("games", [f"{x['n']:,}" for x in e]),
                ("seat gap (points)", [_points(x["seat_gap"]["estimate"]) for x in e]),
                ("  95% interval", [_span(x["seat_gap"]["ci"], 100, 1) for x in e]),
                ("first-player adv.", [_points(x["first_player_advantage"]["estimate"], "+") for x in e]),
                ("  95% interval", [_span(x["first_player_advantage"]["ci"], 100, 1, "+") for x in e])]
        for unit in self.game.length_units:
            rows += [(f"{unit}: median", [str(x["lengths"][unit]["median"]) for x in e]),
                     ("  10th–90th pct.", [f"{x['lengths'][unit]['p10']}–{x['lengths'][unit]['p90']}" for x in e])]
        if all("minutes" in x for x in e):
            rows += [("minutes: median", [f"{x['minutes']['median']:.0f}" for x in e]),
                     ("  10th–90th pct.", [f"{x['minutes']['p10']:.0f}–{x['minutes']['p90']:.0f}" for x in e])]
        rows.append(("ties", [f"{x['tie_rate'] * 100:.2f}%" for x in e]))
        comebacks = [x["quality"]["comeback_rate"] for x in e]
        rows += [("comeback rate", [_percent(c["value"]) for c in comebacks]),
                 ("  95% interval", [_span(c["ci"], 100, 1) for c in comebacks])]
        changes = [x["quality"]["lead_changes"] for x in e]
        rows += [("lead changes", ["–" if c["value"] is None else f"{c['value']:.2f}" for c in changes]),
                 ("  95% interval", [_span(c["ci"], 1, 2) for c in changes])]
        if self.strongest is not None:
            skills = [x["skill"] or {"versus_random": None, "versus_random_ci": None} for x in e]
            rows += [("skill: vs random", [_percent(s["versus_random"]) for s in skills]),
                     ("  95% interval", [_span(s["versus_random_ci"], 100, 1) for s in skills]),
                     ("  fair share", [_percent(1 / x["players"]) for x in e])]
        return rows

    def tables(self, fmt: str) -> list[str]:
        """The side-by-side table, in blocks of counts narrow enough for 80 columns."""
        rows = self.shown_rows()
        blocks = []
        for first in range(0, len(self.counts), COUNTS_PER_BLOCK):
            chosen = slice(first, first + COUNTS_PER_BLOCK)
            columns = ["figure", *(f"{c.players} players" for c in self.counts[chosen])]
            frame = pd.DataFrame([[name, *cells[chosen]] for name, cells in rows], columns=columns)
            blocks += [frame_text(frame, fmt), ""]
        return blocks[:-1]

    def intro_text(self) -> list[str]:
        """The title line and how the counts were played, in one paragraph."""
        counts = ", ".join(str(c.players) for c in self.counts)
        about = (f"{self.n:,} games at each count ({counts} players), {self.base.seats[0].label} on every seat, "
                 f"every count from the same seed (common random numbers).")
        if self.strongest is not None:
            s = self.strongest
            about += (f" Skill: {s.label}, the strongest strategy of the skill ladder at {s.players} players "
                      f"({s.games:,} games per strategy), in one seat against random on the others at each "
                      f"count, every seat in turn, {self.n:,} games.")
        if "minutes" in self.entries[0]:
            about += f" Minutes at {time_note(self.entries[0]['minutes'], rates=False)}."
        return [f"{self.game.title}, {rules_text(self.base)}: player counts, scenario {self.base.name}, "
                f"seed {self.seed}.", about]

    def _intro(self) -> list[str]:
        title, about = self.intro_text()
        return [title, *textwrap.wrap(about, TEXT_WIDTH)]

    def to_table(self) -> str:
        return "\n".join([*self._intro(), "", *self.tables("table"), "",
                          *verdict_lines(self.verdicts(), TEXT_WIDTH)])

    def to_markdown(self) -> str:
        return "\n".join([f"# {self.game.title}: player counts", "", *self._intro(), "", *self.tables("markdown"),
                          "", "Verdicts, most important first:", "",
                          *(f"{rank}. **{v.title}**: {v.text} *Action:* {v.action}"
                            for rank, v in enumerate(self.verdicts(), 1))])

    def to_csv(self) -> str:
        return frame_text(self.frame(), "csv")


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.1f}%"


def _points(value: float, sign: str = "") -> str:
    return f"{value * 100:{sign}.2f}"


def _span(ci, scale: float, digits: int, sign: str = "") -> str:
    if ci is None or ci[0] is None:
        return "–"
    return f"{ci[0] * scale:{sign}.{digits}f} to {ci[1] * scale:{sign}.{digits}f}"


def parse_player_counts(text: str | list[int] | None, base: RunSpec) -> list[int]:
    """``2,3,4`` (or a list) -> the counts, each allowed by the game under the rules; None: every allowed count."""
    low, high = base.game.player_range(base.rules)
    if text is None or text == "all":
        return list(range(low, high + 1))
    items = text if isinstance(text, list) else [item.strip() for item in str(text).split(",")]
    counts = []
    for item in items:
        value = item if isinstance(item, int) and not isinstance(item, bool) else _whole(item)
        if value is None or not low <= value <= high:
            raise AnalyzerError(f"{param('players')} {str(item)[:20]!r} is not allowed for {base.game.id}: give "
                                f"player counts from {low} to {high}, such as {low},{min(low + 1, high)}")
        if value not in counts:
            counts.append(value)
    return sorted(counts)


def split_players_option(text: str | int | None) -> tuple[int | None, str | None]:
    """A report's ``--players``: a number (the players of its runs), or ``all`` or a list ``2,3,4`` (the
    counts of its player-count page): ``(players, counts)``."""
    if text is None or isinstance(text, int):
        return text, None
    if text.strip().lower() == "all":
        return None, "all"
    if "," in text:
        return None, text
    value = _whole(text)
    if value is None:
        raise AnalyzerError(f"{param('players')} {text[:20]!r} is not allowed: give a number of players, "
                            f"all, or a list of counts such as 2,3,4")
    return value, None


def _whole(item: Any) -> int | None:
    text = str(item).strip()
    return int(text) if text.isdigit() and len(text) < 4 else None


def check_player_counts(base: RunSpec, counts: list[int] | str | None) -> list[int]:
    """The counts to play (see :func:`parse_player_counts`), once ``base`` is known to play one strategy."""
    if len({seat.label for seat in base.seats}) > 1:
        raise AnalyzerError("player counts are played with one strategy on every seat: give one "
                            f"{param('strategies')} (the scenario's seats differ)")
    return parse_player_counts(counts, base)


def players_spec(base: RunSpec, n: int | str, execution: Execution, counts: list[int] | str | None = None,
                 precision: float | str | None = None, skill: bool = True) -> PlayerCounts:
    """Play ``base`` (its rules and one strategy on every seat) at each player count (see the module)."""
    n = parse_count(n)
    counts = check_player_counts(base, counts)
    strongest = None
    runs = RunCounter()
    if skill and base.game.has_decisions and RANDOM in {s.name for s in base.game.strategies}:
        ladder_players = DEFAULT_PLAYERS if DEFAULT_PLAYERS in counts else counts[0]
        ladder_games = max(n // LADDER_SHARE, min(n, LADDER_MIN_GAMES))
        at = _at_count(base, ladder_players)
        spec, label = strongest_strategy(at, ladder_games, execution.derived("players-ladder"), runs)
        strongest = Strongest(spec, label, ladder_players, ladder_games)
    played = []
    for players in counts:
        at = _at_count(base, players)
        result = run_spec(at, n, execution.for_run(runs.next()), precision=precision)
        versus = None
        if strongest is not None and strongest.label != RANDOM:
            seating = [strongest.spec] + [RANDOM] * (players - 1)
            versus = play_pairing(execution, at, seating, n, "players-versus-random", runs)
        played.append(CountRun(players, result, versus))
    return PlayerCounts(base, played, strongest, n, execution.seed)


def _at_count(base: RunSpec, players: int) -> RunSpec:
    """``base`` at another player count (one the rules allow), its strategy on every seat."""
    base.game.check_rules(base.rules, players)
    return replace(base, players=players, seats=[base.seats[0]] * players)


def players(game: str | None = None, scenario: str | Path | None = None, counts: list[int] | str | None = None,
            strategy: str | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
            n: int | str = 100_000, precision: float | str | None = None, seed: int | None = None,
            workers: int | None = None, progress: bool | None = False) -> PlayerCounts:
    """The same scenario at every player count the game allows (or ``counts``): see :func:`players_spec`."""
    execution = Execution.create(seed, workers, progress=progress)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario),
                   strategies=None if strategy is None else [strategy], rules=rules, sets=sets)
    return players_spec(base, n, execution, counts, precision)
