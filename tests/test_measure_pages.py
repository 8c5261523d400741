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
