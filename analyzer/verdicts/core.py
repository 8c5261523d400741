"""A verdict and the one scale that ranks every verdict; the words the verdicts share.

Every verdict carries the effect it measured (``value``, its 95% interval ``ci`` or None,
``unit``) against its *null* (the value at which there is nothing to report: a gap of 0,
a fair share, a target). Its rank follows from two things only:

1. **measurable**: the interval excludes the null (or, for an effect without an interval,
   the verdict's own test says so: a length more than 10% off its target, a rule that
   triggers in under 1% of games even at its interval's top). A verdict that is not
   measurable at this precision never outranks one that is.
2. **size**: ``|value - null| / yardstick``, the effect on a common scale: win-rate
   effects (seats, round starters, components) relative to a fair share, the skill
   edge relative to the room between a fair share and always winning, a length's
   distance relative to its target, and so on (each kind states its yardstick).

Within each of the two, fairness (seats, round starters, components) comes first, then
the others, each by size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.wrapping import wrap

#: the width of a verdict line in the terminal
TEXT_WIDTH = 100
#: the kinds of verdict that judge fairness: they lead among measurable verdicts
FAIRNESS_KINDS = ("seat-advantage", "round-starter", "component", "component-group")


def excludes(ci, null: float = 0.0) -> bool:
    """Whether the interval ``ci`` lies wholly on one side of ``null``."""
    return ci is not None and bool(ci[0] > null or ci[1] < null)


@dataclass(frozen=True)
class Verdict:
    """One finding: ``kind`` (seat-advantage, round-starter, component, component-group, luck, mechanics,
    length, quality, skill, variant), a short title, the sentence with its interval, the action it
    suggests, and ``effect`` ``{"value", "ci", "unit"}``: what was measured, ``ci`` None where it has
    no interval (an exact value, a count); None for a verdict that measured nothing.

    ``null`` is the effect at which there is nothing to report, ``yardstick`` the effect that
    counts 1 on the common scale; ``finding`` overrides whether it is measurable (None: its
    interval excludes the null).
    """

    kind: str
    title: str
    text: str
    action: str
    effect: dict | None = None
    null: float = 0.0
    yardstick: float = 1.0
    finding: bool | None = None

    def __post_init__(self):
        if self.effect is None:  # a verdict that measured nothing (a note, a summary)
            object.__setattr__(self, "effect", effect(None, None, ""))

    @property
    def measurable(self) -> bool:
        if self.finding is not None:
            return self.finding
        return excludes(self.effect.get("ci"), self.null)

    @property
    def size(self) -> float:
        """The effect on the common scale: its distance from the null in yardsticks."""
        value = self.effect.get("value")
        if value is None or not self.yardstick:
            return 0.0
        return abs(value - self.null) / abs(self.yardstick)

    def rank_key(self) -> tuple:
        """Measurable first; then fairness first; then by size."""
        return (not self.measurable, self.kind not in FAIRNESS_KINDS, -self.size)

    def to_dict(self) -> dict[str, Any]:
        ci = self.effect.get("ci")
        return {"kind": self.kind, "title": self.title, "text": self.text, "action": self.action,
                "effect": {**self.effect, "value": self.effect.get("value"), "ci": None if ci is None else list(ci),
                           "unit": self.effect.get("unit", ""), "null": self.null},
                "measurable": bool(self.measurable), "size": round(float(self.size), 4)}

    def lines(self, rank: int, width: int = TEXT_WIDTH) -> list[str]:
        """``rank. title: text`` and ``Action: ...``, wrapped to ``width`` with a hanging indent; a command
        or path is never broken (see :mod:`analyzer.wrapping`)."""
        return [*wrap(f"{rank}. {self.title}: {self.text}", width, subsequent_indent="   "),
                *wrap(f"Action: {self.action}", width, indent="   ", subsequent_indent="   ")]


def effect(value: float | None, ci, unit: str) -> dict:
    return {"value": value, "ci": None if ci is None else [float(ci[0]), float(ci[1])], "unit": unit}


def ranked(verdicts) -> list[Verdict]:
    """The verdicts (None left out) in rank order (stable: among equals, the order given)."""
    return sorted((v for v in verdicts if v is not None), key=Verdict.rank_key)


# -- words -------------------------------------------------------------------------------------------

def command(text: str) -> str:
    """A command the reader can run, marked as such (the test of suggested commands finds it so)."""
    return f"`{text}`"


def number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}".replace(",", "")
    return f"{value:.4g}"


def pct(rate: float) -> str:
    return f"{rate * 100:.2f}%"


def points(value: float) -> str:
    return f"{value * 100:+.2f}"


def points_ci(ci) -> str:
    return f"95% interval {points(ci[0])} to {points(ci[1])}"
