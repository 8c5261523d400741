"""The report's page of the player counts side by side (``report --players all`` or a list)."""

from __future__ import annotations

from analyzer.experiments.players import PlayerCounts
from analyzer.report.document import Page
from analyzer.report.layout import text_page


def player_counts_page(counts: PlayerCounts, scenario: str) -> Page:
    """How the counts were played, the verdicts in words, and the figures side by side."""
    rows = counts.shown_rows()
    headers = ["figure", *(f"{c.players} players" for c in counts.counts)]
    verdicts = [f"{v.title}: {v.text}" for v in counts.verdicts()]
    return text_page("player-counts", f"Player counts: {scenario}", [" ".join(counts.intro_text()), *verdicts],
                     headers, [[name, *cells] for name, cells in rows], size=9)
