"""Verdicts: a run's findings in words, ranked, each with its 95% interval and the action it suggests.

A verdict is read from a run's JSON (:meth:`analyzer.result.Result.to_dict`) and from
what other measurements add: the balance search over the game's seat-compensating rule
option and the skill ladder (their ``to_dict``). Keys the JSON may not carry (``components``,
``mechanics``, ``quality``, ``target_length``) give no verdict when absent. Nothing here plots.

The severity ranks the verdicts: the size of the problem as a fraction of a fair seat's
win rate (a seat or a component moving the win rate by a fair share is 1), the relative
distance of the length from its target, and fixed small weights for the findings that
have no win-rate size (rare mechanics, skill, runaway leaders). 0 means nothing to fix.
"""

from __future__ import annotations

import math
import shlex
import textwrap
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from analyzer.stats import wilson_interval

#: a mechanic that triggers in fewer games than this share is rare
RARE_SHARE = 0.01
#: most rare mechanics named in a verdict
MAX_RARE_NAMED = 10
#: a mean length within this fraction of the target is on target
LENGTH_TOLERANCE = 0.10
#: below this comeback rate (winner not leading at half time) the leader runs away
RUNAWAY_COMEBACK_RATE = 0.10
#: severities of the findings that have no win-rate size
RARE_MECHANICS_SEVERITY = 0.15
RUNAWAY_SEVERITY = 0.3
SKILL_SEVERITY = {"none": 0.12, "luck": 0.08, "some": 0.03, "a lot": 0.06}
#: the seat verdict when the seats play different strategies (a small weight: a pointer, not a finding)
UNMEASURABLE_SEAT_SEVERITY = 0.05
#: the width of a verdict line in the terminal
TEXT_WIDTH = 100

SEATS_NOT_MEASURABLE = ("the seats play different strategies, so the gaps between seats mix the seat with the "
                        "strategy: the seat advantage is not measurable from this run alone")


@dataclass(frozen=True)
class Verdict:
    """One finding: ``kind`` (seat-advantage, component, …, variant), a short title, the sentence with its interval,
    the action, its severity (for ranking) and, if given, its effect (``value``, 95% interval ``ci``, ``unit``)."""

    kind: str
    title: str
    text: str
    action: str
    severity: float = 0.0
    effect: dict | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "title": self.title, "text": self.text, "action": self.action,
                "severity": round(self.severity, 4), **({} if self.effect is None else {"effect": self.effect})}

    def lines(self, rank: int, width: int = TEXT_WIDTH) -> list[str]:
        """``rank. title: text`` and ``Action: ...``, wrapped to ``width`` with a hanging indent."""
        return [*textwrap.wrap(f"{rank}. {self.title}: {self.text}", width, subsequent_indent="   "),
                *textwrap.wrap(f"Action: {self.action}", width, initial_indent="   ", subsequent_indent="   ")]


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
        return f"analyze balance {self.run_args} --param {self.option}={_number(low)}:{_number(high)}"


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
            words += ["--set", f"{name}={_number(value) if isinstance(value, (int, float)) else value}"]
    labels = [seat.label for seat in spec.seats]
    if len(set(labels)) == 1 and labels[0] != spec.game.default_strategy:
        words += ["--strategy", labels[0]]
    return shlex.join(words)


def strategies_differ(run: dict) -> bool:
    return len({seat["strategy"] for seat in run["seats"]}) > 1


def matchup_command(run: dict) -> str:
    """The seat-rotated match-up of the strategies of ``run``."""
    labels = list(dict.fromkeys(seat["strategy"] for seat in run["seats"]))
    return shlex.join(["analyze", "compare", "--game", run["game"], "--players", str(run["players"]),
                       *(word for label in labels for word in ("--strategy", label))])


def seats_not_measurable(run: dict) -> str:
    """The sentence for a run whose seats play different strategies, with the command that measures them."""
    return (f"{SEATS_NOT_MEASURABLE}; a seat-rotated match-up ({matchup_command(run)}) ranks the strategies "
            f"on every seat, and a run with one strategy on every seat measures the seats")


# -- words -------------------------------------------------------------------------------------------

def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}".replace(",", "")
    return f"{value:.4g}"


def _pct(rate: float) -> str:
    return f"{rate * 100:.2f}%"


def _points(value: float) -> str:
    return f"{value * 100:+.2f}"


def _points_ci(ci) -> str:
    return f"95% interval {_points(ci[0])} to {_points(ci[1])}"


def _excludes_zero(ci) -> bool:
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


def skill_verdict(edge: float, edge_low: float) -> str:
    """How much skill matters, in words, from the top strategy's edge over a fair share against random."""
    return _SKILL_WORDS[_skill_level(edge, edge_low)]


def _skill_level(edge: float, edge_low: float) -> str:
    if edge_low <= 0:
        return "none"
    if edge < 0.05:
        return "luck"
    if edge < 0.15:
        return "some"
    return "a lot"


_SKILL_WORDS = {
    "none": "skill does not measurably matter: the best strategy does no better than random play",
    "luck": "luck dominates: the best strategy wins only a little more often than random play",
    "some": "skill matters: the best strategy clearly beats random play, but luck decides many games",
    "a lot": "skill matters a lot: the best strategy beats random play in most games",
}
_SKILL_ACTIONS = {
    "none": "if the game should reward good play, give the players decisions that change the outcome; for a "
            "game of pure chance, none",
    "luck": "if the game should reward good play, make the decisions weigh more (fewer random swings, more "
            "choices); for a family game, none",
    "some": "none: good play pays and beginners still win games",
    "a lot": "mixed tables of beginners and experienced players will be one-sided: consider a handicap for "
             "experienced players",
}


# -- the verdicts ------------------------------------------------------------------------------------

def seat_gap(run: dict) -> tuple[dict, dict, float, tuple[float, float]]:
    """(the seat that wins most, the seat that wins least, their gap in win rate, its 95% interval).

    The interval is that of a difference of two shares of the same games (multinomial),
    widened for having picked the extreme pair among the seats (Bonferroni over every pair), so
    a fair game with many seats is not called unfair one time in five.
    """
    seats = run["seats"]
    top = max(seats, key=lambda s: s["win_rate"])
    bottom = min(seats, key=lambda s: s["win_rate"])
    p, q = top["win_rate"], bottom["win_rate"]
    gap = p - q
    pairs = max(len(seats) * (len(seats) - 1) // 2, 1)
    z = NormalDist().inv_cdf(1 - 0.025 / pairs)
    half = z * math.sqrt(max(p + q - gap * gap, 0.0) / run["n"])
    return top, bottom, gap, (gap - half, gap + half)


def seat_verdict(run: dict, compensation: SeatCompensation | None = None) -> Verdict:
    fair = 1 / run["players"]
    fpa = run["first_player_advantage"]
    if strategies_differ(run):
        return Verdict("seat-advantage", "Seat advantage not measurable here",
                       f"First-player advantage {_points(fpa['estimate'])} points of win rate "
                       f"({_points_ci(fpa['ci'])}), but {SEATS_NOT_MEASURABLE}.",
                       f"Play a seat-rotated match-up: {matchup_command(run)}; measure the seats with one "
                       f"strategy on every seat.", UNMEASURABLE_SEAT_SEVERITY)
    top, bottom, gap, ci = seat_gap(run)
    measured = (f"Seat {top['seat']} wins {_pct(top['win_rate'])}, seat {bottom['seat']} {_pct(bottom['win_rate'])} "
                f"(a fair share is {_pct(fair)}): a gap of {gap * 100:.2f} points of win rate (95% interval "
                f"{ci[0] * 100:.2f} to {ci[1] * 100:.2f}{_extremes(run)}); the first player's advantage is "
                f"{_points(fpa['estimate'])} points ({_points_ci(fpa['ci'])}).")
    if ci[0] <= 0:
        return Verdict("seat-advantage", "No measurable seat advantage",
                       measured + f" The gap is within chance at {run['n']:,} games.",
                       "None at this precision; more games (--n) would detect a smaller advantage.", 0.0)
    title = f"Seat {top['seat']} favoured, seat {bottom['seat']} disadvantaged"
    return Verdict("seat-advantage", title, measured, _compensation_action(run, compensation), gap / fair)


def _extremes(run: dict) -> str:
    return f", allowing for picking the extremes of {run['players']} seats" if run["players"] > 2 else ""


def _compensation_action(run: dict, compensation: SeatCompensation | None) -> str:
    if compensation is None:
        return ("The game has no rule option that compensates seats: try a house rule that gives the "
                "disadvantaged seats a head start, or rotate who starts between games, and measure it with "
                "analyze compare.")
    balance = compensation.balance
    if balance is None:
        why = f" ({compensation.note})" if compensation.note else ""
        return f"Find the {compensation.option} that equalises the seats{why}: {compensation.command(run)}."
    option = compensation.option
    interval = balance["interval"]
    if interval is None:
        uncertainty = "no interval: too few batches of games"
    else:
        uncertainty = f"95% interval {_number(interval[0])} to {_number(interval[1])}"
    searched = (f"balance search over {_number(balance['low'])} to {_number(balance['high'])}, "
                f"{len(balance['evaluations'])} values × {balance['n_per_value']:,} games each")
    action = (f"Set {option} = {_number(balance['recommended'])}: it equalises the seats ({uncertainty}; "
              f"largest gap between seats there {(1 - balance['measured_balance']) * 100:.2f} points; {searched}).")
    if balance["recommended"] in (balance["low"], balance["high"]):
        action += f" The value lies at the edge of the range searched: widen it with {compensation.command(run)}."
    elif not balance["precision_reached"]:
        action += f" For a narrower interval: {compensation.command(run)} --n 2e5."
    return action


def _effect(component: dict, unit: str) -> str:
    effect, ci = component["win_rate_effect"], component["win_rate_effect_ci"]
    size = f"{abs(effect) * 100:.2f} points {'more' if effect >= 0 else 'less'} often"
    if component.get("measure") == "per draw":
        text = f"the seat that meets it wins {size} than the average seat, per time met ({_points_ci(ci)})"
    else:
        text = f"the seats that get it win {size} than the others ({_points_ci(ci)})"
    score, score_ci = component.get("score_effect"), component.get("score_effect_ci")
    if score is not None:
        digits = 2 if abs(score) < 10 else 1  # a small unit (rounds won) needs more decimals
        interval = f" (95% interval {score_ci[0]:+.{digits}f} to {score_ci[1]:+.{digits}f})" if score_ci else ""
        text += f" and scores {score:+.{digits}f} {unit}{interval}"
    return text


LUCK_WEIGHT = 0.5  # a card every player meets swings games by design: half the weight of an imbalance


def _named(component: dict) -> str:
    name, kind = component["component"], component.get("kind", "component")
    return name if kind.lower() in name.lower() else f"{name} ({kind})"


def component_verdict(run: dict) -> Verdict | None:
    """The component that moves the win rate most (those not measurable, with a null effect, left out).

    What a player may or may not get (a captain, a ship, a mascot: ``presence``) is weighed
    first: among such alternatives an imbalance is a design choice. Only a game where every
    player meets every component (fortune cards, specials: ``per draw``) is judged by the
    card that swings a game most, which is luck by design.
    """
    components = [c for c in run.get("components") or [] if c.get("win_rate_effect") is not None]
    if not components:
        return None
    presence = [c for c in components if c.get("measure") != "per draw"]
    ranked = sorted(presence or components, key=lambda c: -abs(c["win_rate_effect"]))
    top = ranked[0]
    name, kind = top["component"], top.get("kind", "component")
    unit = run.get("score_unit", "points")
    text = f"{_named(top)}: {_effect(top, unit)}."
    if not _excludes_zero(top["win_rate_effect_ci"]):
        return Verdict("component", "No component measurably moves the win rate",
                       f"The largest effect: {text}", "None at this precision.", 0.0)
    opposite = [c for c in ranked[1:] if c.get("kind") == top.get("kind")
                and c["win_rate_effect"] * top["win_rate_effect"] < 0 and _excludes_zero(c["win_rate_effect_ci"])]
    if opposite:
        other = opposite[0]
        text += f" At the other end, {other['component']}: {_effect(other, unit)}."
    if not presence:
        title = f"{name} swings games most"
        action = (f"If {name} decides more games than you want, soften it: of all the components every player "
                  f"meets, it moves the win rate most each time it comes up.")
    elif top["win_rate_effect"] > 0:
        title = f"{name} is the strongest {kind}"
        action = f"Weaken {name} (or strengthen the other {kind}s): of all components it moves the win rate most."
    else:
        title = f"{name} is the weakest {kind}"
        action = f"Strengthen {name}: of all components it moves the win rate most."
    severity = abs(top["win_rate_effect"]) * run["players"]
    return Verdict("component", title, text, action, severity if presence else severity * LUCK_WEIGHT)


def mechanics_verdict(run: dict) -> Verdict | None:
    mechanics = run.get("mechanics")
    if not mechanics:
        return None
    left_out = set(run.get("safeguards") or ()) | set(run.get("switched_off") or ())
    rare = sorted(((share, name) for name, share in mechanics.items()
                   if share is not None and share < RARE_SHARE and name not in left_out))
    if not rare:
        return None
    off = sorted(set(run.get("switched_off") or ()) & set(mechanics))
    n = run["n"]

    def shown(share: float, name: str) -> str:
        low, high = wilson_interval(round(share * n), n)
        if share == 0:
            return f"{name} never (95% interval up to {_pct(high)})"
        return f"{name} {_pct(share)} ({_pct(low)}–{_pct(high)})"

    named = "; ".join(shown(share, name) for share, name in rare[:MAX_RARE_NAMED])
    more = f"; and {len(rare) - MAX_RARE_NAMED} more" if len(rare) > MAX_RARE_NAMED else ""
    switched = f" Switched off by these rules, so not counted: {', '.join(off)}." if off else ""
    return Verdict("mechanics", f"{len(rare)} of {len(set(mechanics) - left_out)} mechanics almost never happen",
                   f"Share of games in which each triggered (95% interval): {named}{more}.{switched}",
                   "Make them come up more often, or cut them: a rule that almost never triggers costs rules "
                   "text and table time for nothing.", RARE_MECHANICS_SEVERITY)


def length_verdict(run: dict) -> Verdict | None:
    target = run.get("target_length")
    if target is None:
        return None
    block = run["length"]
    unit, mean = block["unit"], block["mean"]
    off = (mean - target) / target
    text = (f"A game lasts {mean:.2f} {unit} on average (median {block['median']}; 90% of games take {block['p5']} "
            f"to {block['p95']} {unit}) against the scenario's target of {_number(target)} {unit}: "
            f"{abs(off) * 100:.0f}% {'longer' if off > 0 else 'shorter'}.")
    if abs(off) <= LENGTH_TOLERANCE:
        return Verdict("length", "Length on target", text, "None: the length is within 10% of the target.",
                       abs(off))
    if off > 0:
        title, action = "Games run too long", ("Shorten the game: lower the goal that ends it or add an end "
                                               "trigger; analyze sweep over the option that sets the goal finds "
                                               "the value that meets the target.")
    else:
        title, action = "Games end too soon", ("Lengthen the game: raise the goal that ends it; analyze sweep "
                                               "over the option that sets the goal finds the value that meets the "
                                               "target.")
    return Verdict("length", title, text, action, abs(off))


def quality_verdict(run: dict) -> Verdict | None:
    quality = run.get("quality") or {}
    comeback = quality.get("comeback_rate") or {}
    rate, ci = comeback.get("value"), comeback.get("ci")
    if rate is None or ci is None:  # absent, or no game had a halfway point to compare
        return None
    text = (f"{_pct(rate)} of games (95% interval {_pct(ci[0])}–{_pct(ci[1])}) are won by a player who was not "
            f"leading at the halfway point")
    changes, point = quality.get("lead_changes") or {}, quality.get("decisive_point") or {}
    if changes.get("ci") is not None:
        text += (f"; the lead changes {changes['value']:.2f} times per game (95% interval {changes['ci'][0]:.2f} to "
                 f"{changes['ci'][1]:.2f})")
    if point.get("ci") is not None:
        text += (f"; the leader no longer changes after {point['value'] * 100:.1f}% of the game (95% interval "
                 f"{point['ci'][0] * 100:.1f}–{point['ci'][1] * 100:.1f}%)")
    if ci[1] < RUNAWAY_COMEBACK_RATE:
        return Verdict("quality", "Runaway leader", text + ".",
                       "Add a catch-up mechanism (help for trailing players, or a cost to leading) so that games "
                       "stay open longer.", RUNAWAY_SEVERITY * (1 - rate / RUNAWAY_COMEBACK_RATE))
    return Verdict("quality", "Games stay open", text + ".", "None: trailing players still win games.", 0.0)


def skill_ladder_verdict(ladder: dict | None) -> Verdict | None:
    """From a :class:`~analyzer.experiments.skill.SkillLadder` ``to_dict``."""
    if not ladder or ladder["skill"]["versus_random"] is None:
        return None
    skill = ladder["skill"]
    fair = ladder["fair_win_rate"]
    rate, (low, high) = skill["versus_random"], skill["versus_random_ci"]
    level = _skill_level(rate - fair, low - fair)
    text = (f"{skill['strongest']} wins {_pct(rate)} (95% interval {_pct(low)}–{_pct(high)}) of its seats head to "
            f"head against random play, where a fair share is {_pct(fair)}: {_SKILL_WORDS[level]} (skill ladder, "
            f"{ladder['n']:,} games per strategy).")
    return Verdict("skill", "How much skill matters", text, _SKILL_ACTIONS[level][0].upper()
                   + _SKILL_ACTIONS[level][1:] + ".", SKILL_SEVERITY[level])


def run_verdicts(run: dict, compensation: SeatCompensation | None = None, ladder: dict | None = None) -> list[Verdict]:
    """Every verdict of ``run`` (a run's JSON), most severe first (the seat verdict first among equals)."""
    found = [seat_verdict(run, compensation), component_verdict(run), length_verdict(run), quality_verdict(run),
             mechanics_verdict(run), skill_ladder_verdict(ladder)]
    return sorted((v for v in found if v is not None), key=lambda v: -v.severity)


def verdict_lines(verdicts: list[Verdict], width: int = TEXT_WIDTH) -> list[str]:
    """The verdicts as numbered, wrapped lines under a heading (for the terminal and markdown)."""
    lines = ["Verdicts, most important first:"]
    for rank, verdict in enumerate(verdicts, start=1):
        lines += verdict.lines(rank, width)
    return lines
