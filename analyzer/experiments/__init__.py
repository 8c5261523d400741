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

import importlib

#: each public name and the module that holds it: imported on first use (PEP 562), so a caller
#: that needs one parser does not load every experiment, and pandas with them
_HOMES = {name: module for module, names in {
    "analyzer.execution": ("Execution",),
    "analyzer.experiments.balancing": ("Balance", "Evaluation", "balance", "balance_spec"),
    "analyzer.experiments.batches": ("BATCHES", "CURVE_POINTS", "ChunkBins", "Convergence", "VariantRun",
                                     "batch_variance", "play_variant", "t_quantile_95"),
    "analyzer.experiments.comparison": ("Comparison", "compare", "compare_specs"),
    "analyzer.experiments.matchups": ("Matchup", "Pairing", "StrategyRecord", "matchup", "matchup_spec", "rotations"),
    "analyzer.experiments.metrics": ("Metric", "describe_metric", "metric_values"),
    "analyzer.experiments.paired": ("Difference", "paired_difference"),
    "analyzer.experiments.params": ("option_values", "parse_search_param", "parse_sweep_param"),
    "analyzer.experiments.setup": ("players_text", "resolve_scenarios", "rules_text", "setup_text", "unique_names"),
    "analyzer.experiments.sweeps": ("Sweep", "sweep", "sweep_spec"),
    "analyzer.experiments.tuning": ("TuneResult", "tune", "tune_spec"),
    "analyzer.experiments.tuning_grid": ("candidate_grid", "halving_schedule", "parse_tuning_param"),
}.items() for name in names}

__all__ = [
    "BATCHES", "CURVE_POINTS", "Balance", "ChunkBins", "Comparison", "Convergence", "Difference", "Evaluation",
    "Execution", "Matchup", "Metric", "Pairing", "StrategyRecord", "Sweep", "TuneResult", "VariantRun",
    "balance", "balance_spec", "batch_variance", "candidate_grid", "compare", "compare_specs", "describe_metric",
    "halving_schedule", "matchup", "matchup_spec", "metric_values", "option_values", "paired_difference",
    "parse_search_param", "parse_sweep_param", "parse_tuning_param", "play_variant", "players_text",
    "resolve_scenarios", "rotations", "rules_text", "setup_text", "sweep", "sweep_spec", "t_quantile_95", "tune",
    "tune_spec", "unique_names",
]


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
