"""Component balance side by side across the scenarios of a comparison."""

from __future__ import annotations

from typing import Any

EFFECT_KEYS = ("win_rate", "win_rate_effect", "win_rate_effect_ci", "score_effect", "score_effect_ci", "times")


def components_side_by_side(names: list[str], results: list) -> list[dict[str, Any]]:
    """One record per component found in any scenario: its effects in each scenario (null where the
    scenario has no such component), ranked by its largest effect on the win rate in any scenario."""
    records: dict[str, dict[str, Any]] = {}
    for name, result in zip(names, results, strict=True):
        for component in result.to_dict()["components"]:
            record = records.setdefault(component["component"], {
                "component": component["component"], "kind": component["kind"], "measure": component["measure"],
                "scenarios": {scenario: None for scenario in names}})
            record["scenarios"][name] = {key: component[key] for key in EFFECT_KEYS}

    def largest(record):
        effects = [abs(s["win_rate_effect"]) for s in record["scenarios"].values()
                   if s is not None and s["win_rate_effect"] is not None]
        return -max(effects, default=-1.0)

    return sorted(records.values(), key=largest)
