"""Causes, not associations, for the components a player is given at setup, and the number that evens them out.

A component a player picks (a drafted captain) wins more often partly because of who
picks it: the measured effect mixes the component with the choice. Where a game
declares how such components are dealt at random instead (``Game.random_assignment``:
rule options such as captains dealt instead of drafted), :func:`assigned_components`
plays the run's spec that way with the run's own seed (common random numbers: game i
starts from the same random stream as the run's game i; a deal that makes the choice's
draws and keeps the first plays on from the same numbers), so chance alone decides who
holds what, and a holder's win rate against the rest measures what the component does.

:func:`component_fix` then takes the component (or group of components sharing a
value, e.g. every captain whose loot is 250) whose random-assignment effect is largest
and excludes zero, and searches its number with ``balance --target`` (under the same
random deal) for the value that makes its win rate meet the rest of its table's.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, replace
from statistics import NormalDist

from analyzer.execution import Execution
from analyzer.experiments.balancing import balance_spec
from analyzer.experiments.batches import play_variant
from analyzer.games.component_params import tables_under
from analyzer.runspec import RunSpec
from analyzer.stats import Z95
from analyzer.verdicts import ComponentFix, run_args

#: games of the random-assignment run the report plays (at most the run's own count)
ASSIGNMENT_GAMES = 20_000
#: the evidence label of an effect measured where the assignment is random
RANDOM_ASSIGNMENT = "random assignment"


@dataclass(frozen=True)
class Candidate:
    """A component or group of one component table with its random-assignment effect on the win rate
    (its holders' win rate minus the other rows' holders'), and the number a fix would change."""

    label: str
    rows: str  # TABLE[SELECTOR]
    field: str
    current: float
    effect: float
    se: float

    @property
    def parameter(self) -> str:
        return f"{self.rows}.{self.field}"

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% interval of the effect."""
        return (self.effect - Z95 * self.se, self.effect + Z95 * self.se)

    def excludes_zero(self, z: float) -> bool:
        return abs(self.effect) > z * self.se


def assigned_components(spec: RunSpec, n: int, execution: Execution) -> list[dict] | None:
    """The assigned components' records (as ``Result.to_dict()["components"]``) measured with them dealt at
    random: ``n`` games of ``spec`` under the game's random-assignment rules with ``execution``'s seed, each
    record marked ``evidence`` "random assignment" with the run that measured it; None for a game that
    assigns no components."""
    design = spec.game.random_assignment
    if design is None:
        return None
    dealt = spec.with_rules(design.rules)
    run = play_variant(execution, dealt, n)
    measured = {"rules": dict(design.rules), "games": n, "seed": execution.seed}
    return [{**record, "evidence": RANDOM_ASSIGNMENT, "evidence_run": measured}
            for record in run.result.to_dict()["components"] if record["kind"] in design.kinds]


def _group_effect(records: list[dict], names: set[str]) -> tuple[float, float] | None:
    """The win rate of the seat-games holding one of ``names`` minus the others' (of ``records``), with its
    standard error (two independent binomials, as the per-component effects)."""
    def pooled(chosen):
        games = sum(r["seat_games"] for r in chosen)
        return games, sum(r["win_rate"] * r["seat_games"] for r in chosen if r["win_rate"] is not None)

    held_games, held_wins = pooled([r for r in records if r["component"] in names])
    other_games, other_wins = pooled([r for r in records if r["component"] not in names])
    if held_games == 0 or other_games == 0:
        return None
    rate, other = held_wins / held_games, other_wins / other_games
    return rate - other, math.sqrt(rate * (1 - rate) / held_games + other * (1 - other) / other_games)


def candidates(spec: RunSpec, components: list[dict]) -> list[Candidate]:
    """Every row of each component table whose rows are assigned components, and every group of rows
    sharing a value of the table's first number, with its effect from ``components``."""
    found = []
    for table in tables_under(spec.game, spec.rules):
        records = [r for r in components if r["kind"] == table.component_kind]
        if not records or not table.fields:
            continue
        field = table.fields[0].name
        values = [row.values[field] for row in table.rows]
        groups = [(f"{field}={value:g}", f"the {table.name} with {field} {value:g}",
                   {row.name for row in table.rows if row.values[field] == value}, value)
                  for value in sorted(set(values)) if 1 < values.count(value) < len(values)]
        singles = [(row.name, row.name, {row.name}, row.values[field]) for row in table.rows]
        for selector, label, names, current in groups + singles:
            measured = _group_effect(records, names)
            if measured is not None:
                found.append(Candidate(label, f"{table.name}[{selector}]", field, current, *measured))
    return found


def strongest(spec: RunSpec, components: list[dict]) -> Candidate | None:
    """The candidate with the largest effect whose interval excludes zero, or None (of two mirror groups,
    the stronger: a fix weakens it). The interval is widened for picking among every candidate
    (Bonferroni: 95% over all of them together), so a fair table rarely gets a fix by chance."""
    found = candidates(spec, components)
    z = NormalDist().inv_cdf(1 - 0.025 / max(len(found), 1))
    clear = [c for c in found if c.excludes_zero(z)]
    return max(clear, key=lambda c: (abs(c.effect), c.effect > 0, c.label)) if clear else None


def search_range(current: float) -> tuple[int, int]:
    """Half the number below to half above it (the effect's sign does not say which way the number acts)."""
    half = max(int(round(abs(current) / 2)), 1)
    return int(current) - half if current - half >= 0 else 0, int(current) + half


def component_fix(spec: RunSpec, components: list[dict] | None, balance_n: int | None,
                  execution: Execution) -> ComponentFix | None:
    """The value of :func:`strongest`'s number that makes its win rate meet the rest of its table's, searched
    under the random deal with ``balance_n`` games per value and ``execution``'s seed; None when no assigned
    component's effect excludes zero (or the game assigns none). ``balance_n`` None leaves the search out
    (the note says so)."""
    if not components:
        return None
    chosen = strongest(spec, components)
    if chosen is None:
        return None
    dealt = spec.with_rules(spec.game.random_assignment.rules)
    dealt = replace(dealt, set_options=dealt.set_options - {chosen.parameter})  # a value given with --set is searched
    args = f"{run_args(dealt, leave_out=chosen.parameter)} --target {shlex.quote(chosen.rows)}"
    fix = ComponentFix(chosen.label, chosen.parameter, args, chosen.current, None)
    if balance_n is None:
        return replace(fix, note="the report's search was left out with --no-balance")
    low, high = search_range(chosen.current)
    search = balance_spec(f"{chosen.parameter}={low}:{high}", dealt, balance_n, execution, target=chosen.rows)
    return replace(fix, balance=search.to_dict())


def fix_command(fix: ComponentFix) -> str:
    """The ``analyze balance`` command that reproduces ``fix``'s search."""
    low, high = (fix.balance["low"], fix.balance["high"]) if fix.balance else search_range(fix.current)
    return f"analyze balance {fix.run_args} --param {shlex.quote(f'{fix.parameter}={low}:{high}')}"
