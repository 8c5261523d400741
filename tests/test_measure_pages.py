"""The report's pages of game quality, component balance and mechanics coverage."""

import matplotlib.pyplot as plt

from analyzer.api import simulate
from analyzer.report.measure_pages import MECHANICS_PER_PAGE, measure_pages


def test_a_run_gets_its_quality_component_and_mechanics_pages_named_after_its_scenario():
    result = simulate(game="pig", n=2000, seed=1)
    pages = measure_pages(result, "pig standard", "pig-")
    assert [page.name for page in pages] == ["pig-quality", "pig-components", "pig-mechanics-1"]
    for page in pages:
        texts = " ".join(text.get_text() for text in page.figure.texts)
        assert "pig standard" in texts
        plt.close(page.figure)


def test_no_page_without_data(monkeypatch):
    result = simulate(game="pig", n=500, seed=1)
    data = result.to_dict()
    monkeypatch.setitem(data, "components", [])
    monkeypatch.setitem(data, "mechanics", {f"m{i}": 0.5 for i in range(MECHANICS_PER_PAGE + 1)})
    pages = measure_pages(result, "s", "")
    assert [page.name for page in pages] == ["quality", "mechanics-1", "mechanics-2"]
    for page in pages:
        plt.close(page.figure)


class Run:
    def __init__(self, components):
        self.components = components

    def to_dict(self):
        return {"components": self.components}


def component(name, effect):
    interval = None if effect is None else [effect - 0.01, effect + 0.01]
    return {"component": name, "kind": "card", "measure": "per draw", "win_rate": 0.5, "win_rate_effect": effect,
            "win_rate_effect_ci": interval, "score_effect": 1.0, "score_effect_ci": [0, 2], "times": 10}


def test_components_side_by_side_rank_by_the_largest_effect_in_any_scenario_and_mark_absent_ones():
    from analyzer.experiments.components_compared import components_side_by_side

    first = Run([component("kraken", 0.02), component("parrot", -0.01)])
    second = Run([component("parrot", -0.05), component("mermaid", None)])
    records = components_side_by_side(["a", "b"], [first, second])
    assert [r["component"] for r in records] == ["parrot", "kraken", "mermaid"]
    assert records[0]["scenarios"]["b"]["win_rate_effect"] == -0.05
    assert records[1]["scenarios"]["b"] is None  # no kraken in scenario b
