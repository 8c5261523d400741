"""Component verdicts: causes, not associations.

Each component record of the JSON says how it reached a player (``origin``: dealt, assigned,
acquired) and what its effect is evidence of (``evidence``). Only causal evidence may call a
component too strong or too weak:

- ``random draw`` (dealt: cards drawn, spaces landed on): the per-draw effect;
- ``random assignment`` (assigned at setup, measured in a run that assigned at random): the
  effect of holding it, and, where components of one kind differ in a declared numeric
  attribute (a captain's loot), the groups by that attribute compared;
- ``association`` (acquired during play, or assigned by the players' own choices): shown as
  associated with winning, never turned into "weaken X"; the action names the experiment
  that would measure it (a run with the assignment random, a sweep over its price) where
  the game accepts one.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from statistics import NormalDist

from analyzer.verdicts.core import Verdict, command, effect, excludes, number, pct, points_ci
from analyzer.verdicts.seats import fix_action

RANDOM_DRAW, RANDOM_ASSIGNMENT, ASSOCIATION = "random draw", "random assignment", "association"
WIN_RATE = "win rate"


@dataclass(frozen=True)
class ComponentFix:
    """The value of one component number that closes a component finding: ``component`` names what it
    fixes (a display name, or a group such as "the $250 captains"), ``parameter`` the number
    (``captains[Cutler Beckett].loot``), ``run_args`` the run on the command line, ``current`` its
    value in the run, ``balance`` a :class:`~analyzer.experiments.Balance` ``to_dict`` of a search over
    it (None: not searched, ``note`` says why)."""

    component: str
    parameter: str
    run_args: str
    current: float
    balance: dict | None = None
    note: str = ""

    def search_range(self) -> tuple[float, float]:
        if self.balance is not None:
            return self.balance["low"], self.balance["high"]
        return self.current / 2, self.current * 3 / 2

    def command(self) -> str:
        low, high = self.search_range()
        return command(f"analyze balance {self.run_args} "
                       f"{shlex.join(['--param', f'{self.parameter}={number(low)}:{number(high)}'])}")

    def action(self) -> str:
        if self.balance is None:
            why = f" ({self.note})" if self.note else ""
            return f"Find the {self.parameter} that closes the gap{why}: {self.command()}."
        action = fix_action(self.parameter, self.balance, f"{self.component} with the rest", self.command())
        return action if self.command() in action else f"{action} Reproduce it: {self.command()}."


def _effect_words(component: dict, unit: str) -> str:
    value, ci = component["win_rate_effect"], component["win_rate_effect_ci"]
    size = f"{abs(value) * 100:.2f} points {'more' if value >= 0 else 'less'} often"
    if component.get("measure") == "per draw":
        text = f"the seat that meets it wins {size} than the average seat, per time met ({points_ci(ci)})"
    else:
        text = f"the seats that get it win {size} than the others ({points_ci(ci)})"
    score, score_ci = component.get("score_effect"), component.get("score_effect_ci")
    if score is not None:
        digits = 2 if abs(score) < 10 else 1  # a small unit (rounds won) needs more decimals
        interval = f" (95% interval {score_ci[0]:+.{digits}f} to {score_ci[1]:+.{digits}f})" if score_ci else ""
        text += f" and scores {score:+.{digits}f} {unit}{interval}"
    return text


def _named(component: dict) -> str:
    name, kind = component["component"], component.get("kind", "component")
    return name if kind.lower() in name.lower() else f"{name} ({kind})"


def _evidence(component: dict) -> str:
    """The record's evidence (records written before it was declared: per draw is a random draw)."""
    return component.get("evidence") or (RANDOM_DRAW if component.get("measure") == "per draw" else ASSOCIATION)


def _by_effect(components: list[dict]) -> list[dict]:
    return sorted(components, key=lambda c: -abs(c["win_rate_effect"]))


def _component_effect(top: dict, yardstick: float, finding: bool | None = None) -> dict:
    return {"effect": effect(top["win_rate_effect"], top["win_rate_effect_ci"], WIN_RATE), "yardstick": yardstick,
            "finding": finding}


def dealt_verdict(run: dict, components: list[dict]) -> Verdict | None:
    """The component met at random (a card drawn, a space landed on) that swings a game most, per time met.

    Kind ``luck``, not a fairness finding: every player meets it by the same chance, so it decides
    games without favouring anyone; it ranks after the seats and the assigned components."""
    if not components:
        return None
    ranked = _by_effect(components)
    top = ranked[0]
    unit = run.get("score_unit", "points")
    text = f"{_named(top)}: {_effect_words(top, unit)}."
    sized = _component_effect(top, 1 / run["players"])
    if not excludes(top["win_rate_effect_ci"]):
        return Verdict("luck", "No card or space measurably swings games",
                       f"The largest effect: {text}", "None at this precision.", **sized)
    name = top["component"]
    return Verdict("luck", f"{name} swings games most", text,
                   f"If {name} decides more games than you want, soften it: of all the components every player "
                   f"meets, it moves the win rate most each time it comes up.", **sized)


def assigned_verdict(run: dict, components: list[dict], fix: ComponentFix | None) -> Verdict | None:
    """The strongest or weakest component measured under random assignment."""
    if not components:
        return None
    ranked = _by_effect(components)
    top = ranked[0]
    name, kind = top["component"], top.get("kind", "component")
    unit = run.get("score_unit", "points")
    text = f"With {kind}s assigned at random, {_named(top)}: {_effect_words(top, unit)}."
    sized = _component_effect(top, 1 / run["players"])
    if not excludes(top["win_rate_effect_ci"]):
        return Verdict("component", f"No {kind} measurably moves the win rate", f"The largest effect: {text}",
                       "None at this precision.", **sized)
    opposite = [c for c in ranked[1:] if c.get("kind") == kind and c["win_rate_effect"] * top["win_rate_effect"] < 0
                and excludes(c["win_rate_effect_ci"])]
    if opposite:
        text += f" At the other end, {opposite[0]['component']}: {_effect_words(opposite[0], unit)}."
    stronger = top["win_rate_effect"] > 0
    title = f"{name} is the {'strongest' if stronger else 'weakest'} {kind}"
    if fix is not None:
        action = fix.action()
    elif stronger:
        action = f"Weaken {name} (or strengthen the other {kind}s): of all the {kind}s it moves the win rate most."
    else:
        action = f"Strengthen {name}: of all the {kind}s it moves the win rate most."
    return Verdict("component", title, text, action, **sized)


def _pooled(members: list[dict]) -> tuple[float, float, float]:
    """(wins, seat-games, win rate) of components pooled."""
    games = sum(c["seat_games"] for c in members)
    wins = sum(round(c["win_rate"] * c["seat_games"]) for c in members)
    return wins, games, wins / games if games else 0.0


def group_verdicts(run: dict, components: list[dict], fix: ComponentFix | None,
                   causal: bool = True) -> list[tuple[str, Verdict]]:
    """(kind, verdict) per kind of component and numeric attribute its components differ in (a captain's
    loot): the groups by that attribute whose win rates differ most, with the difference's interval
    (Bonferroni over the pairs of groups; holders of different groups counted as independent samples).
    Not ``causal`` (components the players chose): shown as an association, never a finding."""
    found = []
    kinds = dict.fromkeys(c.get("kind", "component") for c in components)
    for kind in kinds:
        members = [c for c in components if c.get("kind", "component") == kind and c.get("seat_games")]
        for attribute in dict.fromkeys(a for c in members for a in (c.get("attributes") or {})):
            groups: dict[float, list[dict]] = {}
            for c in members:
                if attribute in (c.get("attributes") or {}):
                    groups.setdefault(c["attributes"][attribute], []).append(c)
            if len(groups) < 2 or max(len(g) for g in groups.values()) < 2:
                continue
            fits = fix is not None and fix.parameter.endswith(f".{attribute}")
            verdict = _group_verdict(run, kind, attribute, groups, fix if fits else None, causal)
            if verdict is not None:
                found.append((kind, verdict))
    return found


def _group_verdict(run: dict, kind: str, attribute: str, groups: dict, fix: ComponentFix | None,
                   causal: bool) -> Verdict | None:
    rates = {value: _pooled(members) for value, members in groups.items()}
    high = max(rates, key=lambda v: rates[v][2])
    low = min(rates, key=lambda v: rates[v][2])
    (_, n_high, p_high), (_, n_low, p_low) = rates[high], rates[low]
    gap = p_high - p_low
    pairs = len(groups) * (len(groups) - 1) // 2
    z = NormalDist().inv_cdf(1 - 0.025 / pairs)
    half = z * math.sqrt(p_high * (1 - p_high) / n_high + p_low * (1 - p_low) / n_low)
    ci = (gap - half, gap + half)
    shown = "; ".join(f"{attribute} {number(value)} ({len(groups[value])} {kind}s: "
                      f"{', '.join(c['component'] for c in groups[value])}) {pct(rates[value][2])}"
                      for value in sorted(groups, reverse=True))
    how = f"With {kind}s assigned at random" if causal else f"With {kind}s chosen by the players (not at random)"
    text = (f"{how}, by {attribute}: {shown}. The {kind}s with {attribute} {number(high)} "
            f"win {gap * 100:.2f} points more often than those with {number(low)} (95% interval {ci[0] * 100:.2f} "
            f"to {ci[1] * 100:.2f}; a fair share is {pct(1 / run['players'])}).")
    found = {"effect": effect(gap, ci, WIN_RATE), "yardstick": 1 / run["players"]}
    if not causal:
        if ci[0] <= 0:
            return None
        return Verdict("component-group", f"{kind.capitalize()}s with {attribute} {number(high)} are associated "
                       f"with winning more than those with {number(low)}",
                       text + f" This is an association: who gets which {kind} depends on the players' choices.",
                       _experiment(run, groups[high][0]), **found, finding=False)
    if ci[0] <= 0:
        return Verdict("component-group", f"No measurable gap between {kind}s by {attribute}", text,
                       "None at this precision.", **found)
    higher_wins = high > low
    title = (f"{kind.capitalize()}s with {'more' if higher_wins else 'less'} {attribute} win more often: "
             f"{attribute} {number(high)} against {number(low)}")
    if fix is not None:
        action = fix.action()
    else:
        action = (f"Bring the {attribute} of the {kind}s closer: change the {attribute} of the {kind}s with "
                  f"{number(high)} (or of those with {number(low)}) until the groups win alike; a balance search "
                  f"over one {kind}'s {attribute} finds the value.")
    return Verdict("component-group", title, text, action, **found)


def association_verdict(run: dict, components: list[dict]) -> Verdict | None:
    """The component most associated with winning, among those a player acquires or chooses: shown, never
    called too strong; the action names the experiment that would measure it where the game accepts it."""
    if not components:
        return None
    top = _by_effect(components)[0]
    if not excludes(top["win_rate_effect_ci"]):
        return None
    name, kind = top["component"], top.get("kind", "component")
    unit = run.get("score_unit", "points")
    how = ("acquired during play, so players who are ahead are more likely to get it"
           if top.get("origin") == "acquired" else "given by the players' own choices (not at random)")
    text = (f"{_named(top)}: {_effect_words(top, unit)}. This is an association, not a measured cause: "
            f"the {kind} is {how}; what winning looks like is mixed with what the {kind} does.")
    return Verdict("component", f"{name} is associated with winning", text, _experiment(run, top),
                   **_component_effect(top, 1 / run["players"], finding=False))


def _experiment(run: dict, component: dict) -> str:
    """The experiment that would measure the component's effect, with its command where the game accepts it."""
    game_words = f"--game {run['game']} --players {run['players']}"
    randomize = component.get("randomize")
    if randomize:
        kind = component.get("kind")
        if _accepts(run, setting=randomize):
            return (f"None from this run. To measure what each {kind} does, play the {kind}s assigned at "
                    f"random: {command(f'analyze simulate {game_words} --set {randomize}')}.")
        return (f"None from this run. To measure what each {kind} does, play the {kind}s assigned at random "
                f"({randomize}) instead of chosen.")
    price, parameter = component.get("price"), component.get("parameter")
    if price and parameter:
        value = (component.get("attributes") or {}).get(price)
        path = f"{parameter}.{price}"
        if value and _accepts(run, param=f"{path}={number(value / 2)},{number(value)}"):
            values = f"{path}={number(value / 2)},{number(value)},{number(value * 3 / 2)}"
            return (f"None from this run. To measure what it does, vary its {price}: "
                    f"{command(f'analyze sweep {game_words} ' + shlex.join(['--param', values]))} "
                    f"shows how the seats' chances move with it.")
        return (f"None from this run. To measure what it does, vary its {price} ({number(value or 0)}) in "
                f"a scenario of its own and compare it with the standard rules.")
    return "None from this run: an association does not say what the component does."


def _accepts(run: dict, setting: str | None = None, param: str | None = None) -> bool:
    """Whether the game accepts ``--set setting`` or ``--param param`` (a suggestion must run)."""
    from analyzer.errors import AnalyzerError
    from analyzer.experiments.params import parse_sweep_param
    from analyzer.runspec import resolve

    try:
        spec = resolve(game=run["game"], players=run["players"], sets=[setting] if setting else None)
        if param:
            parse_sweep_param(spec.game, param, spec.rules)
    except AnalyzerError:
        return False
    return True


def component_verdicts(run: dict, assigned_components: list[dict] | None = None,
                       component_fix: ComponentFix | None = None) -> list[Verdict]:
    """Every component verdict of ``run``: the dealt components', those measured under random assignment
    (the run's own, or ``assigned_components`` from a run that assigned at random, which replace the run's
    records of the same kinds: groups by a declared attribute where they differ in one, else the strongest
    or weakest), and the strongest association. ``component_fix`` goes to the verdict it fixes: the group
    verdict of the attribute it sets, else the single component it names."""
    measured = [c for c in run.get("components") or [] if c.get("win_rate_effect") is not None]
    assigned = [c for c in assigned_components or [] if c.get("win_rate_effect") is not None]
    replaced = {c.get("kind") for c in assigned}
    measured = [c for c in measured if c.get("kind") not in replaced]
    random_assignment = [c for c in measured if _evidence(c) == RANDOM_ASSIGNMENT] + assigned
    groups = group_verdicts(run, random_assignment, component_fix)
    grouped = {kind for kind, verdict in groups if verdict.measurable}
    singles = [c for c in random_assignment if c.get("kind") not in grouped]
    top = _by_effect(singles)[0]["component"] if singles else None
    single_fix = component_fix if component_fix is not None and f"[{top}]" in component_fix.parameter else None
    associated = [c for c in measured if _evidence(c) == ASSOCIATION]
    chosen = group_verdicts(run, [c for c in associated if c.get("origin") == "assigned"], None, causal=False)
    return [v for v in (dealt_verdict(run, [c for c in measured if _evidence(c) == RANDOM_DRAW]),
                        assigned_verdict(run, singles, single_fix), *(verdict for _, verdict in groups),
                        association_verdict(run, associated), *(verdict for _, verdict in chosen))
            if v is not None]
