"""The verdicts of ``analyze players``: the fairest count, the most open one, any to leave off the box.

Read from the counts' entries (:meth:`analyzer.experiments.players.CountRun.to_dict`).
The seat gap is the largest difference of win rates between two seats, in points of
win rate with its 95% interval (:func:`analyzer.verdicts.seat_gap`).
"""

from __future__ import annotations

import statistics
from typing import Any

from analyzer.verdicts import Verdict
from analyzer.verdicts.core import effect

#: a count whose seat gap is at least this many times the other counts' median gap, its interval
#: wholly above every other count's gap, is left off the box
LEAVE_OFF_FACTOR = 3.0
#: the unit of a seat gap
WIN_RATE = "win rate"


def _points(value: float) -> str:
    return f"{value * 100:.2f}"


def _interval(ci, scale: float = 100, digits: int = 2, unit: str = "") -> str:
    return f"{ci[0] * scale:.{digits}f}{unit} to {ci[1] * scale:.{digits}f}{unit}"


def _gap_text(entry: dict[str, Any]) -> str:
    gap = entry["seat_gap"]
    return f"{entry['players']} players {_points(gap['estimate'])} ({_interval(gap['ci'])})"


def left_off(entries: list[dict[str, Any]]) -> list[int]:
    """The counts whose seat gap stands out (see :data:`LEAVE_OFF_FACTOR`)."""
    found = []
    for entry in entries:
        others = [e["seat_gap"]["estimate"] for e in entries if e is not entry]
        if not others:
            continue
        gap = entry["seat_gap"]
        if gap["estimate"] >= LEAVE_OFF_FACTOR * statistics.median(others) and gap["ci"][0] > max(others):
            found.append(entry["players"])
    return found


def fairness_verdict(entries: list[dict[str, Any]]) -> Verdict:
    fairest = min(entries, key=lambda e: e["seat_gap"]["estimate"])
    others = [_gap_text(e) for e in entries if e is not fairest]
    text = (f"the largest gap between two seats' win rates is smallest at {fairest['players']} players: "
            f"{_points(fairest['seat_gap']['estimate'])} points (95% interval {_interval(fairest['seat_gap']['ci'])})")
    text += f"; elsewhere {', '.join(others)}." if others else "."
    return Verdict(kind="player-count", title=f"Fairest at {fairest['players']} players", text=text,
                   action="Quote this count as the game's best if the intervals do not overlap; where they do, "
                          "the counts are equally fair at this number of games.",
                   effect=effect(fairest["seat_gap"]["estimate"], fairest["seat_gap"]["ci"], WIN_RATE),
                   yardstick=1 / fairest["players"])


def openness_verdict(entries: list[dict[str, Any]]) -> Verdict | None:
    rated = [e for e in entries if (e["quality"].get("comeback_rate") or {}).get("value") is not None]
    if not rated:
        return None
    best = max(rated, key=lambda e: e["quality"]["comeback_rate"]["value"])

    def described(entry):
        comeback, changes = entry["quality"]["comeback_rate"], entry["quality"]["lead_changes"]
        text = (f"{entry['players']} players: {comeback['value'] * 100:.1f}% "
                f"({_interval(comeback['ci'], digits=1, unit='%')})")
        if changes.get("ci") is not None:
            text += f", {changes['value']:.2f} lead changes per game ({_interval(changes['ci'], 1)})"
        return text

    text = (f"the share of games won by a player not leading at the halfway point is highest at "
            f"{described(best)}")
    others = [described(e) for e in rated if e is not best]
    text += f"; elsewhere {'; '.join(others)}." if others else "."
    return Verdict(kind="player-count", title=f"Most open at {best['players']} players", text=text,
                   action="Recommend this count to players who like close games.",
                   effect=effect(best["quality"]["comeback_rate"]["value"], best["quality"]["comeback_rate"]["ci"],
                                 "comeback rate"), finding=False)


def box_verdict(entries: list[dict[str, Any]], unit: str) -> Verdict:
    """Which counts go on the box (and the playing time when the scenario gives one)."""
    dropped = left_off(entries)
    kept = [e for e in entries if e["players"] not in dropped]
    counts = [e["players"] for e in kept]
    span = f"{counts[0]}–{counts[-1]}" if counts[-1] != counts[0] else f"{counts[0]}"
    box = f"{span} players"
    if all("minutes" in e for e in kept):
        box += (f", {min(e['minutes']['p10'] for e in kept):.0f}–{max(e['minutes']['p90'] for e in kept):.0f} "
                f"min (10th–90th percentile of the playing time over those counts)")
    else:
        box += (f", {min(e['length']['p10'] for e in kept)}–{max(e['length']['p90'] for e in kept)} {unit} "
                f"(10th–90th percentile; a [time] table in the scenario turns it into minutes)")
    if not dropped:
        return Verdict(kind="player-count", title="On the box", text=box + ". No count's seat gap stands out "
                       f"(none is {LEAVE_OFF_FACTOR:g} times the others' with its interval above them).",
                       action="Print every count played.", effect=effect(None, None, WIN_RATE), finding=False)
    worst = [_gap_text(e) for e in entries if e["players"] in dropped]
    rest = [_gap_text(e) for e in kept]
    text = (f"{box}. Leave {', '.join(map(str, dropped))} players off: its seat gap {', '.join(worst)} is at "
            f"least {LEAVE_OFF_FACTOR:g} times the others' ({', '.join(rest)}).")
    widest = max((e for e in entries if e["players"] in dropped), key=lambda e: e["seat_gap"]["estimate"])
    return Verdict(kind="player-count", title=f"Leave {', '.join(map(str, dropped))} players off the box",
                   text=text, action="Rebalance the seats at that count (analyze balance) or leave it off the box.",
                   effect=effect(widest["seat_gap"]["estimate"], widest["seat_gap"]["ci"], WIN_RATE),
                   yardstick=1 / widest["players"])


def count_verdicts(entries: list[dict[str, Any]], unit: str) -> list[Verdict]:
    """The player-count verdicts in a fixed order: what goes on the box (the answer the command exists
    for), then the fairest count, then the most open one."""
    found = [box_verdict(entries, unit), fairness_verdict(entries), openness_verdict(entries)]
    return [verdict for verdict in found if verdict is not None]
