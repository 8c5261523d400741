"""The captain draft (RULES.md dead-mans-chest): rule option ``draft_start`` decides who
draws first (the book's youngest player), the draft then goes clockwise; by default a seat
drawn from the game's own stream, unrelated to turn order (seat 1 always moves first)."""

from math import comb

import numpy as np
import pytest

from analyzer.engine.rng import seed_game
from analyzer.games.dead_mans_chest.layout import CAPTAIN, CAPTAIN_ROUTE_LOOT
from analyzer.games.dead_mans_chest.turns import first_drafter

from .rigged_game import RiggedGame, deal_and_draft

GAMES = 20000


def first_drafters(players: int, draft_start: str) -> np.ndarray:
    """The first drafter of ``GAMES`` generator states seeded as the engine seeds games."""
    game = RiggedGame(players=players, rules={"draft_start": draft_start})
    first = np.zeros(GAMES, np.int64)
    for i in range(GAMES):
        seed_game(9, i, game.scratch.rng)
        first[i] = first_drafter(game.m)
    return first


def captains_set_up(players: int, rules: dict) -> tuple[RiggedGame, np.ndarray]:
    """Set up ``GAMES`` games of run seed 9 under ``rules``: (the game, the captain per game and seat)."""
    game = RiggedGame(players=players, rules=rules)
    captains = np.zeros((GAMES, players), np.int64)
    for i in range(GAMES):
        seed_game(9, i, game.scratch.rng)
        deal_and_draft(game.scratch, players)
        captains[i] = game.scratch.players[:players, CAPTAIN]
    return game, captains


def test_fixed_starts():
    for players in (2, 4, 6):
        assert set(first_drafters(players, "first-player")) == {0}
        assert set(first_drafters(players, "last-player")) == {players - 1}


@pytest.mark.parametrize("players", [3, 4])
def test_random_start_is_a_uniform_seat(players):
    first = first_drafters(players, "random")
    share = np.bincount(first, minlength=players) / GAMES
    p = 1 / players
    assert np.all(np.abs(share - p) < 4 * (p * (1 - p) / GAMES) ** 0.5), share


@pytest.mark.parametrize("draft_start,first", [("first-player", 0), ("last-player", 3), ("random", None)])
def test_the_first_drafter_keeps_a_best_captain_when_drawn(draft_start, first):
    # sensible keeps the captain with the most loot over its route; the first drafter draws
    # 2 of the 8 captains, so holds one of the k best with probability 1 - C(8-k, 2) / C(8, 2)
    # and no other seat holds one more often
    game, captains = drafted_captains(4, draft_start)
    route_loot = game.prep.inputs.captains[:, CAPTAIN_ROUTE_LOOT]
    best = np.flatnonzero(route_loot == route_loot.max())
    p = 1 - comb(8 - len(best), 2) / comb(8, 2)
    se = (p * (1 - p) / GAMES) ** 0.5
    by_seat = np.isin(captains, best).mean(axis=0)
    if first is None:  # every seat drafts first equally often: no seat is favoured
        assert np.ptp(by_seat) < 8 * se, by_seat
    else:
        assert abs(by_seat[first] - p) < 4 * se and by_seat.argmax() == first, by_seat


def drafted_captains(players: int, draft_start: str) -> tuple[RiggedGame, np.ndarray]:
    return captains_set_up(players, {"draft_start": draft_start})


def dealt_captains(players: int) -> tuple[RiggedGame, np.ndarray]:
    """With ``captain_draft = random``: captains dealt, no choice."""
    return captains_set_up(players, {"captain_draft": "random"})


@pytest.mark.parametrize("players", [2, 4])
def test_random_draft_deals_each_captain_equally_often(players):
    # a captain is dealt in a game with probability players / 8 (one per seat, no repeats), and to a
    # given seat with probability 1 / 8; games are independent, so the counts are binomial
    game, captains = dealt_captains(players)
    n_captains = game.prep.inputs.captains.shape[0]
    assert all(len(set(row)) == players for row in captains[:100])  # no captain twice in a game
    p = players / n_captains
    per_game = np.array([np.isin(np.arange(n_captains), row) for row in captains]).mean(axis=0)
    assert np.all(np.abs(per_game - p) < 4 * (p * (1 - p) / GAMES) ** 0.5), per_game
    q = 1 / n_captains
    per_seat = np.array([np.bincount(captains[:, s], minlength=n_captains) / GAMES for s in range(players)])
    assert np.all(np.abs(per_seat - q) < 4 * (q * (1 - q) / GAMES) ** 0.5), per_seat


def test_random_draft_keeps_no_best_captain_more_often():
    # dealt, every seat holds one of the k best captains with probability k / 8; drafted (same seed),
    # every drafter who draws one keeps it, so the seats hold them measurably more often
    game, captains = dealt_captains(4)
    route_loot = game.prep.inputs.captains[:, CAPTAIN_ROUTE_LOOT]
    best = np.flatnonzero(route_loot == route_loot.max())
    p = len(best) / 8
    se = (p * (1 - p) / GAMES) ** 0.5
    by_seat = np.isin(captains, best).mean(axis=0)
    assert np.all(np.abs(by_seat - p) < 4 * se), by_seat
    _, drafted = drafted_captains(4, "random")
    assert np.isin(drafted, best).mean() - p > 4 * se
