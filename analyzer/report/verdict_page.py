"""The report's first page after the title: the ranked verdicts of every scenario, with their actions."""

from __future__ import annotations

from analyzer.report.document import Entry, Page
from analyzer.report.style import displayable, new_page, wrap
from analyzer.verdicts import FAIRNESS_KINDS, Verdict

#: characters per line of a verdict's text, and the heights (page fractions) of a line and the gaps
WIDTH = 125
LINE = 0.025
GAP = 0.014
TOP = 0.87
BOTTOM = 0.05
#: colours of a verdict: a measurable fairness finding, another measurable finding, nothing to do
SEVERE, NOTABLE, CALM = "#b2182b", "#d6604d", "#4d4d4d"
ACTION_COLOUR = "#1f4e79"


def _colour(verdict: Verdict) -> str:
    if not verdict.measurable:
        return CALM
    return SEVERE if verdict.kind in FAIRNESS_KINDS else NOTABLE


def verdict_pages(names: list[str], verdicts: list[list[Verdict]], played: list[str],
                  decisions: bool = True) -> list[Page]:
    """One block per scenario (a heading when there are several), each verdict as a bold numbered title,
    its sentence and its action; as many pages as the text needs. ``played`` says, per scenario, who
    played (the verdicts hold for that level of play; a game without ``decisions`` has no level of play)."""
    pages: list[Page] = []
    figure, y = None, BOTTOM
    about = (f"Scenario {names[0]}, {played[0]}. " if len(names) == 1 else "") + (
        "Each verdict: what the games show, with its 95% interval, and the action it suggests; " + (
            "it holds for the level of play measured (the skill ladder ranks the strategies)." if decisions else
            "a game of pure chance, so no way of playing changes it."))

    def room(lines: int) -> None:
        nonlocal figure, y
        if y - lines * LINE >= BOTTOM:
            return
        title = "Verdicts, most important first" + (" (continued)" if pages else "")
        figure = new_page(title, about)
        pages.append(Page("verdicts" if len(pages) == 0 else f"verdicts-{len(pages) + 1}", figure, plot=False,
                          title=title, paragraphs=[about] if not pages else []))
        y = TOP

    def write(text: str, x: float = 0.05, **style) -> None:
        nonlocal y
        figure.text(x, y, displayable(text), ha="left", va="top", **style)
        y -= LINE

    for name, found, who in zip(names, verdicts, played, strict=True):
        if len(names) > 1:
            room(3)
            write(f"Scenario {name}, {who}", fontsize=13, fontweight="bold")
            pages[-1].paragraphs.append(f"Scenario {name}, {who}")
            y -= GAP / 2
        if not found:
            room(1)
            write("No verdict: nothing measured calls for a change.", fontsize=10.5)
            pages[-1].paragraphs.append("No verdict: nothing measured calls for a change.")
        for rank, verdict in enumerate(found, start=1):
            text = wrap(verdict.text, WIDTH)
            action = wrap(f"Action: {verdict.action}", WIDTH)
            room(1 + len(text) + len(action))
            write(f"{rank}. {verdict.title}", fontsize=11.5, fontweight="bold", color=_colour(verdict))
            pages[-1].paragraphs.append(Entry(f"{rank}. {verdict.title}", verdict.text, verdict.action))
            for line in text:
                write(line, x=0.07, fontsize=10)
            for line in action:
                write(line, x=0.07, fontsize=10, color=ACTION_COLOUR, fontstyle="italic")
            y -= GAP
        y -= GAP
    return pages
