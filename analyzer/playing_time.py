"""Playing time: a scenario's ``[time]`` table turns a game's length into minutes.

The table gives ``seconds_per_turn`` and, for the actions a game counts
(:meth:`analyzer.games.base.Game.timed_actions`: dice rolled, cards drawn...),
``seconds_per_<action>``. A game of ``T`` turns then takes
``T × (seconds_per_turn + Σ seconds_per_<action> × <action>s per turn) / 60`` minutes,
the actions per turn being the run's own average; so the minutes' percentiles are the
turns' percentiles scaled. Without the table no minutes are shown: the tool never
guesses how fast people play. ``--set time.seconds_per_turn=40`` sets a value too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError, param

#: the scenario table and the prefix of its keys in ``--set``
TABLE = "time"
TURN_KEY = "seconds_per_turn"
#: the length unit the seconds apply to (every game counts turns)
TURN_UNIT = "turns"
#: the longest a turn or an action may take, in seconds (a day)
MAX_SECONDS = 86_400.0
#: the percentiles a box prints ("20–40 min"): 10th to 90th
LOW_QUANTILE, HIGH_QUANTILE = 0.10, 0.90


@dataclass(frozen=True)
class PlayingTime:
    """Seconds per turn and per counted action (action name -> seconds)."""

    seconds_per_turn: float
    seconds_per_action: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {TURN_KEY: self.seconds_per_turn,
                **{f"seconds_per_{name}": value for name, value in self.seconds_per_action.items()}}


def _number(value: float) -> str:
    return f"{value:g}"


def split_time_sets(sets: list[str] | None) -> tuple[list[str], list[str]]:
    """``--set`` values split into the ``time.KEY=VALUE`` ones and the rest (rule options)."""
    timed, rest = [], []
    for text in sets or ():
        (timed if text.strip().startswith(TABLE + ".") else rest).append(text)
    return timed, rest


def resolve_time(game, table: dict[str, Any] | None, where: str, sets: list[str]) -> PlayingTime | None:
    """The playing time of a scenario's ``[time]`` table (``where`` names it) with the ``time.KEY=VALUE``
    ``--set`` values applied; None when neither gives one. Every bad value is one line."""
    allowed = [TURN_KEY, *(f"seconds_per_{action.name}" for action in game.timed_actions())]
    values: dict[str, float] = {}
    if table is not None:
        if not isinstance(table, dict):
            raise AnalyzerError(f"{where}: [time] must be a table such as seconds_per_turn = 40")
        for key, value in table.items():
            values[_key(key, allowed, f"{where} [time]", game)] = _seconds(value, f"{where} [time] {key}")
    for text in sets:
        key, sep, value = text.strip()[len(TABLE) + 1:].partition("=")
        where_set = f"{param('sets')} {TABLE}.{key.strip()}"
        if not sep:
            raise AnalyzerError(f"{param('sets')} {text!r} must be written {TABLE}.KEY=VALUE")
        values[_key(key.strip(), allowed, param("sets"), game)] = _seconds(_parse_text(value, where_set), where_set)
    if not values:
        return None
    if TURN_KEY not in values:
        raise AnalyzerError(f"{where if table is not None else param('sets')}: playing time needs {TURN_KEY} "
                            f"(seconds per turn) besides the seconds per action")
    turn = values.pop(TURN_KEY)
    actions = {action.name: values[f"seconds_per_{action.name}"] for action in game.timed_actions()
               if f"seconds_per_{action.name}" in values}
    return PlayingTime(turn, actions)


def _key(key: Any, allowed: list[str], where: str, game) -> str:
    if key not in allowed:
        raise AnalyzerError(f"{where}: unknown key {str(key)!r} for {game.id}; allowed: {', '.join(allowed)}")
    return key


def _parse_text(text: str, where: str) -> Any:
    try:
        return float(text.strip())
    except ValueError:
        return text


def _seconds(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= MAX_SECONDS:
        shown = repr(value) if not isinstance(value, str) else repr(value[:40])
        raise AnalyzerError(f"{where} must be a number of seconds above 0 and at most {MAX_SECONDS:,.0f}, "
                            f"not {shown}")
    return float(value)


def quantile(counts: np.ndarray, q: float) -> int:
    """The ``q`` quantile (nearest rank) of a histogram whose bin ``i`` holds the value ``i``."""
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum()
    cumulative = np.cumsum(counts)
    return int(np.searchsorted(cumulative, q * n - 1e-9 * n, side="left"))


def seconds_per_played_turn(time: PlayingTime, actions_per_turn: dict[str, float]) -> float:
    """A turn's seconds with the counted actions at their average per turn."""
    return time.seconds_per_turn + sum(seconds * actions_per_turn[name]
                                       for name, seconds in time.seconds_per_action.items())


def minutes(time: PlayingTime, game, totals, prepared) -> dict[str, Any]:
    """The game length in minutes (``mean``, ``median``, ``p10``, ``p90``) with what it rests on."""
    turns = np.asarray(totals[f"length_{TURN_UNIT}"], dtype=np.float64)
    played = float(np.sum(turns * np.arange(turns.size)))
    per_turn = {action.name: (action.count(totals, prepared) / played if played else 0.0)
                for action in game.timed_actions() if action.name in time.seconds_per_action}
    seconds = seconds_per_played_turn(time, per_turn)
    games = turns.sum()
    mean_turns = played / games if games else math.nan
    return {**time.to_dict(), "actions_per_turn": per_turn, "seconds_per_played_turn": seconds,
            "mean": mean_turns * seconds / 60, "median": quantile(turns, 0.5) * seconds / 60,
            "p10": quantile(turns, LOW_QUANTILE) * seconds / 60, "p90": quantile(turns, HIGH_QUANTILE) * seconds / 60}


def minutes_text(block: dict[str, Any]) -> str:
    """``median 23 min, 10th–90th percentile 15–35 min``."""
    return (f"median {block['median']:.0f} min, 10th–90th percentile {block['p10']:.0f}–{block['p90']:.0f} min "
            f"(mean {block['mean']:.1f})")


def time_note(block: dict[str, Any], rates: bool = True) -> str:
    """What the minutes rest on, in words (with each action's measured rate per turn unless ``rates`` is false)."""
    parts = [f"{_number(block[TURN_KEY])} s per turn"]
    for name, rate in block["actions_per_turn"].items():
        parts.append(f"{_number(block[f'seconds_per_{name}'])} s per {name}"
                     + (f" ({rate:.2f} per turn)" if rates else ""))
    note = ", ".join(parts)
    return note if rates or not block["actions_per_turn"] else note + " (actions per turn as measured at each count)"
