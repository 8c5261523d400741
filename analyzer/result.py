"""The result of a simulation: the documented JSON, tables and DataFrames."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer import measures
from analyzer.engine.aggregate import Totals
from analyzer.engine.precision import Precision
from analyzer.formatting import interval_decimals
from analyzer.games.base import Prepared
from analyzer.games.options import format_value, jsonable
from analyzer.output import Rendered, TextTable, frame_text
from analyzer.playing_time import minutes, minutes_text, time_note
from analyzer.runspec import RunSpec, players_text
from analyzer.stats import histogram_summary, mean_interval, wilson_interval
from analyzer.verdicts import (
    SeatCompensation,
    Verdict,
    run_args,
    run_verdicts,
    strategies_differ,
    verdict_lines,
)
from analyzer.version import __version__
from analyzer.wrapping import output_width, wrap

SCHEMA = "pirate-analyzer/simulate/1"


@dataclass
class RunInfo:
    seed: int
    n: int
    wall_seconds: float
    workers: int | None  # None: the workers of a Dask cluster given by its scheduler address
    backend: str = "local"
    games_played: int | None = None  # in this session (fewer than n when a checkpoint resumed)
    precision: Precision | None = None  # how a --precision run ended


class Result(Rendered):
    """Merged totals of a run plus everything needed to describe it."""

    def __init__(self, spec: RunSpec, prepared: Prepared, totals: Totals, info: RunInfo):
        self.spec = spec
        self.prepared = prepared
        self.totals = totals
        self.info = info
        self._dict: dict | None = None

    # -- the JSON contract ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        if self._dict is None:
            self._dict = self._build()
            if self.info.precision is not None:
                self._dict["precision"] = self.info.precision.to_dict()
        return self._dict

    def _build(self) -> dict[str, Any]:
        game = self.spec.game
        t = self.totals
        n = int(t["games"][0])
        players = self.spec.players
        wins = t["wins"]
        ties = t["ties"]
        seats = []
        for seat in range(players):
            mean, sd, half = mean_interval(float(t["score_sum"][seat]), float(t["score_sq"][seat]), n)
            seats.append({
                "seat": seat + 1,
                "strategy": self.spec.seats[seat].label,
                "wins": int(wins[seat]),
                "ties": int(ties[seat]),
                "win_rate": int(wins[seat]) / n,
                "win_rate_ci": list(wilson_interval(int(wins[seat]), n)),
                "mean_score": mean,
                "mean_score_ci": [mean - half, mean + half],
                "sd_score": sd,
            })
        fair = 1.0 / players
        low, high = wilson_interval(int(wins[0]), n)
        lengths = {unit: {"unit": unit, **histogram_summary(t[f"length_{unit}"])} for unit in game.length_units}
        wall = self.info.wall_seconds
        mechanics = game.mechanics(self.prepared)
        played = n if self.info.games_played is None else self.info.games_played
        scenario = self.spec.scenario
        data = {
            "schema": SCHEMA,
            "game": game.id,
            "scenario": self.spec.name,
            "n": n,
            "seed": self.info.seed,
            "players": players,
            "rules": jsonable(self.spec.rules),
            "seats": seats,
            "score_unit": game.score_unit,
            "first_player_advantage": {"estimate": int(wins[0]) / n - fair, "ci": [low - fair, high - fair]},
            "length": lengths[game.length_units[0]],
            "lengths": lengths,
            "target_length": scenario.target_length if scenario else None,
            "tie_rate": int(t["tie_games"][0]) / n,
            "capped_games": int(t["capped"][0]),
            "game_stats": game.game_stats(t, self.prepared),
            "quality": measures.quality(t, game.score_unit, self.prepared.score_bins[1]),
            "mechanics": measures.mechanics(t, mechanics),
            "mechanic_kinds": {m.name: m.kind for m in mechanics},
            "safeguards": [m.name for m in mechanics if m.safeguard],
            "switched_off": [m.name for m in mechanics if m.switched_off(self.spec.rules)],
            "components": measures.components(t, game.components(self.prepared), players),
            "round_starts": None,
            "run": {
                "version": __version__,
                "wall_seconds": wall,
                "games_per_second": played / wall if wall > 0 else None,
                "workers": self.info.workers,
                "backend": self.info.backend,
            },
        }
        if self.spec.time is not None:
            data["minutes"] = minutes(self.spec.time, game, t, self.prepared)
        wins_by_offset = game.round_start_wins(self.spec.rules, data["game_stats"])
        if wins_by_offset is not None:
            data["round_starts"] = {"wins_by_offset": wins_by_offset}
        data["verdicts"] = [verdict.to_dict() for verdict in self.verdicts(data)]
        return data

    def verdicts(self, data: dict | None = None) -> list[Verdict]:
        """The run's verdicts, most important first; the seat verdict names the command that finds the
        value of the game's seat-compensating option (``simulate`` runs no balance search)."""
        data = self.to_dict() if data is None else data
        game = self.spec.game
        compensation = None
        if game.seat_compensation_option:
            compensation = SeatCompensation(game.seat_compensation_option, game.seat_compensation_span,
                                            run_args(self.spec, game.seat_compensation_option),
                                            self.spec.rules[game.seat_compensation_option])
        return run_verdicts(data, compensation)

    # -- tables -------------------------------------------------------------------------
    @property
    def seats(self):
        """Per-seat statistics as a pandas DataFrame."""
        import pandas as pd

        rows = []
        for row in self.to_dict()["seats"]:
            flat = dict(row)
            flat["win_rate_low"], flat["win_rate_high"] = flat.pop("win_rate_ci")
            flat["mean_score_low"], flat["mean_score_high"] = flat.pop("mean_score_ci")
            rows.append(flat)
        return pd.DataFrame(rows).set_index("seat")

    @property
    def lengths(self):
        """Game length summaries, one row per unit, as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.to_dict()["lengths"].values()).set_index("unit")

    def score_histogram(self) -> tuple[np.ndarray, np.ndarray]:
        """(bin lower edges, counts per seat) of the final scores."""
        low, width, bins = self.prepared.score_bins
        return low + width * np.arange(bins), np.array(self.totals["score_hist"], dtype=np.int64)

    def seat_table(self) -> TextTable:
        """The per-seat statistics as shown in the text and markdown tables (formatted cells; no pandas, which
        a short run's text output would otherwise spend a third of its start-up importing)."""
        d = self.to_dict()
        # one count of decimals for every seat: the widest interval's two significant digits
        decimals = interval_decimals(max(s["mean_score_ci"][1] - s["mean_score"] for s in d["seats"]))
        columns = ["seat", "strategy", "win rate", "95% interval", "ties", f"mean {d['score_unit']}", "± 95%", "sd"]
        rows = []
        for s in d["seats"]:
            low, high = s["win_rate_ci"]
            rows.append([s["seat"], s["strategy"], f"{s['win_rate'] * 100:.2f}%", f"{low * 100:.2f}–{high * 100:.2f}%",
                         f"{s['ties']:,}", f"{s['mean_score']:,.{decimals}f}",
                         f"{s['mean_score_ci'][1] - s['mean_score']:,.{decimals}f}", f"{s['sd_score']:,.{decimals}f}"])
        return TextTable(columns, rows)

    def seat_frame(self):
        """:meth:`seat_table` as a DataFrame (for the report's pages)."""
        import pandas as pd

        table = self.seat_table()
        return pd.DataFrame(table.rows, columns=table.columns)

    def _summary_lines(self) -> list[str]:
        """First-player advantage, ties and lengths in words."""
        d = self.to_dict()
        fpa = d["first_player_advantage"]
        caveat = (": the seats play different strategies, so this is not measurable as a seat advantage (see the "
                  "verdicts)") if strategies_differ(d) else ""
        lines = [f"First-player advantage: {fpa['estimate'] * 100:+.2f} points of win rate "
                 f"(95% interval {fpa['ci'][0] * 100:+.2f} to {fpa['ci'][1] * 100:+.2f}){caveat}",
                 f"Tie rate: {d['tie_rate'] * 100:.2f}%   Capped games: {d['capped_games']:,}"]
        for unit, block in d["lengths"].items():
            lines.append(f"Length in {unit}: mean {block['mean']:.2f}, median {block['median']}, "
                         f"5th–95th percentile {block['p5']}–{block['p95']}, max {block['max']}")
        if "minutes" in d:
            lines += [f"Playing time: {minutes_text(d['minutes'])},", f"  at {time_note(d['minutes'])}"]
        return lines

    def _verdict_lines(self, markdown: bool = False) -> list[str]:
        """The verdicts as in the JSON, numbered (a markdown list, one item per verdict, with ``markdown``)."""
        verdicts = self.verdicts()
        if self.spec.game.has_decisions:
            played = (f"Measured with {players_text(self.spec)}: the verdicts hold for that level of play "
                      f"(analyze skill ranks the strategies).")
        else:
            played = (f"Measured with {players_text(self.spec)}: a game of pure chance, so no way of playing "
                      f"changes them.")
        if not markdown:
            return [*verdict_lines(verdicts, output_width()), *wrap(played)]
        return ["Verdicts, most important first:", "",
                *(f"{rank}. **{v.title}**: {v.text} *Action:* {v.action}" for rank, v in enumerate(verdicts, 1)),
                "", played]

    def _rules_line(self) -> list[str]:
        changed = self.spec.changed_rules()
        if not changed:
            return []
        return ["Rules changed from the standard: " + ", ".join(f"{k} = {format_value(v)}" for k, v in changed.items())]

    def to_table(self) -> str:
        d = self.to_dict()
        lines = [f"{self.spec.game.title}: {d['n']:,} {self.spec.game.games_noun}, {d['players']} players, "
                 f"scenario {d['scenario']}, seed {d['seed']}", *self._rules_line(), "",
                 frame_text(self.seat_table(), "table", left=["strategy"]), "", *self._summary_lines(), "",
                 *self._verdict_lines()]
        extra = self.spec.game.game_stats_table(d["game_stats"])
        if extra:
            lines += ["", extra]
        if self.info.precision is not None:
            lines += ["", self.info.precision.sentence()]
        run = d["run"]
        rate = run["games_per_second"] or 0
        workers = "the cluster's" if run["workers"] is None else run["workers"]
        lines += ["", f"{run['wall_seconds']:.2f} s wall, {rate:,.0f} games/s, {workers} workers "
                      f"({run['backend']}), pirate-analyzer {run['version']}"]
        return "\n".join(lines)

    def to_csv(self) -> str:
        return frame_text(self.seats.reset_index(), "csv")

    def to_markdown(self) -> str:
        d = self.to_dict()
        lines = [f"# {self.spec.game.title}: {d['scenario']}", "",
                 f"{d['n']:,} {self.spec.game.games_noun}, {d['players']} players, seed {d['seed']}",
                 *self._rules_line(), "",
                 frame_text(self.seat_table(), "markdown", left=["strategy"]), "", *self._summary_lines(), "",
                 *self._verdict_lines(markdown=True)]
        if self.info.precision is not None:
            lines += ["", self.info.precision.sentence()]
        return "\n".join(lines) + "\n"
