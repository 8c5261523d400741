"""The progress bar: shown on a terminal (or when asked), silent otherwise, counting what is left."""

import io

from analyzer.engine.progress import Progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_bar_draws_on_a_terminal_and_ends_the_line():
    stream = Terminal()
    bar = Progress(100_000, stream=stream)
    bar.advance(50_000)
    bar.advance(50_000)
    bar.close()
    text = stream.getvalue()
    assert "100%" in text and "100k/100k" in text and "games" in text
    assert text.endswith("\n")


def test_bar_is_silent_when_not_a_terminal_or_disabled():
    for stream, enabled in ((io.StringIO(), None), (Terminal(), False)):
        bar = Progress(1000, enabled=enabled, stream=stream)
        bar.advance(1000)
        bar.close()
        assert stream.getvalue() == ""


def test_a_forced_bar_draws_anywhere():
    stream = io.StringIO()
    bar = Progress(10, label="card policies", enabled=True, stream=stream)
    bar.advance(10)
    bar.close()
    assert "10/10" in stream.getvalue() and "card policies" in stream.getvalue()


def test_a_resumed_run_counts_only_what_is_left():
    """The engine lowers ``total`` by the games a checkpoint holds; the bar then ends at the rest."""
    stream = Terminal()
    bar = Progress(1000, stream=stream)
    bar.total -= 400
    assert bar.total == 600
    bar.advance(600)
    bar.close()
    assert "600/600" in stream.getvalue() and "100%" in stream.getvalue()


def test_a_bar_counts_what_it_advanced_shown_or_not():
    """``analyze solve`` closes its bar only when it moved (it read ``done``, which was missing)."""
    for enabled in (True, False):
        bar = Progress(10, enabled=enabled, stream=io.StringIO())
        assert bar.done == 0
        bar.advance(3)
        assert bar.done == 3
        bar.close()
