"""Skull Island's pages: per fortune card, each strategy's own turn score, death and Skull Island rates."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analyzer.games.skull_island.coverage import CARD_TITLES
from analyzer.report.document import Page
from analyzer.report.game_pages import stats_pages
from analyzer.report.stats_charts import RATE, VALUE, Chart, draw_chart, is_empty
from analyzer.report.style import ROW_HEIGHT, Palette, plot_page, table_axes
from analyzer.stats import Z95

#: the rows of the game's other statistics that fit below the turn-score chart
SMALL_TABLE = 6


def _card_chart(cards: dict, metric: str, title: str, ylabel: str, kind: str, palette: Palette,
                se: str | None = None) -> Chart:
    names = list(cards)
    titles = [CARD_TITLES[card][0] for card in names]
    labels = list(dict.fromkeys(label for per_label in cards.values() for label in per_label))
    values = np.array([[cards[c].get(label, {}).get(metric, np.nan) for c in names] for label in labels], dtype=float)
    errors = None
    if se is not None:
        half = np.array([[Z95 * cards[c].get(label, {}).get(se, 0.0) for c in names] for label in labels])
        errors = np.stack([half, half])
    return Chart(title, titles, labels, values, errors, ylabel, kind, [palette.strategy(s) for s in labels])


def pages(result, palette: Palette) -> list[Page]:
    cards = result.to_dict()["game_stats"]["cards"]
    title = f"{result.spec.game.title}: fortune cards"
    subtitle = "The turn score is the change to the active player's own total from their own turn; bars: 95% intervals."
    figure, (score_ax,) = plot_page(title, subtitle)
    draw_chart(score_ax, _card_chart(cards, "mean_turn_score", "Mean own turn score by fortune card",
                                     "mean turn score (points)", VALUE, palette, se="mean_turn_score_se"))
    score_ax.axhline(0, color="black", linewidth=0.8)
    figure.subplots_adjust(bottom=0.18)
    risk_charts = [_card_chart(cards, "death_rate", "Death rate by fortune card", "turns ending in death", RATE,
                               palette)]
    island = _card_chart(cards, "skull_island_rate", "Skull Island rate by fortune card", "turns on Skull Island",
                         RATE, palette)
    said = "Share of turns with each card that end in death (3 skulls) or on Skull Island."
    if is_empty(island):
        said += " No turn went to Skull Island under these rules, so its chart is left out."
    else:
        risk_charts.append(island)
    risk, axes = plot_page(title, said, rows=len(risk_charts))
    for ax, chart in zip(axes, risk_charts, strict=True):
        draw_chart(ax, chart)
    risk.subplots_adjust(bottom=0.14, hspace=0.7)
    others = stats_pages(result, palette, skip=("cards",))
    if len(others) == 1 and others[0].rows and len(others[0].rows) <= SMALL_TABLE:
        # a few numbers are not a page of their own: they go below the turn scores
        table, = others
        plt.close(table.figure)
        height = ROW_HEIGHT * (len(table.rows) + 1)
        figure.subplots_adjust(bottom=0.2 + height + 0.04)
        table_axes(figure, table.headers, table.rows, (0.08, 0.03, 0.84, height), size=9, left_columns=2)
        others = []
    return [Page("cards-turn-score", figure), Page("cards-risk", risk), *others]
