"""The exact Skull Island turn solver (``analyze solve``) and the policies it hands the kernel.

For each fortune card the solver finds the turn policy that maximises the expected own
turn score (or, with ``needed``, the probability that the turn scores at least that
many points: the last player of a final round), by value iteration over the turn's
states (:mod:`turn_solver.core`), and evaluates the built-in strategies exactly on the same
states (:mod:`turn_solver.strategies`).

Results are cached on disk, one file per rule set and objective, in
``$PIRATE_ANALYZER_CACHE/skull-island`` (default ``~/.cache/pirate-analyzer``). The
key hashes the rule options that change a turn and the source of every module the
values depend on (scoring, strategies, kernel legality, the solver), so an edit to the
rules code can never serve stale policies. Rule options that do not change a turn
are ignored; an option the solver does not know is refused by name.

For the kernel: :func:`load_policy` gives the expected-score table and
:func:`final_round_tables` the tables of the final-round objective; the jitted
lookups are :func:`turn_states.table_decision` and
:func:`turn_states.final_round_table`.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.engine.progress import Progress, map_on_threads
from analyzer.errors import AnalyzerError
from analyzer.games.base import StrategyChoice
from analyzer.games.options import jsonable
from analyzer.games.skull_island.cache_files import cache_key, load_arrays, save_arrays
from analyzer.games.skull_island.components import CARDS, N_CARDS, SORCERESS
from analyzer.games.skull_island.rules import TurnRules, deck_counts
from analyzer.games.skull_island.strategies import STRATEGIES, param_row
from analyzer.output import Rendered, atomic_path

SCHEMA = "pirate-analyzer/solve/1"
CACHE_ENV = "PIRATE_ANALYZER_CACHE"
#: the built-in strategies whose turn play does not read the game's scores
SOLVABLE_STRATEGIES = ("first-roll", "random", "threshold", "set-chaser")
#: rule options that change a turn (every one the scoring reads)
TURN_OPTIONS = ("set_values", "coin_diamond_value", "full_chest_bonus", "sea_battle_values", "island_penalty",
                "peace_penalty", "skull_island", "sea_battle_blocks_island")
#: rule options that only weight the cards (the deck averages)
DECK_OPTIONS = ("deck", "promo_storm", "promo_peace")
#: rule options that do not change a turn
OTHER_OPTIONS = ("target_score", "floor_at_zero", "tie_rule", "seat_bonus", "max_rounds", "allow_more_players",
                 "card_draw")
#: the files whose code the solved values depend on (part of the cache key), in the game's package
_SOURCES = ("components.py", "dice.py", "rules.py", "scoring.py", "decisions.py", "kernel.py",
            "steps.py", "strategies.py",
            "turn_states.py", "turn_solver/core.py", "turn_solver/strategies.py")
EXPECTED_LABEL = "optimal-ev"


# -- rules and the cache ------------------------------------------------------------------

def turn_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """The rule options that change a turn; refuses an option the solver does not know."""
    known = set(TURN_OPTIONS) | set(DECK_OPTIONS) | set(OTHER_OPTIONS)
    unknown = sorted(set(rules) - known)
    if unknown:
        raise AnalyzerError(f"the solver cannot honour rule option {unknown[0]!r}: it does not know how it changes "
                            f"a turn")
    return {name: rules[name] for name in TURN_OPTIONS}


def rules_key(rules: dict[str, Any]) -> str:
    """The cache key of a rule set: its turn options and the code the values depend on."""
    return cache_key(json.dumps(jsonable(turn_rules(rules)), sort_keys=True), _SOURCES)


def cache_folder() -> Path:
    root = os.environ.get(CACHE_ENV)
    return (Path(root).expanduser() if root else Path.home() / ".cache" / "pirate-analyzer") / "skull-island"


def _load_values(path: Path) -> dict[str, list[float]]:
    """A strategy-values cache file (label -> value per card id), or nothing when it is missing or unreadable."""
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(known, dict) or not all(isinstance(v, list) and len(v) == N_CARDS for v in known.values()):
        return {}
    return known


def _per_card(compute, progress: Progress | None) -> list:
    """``compute(card)`` for every card id, on threads (the solver releases the GIL)."""
    def one(card):
        result = compute(card)
        if progress is not None:
            progress.advance(1)
        return result

    return map_on_threads(one, range(N_CARDS))


# -- the optimal policies -----------------------------------------------------------------

@dataclass
class Policies:
    """The optimal policy of every card for one objective (rows indexed by card id)."""

    table: np.ndarray  # [card, state]: see turn_states
    value: np.ndarray  # [card]: the optimal turn value
    sweeps: np.ndarray  # [card]: value-iteration sweeps until no value moved by 1e-9
    states: np.ndarray  # [card]: the states the player decides in
    seconds: float  # to compute them (not to load them)
    cached: bool = False
    path: Path | None = None


def _tag(needed: int | None) -> str:
    """The objective's name in cache file names."""
    return "expected" if needed is None else f"at-least-{needed}"


def _objective(needed: int | None) -> tuple[int, float]:
    """The objective as ``turn_solver.core`` takes it (imports the jitted code: call only to compute)."""
    from analyzer.games.skull_island.turn_solver.core import AT_LEAST, EXPECTED

    return (EXPECTED, 0.0) if needed is None else (AT_LEAST, float(needed))


def optimal_policies(rules: dict[str, Any], needed: int | None = None, progress: Progress | None = None) -> Policies:
    """The optimal policies of every card (expected score, or P(score >= needed)); cached on disk."""
    path = cache_folder() / f"policy-{_tag(needed)}-{rules_key(rules)}.npz"
    stored = load_arrays(path)
    if stored is not None:
        if progress is not None:
            progress.total -= N_CARDS  # nothing to compute
        return Policies(stored["table"], stored["value"], stored["sweeps"], stored["states"],
                        float(stored["seconds"]), True, path)
    from analyzer.games.skull_island.turn_solver.core import decision_states, solve_card

    objective, target = _objective(needed)
    turn_rules = TurnRules.from_rules(rules)
    start = time.perf_counter()
    results = _per_card(lambda card: solve_card(card, turn_rules, objective, target), progress)
    seconds = time.perf_counter() - start
    policies = Policies(np.stack([r[2] for r in results]), np.array([r[0] for r in results]),
                        np.array([r[3] for r in results], dtype=np.int64),
                        np.array([decision_states(card) for card in range(N_CARDS)], dtype=np.int64), seconds,
                        False, path)
    save_arrays(path, table=policies.table, value=policies.value, sweeps=policies.sweeps, states=policies.states,
                 seconds=np.float64(seconds))
    return policies


def load_policy(rules: dict[str, Any]) -> np.ndarray:
    """The expected-score policy of every card: an int64 table ``[card, state]`` for ``table_decision``."""
    return optimal_policies(rules).table


def final_round_policy(rules: dict[str, Any], needed: int) -> np.ndarray:
    """The policy maximising P(own turn score >= ``needed``) of every card, as ``load_policy``'s table."""
    return optimal_policies(rules, needed).table


def final_round_tables(rules: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Every final-round policy at once, for a kernel strategy: ``(thresholds, tables)``.

    ``thresholds`` are the turn scores some card can produce, ascending; ``tables[j]``
    (``[card, state]``) maximises P(own turn score >= needed) for every ``needed`` in
    ``(thresholds[j - 1], thresholds[j]]``, and the last table, for a ``needed`` no turn
    can reach, is the expected-score policy. Chosen by ``final_round_table``.
    """
    path = cache_folder() / f"final-round-{rules_key(rules)}.npz"
    stored = load_arrays(path)
    if stored is not None:
        return stored["thresholds"], stored["tables"]
    from analyzer.games.skull_island.turn_solver.core import AT_LEAST, achievable_scores, solve_card

    turn_rules = TurnRules.from_rules(rules)
    scores = [achievable_scores(card, turn_rules) for card in range(N_CARDS)]
    thresholds = np.unique(np.concatenate(scores))
    expected = load_policy(rules)

    def card_tables(card):
        # one policy per score the card can reach: every needed in between shares it
        tables = {}
        for score in scores[card]:
            tables[score] = solve_card(card, turn_rules, AT_LEAST, float(score))[2]
        reachable = [scores[card][np.searchsorted(scores[card], t)] if t <= scores[card][-1] else None
                     for t in thresholds]
        return [tables[s] if s is not None else expected[card] for s in reachable] + [expected[card]]

    per_card = _per_card(card_tables, None)
    tables = np.stack([np.stack([per_card[card][j] for card in range(N_CARDS)]) for j in range(thresholds.size + 1)])
    save_arrays(path, thresholds=thresholds, tables=tables)
    return thresholds, tables


# -- the strategies' exact values -----------------------------------------------------------

def refuse_noise(choice: StrategyChoice) -> None:
    """The solvers evaluate noiseless play: a strategy with ``noise`` is refused by name."""
    if choice.params.get("noise"):
        raise AnalyzerError(f"strategy {choice.label} cannot be evaluated exactly: the solvers evaluate play "
                            f"without noise (simulate it instead)")


def parse_solvable(specs: list[str] | None) -> list[StrategyChoice]:
    """Strategy specs to evaluate exactly (default: every built-in whose turn play ignores the scores)."""
    from analyzer.games.skull_island import GAME
    from analyzer.runspec import parse_strategy

    choices = [parse_strategy(GAME, spec) for spec in (specs or SOLVABLE_STRATEGIES)]
    for choice in choices:
        if choice.name not in SOLVABLE_STRATEGIES:
            raise AnalyzerError(f"strategy {choice.name} cannot be evaluated per turn: the solver evaluates "
                                f"{', '.join(SOLVABLE_STRATEGIES)} (endgame plays by the game's scores)")
        refuse_noise(choice)
    return list({c.label: c for c in choices}.values())


def strategy_policy(choice: StrategyChoice, card: int, turn_rules) -> tuple[np.ndarray, ...]:
    """The strategy's decisions on card ``card`` as a policy for ``turn_solver.core.evaluate``."""
    from analyzer.games.skull_island.turn_solver.strategies import decided_table, random_policy, table_policy

    if choice.name == "random":
        return random_policy(card)
    index = [s.name for s in STRATEGIES].index(choice.name)
    return table_policy(decided_table(index, tuple(param_row(choice.name, choice.params)), card, turn_rules))


def strategy_values(rules: dict[str, Any], choices: list[StrategyChoice], needed: int | None = None,
                    progress: Progress | None = None) -> dict[str, np.ndarray]:
    """Each strategy's exact turn value per card (expected score, or P(score >= needed)); cached on disk."""
    path = cache_folder() / f"strategies-{_tag(needed)}-{rules_key(rules)}.json"
    known = _load_values(path)
    missing = [c for c in choices if c.label not in known]
    if progress is not None:
        progress.total -= N_CARDS * (len(choices) - len(missing))
    expected_missing = needed is not None and EXPECTED_LABEL not in known
    if missing or expected_missing:
        from analyzer.games.skull_island.turn_solver.core import evaluate_card
        from analyzer.games.skull_island.turn_solver.strategies import table_policy

        objective, target = _objective(needed)
        turn_rules = TurnRules.from_rules(rules)
        for choice in missing:
            known[choice.label] = _per_card(
                lambda card, choice=choice: evaluate_card(card, turn_rules, objective, target,
                                                          strategy_policy(choice, card, turn_rules))[0], progress)
        if expected_missing:
            expected = load_policy(rules)
            known[EXPECTED_LABEL] = _per_card(
                lambda card: evaluate_card(card, turn_rules, objective, target, table_policy(expected[card]))[0], None)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as temp:
                temp.write_text(json.dumps(known), encoding="utf-8")
    labels = [c.label for c in choices] + ([EXPECTED_LABEL] if needed is not None else [])
    return {label: np.array(known[label], dtype=np.float64) for label in labels}


# -- analyze solve ------------------------------------------------------------------------

def parse_cards(names: list[str] | None, rules: dict[str, Any]) -> list[int]:
    """Card names to ids; by default every card in the deck."""
    if not names:
        counts = deck_counts(rules)
        return [card for card in range(N_CARDS) if counts[card] > 0]
    cards = []
    for name in names:
        if name not in CARDS:
            raise AnalyzerError(f"unknown card {name!r}; cards: {', '.join(CARDS)}")
        cards.append(CARDS.index(name))
    return list(dict.fromkeys(cards))


def solve(rules: dict[str, Any], cards: list[str] | None = None, strategies: list[str] | None = None,
          needed: int | None = None, progress: bool | None = False) -> Solution:
    """Solve every card under ``rules`` and evaluate ``strategies`` exactly (see ``analyze solve``)."""
    start = time.perf_counter()
    turn_rules(rules)
    shown = parse_cards(cards, rules)
    choices = parse_solvable(strategies)
    bar = Progress(N_CARDS * (1 + len(choices)), label="card policies", enabled=progress) \
        if progress is not False else None
    try:
        policies = optimal_policies(rules, needed, bar)
        values = strategy_values(rules, choices, needed, bar)
    finally:
        if bar is not None and bar.done > 0:  # no bar when everything came from the cache
            bar.close()
    return Solution(rules, shown, needed, policies, values, time.perf_counter() - start)


class Solution(Rendered):
    """What ``analyze solve`` prints: per card the optimal value, each strategy's value and regret."""

    def __init__(self, rules: dict[str, Any], cards: list[int], needed: int | None, policies: Policies,
                 values: dict[str, np.ndarray], wall_seconds: float):
        self.rules = rules
        self.cards = cards
        self.needed = needed
        self.policies = policies
        self.values = values
        self.wall_seconds = wall_seconds
        self.deck = deck_counts(rules)

    @property
    def objective(self) -> str:
        if self.needed is None:
            return "expected own turn score"
        return f"probability that the own turn scores at least {self.needed}"

    def _average(self, per_card: np.ndarray) -> float:
        return float((self.deck * per_card).sum() / self.deck.sum())

    def _block(self, per_card_optimal: float, strategies: dict[str, float]) -> dict[str, Any]:
        return {"optimal": per_card_optimal, "strategies": strategies,
                "regret": {label: per_card_optimal - value for label, value in strategies.items()}}

    def to_dict(self) -> dict[str, Any]:
        p = self.policies
        cards = {}
        for card in self.cards:
            block = self._block(float(p.value[card]), {k: float(v[card]) for k, v in self.values.items()})
            block.update(deck_count=int(self.deck[card]), decision_states=int(p.states[card]),
                         sweeps=int(p.sweeps[card]))
            cards[CARDS[card]] = block
        average = self._block(self._average(p.value), {k: self._average(v) for k, v in self.values.items()})
        average["deck_cards"] = int(self.deck.sum())
        return {
            "schema": SCHEMA,
            "game": "skull-island",
            "objective": self.objective,
            "needed": self.needed,
            "rules": jsonable(self.rules),
            "cards": cards,
            "deck_average": average,
            "solver": {"tolerance": 1e-9, "solve_seconds": p.seconds, "from_cache": p.cached,
                       "cache_file": str(p.path) if p.path else None, "wall_seconds": self.wall_seconds},
        }

    def _rows(self) -> list[tuple[str, int, float, list[float]]]:
        labels = list(self.values)
        rows = [(CARDS[c], int(self.deck[c]), float(self.policies.value[c]),
                 [float(self.values[k][c]) for k in labels]) for c in self.cards]
        rows.append(("deck average", int(self.deck.sum()), self._average(self.policies.value),
                     [self._average(self.values[k]) for k in labels]))
        return rows

    def to_table(self) -> str:
        labels = list(self.values)
        width = max(10, *(len(k) for k in labels))
        digits = 1 if self.needed is None else 4
        p = self.policies
        lines = [f"Skull Island: the {self.objective}, per fortune card, under optimal play "
                 f"(value iteration to 1e-9) and for each strategy (exact)", ""]
        for title, columns in (("value", ["optimal", *labels]), ("regret: optimal minus the strategy", labels)):
            lines += [title, f"{'card':<16} {'deck':>4} " + " ".join(f"{h:>{width}}" for h in columns)]
            for name, deck, best, others in self._rows():
                shown = [best, *others] if columns[0] == "optimal" else [best - v for v in others]
                lines.append(f"{name:<16} {deck:>4} " + " ".join(f"{v:>{width}.{digits}f}" for v in shown))
            lines.append("")
        where = f"loaded from {p.path}" if p.cached else f"solved in {p.seconds:.2f} s and cached in {p.path}"
        lines.append(f"{int(p.states[0]):,} decision states per card ({int(p.states[SORCERESS]):,} with the "
                     f"sorceress, fewer with skull cards); policies {where}; {self.wall_seconds:.2f} s wall")
        return "\n".join(lines)

    def to_csv(self) -> str:
        import pandas as pd

        labels = list(self.values)
        frame = pd.DataFrame([{"card": name, "deck_count": deck, "optimal": best, **dict(zip(labels, others,
                                                                                           strict=True))}
                              for name, deck, best, others in self._rows()])
        return frame.to_csv(index=False)

    def to_markdown(self) -> str:
        labels = list(self.values)
        lines = [f"# Skull Island: {self.objective} per card", "",
                 "| card | deck | optimal | " + " | ".join(labels) + " |",
                 "|---|---:|---:|" + "---:|" * len(labels)]
        for name, deck, best, others in self._rows():
            lines.append(f"| {name} | {deck} | {best:.4f} | " + " | ".join(f"{v:.4f}" for v in others) + " |")
        return "\n".join(lines) + "\n"
