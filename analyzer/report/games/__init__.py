"""The game's own report pages: a hook module ``analyzer.report.games.<game_id>`` where one
exists (``-`` in the id becomes ``_``), else pages drawn from ``game_stats`` whatever its shape."""

from __future__ import annotations

import importlib

from analyzer.report.document import Page
from analyzer.report.games import generic
from analyzer.report.style import Palette


def game_pages(result, palette: Palette) -> list[Page]:
    """A hook module defines ``pages(result, palette) -> list[Page]``."""
    name = f"{__name__}.{result.spec.game.id.replace('-', '_')}"
    try:
        hook = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return generic.pages(result, palette)
    return hook.pages(result, palette)
