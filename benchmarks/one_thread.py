"""A game made ready for its kernel to be timed or counted on its own, outside any command."""

from __future__ import annotations


def prepared_game(game_id: str, players: int | None = None, strategy: str | None = None):
    """The game and its prepared run (every seat playing ``strategy`` when given), its kernel already
    compiled or loaded from the cache by a first chunk of 100 games: ``(game, prepared)`` for
    ``analyzer.engine.play.run_chunk``. Imports the ``analyzer`` on the path, whichever copy that is."""
    from analyzer.engine.play import run_chunk
    from analyzer.runspec import resolve

    options = {"players": players} if players else {}
    if strategy:
        options["strategies"] = [strategy]
    spec = resolve(game=game_id, **options)
    prepared = spec.game.prepare(spec.rules, spec.players, spec.seats)
    run_chunk(spec.game, prepared, 1, 0, 100)
    return spec.game, prepared
