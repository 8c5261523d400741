"""The seat verdict (with the search for the game's seat-compensating option) and the round-starter verdict.

Both judge shares of wins against a fair share, so both are ranked on the same yardstick:
the gap between the most and the least favoured position, relative to a fair share.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from statistics import NormalDist

from analyzer.verdicts.core import Verdict, command, effect, number, pct, points, points_ci

SEATS_NOT_MEASURABLE = ("the seats play different strategies, so the gaps between seats mix the seat with the "
                        "strategy: the seat advantage is not measurable from this run alone")
WIN_RATE = "win rate"


@dataclass(frozen=True)
class SeatCompensation:
    """The game's rule option that compensates seats (positive helps the later seats) and what is known
    of its fair value: ``balance`` (a :class:`~analyzer.experiments.Balance` ``to_dict``) when the
    search ran, else ``note`` says why not. ``run_args`` name the run on the command line;
    ``current`` is the option's value in the run."""

    option: str
    span: float
    run_args: str
    current: float = 0
    balance: dict | None = None
    note: str = ""

    def search_range(self, run: dict) -> tuple[float, float]:
        return search_range(run, self.span, self.current)

    def command(self, run: dict) -> str:
        low, high = self.search_range(run)
        return command(f"analyze balance {self.run_args} --param {self.option}={number(low)}:{number(high)}")


def search_range(run: dict, span: float, current: float = 0) -> tuple[float, float]:
    """The range of a seat-compensating option to search for ``run``, played at ``current``: up to ``span``
    higher when seat 1 wins at least as often as the last seat (more help for the later seats), else lower."""
    seats = run["seats"]
    return (current, current + span) if seats[0]["win_rate"] >= seats[-1]["win_rate"] else (current - span, current)


def run_args(spec, leave_out: str | None = None) -> str:
    """The options that name ``spec`` (a RunSpec) on the command line: scenario or game, players,
    rules changed with ``--set`` or without a scenario (but ``leave_out``, the option a command
    varies), and the strategy when it is not the default."""
    words = ["--scenario", spec.scenario.path] if spec.scenario else ["--game", spec.game.id]
    words += ["--players", str(spec.players)]
    scenario_rules = spec.scenario.rules if spec.scenario else {}
    for name, value in spec.changed_rules().items():
        if name != leave_out and (name not in scenario_rules or name in spec.set_options):
            words += ["--set", f"{name}={number(value) if isinstance(value, (int, float)) else value}"]
    labels = [seat.label for seat in spec.seats]
    if len(set(labels)) == 1 and labels[0] != spec.game.default_strategy:
        words += ["--strategy", labels[0]]
    return shlex.join(words)


def strategies_differ(run: dict) -> bool:
    return len({seat["strategy"] for seat in run["seats"]}) > 1


def matchup_command(run: dict) -> str:
    """The seat-rotated match-up of the strategies of ``run`` (marked as a command)."""
    labels = list(dict.fromkeys(seat["strategy"] for seat in run["seats"]))
    return command(shlex.join(["analyze", "compare", "--game", run["game"], "--players", str(run["players"]),
                               *(word for label in labels for word in ("--strategy", label))]))


def seats_not_measurable(run: dict) -> str:
    """The sentence for a run whose seats play different strategies, with the command that measures them."""
    return (f"{SEATS_NOT_MEASURABLE}; a seat-rotated match-up ({matchup_command(run)}) ranks the strategies "
            f"on every seat, and a run with one strategy on every seat measures the seats")


def extreme_gap(shares: list[float], n: int) -> tuple[int, int, float, tuple[float, float]]:
    """(index of the largest share, of the smallest, their gap, its 95% interval) among shares of the same
    ``n`` trials (multinomial), the interval widened for having picked the extreme pair among them
    (Bonferroni over every pair), so a fair game with many positions is not called unfair one time in five."""
    top = max(range(len(shares)), key=lambda i: shares[i])
    bottom = min(range(len(shares)), key=lambda i: (shares[i], -i))  # all equal: the first and the last
    p, q = shares[top], shares[bottom]
    gap = p - q
    pairs = max(len(shares) * (len(shares) - 1) // 2, 1)
    z = NormalDist().inv_cdf(1 - 0.025 / pairs)
    half = z * math.sqrt(max(p + q - gap * gap, 0.0) / n) if n else math.inf
    return top, bottom, gap, (gap - half, gap + half)


def seat_gap(run: dict) -> tuple[dict, dict, float, tuple[float, float]]:
    """(the seat that wins most, the seat that wins least, their gap in win rate, its 95% interval)."""
    seats = run["seats"]
    top, bottom, gap, ci = extreme_gap([s["win_rate"] for s in seats], run["n"])
    return seats[top], seats[bottom], gap, ci


def _extremes(count: int, what: str = "seats") -> str:
    return f", allowing for picking the extremes of {count} {what}" if count > 2 else ""


def seat_verdict(run: dict, compensation: SeatCompensation | None = None,
                 exact: list[float] | None = None) -> Verdict:
    """The gap between the seats that win most and least; ``exact`` (the exact win rate of each seat,
    where the game has an exact solution) replaces the simulated gap, the simulated rates shown beside."""
    players = run["players"]
    fair = 1 / players
    fpa = run["first_player_advantage"]
    if strategies_differ(run):
        return Verdict("seat-advantage", "Seat advantage not measurable here",
                       f"First-player advantage {points(fpa['estimate'])} points of win rate "
                       f"({points_ci(fpa['ci'])}), but {SEATS_NOT_MEASURABLE}.",
                       f"Play a seat-rotated match-up: {matchup_command(run)}; measure the seats with one "
                       f"strategy on every seat.", effect(fpa["estimate"], fpa["ci"], WIN_RATE),
                       yardstick=fair, finding=False)
    if exact is not None:
        return _exact_seat_verdict(run, compensation, exact)
    top, bottom, gap, ci = seat_gap(run)
    measured = (f"Seat {top['seat']} wins {pct(top['win_rate'])}, seat {bottom['seat']} {pct(bottom['win_rate'])} "
                f"(a fair share is {pct(fair)}): a gap of {gap * 100:.2f} points of win rate (95% interval "
                f"{ci[0] * 100:.2f} to {ci[1] * 100:.2f}{_extremes(players)}); the first player's advantage is "
                f"{points(fpa['estimate'])} points ({points_ci(fpa['ci'])}).")
    found = effect(gap, ci, WIN_RATE)
    if ci[0] <= 0:
        return Verdict("seat-advantage", "No measurable seat advantage",
                       measured + f" The gap is within chance at {run['n']:,} games.",
                       "None at this precision; more games (--n) would detect a smaller advantage.", found,
                       yardstick=fair)
    title = f"Seat {top['seat']} favoured, seat {bottom['seat']} disadvantaged"
    return Verdict("seat-advantage", title, measured, _compensation_action(run, compensation, top, bottom), found,
                   yardstick=fair)


def _exact_seat_verdict(run: dict, compensation: SeatCompensation | None, exact: list[float]) -> Verdict:
    fair = 1 / run["players"]
    top = max(range(len(exact)), key=lambda i: exact[i])
    bottom = min(range(len(exact)), key=lambda i: exact[i])
    gap = exact[top] - exact[bottom]
    simulated = ", ".join(f"seat {s['seat']} {pct(s['win_rate'])}" for s in run["seats"])
    text = (f"Exactly (the game's exact solution): seat {top + 1} wins {pct(exact[top])}, seat {bottom + 1} "
            f"{pct(exact[bottom])} (a fair share is {pct(fair)}): a gap of {gap * 100:.2f} points of win rate. "
            f"Simulated beside it, {run['n']:,} games: {simulated}.")
    found = effect(gap, None, WIN_RATE)
    if gap < 5e-5:
        return Verdict("seat-advantage", "No seat advantage", text, "None: the seats are equal.", found,
                       yardstick=fair, finding=False)
    return Verdict("seat-advantage", f"Seat {top + 1} favoured, seat {bottom + 1} disadvantaged", text,
                   _compensation_action(run, compensation, run["seats"][top], run["seats"][bottom]), found,
                   yardstick=fair, finding=True)


def _compensation_action(run: dict, compensation: SeatCompensation | None, favoured: dict,
                         disadvantaged: dict) -> str:
    """What evens the seats: the balance search's value where the game has a seat-compensating option,
    else a house rule of the size the scores suggest (see :func:`head_start`)."""
    if compensation is None:
        return (f"The game has no rule option that compensates seats: try a house rule that gives the "
                f"disadvantaged seats a head start{head_start(run, favoured, disadvantaged)}, or rotate who starts "
                f"between games, and measure it: write it as a scenario and compare it with the standard rules.")
    balance = compensation.balance
    if balance is None:
        why = f" ({compensation.note})" if compensation.note else ""
        return f"Find the {compensation.option} that equalises the seats{why}: {compensation.command(run)}."
    return fix_action(compensation.option, balance, "the seats", compensation.command(run))


def head_start(run: dict, favoured: dict, disadvantaged: dict) -> str:
    """The size of head start to try first, in the game's score unit: the difference of the two seats'
    mean final scores (each with its 95% interval), where the favoured seat also scores more; else nothing.
    A starting point for the house rule, not a measured fix: the comparison measures it."""
    low_favoured, high_favoured = favoured.get("mean_score_ci") or (None, None)
    low_other, high_other = disadvantaged.get("mean_score_ci") or (None, None)
    if low_favoured is None or low_other is None or not low_favoured > high_other:
        return ""
    unit = run.get("score_unit", "points")
    size = favoured["mean_score"] - disadvantaged["mean_score"]

    def amount(value: float) -> str:  # the digits a small unit (treasures) needs, separators for large ones
        return f"{value:,.0f}" if abs(size) >= 1000 else f"{value:,.1f}" if abs(size) >= 10 else f"{value:.2f}"

    return (f" of about {amount(size)} {unit} (seat {favoured['seat']} ends with {amount(favoured['mean_score'])} "
            f"on average, 95% interval {amount(low_favoured)} to {amount(high_favoured)}; seat "
            f"{disadvantaged['seat']} with {amount(disadvantaged['mean_score'])}, {amount(low_other)} to "
            f"{amount(high_other)}: a size to try first)")


def fix_action(name: str, balance: dict, equalised: str, again: str) -> str:
    """``Set name = value``: the value a balance search (a Balance ``to_dict``) found, its interval, the
    search's game count, and ``again`` (the search's command) where the value needs a wider or longer search."""
    interval = balance["interval"]
    if interval is None:
        uncertainty = "no interval: too few batches of games"
    else:
        uncertainty = f"95% interval {number(interval[0])} to {number(interval[1])}"
    searched = (f"balance search over {number(balance['low'])} to {number(balance['high'])}, "
                f"{len(balance['evaluations'])} values × {balance['n_per_value']:,} games each")
    action = (f"Set {name} = {number(balance['recommended'])}: it equalises {equalised} ({uncertainty}; "
              f"largest gap between seats there {(1 - balance['measured_balance']) * 100:.2f} points; {searched}).")
    if balance["recommended"] in (balance["low"], balance["high"]):
        action += f" The value lies at the edge of the range searched: widen it with {again}."
    elif not balance["precision_reached"]:
        action += f" For a narrower interval: {again[:-1]} --n 2e5`."
    return action


def round_starter_verdict(run: dict) -> Verdict | None:
    """For a game played in rounds whose starter rotates (JSON ``round_starts``): the gap between the start
    offsets (the round's starter first) that win the most and the fewest rounds, relative to a fair share."""
    starts = run.get("round_starts")
    if not starts:
        return None
    wins = starts["wins_by_offset"]
    total = sum(wins)
    if total == 0 or len(wins) < 2:
        return None
    shares = [w / total for w in wins]
    top, bottom, gap, ci = extreme_gap(shares, total)
    fair = 1 / len(wins)
    shown = ", ".join(f"{_ordinal(i)} {pct(share)}" for i, share in enumerate(shares))
    text = (f"Share of round wins by turn order within the round ({total:,} round wins; the starter rotates): "
            f"{shown} (a fair share is {pct(fair)}). The {_position(top)} wins "
            f"{gap * 100:.2f} points more rounds than the {_position(bottom)} (95% interval {ci[0] * 100:.2f} to "
            f"{ci[1] * 100:.2f}{_extremes(len(wins), 'positions')}; rounds of one match counted as independent).")
    found = effect(gap, ci, "share of round wins")
    if ci[0] <= 0:
        return Verdict("round-starter", "No measurable advantage in starting a round", text,
                       "None at this precision.", found, yardstick=fair)
    title = f"The {_position(top)} is favoured, the {_position(bottom)} disadvantaged"
    action = ("The rotation spreads this over a match, but a match that ends before every seat has started "
              "equally often keeps part of it: let the seat that lost the round (or the one after the winner) "
              "start the next, or compensate late positions, and compare the variant as a scenario.")
    return Verdict("round-starter", title, text, action, found, yardstick=fair)


def _position(offset: int) -> str:
    return "round's starter" if offset == 0 else f"{_ordinal(offset)} in a round's turn order"


def _ordinal(offset: int) -> str:
    return "starter" if offset == 0 else {1: "second", 2: "third", 3: "fourth", 4: "fifth"}.get(
        offset, f"{offset + 1}th")
