"""The progress bar: shown on a terminal (or when asked), silent otherwise."""

import io

from analyzer.engine.progress import Progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_bar_draws_on_a_terminal_and_ends_the_line():
    stream = Terminal()
    bar = Progress(1000, stream=stream)
    bar.advance(500)
    bar.advance(500)
    bar.close()
    text = stream.getvalue()
    assert "100.0%" in text and "1,000/1,000" in text
    assert text.endswith("\n")


def test_bar_is_silent_when_not_a_terminal_or_disabled():
    for stream, enabled in ((io.StringIO(), None), (Terminal(), False)):
        bar = Progress(1000, enabled=enabled, stream=stream)
        bar.advance(1000)
        bar.close()
        assert stream.getvalue() == ""
