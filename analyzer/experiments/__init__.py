"""Experiments made of several runs: variant comparisons, strategy match-ups, sweeps, the
fairness search and strategy tuning.

Every run goes through :func:`analyzer.api.run_spec` with the command's one
:class:`~analyzer.execution.Execution`, so game ``i`` of every variant starts from the
same random stream (common random numbers). Besides the merged totals, each run sums
its chunks into contiguous batches (:mod:`.batches`), whose means give every metric's
interval (:mod:`.metrics`), the interval of a paired difference (:mod:`.paired`) and
the measured variance reduction, without per-game memory.

Each experiment has a function taking keyword arguments for users (``compare``,
``matchup``, ``sweep``, ``balance``, ``tune``) and one taking resolved run specs and an
Execution (``compare_specs``, ``matchup_spec``, ...), which the command line calls. Each
returns a result with ``to_dict()`` (the documented JSON), DataFrames of its tables,
and ``render(fmt)`` for ``table``, ``markdown``, ``csv`` and ``json``.

The modules are named after what they hold (``comparison``, ``matchups``, ``sweeps``,
``balancing``, ``tuning``), not after the functions, so ``analyzer.experiments.sweep``
is always the function.
"""

from analyzer.execution import Execution
from analyzer.experiments.balancing import Balance, Evaluation, balance, balance_spec
from analyzer.experiments.batches import (
    BATCHES,
    CURVE_POINTS,
    ChunkBins,
    Convergence,
    VariantRun,
    batch_variance,
    play_variant,
    t_quantile_95,
)
from analyzer.experiments.comparison import Comparison, compare, compare_specs
from analyzer.experiments.matchups import Matchup, Pairing, StrategyRecord, matchup, matchup_spec, rotations
from analyzer.experiments.metrics import Metric, describe_metric, metric_values
from analyzer.experiments.paired import Difference, paired_difference
from analyzer.experiments.params import option_values, parse_search_param, parse_sweep_param
from analyzer.experiments.setup import players_text, resolve_scenarios, rules_text, setup_text, unique_names
from analyzer.experiments.sweeps import Sweep, sweep, sweep_spec
from analyzer.experiments.tuning import TuneResult, tune, tune_spec
from analyzer.experiments.tuning_grid import candidate_grid, halving_schedule, parse_tuning_param

__all__ = [
    "BATCHES", "CURVE_POINTS", "Balance", "ChunkBins", "Comparison", "Convergence", "Difference", "Evaluation",
    "Execution", "Matchup", "Metric", "Pairing", "StrategyRecord", "Sweep", "TuneResult", "VariantRun",
    "balance", "balance_spec", "batch_variance", "candidate_grid", "compare", "compare_specs", "describe_metric",
    "halving_schedule", "matchup", "matchup_spec", "metric_values", "option_values", "paired_difference",
    "parse_search_param", "parse_sweep_param", "parse_tuning_param", "play_variant", "players_text",
    "resolve_scenarios", "rotations", "rules_text", "setup_text", "sweep", "sweep_spec", "t_quantile_95", "tune",
    "tune_spec", "unique_names",
]
