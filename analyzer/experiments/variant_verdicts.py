"""A comparison's answer first: its verdicts of kind ``variant``.

For each scenario against the first: every difference that is significant after the false
discovery rate control, largest relative change first, one verdict each; the table's
metrics (controlled together, as the table marks them) and the finer measures (each
component's win rate, the per-item rates of the game's statistics: controlled as a family
of their own, :mod:`analyzer.experiments.details`). Then one verdict says what did not
change (seat balance, the seats' win rates, length, …), each with its 95% interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from analyzer.experiments.details import Detail
from analyzer.experiments.metrics import Metric, describe_metric
from analyzer.experiments.paired import Difference, paired_values
from analyzer.experiments.setup import rules_text
from analyzer.experiments.significance import benjamini_hochberg
from analyzer.verdicts import Verdict
from analyzer.wrapping import wrap

#: the width of the comparison's verdict lines in the terminal
TEXT_WIDTH = 80
#: metrics said together in the line of what did not change: key prefix -> words
GROUPED = {"win_rate_seat_": "the seats' win rates", "mean_score_seat_": "the seats' mean {unit}"}
RATE_UNIT = "percentage points"
UNCHANGED_TITLES = ("What did not change", "No significant change", "Nothing measurable")


def says_unchanged(verdict: Verdict) -> bool:
    """Whether ``verdict`` is the line of what did not change (not a change)."""
    return verdict.title.endswith(UNCHANGED_TITLES)


@dataclass(frozen=True)
class Change:
    """One measure of a scenario against the first: its two values and their paired difference."""

    #: how the measure reads: ``label`` of a table metric, or ``item`` and ``what`` of a finer measure
    metric: Metric
    item: str | None
    base: float
    new: float
    difference: Difference

    @property
    def relative(self) -> float:
        """The difference as a fraction of the first scenario's value (±inf from a value of 0)."""
        if self.base == 0:
            return 0.0 if self.difference.value == 0 else math.copysign(math.inf, self.difference.value)
        return self.difference.value / abs(self.base)

    def title(self) -> str:
        values = f"{self.metric.show(self.base)} → {self.metric.show(self.new)}"
        if self.item is not None:
            return f"{self.item}: {self.metric.label} {values}"
        return f"{self.metric.label[:1].upper()}{self.metric.label[1:]}: {values}"

    def amount(self, value: float) -> str:
        if self.metric.kind == "rate":
            return f"{value * 100:+.2f}"
        return self.metric.show(value, signed=True)

    def unit(self) -> str:
        if self.metric.kind == "rate":
            return RATE_UNIT
        return self.metric.unit or ("index" if self.metric.kind == "index" else "")

    def amount_with_unit(self, value: float) -> str:
        """``+39.50 points`` (a rate's difference in percentage points), ``-0.9578 rounds``."""
        unit = " points" if self.metric.kind == "rate" else f" {self.metric.unit}" if self.metric.unit else ""
        return self.amount(value) + unit

    def interval_text(self) -> str:
        low, high = self.difference.interval
        return f"{self.amount(low)} to {self.amount(high)}"

    def difference_text(self) -> str:
        """``+39.50 points, 95% interval +38.10 to +40.90``."""
        return f"{self.amount_with_unit(self.difference.value)}, 95% interval {self.interval_text()}"

    def size_text(self) -> str:
        if not math.isfinite(self.relative):
            return f"from {self.metric.show(0.0)}"
        size = abs(self.relative) * 100
        shown = f"{size:.0f}%" if size >= 9.5 else f"{size:.1f}%" if size >= 0.095 else f"{size:.2g}%"
        return f"{shown} {'higher' if self.relative > 0 else 'lower'}"

    def effect(self) -> dict:
        scale = 100 if self.metric.kind == "rate" else 1
        low, high = self.difference.interval
        return {"value": self.difference.value * scale, "ci": [low * scale, high * scale], "unit": self.unit(),
                "relative": self.relative if math.isfinite(self.relative) else None}


class VariantVerdicts:
    """The variant verdicts of a :class:`~analyzer.experiments.Comparison`, and the finer measures' tests."""

    def __init__(self, comparison):
        self.comparison = comparison

    @cached_property
    def details(self) -> dict[tuple[Detail, int], tuple[float, float, Difference, bool]]:
        """(detail, scenario) -> (first value, its value, paired difference, significant after the control
        over every finer measure of every scenario)."""
        runs = self.comparison.runs
        base, sizes, base_table, base_batches = runs[0].details
        found = {}
        for j, run in enumerate(runs[1:], start=1):
            values, _, table, batches = run.details
            same = batches == base_batches
            for detail in (d for d in base if d in values):
                found[(detail, j)] = (base[detail], values[detail], paired_values(
                    base[detail], values[detail], base_table.get(detail) if same else None,
                    table.get(detail) if same else None, sizes, runs[0].n))
        tested = [key for key, entry in found.items() if entry[2].p_value is not None]
        marks = dict(zip(tested, benjamini_hochberg([found[key][2].p_value for key in tested]), strict=True))
        return {key: (*entry, marks.get(key, False)) for key, entry in found.items()}

    def changes(self, scenario: int) -> list[Change]:
        """The significant changes of ``scenario``, largest relative change first (the table's order among
        equals)."""
        return self._changes[scenario]

    @cached_property
    def _changes(self) -> dict[int, list[Change]]:
        return {j: self._find_changes(j) for j in range(1, len(self.comparison.runs))}

    def _find_changes(self, scenario: int) -> list[Change]:
        comparison = self.comparison
        found = [Change(describe_metric(key, comparison.game), None, comparison.runs[0].values[key],
                        comparison.runs[scenario].values[key], comparison.differences[(key, scenario)])
                 for key in comparison.changes(scenario)]
        for (detail, j), (base, new, difference, significant) in self.details.items():
            if j == scenario and significant:
                found.append(Change(Metric(".".join(detail.key), detail.what, "rate"), detail.item, base,
                                    new, difference))
        return sorted(found, key=lambda change: -abs(change.relative))

    def unchanged_parts(self, scenario: int) -> tuple[list[str], Change | None]:
        """What did not change, in words with intervals, and the seat balance's change (if it did not)."""
        comparison = self.comparison
        parts, groups, balance = [], {}, None
        for metric in comparison.metrics:
            key = metric.key
            d = comparison.differences[(key, scenario)]
            if comparison.significant[(key, scenario)] or d.interval is None:
                continue
            base, new = comparison.runs[0].values[key], comparison.runs[scenario].values[key]
            if base == new == 0:
                continue  # never happened in either: nothing to say
            change = Change(metric, None, base, new, d)
            prefix = next((p for p in GROUPED if key.startswith(p)), None)
            if prefix is not None:
                groups.setdefault(prefix, []).append(change)
                continue
            if key == "balance":
                balance = change
            parts.append(f"{metric.label} {metric.show(base)} → {metric.show(new)} ({change.difference_text()})")
        for prefix, changes in groups.items():
            low = min(c.difference.interval[0] for c in changes)
            high = max(c.difference.interval[1] for c in changes)
            words = GROUPED[prefix].format(unit=changes[0].metric.unit)
            unit = "points" if changes[0].metric.kind == "rate" else changes[0].unit()
            parts.insert(0, f"{words} (every difference within {changes[0].amount(low)} to "
                            f"{changes[0].amount(high)} {unit}, 95% intervals)")
        tested = [entry for (_, j), entry in self.details.items() if j == scenario and entry[2].interval is not None]
        quiet = sum(1 for entry in tested if not entry[3])
        if quiet:
            parts.append(f"{quiet} of the {len(tested)} per-component and per-item rates")
        return parts, balance

    def verdicts(self) -> list[Verdict]:
        """Every scenario's changes, largest relative change first, then its line of what did not change."""
        comparison = self.comparison
        found = []
        for j in range(1, len(comparison.runs)):
            against = f"{comparison.names[j]} against {comparison.names[0]}"
            named = f"{comparison.names[j]}: " if len(comparison.runs) > 2 else ""
            action = (f"Decide whether this change is wanted: it is what {comparison.names[j]} "
                      f"({rules_text(comparison.runs[j].spec)}) does.")
            changes = self.changes(j)
            for change in changes:
                found.append(Verdict(kind="variant", title=named + change.title(),
                                     text=f"{change.size_text()} ({change.difference_text()}).",
                                     action=action, effect=change.effect()))
            parts, balance = self.unchanged_parts(j)
            if not changes and not parts:
                found.append(Verdict(kind="variant", title=named + UNCHANGED_TITLES[2],
                                     text=f"{against}: no difference has an interval at {comparison.n:,} games (too "
                                          f"few batches of games), so none can be called a change or no change.",
                                     action="Play more games (--n).", effect=None))
            if parts:
                title = UNCHANGED_TITLES[0] if changes else UNCHANGED_TITLES[1]
                found.append(Verdict(kind="variant", title=named + title,
                                     text=f"{against}, no significant difference: " + "; ".join(parts) + ".",
                                     action="None: the variant leaves these as they were at this precision (more "
                                            "games, --n, detect smaller changes).",
                                     effect=None if balance is None else balance.effect()))
        return found


def heading(names: list[str]) -> str:
    against = f"{names[1]} against {names[0]}" if len(names) == 2 else f"every scenario against {names[0]}"
    return (f"The comparison's verdicts, {against}: significant changes, largest relative change first, then what "
            f"did not change")


def verdict_lines(names: list[str], verdicts: list[Verdict], width: int = TEXT_WIDTH) -> list[str]:
    """The comparison's verdicts under their heading, numbered and wrapped; an action is said once for a
    run of verdicts that share it."""
    lines = wrap(heading(names) + ":", width)
    for rank, verdict in enumerate(verdicts, start=1):
        lines += wrap(f"{rank}. {verdict.title} — {verdict.text}", width, subsequent_indent="   ")
        following = verdicts[rank] if rank < len(verdicts) else None
        if following is None or following.action != verdict.action:
            lines += wrap(f"Action: {verdict.action}", width, indent="   ", subsequent_indent="   ")
    return lines
