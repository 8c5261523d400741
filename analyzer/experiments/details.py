"""The finer measures a comparison looks at beyond its table: each component's win rate and each
per-item rate of the game's own statistics (a card's death rate, a special's use rate).

They are measured per batch like the table's metrics, so their paired differences have
intervals and p-values; they are tested as a family of their own (Benjamini–Hochberg at
the same level), which leaves the table's marks as they were. Only the variant verdicts
read them (:mod:`analyzer.experiments.variant_verdicts`); they are not rows of the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer import measures
from analyzer.games.base import PER_DRAW

#: the word ending a statistic's key that marks it as a rate (a share of 0 to 1)
RATE_WORDS = ("rate", "share")


@dataclass(frozen=True)
class Detail:
    """One finer measure: ``key`` (a path), how it reads (``item``: the component or item, ``what``: the
    quantity), always a rate (a share shown in %, its differences in percentage points)."""

    key: tuple[str, ...]
    item: str
    what: str

    @property
    def label(self) -> str:
        return f"{self.item}: {self.what}"


def _component_details(game, prepared, totals) -> dict[Detail, float]:
    found = {}
    for record in measures.components(totals, game.components(prepared), prepared.players):
        if record["win_rate"] is None:
            continue
        what = "win rate per time met" if record["measure"] == PER_DRAW else "win rate of its holders"
        found[Detail(("components", record["component"]), record["component"], what)] = record["win_rate"]
    return found


def _is_rate(name: str, value) -> bool:
    return (isinstance(value, float) and math.isfinite(value) and 0.0 <= value <= 1.0
            and any(word in name for word in RATE_WORDS))


def _stat_details(game, stats: dict, shared_label: str | None) -> dict[Detail, float]:
    """Rates of the game's statistics below its per-item records (group -> item [-> strategy] -> rate):
    the shallower numbers are rows of the table already. A strategy level is named only where the seats
    play different strategies (``shared_label`` None)."""
    found = {}

    def walk(value, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, (*path, str(key)))
        elif len(path) >= 3 and _is_rate(path[-1], value):
            names = [part for part in path[1:-1] if part != shared_label]
            item = ", ".join([game.display_name(names[0]), *names[1:]]) if names else path[0]
            found[Detail(("game_stats", *path), item, path[-1].replace("_", " "))] = value

    walk(stats, ())
    return found


def detail_values(game, prepared, totals) -> dict[Detail, float]:
    """Every finer measure of a run (or of one batch of it)."""
    labels = {seat.label for seat in prepared.seats}
    shared = next(iter(labels)) if len(labels) == 1 else None
    components = _component_details(game, prepared, totals)
    said = {(detail.item, value) for detail, value in components.items()}
    stats = _stat_details(game, game.game_stats(totals, prepared), shared)
    # a statistic that repeats a component's win rate (a ship's "win rate when held") is said once
    return components | {detail: value for detail, value in stats.items() if (detail.item, value) not in said}


def run_details(run) -> tuple[dict[Detail, float], np.ndarray, dict[Detail, np.ndarray], list[int]]:
    """(values, batch sizes, value per complete batch, complete batch indices) of a
    :class:`~analyzer.experiments.VariantRun` whose batches hold every aggregate; nothing otherwise."""
    batches = run.batches
    complete = batches.complete()
    if batches.keys is not None or not complete:
        return {}, np.zeros(0), {}, []
    game, prepared = run.spec.game, run.result.prepared
    values = detail_values(game, prepared, run.result.totals)
    per_batch = [detail_values(game, prepared, batches.totals[b]) for b in complete]
    table = {key: np.array([found[key] for found in per_batch]) for key in values
             if all(key in found for found in per_batch)}
    return values, batches.expected[complete], table, complete
