"""The report's figures, each drawn on a given matplotlib axes.

``plot_win_rates(result, ax)``, ``plot_score_distribution(result, ax)`` and
``plot_lengths(result, ax, unit=None)`` take a :class:`analyzer.result.Result`; the
others take the experiment objects of :mod:`analyzer.experiments`. Every function
titles its axes, labels them with units, adds a legend and colours seats, strategies
and scenarios by the :class:`~analyzer.report.style.Palette` (one is made when none
is given).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import LogFormatter, MaxNLocator

from analyzer.report.style import FAIR_LINE, NEUTRAL, Palette, displayable, legend_above, percent_axis

#: share of the games left out at each end when a distribution's axis is trimmed
TRIM = 0.0005
#: at most this many values are drawn as bars; more as step lines
MAX_BARS = 25
#: the longest period (in bins) looked for in a score histogram
MAX_GRID_PERIOD = 6
#: a period shows when a phase of it holds this much more or less than its even share ...
GRID_DEVIATION = 0.1
#: ... and the departure from even shares has at least this chi-square (a few degrees of freedom)
GRID_CHI2 = 100.0


class TimesFormatter(LogFormatter):
    """A log axis of factors (``2×``), its minor ticks labelled only where the axis spans few decades."""

    def _num_to_string(self, x, vmin, vmax) -> str:
        return f"{x:,.0f}×" if x >= 1 else f"{x:g}×"


def seat_label(result, seat: int, between: str = " (", after: str = ")") -> str:
    """Seat ``seat`` (1-based) with its strategy; a game of pure chance has no strategy to name."""
    if not result.spec.game.has_decisions:
        return f"seat {seat}"
    return f"seat {seat}{between}{result.spec.seats[seat - 1].label}{after}"


def _seat_ticks(ax, result) -> None:
    seats = result.spec.seats
    ax.set_xticks(range(len(seats)), [seat_label(result, i + 1, "\n", "") for i in range(len(seats))],
                  fontsize=8 if len(seats) > 6 else 9)


def error_bars(values, intervals) -> np.ndarray:
    """Below and above each value to the ends of its interval: matplotlib's ``xerr``/``yerr``.

    Never negative: an interval's end computed a rounding error beyond its value (a rate of 0
    whose interval starts at 2e-19) is a bar of length 0, which matplotlib accepts."""
    values = np.asarray(values, dtype=float)
    low = np.array([v - lo for v, (lo, _) in zip(values, intervals, strict=True)])
    high = np.array([hi - v for v, (_, hi) in zip(values, intervals, strict=True)])
    return np.maximum(np.vstack([low, high]).reshape(2, len(values)), 0.0)


def trimmed_range(counts: np.ndarray) -> tuple[int, int]:
    """First and last bin holding all but ``TRIM`` of the mass at either end."""
    cumulative = np.cumsum(counts) / max(counts.sum(), 1)
    first = int(np.searchsorted(cumulative, TRIM, side="right"))
    last = int(np.searchsorted(cumulative, 1 - TRIM, side="left"))
    return first, min(max(last, first), len(counts) - 1)


def score_grid(counts: np.ndarray) -> int:
    """How many histogram bins make one step of the grid the scores fall on (1: no grid).

    The occupied bins are all a multiple of g apart (the bins are finer than the scores'
    grid); or the counts alternate with a period of k bins (the bin width is not a multiple of
    the grid, so the bins take turns holding more and fewer grid points), found as the
    smallest k whose phases hold clearly uneven shares. Merging that many bins removes the
    comb or the alternation.
    """
    counts = np.asarray(counts, dtype=np.float64)
    occupied = np.nonzero(counts)[0]
    if len(occupied) < 2:
        return 1
    gap = int(np.gcd.reduce(occupied - occupied[0]))
    if gap > 1:
        return gap
    span = counts[occupied[0]:occupied[-1] + 1]
    for period in range(2, MAX_GRID_PERIOD + 1):
        whole = len(span) // period * period
        if whole < 4 * period:
            break
        phases = span[:whole].reshape(-1, period).sum(axis=0)
        even = phases.mean()
        chi2 = float(((phases - even) ** 2 / even).sum())
        if chi2 >= GRID_CHI2 and np.abs(phases - even).max() >= GRID_DEVIATION * even:
            return period
    return 1


def _merge_bins(lows: np.ndarray, counts: np.ndarray, factor: int) -> tuple[np.ndarray, np.ndarray]:
    """Bins merged ``factor`` at a time (the last group padded with empty bins)."""
    if factor == 1:
        return lows, counts
    pad = -len(lows) % factor
    counts = np.pad(counts, ((0, 0), (0, pad)))
    return lows[::factor], counts.reshape(counts.shape[0], -1, factor).sum(axis=2)


def plot_win_rates(result, ax, palette: Palette | None = None) -> None:
    """Win rate by seat with 95% (Wilson) interval bars and the fair share."""
    palette = palette or Palette.for_result(result)
    d = result.to_dict()
    seats = d["seats"]
    rates = [s["win_rate"] for s in seats]
    x = np.arange(len(seats))
    ax.bar(x, rates, color=[palette.seat(s["seat"]) for s in seats], width=0.65, label="win rate")
    ax.errorbar(x, rates, yerr=error_bars(rates, [s["win_rate_ci"] for s in seats]), fmt="none",
                ecolor="black", capsize=5, label="95% interval")
    ax.axhline(1 / d["players"], label=f"fair share ({100 / d['players']:.1f}%)", **FAIR_LINE)
    for xi, rate, seat in zip(x, rates, seats, strict=True):
        ax.annotate(f"{rate * 100:.2f}%", (xi, seat["win_rate_ci"][1]), textcoords="offset points", xytext=(0, 4),
                    ha="center", fontsize=8)
    _seat_ticks(ax, result)
    top = max(max(s["win_rate_ci"][1] for s in seats), 1 / d["players"])
    ax.set_ylim(0, top * 1.1)
    percent_axis(ax)
    ax.set_ylabel("win rate (% of games)")
    ax.set_title(f"Win rate by seat ({d['n']:,} games; ties {d['tie_rate'] * 100:.2f}%)", pad=26)
    legend_above(ax, 3)


def plot_score_distribution(result, ax, palette: Palette | None = None) -> None:
    """Final score distribution of every seat (share of games per bin)."""
    palette = palette or Palette.for_result(result)
    lows, counts = result.score_histogram()
    n = result.info.n
    _, width, _ = result.prepared.score_bins
    occupied = np.nonzero(counts.sum(axis=0))[0]
    if len(occupied):  # merge from the first occupied bin, so that the grid's phase is kept
        factor = score_grid(counts.sum(axis=0))
        start = occupied[0]
        lows, counts = _merge_bins(lows[start:], counts[:, start:], factor)
        width *= factor
    first, last = trimmed_range(counts.sum(axis=0))
    lows, shares = lows[first:last + 1], counts[:, first:last + 1] / n
    players = counts.shape[0]
    if len(lows) <= MAX_BARS:
        bar = 0.8 * width / players
        for seat in range(players):
            ax.bar(lows + (seat - (players - 1) / 2) * bar, shares[seat], width=bar, color=palette.seat(seat + 1),
                   label=seat_label(result, seat + 1))
    else:
        for seat in range(players):
            ax.step(lows, shares[seat], where="post", color=palette.seat(seat + 1), linewidth=1.2,
                    label=seat_label(result, seat + 1))
    unit = result.spec.game.score_unit
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"final score ({unit}" + (f"; bins of {width:g})" if width != 1 else ")"))
    ax.set_ylabel("share of games (%)")
    percent_axis(ax, decimals=1)
    ax.set_title("Final score distribution by seat")
    ax.legend(ncol=2 if players > 4 else 1)


def plot_lengths(result, ax, unit: str | None = None) -> None:
    """Game length histogram (bars) and its cumulative curve (right axis)."""
    game = result.spec.game
    unit = unit or game.length_units[0]
    counts = np.asarray(result.totals[f"length_{unit}"], dtype=np.float64)
    n = counts.sum()
    first, last = trimmed_range(counts)
    lengths = np.arange(first, last + 1)
    shares = counts[first:last + 1] / n
    if len(lengths) <= MAX_BARS * 2:
        bars = ax.bar(lengths, shares, width=0.9, color=NEUTRAL, alpha=0.8, label="share of games")
    else:  # one filled outline draws far faster than hundreds of bars
        bars = ax.stairs(shares, np.append(lengths, lengths[-1] + 1) - 0.5, fill=True, color=NEUTRAL, alpha=0.8,
                         label="share of games")
    summary = result.to_dict()["lengths"][unit]
    median = ax.axvline(summary["median"], color="black", linewidth=1, linestyle=":",
                        label=f"median {summary['median']}")
    ax.set_xlabel(f"game length ({unit})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("share of games (%)")
    percent_axis(ax, decimals=1)
    cumulative_ax = ax.twinx()
    # from the games shorter than the shortest drawn (none, mostly), at that bar's left edge
    cumulative = np.concatenate([[np.cumsum(counts)[first - 1] / n if first else 0.0],
                                 np.cumsum(counts)[first:last + 1] / n])
    (curve,) = cumulative_ax.plot(np.append(lengths[0] - 0.5, lengths), cumulative, color="black", linewidth=1.5,
                                  label="cumulative share")
    cumulative_ax.set_ylim(0, 1.02)
    cumulative_ax.set_ylabel("cumulative share of games (%)")
    cumulative_ax.grid(False)
    cumulative_ax.spines["right"].set_visible(True)
    percent_axis(cumulative_ax)
    ax.set_title(f"Game length in {unit}: mean {summary['mean']:.1f}, 5%–95% {summary['p5']}–{summary['p95']}",
                 pad=24)
    ax.legend(handles=[bars, curve, median], loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False,
              borderaxespad=0.2)


def plot_convergence(convergence, result, ax, palette: Palette | None = None) -> None:
    """The running win-rate estimate of every seat against games played, with its 95% band."""
    palette = palette or Palette.for_result(result)
    games = convergence.games
    rates = convergence.wins / games[:, None]
    low, high = convergence.intervals()
    for seat in range(rates.shape[1]):
        colour = palette.seat(seat + 1)
        ax.plot(games, rates[:, seat], color=colour, linewidth=1.3,
                label=seat_label(result, seat + 1))
        ax.fill_between(games, low[:, seat], high[:, seat], color=colour, alpha=0.18, linewidth=0)
    ax.axhline(1 / result.spec.players, label="fair share", **FAIR_LINE)
    if games[-1] > 10 * games[0]:
        ax.set_xscale("log")
    ax.set_xlim(games[0], games[-1])
    ax.set_xlabel("games played")
    ax.set_ylabel("running win rate (% of games)")
    percent_axis(ax, decimals=1)
    ax.set_title("Convergence: running win rate with its 95% band", pad=24 if rates.shape[1] < 6 else 38)
    legend_above(ax, min(rates.shape[1] + 1, 6))


# -- several scenarios --------------------------------------------------------------------------

def plot_win_rates_compared(comparison, ax, palette: Palette | None = None) -> None:
    """Win rate by seat, one bar per scenario, with 95% intervals."""
    palette = palette or Palette(scenarios=comparison.names)
    seats = max(run.spec.players for run in comparison.runs)
    groups = len(comparison.runs)
    width = 0.8 / groups
    for j, (name, run) in enumerate(zip(comparison.names, comparison.runs, strict=True)):
        rows = run.result.to_dict()["seats"]
        x = np.arange(len(rows)) + (j - (groups - 1) / 2) * width
        rates = [r["win_rate"] for r in rows]
        ax.bar(x, rates, width=width, color=palette.scenario(name), label=displayable(name))
        ax.errorbar(x, rates, yerr=error_bars(rates, [r["win_rate_ci"] for r in rows]), fmt="none", ecolor="black",
                    capsize=3)
    ax.set_xticks(range(seats), [f"seat {i + 1}" for i in range(seats)])
    percent_axis(ax)
    ax.set_ylabel("win rate (% of games)")
    ax.set_title("Win rate by seat and scenario (95% intervals)", pad=24)
    legend_above(ax, min(groups, 4))


def plot_differences(comparison, ax, metrics, palette: Palette | None = None) -> None:
    """Differences to the first scenario with their 95% intervals (one row per metric)."""
    palette = palette or Palette(scenarios=comparison.names)
    others = len(comparison.runs) - 1
    step = 0.6 / max(others, 1)
    scale = 100 if metrics and metrics[0].kind == "rate" else 1
    for j in range(1, len(comparison.runs)):
        ys, xs, intervals = [], [], []
        for i, metric in enumerate(metrics):
            d = comparison.differences[(metric.key, j)]
            if d.value is None:
                continue
            ys.append(i + (j - 1 - (others - 1) / 2) * step)
            xs.append(d.value * scale)
            interval = d.interval or (d.value, d.value)
            intervals.append((interval[0] * scale, interval[1] * scale))
        ax.errorbar(xs, ys, xerr=error_bars(xs, intervals) if xs else None, fmt="o",
                    color=palette.scenario(comparison.names[j]), capsize=4,
                    label=displayable(f"{comparison.names[j]} − {comparison.names[0]}"))
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(range(len(metrics)), [m.label for m in metrics])
    ax.set_ylim(-0.5, len(metrics) - 0.5)
    ax.invert_yaxis()
    unit = "percentage points" if scale == 100 else (metrics[0].unit or "difference")
    if others == 1:  # one difference: the axis says which, no legend
        ax.set_xlabel(displayable(f"{comparison.names[1]} − {comparison.names[0]} ({unit})"))
        return
    ax.set_xlabel(displayable(f"difference to {comparison.names[0]} ({unit})"))
    legend_above(ax, 2, size=8)


def plot_length_distributions(comparison, ax, unit: str | None = None, palette: Palette | None = None) -> None:
    """Cumulative game length of every scenario."""
    palette = palette or Palette(scenarios=comparison.names)
    unit = unit or comparison.game.length_units[0]
    first, last = None, 0
    for name, run in zip(comparison.names, comparison.runs, strict=True):
        counts = np.asarray(run.result.totals[f"length_{unit}"], dtype=np.float64)
        low, high = trimmed_range(counts)
        first, last = low if first is None else min(first, low), max(last, high)
        ax.step(np.arange(len(counts)), np.cumsum(counts) / counts.sum(), where="post", color=palette.scenario(name),
                label=displayable(name))
    ax.set_xlim(max(first - 1, 0), last + max(0.02 * last, 0.2))  # the lengths games take, not the run-up from 0
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games at most this long (%)")
    percent_axis(ax)
    ax.set_title(f"Game length in {unit}, cumulative")
    ax.legend(loc="lower right")


def plot_variance_reduction(comparison, ax, palette: Palette | None = None) -> None:
    """The measured gain of common random numbers per metric (log scale)."""
    palette = palette or Palette(scenarios=comparison.names)
    metrics = [m for m in comparison.metrics
               if any(np.isfinite(comparison.differences[(m.key, j)].variance_reduction or np.nan)
                      for j in range(1, len(comparison.runs)))]
    others = len(comparison.runs) - 1
    width = 0.8 / max(others, 1)
    for j in range(1, len(comparison.runs)):
        factors = [comparison.differences[(m.key, j)].variance_reduction or np.nan for m in metrics]
        factors = [f if np.isfinite(f) else np.nan for f in factors]
        ax.bar(np.arange(len(metrics)) + (j - 1 - (others - 1) / 2) * width, factors, width=width,
               color=palette.scenario(comparison.names[j]),
               label=displayable(f"{comparison.names[j]} vs {comparison.names[0]}"))
    ax.axhline(1, label="no gain (independent runs)", **FAIR_LINE)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(TimesFormatter(labelOnlyBase=False))
    ax.yaxis.set_minor_formatter(TimesFormatter(labelOnlyBase=False, minor_thresholds=(1, 0.4)))
    ax.set_xticks(range(len(metrics)), [m.label for m in metrics], rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("independent ÷ paired variance")
    ax.figure.subplots_adjust(left=0.12)  # room for factors of 100,000×
    ax.set_title("Gain from common random numbers (how many times fewer games for the same precision)")
    ax.legend()


# -- sweeps and the fairness search --------------------------------------------------------------

def plot_sweep(sweep, ax, metrics, palette: Palette | None = None) -> None:
    """Metrics against the swept option with 95% intervals (seat metrics in seat colours)."""
    palette = palette or Palette()
    positions = np.array(sweep.values, dtype=float) if sweep.numeric else np.arange(len(sweep.values))
    for i, metric in enumerate(metrics):
        values = np.array([run.values.get(metric.key, np.nan) for run in sweep.runs], dtype=float)
        intervals = [run.interval(metric.key) or (v, v) for run, v in zip(sweep.runs, values, strict=True)]
        seat = metric.key.rsplit("_", 1)[1] if "_seat_" in metric.key else None
        colour = palette.seat(int(seat)) if seat else NEUTRAL
        # categories have room beside each point: spread the seats so their bars do not overlap
        shift = 0 if sweep.numeric else (i - (len(metrics) - 1) / 2) * 0.06
        ax.errorbar(positions + shift, values, yerr=error_bars(values, intervals), fmt="-o" if sweep.numeric else "o",
                    color=colour, capsize=3, markersize=4, label=f"seat {seat}" if seat else metric.label)
    if not sweep.numeric:
        ax.set_xticks(positions, [str(v) for v in sweep.values])
    if metrics[0].kind == "rate":
        percent_axis(ax, decimals=1)
    ax.set_xlabel(sweep.option.name)
    first = metrics[0]
    label = first.label.rsplit(",", 1)[0] if "_seat_" in first.key else first.label
    unit = "%" if first.kind == "rate" else first.unit
    ax.set_ylabel(f"{label} ({unit})" if unit else label)
    columns = min(len(metrics), 4)
    ax.set_title(f"{label} against {sweep.option.name}", pad=4 + 14 * -(-len(metrics) // columns))
    legend_above(ax, columns, size=8)


def plot_balance_search(balance, ax, palette: Palette | None = None) -> None:
    """The target's win rates (the seats') at every evaluated value, and the recommended value with its
    interval."""
    palette = palette or Palette()
    evaluations = sorted(balance.evaluations, key=lambda e: e.value)
    xs = np.array([e.value for e in evaluations], dtype=float)
    rates = np.stack([e.win_rates for e in evaluations])
    for column, label in enumerate(balance.target.labels):
        ax.plot(xs, rates[:, column], "-o", color=palette.seat(column + 1), markersize=4, label=label)
    if balance.interval is not None:
        ax.axvspan(*balance.interval, color="#999999", alpha=0.25, label="95% interval of the fairest value")
    ax.axvline(balance.recommended, color="black", linewidth=1.2, label=f"recommended {balance.recommended:g}")
    ax.axhline(1 / balance.base.players, label="fair share", **FAIR_LINE)
    percent_axis(ax, decimals=1)
    ax.set_xlabel(balance.option.name)
    ax.set_ylabel("win rate (% of games)")
    whose = "Seat" if balance.target.text is None else f"{balance.target.text}' and the others'"
    ax.set_title(f"{whose} win rates against {balance.option.name} ({balance.n:,} games per value)")
    ax.legend(fontsize=8)
