"""The report's pages: title, summary in words, the figures of a run, comparisons, sweeps, the fair value."""

from __future__ import annotations

import datetime
import re

import numpy as np

from analyzer import __version__
from analyzer.experiments import Balance, Comparison, Sweep, VariantRun, players_text, rules_text
from analyzer.experiments.comparison import MARK_NOTE
from analyzer.report import figures
from analyzer.report.document import Page, name_scenario
from analyzer.report.game_pages import game_pages
from analyzer.report.layout import table_pages, text_page
from analyzer.report.style import Palette, displayable, fit_lines, new_page, plot_page, text_block
from analyzer.verdicts import seats_not_measurable, strategies_differ

#: table rows that fit below a page of text
MAX_INLINE_ROWS = 14
#: characters of the line naming the scenario at the foot of a game page
FOOTER_WIDTH = 170


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "scenario"


# -- title and summary ------------------------------------------------------------------------------

def title_page(runs: list[VariantRun], names: list[str], wall_seconds: float) -> Page:
    first = runs[0]
    game = first.spec.game
    figure = new_page()
    title = fit_lines(displayable(game.title), 26, bold=True)
    figure.text(0.05, 0.91, "\n".join(title), fontsize=26, fontweight="bold", ha="left", va="top")
    below = 0.91 - 0.058 * len(title)  # where the title's lines end
    figure.text(0.05, below - 0.01, "Balance report", fontsize=18, ha="left", va="top", color="#444444")
    lines = []
    for name, run in zip(names, runs, strict=True):
        spec = run.spec
        about = f": {spec.scenario.description}" if spec.scenario and spec.scenario.description else ""
        lines.append(f"Scenario {name}{about}")
        strategies = ", ".join(f"seat {i + 1} {s.label}" for i, s in enumerate(spec.seats))
        lines.append(f"    Rules that differ from the standard: {rules_text(spec).replace('standard rules', 'none')}. "
                     f"Players: {spec.players}."
                     + (f" Strategies per seat: {strategies}." if game.has_decisions
                        else " A game of pure chance: no seat has a strategy to choose."))
    info = first.result.info
    lines += [
        f"Games: {info.n:,}" + (" per scenario (the same random streams in every scenario)" if len(runs) > 1 else ""),
        f"Seed: {info.seed} (run again with --seed {info.seed} for the same numbers)",
        *([info.precision.sentence()] if info.precision is not None else []),
        f"pirate-analyzer version {__version__}",
        f"Date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"Simulation wall time: {wall_seconds:,.1f} s ({info.workers} workers, {info.backend} backend)",
    ]
    small = len(runs) > 3
    text_block(figure, lines, top=below - 0.1, size=9 if small else 11, line_height=0.026 if small else 0.032,
               width=150 if small else 120)
    return Page("title", figure, plot=False, title=f"{game.title}: balance report",
                paragraphs=[line.strip() for line in lines])


def _pooled_strategies(result) -> list[tuple[str, float, list[int]]]:
    """(label, win rate per seat held, seats) per strategy, best first."""
    d = result.to_dict()
    pooled: dict[str, list] = {}
    for seat in d["seats"]:
        entry = pooled.setdefault(seat["strategy"], [0, 0, []])
        entry[0] += seat["wins"]
        entry[1] += d["n"]
        entry[2].append(seat["seat"])
    rows = [(label, wins / games, seats) for label, (wins, games, seats) in pooled.items()]
    return sorted(rows, key=lambda row: -row[1])


def summary_paragraphs(run: VariantRun) -> list[str]:
    """The run in words: fairest and least fair seat, first-player advantage, length, best strategy."""
    result = run.result
    d = result.to_dict()
    players = d["players"]
    fair = 1 / players
    seats = d["seats"]
    gaps = [abs(s["win_rate"] - fair) for s in seats]
    fairest = seats[int(np.argmin(gaps))]
    least = seats[int(np.argmax(gaps))]

    def pct(value):
        return f"{value * 100:.2f}%"

    def named(seat):  # a game of pure chance has no strategy to name
        return f"seat {seat['seat']}" + (f" ({seat['strategy']})" if run.spec.game.has_decisions else "")

    def ci(interval):
        return f"95% interval {pct(interval[0])} to {pct(interval[1])}"

    rates = [s["win_rate"] for s in seats]
    top, bottom = int(np.argmax(rates)), int(np.argmin(rates))
    paragraphs = [
        f"{d['n']:,} games of {players_text(run.spec)} under {rules_text(run.spec)}. "
        f"A fair game gives every seat {pct(fair)} of the wins.",
    ]
    if strategies_differ(d):
        paragraphs.append(f"Best seat: seat {seats[top]['seat']} ({seats[top]['strategy']}) wins "
                          f"{pct(seats[top]['win_rate'])} ({ci(seats[top]['win_rate_ci'])}); worst: seat "
                          f"{seats[bottom]['seat']} ({seats[bottom]['strategy']}) {pct(seats[bottom]['win_rate'])} "
                          f"({ci(seats[bottom]['win_rate_ci'])}). The seats play different strategies, so these gaps "
                          f"mix the strategies' strength with the seats': no seat is fairer or less fair from this "
                          f"run alone.")
    else:
        paragraphs += [
            f"Fairest seat: {named(fairest)} wins {pct(fairest['win_rate'])} "
            f"({ci(fairest['win_rate_ci'])}), {abs(fairest['win_rate'] - fair) * 100:.2f} points from the fair share.",
            f"Least fair seat: {named(least)} wins {pct(least['win_rate'])} "
            f"({ci(least['win_rate_ci'])}), {(least['win_rate'] - fair) * 100:+.2f} points from the fair share.",
        ]
    fpa = d["first_player_advantage"]
    low, high = fpa["ci"]
    if strategies_differ(d):
        verdict = seats_not_measurable(d)
    else:
        verdict = ("the first player is favoured" if low > 0 else "the first player is at a disadvantage"
                   if high < 0 else "no advantage is measurable at this number of games")
    paragraphs.append(f"First-player advantage: {fpa['estimate'] * 100:+.2f} points of win rate "
                      f"(95% interval {low * 100:+.2f} to {high * 100:+.2f}): {verdict}.")
    balance = run.values["balance"]
    paragraphs.append(f"Balance (as in Ludii: one minus the largest gap between seat win rates): {balance:.4f}; "
                      f"the largest gap is {(rates[top] - rates[bottom]) * 100:.2f} points, between seat {top + 1} "
                      f"and seat {bottom + 1}.")
    units = list(d["lengths"].values())
    main = units[0]
    others = "".join(f", or {u['median']} {u['unit']}" for u in units[1:])
    paragraphs.append(f"A typical game lasts {main['median']} {main['unit']}{others} (median; 90% of games take "
                      f"{main['p5']} to {main['p95']} {main['unit']}, mean {main['mean']:.1f}, longest {main['max']}).")
    ties = f"{pct(d['tie_rate'])} of games end in a shared win."
    if d["capped_games"]:
        ties += f" {d['capped_games']:,} games were stopped by the game's cap and count as unfinished."
    paragraphs.append(ties)
    if run.spec.game.has_decisions:  # a game of pure chance has no strategy to rank
        paragraphs.append(_strategies_paragraph(_pooled_strategies(result)))
    return paragraphs


def _strategies_paragraph(pooled: list[tuple[str, float, list[int]]]) -> str:
    """What the run says of the strategies: nothing to rank when every seat plays one, else the best."""
    if len(pooled) == 1:
        return (f"Every seat plays {pooled[0][0]}, so this run does not rank strategies; "
                f"analyze compare --strategy A --strategy B plays a match-up with rotated seats.")
    best = pooled[0]
    seat_list = ", ".join(str(s) for s in best[2])
    return (f"Best strategy at this table: {best[0]} wins {best[1] * 100:.2f}% per seat it holds (seat "
            f"{seat_list}). Seats differ too, so for a fair ranking play a match-up "
            f"(analyze compare --strategy ...), which rotates the seating.")


def summary_page(run: VariantRun, name: str, prefix: str) -> Page:
    table = run.result.seat_frame().astype(str)
    if not run.spec.game.has_decisions:  # no seat chooses anything: no strategy column
        table = table.drop(columns="strategy")
    return text_page(f"{prefix}summary", f"Summary: {name}", summary_paragraphs(run), list(table.columns),
                     table.values.tolist(), size=10.5)


# -- the figures of one run --------------------------------------------------------------------------

def run_pages(run: VariantRun, name: str, prefix: str, palette: Palette) -> list[Page]:
    result = run.result
    pages = [summary_page(run, name, prefix)]
    subtitle = f"{name}: {players_text(run.spec)}; {rules_text(run.spec)}"
    figure, (ax,) = plot_page("Win rate by seat", subtitle)
    figures.plot_win_rates(result, ax, palette)
    _room_above(figure)
    pages.append(Page(f"{prefix}win-rates", figure))
    figure, (ax,) = plot_page("Final score distribution by seat", subtitle)
    figures.plot_score_distribution(result, ax, palette)
    pages.append(Page(f"{prefix}score-distribution", figure))
    units = result.spec.game.length_units
    figure, axes = plot_page("Game length", subtitle, rows=len(units))
    for ax, unit in zip(axes, units, strict=True):
        figures.plot_lengths(result, ax, unit)
    figure.subplots_adjust(right=0.9, hspace=0.6)
    _room_above(figure)
    pages.append(Page(f"{prefix}game-length", figure))
    figure, (ax,) = plot_page("Convergence of the win-rate estimates", subtitle)
    if run.convergence is not None and len(run.convergence.games) > 1:
        figures.plot_convergence(run.convergence, result, ax, palette)
        _room_above(figure)
    else:
        ax.set_axis_off()
        why = ("this run resumed from a checkpoint, so the chunks played before are not known one by one"
               if run.convergence is None else "the games were played in one chunk, so there is one estimate only")
        ax.text(0.5, 0.5, f"Not available: {why}.", ha="center", va="center", wrap=True)
    pages.append(Page(f"{prefix}convergence", figure))
    for page in game_pages(result, palette):
        page.name = prefix + page.name
        _name_scenario(page.figure, subtitle)
        pages.append(page)
    return name_scenario(pages, name) if prefix else pages


def _room_above(figure) -> None:
    """Room between the page's header and a chart whose legend stands above it, under its title."""
    figure.subplots_adjust(top=figure.subplotpars.top - 0.05)


def _name_scenario(figure, scenario: str) -> None:
    """The scenario a game page belongs to, at its foot (the game draws its pages without knowing it)."""
    said = f"Scenario {scenario}"
    if len(said) > FOOTER_WIDTH:
        said = said[:FOOTER_WIDTH - 1] + "…"
    figure.text(0.95, 0.008, displayable(said), fontsize=8, color="#444444", ha="right", va="bottom")


# -- several scenarios --------------------------------------------------------------------------------

CORE_PREFIXES = ("win_rate_seat_", "first_player_advantage", "tie_rate", "mean_score_seat_", "mean_length_")


def comparison_paragraphs(comparison: Comparison) -> list[str]:
    """The comparison in words: how it was measured, each scenario's changes largest first, the pairing gain."""
    paragraphs = [f"Every scenario played the same {comparison.n:,} games: game i started from the same random "
                  f"stream in each (common random numbers). Where the rules leave play alike, paired differences "
                  f"vary less than those of independent runs; the gain is measured below, and chance is never "
                  f"removed: the intervals measure it. Intervals of differences come from "
                  f"{len(comparison.runs[0].batch_values[0])} batches of consecutive games (batch means, Student t).",
                  comparison.method_text()]
    for j in range(1, len(comparison.runs)):
        paragraphs.append(comparison.summary_line(j))
        remark = comparison.gain_remark(j)
        if remark:
            paragraphs.append(remark)
    return paragraphs


def comparison_pages(comparison: Comparison, palette: Palette) -> list[Page]:
    pages = [text_page("comparison-summary", f"Comparison of {len(comparison.runs)} scenarios",
                       comparison_paragraphs(comparison))]
    table = comparison.display_frame()
    pages += table_pages("comparison-table", "Every metric side by side", list(table.columns), table.values.tolist(),
                         note=MARK_NOTE + ".")
    figure, (ax,) = plot_page("Win rate by seat and scenario")
    figures.plot_win_rates_compared(comparison, ax, palette)
    pages.append(Page("comparison-win-rates", figure))
    groups: dict[str, list] = {}
    for metric in comparison.metrics:
        if metric.key.startswith(CORE_PREFIXES):
            groups.setdefault(metric.kind + metric.unit, []).append(metric)
    figure, axes = plot_page(f"Differences to {comparison.names[0]} with 95% intervals",
                             rows=2 if len(groups) > 2 else 1, columns=2 if len(groups) > 1 else 1)
    for ax, metrics in zip(axes, groups.values(), strict=False):
        figures.plot_differences(comparison, ax, metrics, palette)
    for ax in axes[len(groups):]:
        ax.set_visible(False)
    figure.subplots_adjust(left=0.17, wspace=0.6)
    pages.append(Page("comparison-differences", figure))
    units = comparison.game.length_units
    figure, axes = plot_page("Game length by scenario", columns=len(units))
    for ax, unit in zip(axes, units, strict=True):
        figures.plot_length_distributions(comparison, ax, unit, palette)
    pages.append(Page("comparison-lengths", figure))
    if not any(np.isfinite(d.variance_reduction or np.nan) for d in comparison.differences.values()):
        return pages  # too few batches to measure a gain: no chart of nothing
    figure, (ax,) = plot_page("Common random numbers: the measured gain",
                              "Variance of the difference between two independent runs ÷ variance of the paired "
                              "difference, estimated from batch means.")
    figures.plot_variance_reduction(comparison, ax, palette)
    figure.subplots_adjust(bottom=0.3)
    pages.append(Page("comparison-variance-reduction", figure))
    return pages


# -- sweeps and the fairness search -------------------------------------------------------------------

def sweep_pages(sweep: Sweep) -> list[Page]:
    spec = sweep.base
    palette = Palette(strategies=[s.label for s in spec.seats])
    values = ", ".join(str(v) for v in sweep.values)
    groups: dict[str, list] = {}
    for metric in sweep.metrics:
        key = metric.key.rsplit("_seat_", 1)[0] if "_seat_" in metric.key else metric.key
        groups.setdefault(key, []).append(metric)
    panels = [metrics for metrics in groups.values() if _any_value(sweep, metrics)]
    flat = [metrics[0].label for metrics in groups.values() if not _any_value(sweep, metrics)]
    pages = [text_page("sweep-title", f"{sweep.game.title}: sweep of {sweep.option.name}", [
        f"{sweep.option.name}: {sweep.option.description}.",
        f"Values: {values}.",
        f"{players_text(spec)}; {rules_text(spec, leave_out=sweep.option.name)} otherwise.",
        f"{sweep.n:,} games per value, seed {sweep.seed}: every value played game i from the same random stream, so "
        f"the curves are smoother than independent runs would make them. Bars: 95% intervals from batch means.",
        *([f"Zero at every value, so not drawn: {', '.join(flat)}."] if flat else []),
        f"pirate-analyzer {__version__}, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}.",
    ])]
    for start in range(0, len(panels), 4):
        part = panels[start:start + 4]
        figure, axes = plot_page(f"Metrics against {sweep.option.name}", rows=1 if len(part) <= 2 else 2,
                                 columns=1 if len(part) == 1 else 2)
        for ax, metrics in zip(axes, part, strict=False):
            figures.plot_sweep(sweep, ax, metrics, palette)
        for ax in axes[len(part):]:
            ax.set_visible(False)
        pages.append(Page(f"sweep-{start // 4 + 1}", figure))
    return pages


def _any_value(sweep: Sweep, metrics: list) -> bool:
    """Some run of the sweep has a value other than zero (or missing) for one of ``metrics``."""
    values = np.array([run.values.get(metric.key, np.nan) for run in sweep.runs for metric in metrics], dtype=float)
    return bool(np.any(np.nan_to_num(values) != 0))


def balance_pages(balance: Balance) -> list[Page]:
    """The search in words with its table (on pages of its own when long), then the plot."""
    title = f"{balance.game.title}: the fairest {balance.option.name}"
    table = balance.display_frame()
    headers, rows = list(table.columns), table.values.tolist()
    inline = len(rows) <= MAX_INLINE_ROWS
    pages = [text_page("balance-summary", title, balance.intro() + [f"pirate-analyzer {__version__}."],
                       headers if inline else None, rows if inline else None, size=10.5)]
    if not inline:
        pages += table_pages("balance-values", f"{title}: every value played", headers, rows)
    figure, (ax,) = plot_page(title)
    figures.plot_balance_search(balance, ax)
    return [*pages, Page("balance-search", figure)]
