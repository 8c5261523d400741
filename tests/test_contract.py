"""Every registered game passes the same checks (the contract of analyzer/games/base.py)."""

from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.chunks import chunk
from analyzer.engine.play import run_chunk
from analyzer.engine.runner import run, run_chunks
from analyzer.games.base import DEALT, MECHANIC_KINDS, RANDOM_DRAW, RULE
from analyzer.games.options import defaults
from analyzer.games.registry import available_ids
from analyzer.runspec import resolve

N = 5000  # three chunks: 2048 + 2048 + 904


def _prepared(game_id):
    spec = resolve(game=game_id)
    return spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)


@pytest.fixture(scope="module", params=available_ids())
def game_run(request):
    game, prepared = _prepared(request.param)
    return game, prepared, run(game, prepared, N, seed=2024, workers=1)


def test_declares_the_contract(game_run):
    game, prepared, _ = game_run
    assert game.min_players <= game.default_players <= game.max_players
    assert game.default_strategy in [s.name for s in game.strategies]
    assert game.length_units and game.score_unit
    for option in game.options:
        assert option.validate(option.default, "default") == option.default or option.kind == "int_map"
    assert game.check_rules(defaults(game.options), game.default_players) is None


def test_every_game_is_counted_once(game_run):
    game, prepared, totals = game_run
    players = prepared.players
    assert int(totals["games"][0]) == N
    # a win shared by k players is a tie for each of them and one tie game: wins + tie games = games
    assert int(totals["wins"].sum()) + int(totals["tie_games"][0]) == N
    assert totals["ties"].sum() >= 2 * int(totals["tie_games"][0])
    assert totals["wins"].shape == (players,)
    assert totals["score_hist"].shape[0] == players
    assert int(totals["score_hist"].sum()) == N * players
    for unit in game.length_units:
        assert int(totals[f"length_{unit}"].sum()) == N
    assert 0 <= int(totals["capped"][0]) <= N
    # every aggregate is an exact integer
    for key, value in totals.arrays.items():
        assert value.dtype == object or value.dtype.kind in "iu", key


def test_identical_for_any_workers_and_chunk_order(game_run):
    game, prepared, totals = game_run
    assert run(game, prepared, N, seed=2024, workers=2).equals(totals)
    reversed_chunks = [chunk(N, i) for i in (2, 1, 0)]
    assert run_chunks(game, prepared, 2024, reversed_chunks, workers=2).equals(totals)


def test_seed_changes_the_games(game_run):
    game, prepared, totals = game_run
    assert not run(game, prepared, N, seed=2025, workers=1).equals(totals)


def test_game_stats_and_records(game_run):
    game, prepared, totals = game_run
    stats = game.game_stats(totals, prepared)
    assert isinstance(stats, dict)
    aggregates, rows = run_chunk(game, prepared, 2024, 100, 50, record=True)
    assert rows is not None
    assert len(rows["winner"]) == 50
    players = prepared.players
    for seat in range(1, players + 1):
        assert len(rows[f"score_{seat}"]) == 50
    assert set(np.unique(rows["winner"])) <= set(range(players + 1))
    # recording does not change the aggregates
    plain, _ = run_chunk(game, prepared, 2024, 100, 50, record=False)
    for key in plain:
        assert np.array_equal(np.asarray(plain[key]), np.asarray(aggregates[key])), key


# -- every game at every player count, and every scenario file ----------------------------
SMALL = 300  # games 0..299 in one chunk; games 200..299 again as a chunk of their own


def _player_counts():
    cases = []
    for game_id in available_ids():
        game = resolve(game=game_id).game
        cases += [(game_id, players) for players in range(game.min_players, game.max_players + 1)]
    return cases


def _scenario_files():
    return sorted(str(path) for path in Path(__file__).resolve().parent.parent.glob("scenarios/*/*.toml"))


def _check_measures(game, prepared, aggregates):
    """Every game notes its standings every game, declares its mechanics and components, and
    reports them in arrays of the declared sizes (see analyzer.engine.quality)."""
    mechanics, components = game.mechanics(prepared), game.components(prepared)
    assert mechanics and components, "a game declares its mechanics and components"
    # what each is (issue 21): a kind per mechanic (only rules can be called rare), an origin and the evidence
    # its effect gives per component (a dealt component is a random draw; only dealt ones are, by declaration)
    assert {m.kind for m in mechanics} <= set(MECHANIC_KINDS) and any(m.kind == RULE for m in mechanics)
    for component in components:
        assert (component.origin == DEALT) == (component.evidence == RANDOM_DRAW), component
    assert len({m.name for m in mechanics}) == len(mechanics) and len({c.name for c in components}) == len(components)
    assert int(aggregates["quality_games"][0]) == SMALL, "every game notes its standings"
    assert int(aggregates["margin_hist"].sum()) == SMALL
    assert aggregates["mechanic_games"].shape == (len(mechanics),)
    assert 0 <= aggregates["mechanic_games"].min() and aggregates["mechanic_games"].max() <= SMALL
    assert aggregates["component_holders"].shape == (len(components),)
    assert aggregates["component_holders"].max() <= SMALL * prepared.players
    assert (aggregates["component_draws"] >= aggregates["component_holders"]).all()


def _check_run(spec):
    """Game i is the same whichever chunk or worker plays it; the rows add up to the aggregates."""
    game = spec.game
    prepared = game.prepare(spec.rules, spec.players, spec.seats)
    aggregates, rows = run_chunk(game, prepared, 77, 0, SMALL, record=True)
    _, tail = run_chunk(game, prepared, 77, 200, SMALL - 200, record=True)
    for column, values in tail.items():
        assert np.array_equal(values, rows[column][200:]), f"{column} of games 200.. differs by chunk"
    players = prepared.players
    assert int(aggregates["games"][0]) == SMALL
    winners = rows["winner"]
    for seat in range(1, players + 1):
        assert int(aggregates["wins"][seat - 1]) == int(np.sum(winners == seat))
        assert int(aggregates["score_sum"][seat - 1]) == int(rows[f"score_{seat}"].sum())
    assert int(np.sum(winners == 0)) == SMALL - int(aggregates["wins"].sum())  # shared wins and no winner
    assert int(aggregates["capped"][0]) == int(rows["capped"].sum())
    for unit in game.length_units:
        histogram = aggregates[f"length_{unit}"]
        lengths = np.minimum(rows[f"length_{unit}"], len(histogram) - 1)
        assert np.array_equal(np.bincount(lengths, minlength=len(histogram)), histogram), unit
    for column in game.record_columns:
        assert len(rows[column]) == SMALL
    _check_measures(game, prepared, aggregates)
    totals = run(game, prepared, 2 * SMALL, seed=77, workers=1)
    assert run(game, prepared, 2 * SMALL, seed=77, workers=2).equals(totals)


@pytest.mark.parametrize(("game_id", "players"), _player_counts())
def test_every_player_count_under_standard_rules(game_id, players):
    _check_run(resolve(game=game_id, players=players))


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: Path(p).stem)
def test_every_scenario_file(path):
    _check_run(resolve(scenario=path))
