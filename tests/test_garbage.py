"""The garbage collector's oldest generation held back (:mod:`analyzer.engine.garbage`): while a report is
written, and given back afterwards however the block ends. (A compile's hold: ``tests/test_jit.py``.)"""

import gc

import matplotlib.pyplot as plt
import pytest

from analyzer.engine.garbage import HELD_THRESHOLD, oldest_generation_held
from analyzer.report.document import Page, write_figures, write_pdf
from analyzer.report.html import write_html


def test_nested_holds_give_the_thresholds_back_once_the_last_ends_even_after_an_error():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError, match="a report that failed"), oldest_generation_held():
        with oldest_generation_held():
            assert gc.get_threshold() == (*before[:2], HELD_THRESHOLD)
        assert gc.get_threshold() == (*before[:2], HELD_THRESHOLD)  # the outer hold still holds
        raise RuntimeError("a report that failed")
    assert gc.get_threshold() == before


@pytest.mark.parametrize("write", [
    lambda pages, folder: write_pdf(pages, folder / "report.pdf", title="t"),
    lambda pages, folder: write_html(pages, folder / "report.html", title="t"),
    lambda pages, folder: write_figures(pages, folder / "figures", "svg"),
], ids=["pdf", "html", "figures"])
def test_every_report_writer_draws_its_pages_with_the_oldest_generation_held(tmp_path, write):
    before = gc.get_threshold()
    seen = []

    def pages():
        for name in ("first", "second"):
            seen.append(gc.get_threshold())  # the pages are made as the writer asks for them
            figure, ax = plt.subplots()
            ax.plot([0, 1], [1, 0])
            figure.suptitle(name)
            yield Page(name, figure)

    write(pages(), tmp_path)
    assert seen == [(*before[:2], HELD_THRESHOLD)] * 2
    assert gc.get_threshold() == before
