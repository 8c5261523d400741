"""Play one chunk of any game: allocate, run the chunk template, hand back plain arrays.

The engine owns everything around a game's play function: the common aggregates and
the game's own (one zeroed block, padded against false sharing), the outcome and the
per-game rows, and the translation of the template's arrays into the aggregate keys
of :mod:`analyzer.engine.aggregate` and the columns of ``--save-games``.
"""

from __future__ import annotations

import numpy as np

from analyzer.engine.memory import chunk_zeros, padded_zeros
from analyzer.engine.quality import N_STEPS, measure_shapes, measures_block
from analyzer.engine.template import Common, Outcome, Records, chunk_player


def _common_shapes(prepared, units: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """The shapes of the template's common arrays (every length unit in one ``length_hist``)."""
    players = prepared.players
    bins = prepared.score_bins[2]
    longest = max(prepared.length_caps[unit] for unit in units)
    return {"games": (1,), "wins": (players,), "ties": (players,), "tie_games": (1,), "capped": (1,),
            "score_sum": (players,), "score_sq": (players,), "score_hist": (players, bins),
            "length_hist": (len(units), longest + 1)}


def _measure_shapes(game, prepared) -> dict[str, tuple[int, ...]]:
    return measure_shapes(prepared.players, prepared.score_bins[2], len(game.mechanics(prepared)),
                          len(game.components(prepared)))


def aggregate_shapes(game, prepared) -> dict[str, tuple[int, ...]]:
    """The shape of every aggregate a chunk of ``prepared`` returns, by key (see :func:`run_chunk`)."""
    shapes = {key: shape for key, shape in _common_shapes(prepared, game.length_units).items()
              if key != "length_hist"}
    shapes.update({f"length_{unit}": (prepared.length_caps[unit] + 1,) for unit in game.length_units})
    shapes.update(_measure_shapes(game, prepared))
    shapes.update(game.tally_shapes(prepared))
    return shapes


def run_chunk(game, prepared, seed: int, first_game: int, n_games: int,
              record: bool = False) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray] | None]:
    """Play games ``first_game .. first_game + n_games - 1`` of run ``seed``.

    ``game`` is an :class:`analyzer.games.base.Game` and ``prepared`` its
    :class:`~analyzer.games.base.Prepared` run (the games layer calls the engine, not
    the other way round, so they are not imported here).

    Returns the chunk's aggregates (the common keys and the game's tally) and, when
    ``record`` is true, one row per game as columns: ``winner``, ``score_<seat>``,
    ``length_<unit>``, ``capped`` and the game's ``record_columns``.
    """
    players = prepared.players
    units = game.length_units
    caps = [prepared.length_caps[unit] for unit in units]
    low, width, _ = prepared.score_bins
    common_shapes = _common_shapes(prepared, units)
    mechanics, components = len(game.mechanics(prepared)), len(game.components(prepared))
    mechanics_tally = game.mechanics_tally(prepared)
    noted_mechanics = 0 if mechanics_tally else mechanics  # those the kernel notes in outcome.triggered
    tally_shapes = game.tally_shapes(prepared)
    arrays = chunk_zeros({**common_shapes, **{f"tally.{name}": shape for name, shape in tally_shapes.items()}})
    common = Common(**{name: arrays[name] for name in common_shapes})
    block, measures = measures_block(players, prepared.score_bins[2], noted_mechanics, components)
    tally = game.tally_type(**{name: arrays[f"tally.{name}"] for name in tally_shapes})
    outcome = Outcome(scores=padded_zeros(players), winners=padded_zeros(players), lengths=padded_zeros(len(units)),
                      capped=padded_zeros(1), standings=padded_zeros(max(caps) + 2), steps=padded_zeros(N_STEPS),
                      triggered=padded_zeros(noted_mechanics), holdings=padded_zeros((players, components)))
    rows = n_games if record else 0
    records = Records(winner=np.zeros(rows, np.int64), scores=np.zeros((rows, players), np.int64),
                      lengths=np.zeros((rows, len(units)), np.int64), capped=np.zeros(rows, np.int64))
    game_records = np.zeros((rows, len(game.record_columns)), np.int64)

    play_chunk = chunk_player(game.play_function())
    play_chunk(np.uint64(seed), first_game, n_games, low, width, prepared.inputs, game.scratch(prepared), tally,
               common, block, outcome, records, game_records, padded_zeros(4, np.uint64))

    aggregates = {name: getattr(common, name) for name in common_shapes if name != "length_hist"}
    aggregates.update(measures._asdict())
    for index, (unit, cap) in enumerate(zip(units, caps, strict=True)):
        aggregates[f"length_{unit}"] = common.length_hist[index, :cap + 1]
    aggregates.update(tally._asdict())
    if mechanics_tally:
        assert aggregates[mechanics_tally].shape[0] >= mechanics, f"{mechanics_tally} counts fewer than the mechanics"
        aggregates["mechanic_games"] = aggregates[mechanics_tally][:mechanics].copy()
    game.check_chunk(prepared, aggregates)
    if not record:
        return aggregates, None
    columns = {"winner": records.winner}
    for seat in range(players):
        columns[f"score_{seat + 1}"] = records.scores[:, seat]
    for index, unit in enumerate(units):
        columns[f"length_{unit}"] = records.lengths[:, index]
    columns["capped"] = records.capped
    for index, name in enumerate(game.record_columns):
        columns[name] = game_records[:, index]
    return aggregates, columns
