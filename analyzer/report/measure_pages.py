"""The report's pages of what every game measures: game quality, component balance, mechanics coverage.

Each page names its scenario and units; a page whose data is empty is left out.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from analyzer.report.document import Page, name_scenario
from analyzer.report.figures import error_bars, trimmed_range
from analyzer.report.style import NEUTRAL, percent_axis, plot_page

#: components drawn on one page, the largest effects first
MAX_COMPONENTS = 24
#: mechanics drawn on one page
MECHANICS_PER_PAGE = 40
#: a mechanic in fewer games than this share is flagged as rare
RARE_SHARE = 0.01
RARE_COLOUR = "#c44e52"
KIND_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974")


def quality_page(result, scenario: str, prefix: str) -> Page | None:
    """Lead changes, comebacks and the decisive point in words and bars; the final margin's distribution."""
    d = result.to_dict()
    quality = d["quality"]
    if not quality["games"]:
        return None
    lead, comeback, decisive = quality["lead_changes"], quality["comeback_rate"], quality["decisive_point"]
    figure, (shares, margins) = plot_page("Game quality: lead changes, comebacks, when the game is decided",
                                          f"{scenario}: {quality['games']:,} games; standings after every round",
                                          rows=2)
    names, values, intervals = [], [], []
    for label, block in (("comeback rate\n(the winner trailed at half-time)", comeback),
                         ("decisive point\n(share of the game played when\nthe winner took the lead for good)",
                          decisive)):
        if block["value"] is not None:
            names.append(label)
            values.append(block["value"])
            intervals.append(block["ci"])
    y = np.arange(len(names))[::-1]
    shares.barh(y, values, color=NEUTRAL, height=0.5)
    shares.errorbar(values, y, xerr=error_bars(np.array(values), intervals), fmt="none", ecolor="black", capsize=4)
    reach = max((high for _, high in intervals), default=1.0)
    for row, value, (_, high) in zip(y, values, intervals, strict=True):  # beside its interval's end
        shares.text(high + reach * 0.02, row, f"{value * 100:.1f}%", va="center")
    shares.set_yticks(y, names)
    shares.set_xlim(0, min(reach * 1.15, 1.0))
    percent_axis(shares, "x")
    shares.set_xlabel("share (95% interval)")
    if lead["value"] is not None:
        shares.set_title(f"Lead changes per game: {lead['value']:.2f} (95% interval {lead['ci'][0]:.2f}–"
                         f"{lead['ci'][1]:.2f})", loc="left", fontsize=11)
    _margin_histogram(result, margins)
    figure.subplots_adjust(left=0.28)
    return Page(f"{prefix}quality", figure)


def _margin_histogram(result, ax) -> None:
    margin = result.to_dict()["quality"]["margin"]
    counts = np.asarray(result.totals["margin_hist"], dtype=np.float64)
    width = result.prepared.score_bins[1]
    last = trimmed_range(counts)[1] if counts.any() else 0  # the longest tail is a few games: not drawn
    edges = width * np.arange(last + 1)
    ax.bar(edges, counts[:last + 1] / counts.sum(), width=width * 0.9, align="edge" if width > 1 else "center",
           color=NEUTRAL)
    unit = margin["unit"]
    ax.set_xlabel(f"final margin: top score minus second, in {unit}" + (f" (bins of {width})" if width > 1 else ""))
    ax.set_ylabel("share of games")
    percent_axis(ax)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.axvline(margin["median"], color="black", linestyle="--", linewidth=1,
               label=f"median {margin['median']:,} {unit}; mean {margin['mean']:,.1f}")
    ax.legend(loc="upper right")


def components_page(result, scenario: str, prefix: str) -> Page | None:
    """Each component's effect on its holder's win rate, ranked, with 95% intervals."""
    measured = [c for c in result.to_dict()["components"] if c["win_rate_effect"] is not None]
    if not measured:
        return None
    shown = measured[:MAX_COMPONENTS]
    more = len(measured) - len(shown)
    subtitle = (f"{scenario}. Presence: seats that got it against the others; per draw: the seat that met it, per "
                f"time met, against the average seat. Hatched, associated with winning: obtained by the players' "
                f"decisions, so not a measured cause." + (f" The {len(shown)} largest of {len(measured)}."
                                                          if more else ""))
    figure, (ax,) = plot_page("Component balance: effect on the win rate", subtitle)
    kinds = list(dict.fromkeys(c["kind"] for c in shown))
    colours = {kind: KIND_COLOURS[i % len(KIND_COLOURS)] for i, kind in enumerate(kinds)}
    y = np.arange(len(shown))[::-1]
    effects = np.array([c["win_rate_effect"] for c in shown]) * 100
    intervals = [[low * 100, high * 100] for low, high in (c["win_rate_effect_ci"] for c in shown)]
    associated = [c.get("evidence") == "association" for c in shown]
    bars = ax.barh(y, effects, color=[colours[c["kind"]] for c in shown], height=0.6)
    for bar, hatched in zip(bars, associated, strict=True):
        if hatched:
            bar.set_hatch("//")
            bar.set_alpha(0.6)
    ax.errorbar(effects, y, xerr=error_bars(effects, intervals), fmt="none", ecolor="black", capsize=3)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(y, [f"{c['component']} ({'associated with winning' if hatched else c['measure']})"
                      for c, hatched in zip(shown, associated, strict=True)], fontsize=8 if len(shown) > 14 else 10)
    ax.set_xlabel("effect on the win rate, points (95% interval)")
    ax.legend(handles=[Patch(color=colours[kind], label=kind) for kind in kinds], loc="lower right", title="kind")
    figure.subplots_adjust(left=0.3)
    return Page(f"{prefix}components", figure)


def mechanics_pages(result, scenario: str, prefix: str) -> list[Page]:
    """The share of games in which each mechanic happened, rarest first; rules under 1% flagged, the other kinds
    (procedure, outcome, safeguard) named with their kind and never flagged. Mechanics that never happened
    (switched off by the rules, or too rare for these games) are named, not drawn as empty bars."""
    everything = result.to_dict()["mechanics"]
    kinds = result.to_dict().get("mechanic_kinds") or {}
    shares = sorted(((name, share) for name, share in everything.items() if (share or 0) > 0),
                    key=lambda item: item[1])
    never = [name for name, share in everything.items() if not (share or 0) > 0]
    pages = []
    parts = range(0, len(shares), MECHANICS_PER_PAGE)
    for number, start in enumerate(parts, start=1):
        part = shares[start:start + MECHANICS_PER_PAGE]
        suffix = f" ({number}/{len(parts)})" if len(parts) > 1 else ""
        subtitle = (f"{scenario}: {result.to_dict()['n']:,} games; red: rules under {RARE_SHARE * 100:.0f}% of "
                    f"games; procedures, outcomes and safeguards are named so and never flagged."
                    + (f" Never happened in these games: {', '.join(never)}." if never and number == 1 else ""))
        figure, (ax,) = plot_page(f"Mechanics coverage: share of games in which each happened{suffix}", subtitle)
        y = np.arange(len(part))[::-1]
        values = [share for _, share in part]
        reach = max(values)
        rules = [kinds.get(name, "rule") == "rule" for name, _ in part]
        ax.barh(y, values, color=[RARE_COLOUR if share < RARE_SHARE and rule else NEUTRAL
                                  for share, rule in zip(values, rules, strict=True)], height=0.6)
        for row, share in zip(y, values, strict=True):
            said = f"{share * 100:.2f}%" if share < 0.1 else f"{share * 100:.0f}%"
            if share > 0.75 * reach:  # inside the bar's end, white on the bar
                ax.text(share - 0.01 * reach, row, said, va="center", ha="right", fontsize=8, color="white")
            else:
                ax.text(share + 0.01 * reach, row, said, va="center", fontsize=8)
        labels = [name if rule else f"{name} ({kinds[name]})" for (name, _), rule in zip(part, rules, strict=True)]
        ax.set_yticks(y, labels, fontsize=8 if len(part) > 20 else 10)
        ax.set_xlim(0, reach * 1.02)
        percent_axis(ax, "x")
        ax.set_xlabel("share of games")
        figure.subplots_adjust(left=0.3)
        pages.append(Page(f"{prefix}mechanics-{number}", figure))
    return pages


def measure_pages(result, scenario: str, prefix: str) -> list[Page]:
    """The quality, component and mechanics pages of one run (those with data)."""
    pages = [quality_page(result, scenario, prefix), components_page(result, scenario, prefix)]
    pages = [page for page in pages if page is not None] + mechanics_pages(result, scenario, prefix)
    return name_scenario(pages, scenario) if prefix else pages
