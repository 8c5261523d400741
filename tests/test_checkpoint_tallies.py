"""Every tally of a checkpoint is checked against what its recorded games could produce (issue 23):
a forged tally is refused even when the checksum was recomputed after the edit, and a real
checkpoint of every game still resumes."""

import json
import math

import pytest

from analyzer.engine import checkpoint as checkpoint_module
from analyzer.engine import runner
from analyzer.engine.checkpoint import Checkpoint
from analyzer.engine.tally_limits import common_rules
from analyzer.errors import AnalyzerError
from analyzer.runspec import resolve

GAMES = ("skull-island", "lucky-pirates", "doubloons", "dead-mans-chest")
N, SEED = 4096, 5


class Interrupted(Exception):
    """Stands for a kill part-way through the run."""


@pytest.fixture(scope="module", params=GAMES)
def half_done(request, tmp_path_factory):
    """A checkpoint of 2 of the chunks of a run of ``N`` games, its document and what opens it."""
    spec = resolve(game=request.param, players=3)
    prepared = spec.game.prepare(spec.rules, spec.players, spec.seats)
    path = tmp_path_factory.mktemp(request.param) / "run.ckpt"
    seen = []

    def stop_after_two(chunk, aggregates):
        seen.append(chunk.index)
        if len(seen) == 2:
            raise Interrupted

    with pytest.raises(Interrupted):
        runner.execute(spec.game, prepared, N, SEED, workers=1, checkpoint=str(path), on_chunk=stop_after_two)
    rules = common_rules(prepared.players, prepared.length_caps, spec.game.length_units) \
        .merged(spec.game.tally_rules(prepared))
    return spec.game, prepared, path, json.loads(path.read_text()), rules


def _open(half_done, document):
    game, prepared, path, _, _ = half_done
    document = json.loads(json.dumps(document))
    document["checksum"] = checkpoint_module.checksum(document)
    path.write_text(json.dumps(document))
    return Checkpoint.open(path, game, prepared, N, SEED)


def _forged(document, key, index, value):
    forged = json.loads(json.dumps(document))
    cell = forged["totals"][key]
    while isinstance(cell[0], list):  # the first element of a table
        cell = cell[0]
    cell[index] = value
    return forged


def test_every_aggregate_has_its_rules(half_done):
    game, prepared, _, document, rules = half_done
    assert set(document["totals"]) <= set(rules.limits)


def test_a_real_checkpoint_resumes(half_done):
    _, _, _, document, _ = half_done
    assert _open(half_done, document).games_done == int(document["totals"]["games"][0])


def test_each_count_forged_negative_or_above_its_most_is_refused(half_done):
    _, _, _, document, rules = half_done
    games = int(document["totals"]["games"][0])
    forged_any = 0
    for key, (low, high) in rules.limits.items():
        if key not in document["totals"] or key in ("games", "score_sum") or not document["totals"][key]:
            continue  # the game count and the score sums have their own checks (test_hostile.py); empty: none
        forgeries = []
        if low is not None and low >= 0:
            forgeries.append(-1)
        if high is not None:
            forgeries.append(high * games + 1)
        for value in forgeries:
            with pytest.raises(AnalyzerError, match="not a valid"):
                _open(half_done, _forged(document, key, 0, value))
            forged_any += 1
    assert forged_any >= sum(1 for array in document["totals"].values() if array) - 2


def test_each_ordering_forged_is_refused(half_done):
    _, _, _, document, rules = half_done
    for smaller, larger in rules.at_most:
        if smaller not in document["totals"]:
            continue
        cell = document["totals"][larger]
        while isinstance(cell, list):
            cell = cell[0]
        with pytest.raises(AnalyzerError, match="not a valid"):
            _open(half_done, _forged(document, smaller, 0, int(cell) + 1))


def test_each_sum_beyond_its_squares_is_refused(half_done):
    _, _, _, document, rules = half_done
    for total, squares, count in rules.moments:
        if total not in document["totals"]:
            continue
        terms = document["totals"][count]
        while isinstance(terms, list):
            terms = terms[0]
        sq = document["totals"][squares]
        while isinstance(sq, list):
            sq = sq[0]
        too_big = math.isqrt(max(int(terms), 1) * int(sq)) + 1
        with pytest.raises(AnalyzerError, match="not a valid"):
            _open(half_done, _forged(document, total, 0, too_big))


def test_the_issues_forgeries_are_refused_by_name(half_done):
    game, _, _, document, _ = half_done
    with pytest.raises(AnalyzerError, match="mechanic_games is above the most"):
        _open(half_done, _forged(document, "mechanic_games", 0, 10**9))
    if game.id == "skull-island":
        with pytest.raises(AnalyzerError, match="dice_rolled holds a negative count"):
            _open(half_done, _forged(document, "dice_rolled", 0, -5))
