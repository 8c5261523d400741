"""The report's pages: title, summary in words, the figures of a run, sweeps, the fair value (a comparison's
pages: :mod:`analyzer.report.comparison_pages`)."""

from __future__ import annotations

import datetime
import re
import shlex

import numpy as np

from analyzer.experiments import Balance, Sweep, VariantRun, players_text, rules_text
from analyzer.report import figures
from analyzer.report.document import Page, name_scenario
from analyzer.report.game_pages import game_pages
from analyzer.report.layout import table_pages, text_page
from analyzer.report.style import Palette, displayable, fit_lines, new_page, plot_page, text_block
from analyzer.verdicts import command, matchup_command, seat_gap, seats_not_measurable, strategies_differ
from analyzer.version import __version__

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
    """The run in words: fairest and least fair seat (at 2 players, the gap), the exact win rates where the game
    has an exact solution, first-player advantage, length, best strategy."""
    result = run.result
    d = result.to_dict()
    players = d["players"]
    fair = 1 / players
    seats = d["seats"]
    exact = None if strategies_differ(d) else run.spec.game.exact_seat_win_rates(run.spec.rules, players)
    rates = exact or [s["win_rate"] for s in seats]  # the exact win rates where the game has them
    gaps = [abs(rate - fair) for rate in rates]
    fairest = int(np.argmin(gaps))
    least = int(np.argmax(gaps))

    def pct(value):
        return f"{value * 100:.2f}%"

    def named(seat):  # a game of pure chance has no strategy to name
        return f"seat {seat['seat']}" + (f" ({seat['strategy']})" if run.spec.game.has_decisions else "")

    def ci(interval):
        return f"95% interval {pct(interval[0])} to {pct(interval[1])}"

    def wins(index: int) -> str:
        seat = seats[index]
        if exact is None:
            return f"wins {pct(seat['win_rate'])} ({ci(seat['win_rate_ci'])})"
        return f"wins exactly {pct(exact[index])} (simulated {pct(seat['win_rate'])}, {ci(seat['win_rate_ci'])})"

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
    elif players == 2:
        low_gap, high_gap = seat_gap(d)[3]
        measured = ("" if exact is None else
                    f" exactly; simulated {(seats[top]['win_rate'] - seats[bottom]['win_rate']) * 100:.2f}")
        paragraphs.append(f"Seat gap: seat {top + 1} {wins(top)}, seat {bottom + 1} {wins(bottom)}: a gap of "
                          f"{(rates[top] - rates[bottom]) * 100:.2f} points of win rate{measured} (95% interval "
                          f"{low_gap * 100:.2f} to {high_gap * 100:.2f}).")
    else:
        paragraphs += [
            f"Fairest seat: {named(seats[fairest])} {wins(fairest)}, "
            f"{gaps[fairest] * 100:.2f} points from the fair share.",
            f"Least fair seat: {named(seats[least])} {wins(least)}, "
            f"{(rates[least] - fair) * 100:+.2f} points from the fair share.",
        ]
    if exact is not None:
        paragraphs.append("The seat win rates are exact (the game's exact solution), the simulated ones beside them.")
    fpa = d["first_player_advantage"]
    low, high = fpa["ci"]
    if strategies_differ(d):
        verdict = seats_not_measurable(d)
    else:
        verdict = ("the first player is favoured" if low > 0 else "the first player is at a disadvantage"
                   if high < 0 else "no advantage is measurable at this number of games")
    if exact is not None:
        paragraphs.append(f"First-player advantage: exactly {(exact[0] - fair) * 100:+.2f} points of win rate "
                          f"(simulated {fpa['estimate'] * 100:+.2f}, 95% interval {low * 100:+.2f} to "
                          f"{high * 100:+.2f}).")
    else:
        paragraphs.append(f"First-player advantage: {fpa['estimate'] * 100:+.2f} points of win rate "
                          f"(95% interval {low * 100:+.2f} to {high * 100:+.2f}): {verdict}.")
    balance = run.values["balance"]
    simulated = [s["win_rate"] for s in seats]
    most, fewest = int(np.argmax(simulated)), int(np.argmin(simulated))
    paragraphs.append(f"Balance (as in Ludii: one minus the largest gap between seat win rates): {balance:.4f}; "
                      f"the largest gap is {(simulated[most] - simulated[fewest]) * 100:.2f} points, between seat "
                      f"{most + 1} and seat {fewest + 1}{' (simulated)' if exact is not None else ''}.")
    units = list(d["lengths"].values())
    main = units[0]
    others = "".join(f", or {u['median']} {u['unit']}" for u in units[1:])
    paragraphs.append(f"A typical game lasts {main['median']} {main['unit']}{others} (median; 90% of games take "
                      f"{main['p5']} to {main['p95']} {main['unit']}, mean {main['mean']:.1f}, longest {main['max']}).")
    ties = f"{pct(d['tie_rate'])} of games end in a shared win."
    if d["capped_games"]:
        ties += f" {d['capped_games']:,} games were stopped by the game's cap and count as unfinished."
    paragraphs.append(ties)
    pooled = _pooled_strategies(result)
    if not run.spec.game.has_decisions:
        paragraphs.append("The game has no decisions: every seat plays alike, so there are no strategies to rank.")
    elif len(pooled) == 1:
        matchup = _matchup(run.spec, pooled[0][0])
        paragraphs.append(f"Every seat plays {pooled[0][0]}, so this run does not rank strategies; a match-up with "
                          f"rotated seats does: {matchup}." if matchup else
                          f"Every seat plays {pooled[0][0]}, the game's only strategy: there are none to rank.")
    else:
        best = pooled[0]
        seat_list = ", ".join(str(s) for s in best[2])
        paragraphs.append(f"Best strategy at this table: {best[0]} wins {pct(best[1])} per seat it holds (seat "
                          f"{seat_list}). Seats differ too, so for a fair ranking play a match-up, which rotates "
                          f"the seating: {matchup_command(d)}.")
    return paragraphs


def _matchup(spec, label: str) -> str | None:
    """The seat-rotated match-up of ``label`` against another strategy of the game's skill ladder (None: the
    game has no other)."""
    other = next((s.name for s in spec.game.strategies if s.in_skill_ladder and s.name != label.split(":")[0]), None)
    if other is None:
        return None
    return command(shlex.join(["analyze", "compare", "--game", spec.game.id, "--players", str(spec.players),
                               "--strategy", label, "--strategy", other]))


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
