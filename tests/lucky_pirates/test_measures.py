"""Lucky Pirates reports its standings, mechanics and cards to the engine's measures."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.api import simulate
from analyzer.engine.play import run_chunk
from analyzer.engine.quality import N_STEPS
from analyzer.engine.template import Outcome
from analyzer.games.lucky_pirates.kernel import note_standings_from_log, top_seats
from analyzer.games.lucky_pirates.mechanics import EVENT_NAMES, N_MECHANICS, packed_treasures
from analyzer.runspec import resolve

N = 4000


@pytest.fixture(scope="module")
def standard():
    return simulate(game="lucky-pirates", n=N, seed=5).to_dict()


def test_every_game_notes_its_standings(standard):
    assert standard["quality"]["games"] == N
    assert standard["quality"]["comeback_rate"]["games"] == N  # no ties, every game lasts rounds


def test_mechanics_agree_with_the_games_own_event_rates(standard):
    stats, shares = standard["game_stats"], standard["mechanics"]
    assert shares["duel"] == stats["games_with_duel_rate"]
    assert shares["ship takes a treasure"] == stats["ship_took_treasure_rate"]
    assert shares["dry draw"] == stats["provisions_ran_dry_rate"] == 0
    assert shares["steal"] == 0  # steal_when_empty is off


def test_the_mechanics_games_are_the_games_in_which_each_event_happened():
    """Counted by the game's tally (Game.mechanics_tally), not noted twice: checked against each game's
    own event counts, recorded row by row."""
    spec = resolve(game="lucky-pirates", players=3, sets=["treasure_supply=6", "steal_when_empty=true"])
    game, prepared = spec.game, spec.game.prepare(spec.rules, spec.players, spec.seats)
    aggregates, rows = run_chunk(game, prepared, 3, 0, 500, record=True)
    happened = [int((rows[name] > 0).sum()) for name in EVENT_NAMES[:N_MECHANICS]]
    assert len(happened) == len(game.mechanics(prepared))
    assert aggregates["mechanic_games"].tolist() == happened
    assert min(happened) > 0  # every event happened in some game: each count is tested


def test_a_small_supply_runs_dry_and_steals_happen_only_with_the_rule():
    off = simulate(game="lucky-pirates", n=N, seed=5, sets=["treasure_supply=6"]).to_dict()["mechanics"]
    on = simulate(game="lucky-pirates", n=N, seed=5, sets=["treasure_supply=6", "steal_when_empty=true"]
                  ).to_dict()["mechanics"]
    assert off["dry draw"] > 0.5 and off["steal"] == 0
    assert on["steal"] > 0.5


def test_every_turn_lands_on_one_card(standard):
    turns = round(standard["lengths"]["turns"]["mean"] * N)
    assert sum(c["times"] for c in standard["components"]) == turns
    effects = {c["component"]: c["win_rate_effect"] for c in standard["components"]}
    assert effects["island card"] > 0 > effects["pirate-ship card"]  # treasure won, treasure lost


# ---- the standings, from the log of every turn's treasures --------------------------------------

@pytest.mark.parametrize("counts, players, expected", [
    ((3, 5, 5, 0), 4, 0b0110),  # a tie at the top: seats 2 and 3
    ((1000, 999, 1000, 1000), 4, 0b1101),  # the most treasures the options allow
    ((0, 0), 2, 0b11),  # nobody has any: both lead; the empty lanes of seats 3 and 4 are no seats
    ((0, 4, 0), 3, 0b010),
    ((7, 0, 0, 0), 4, 0b0001),
])
def test_top_seats_by_hand(counts, players, expected):
    assert top_seats(packed_treasures(np.array(counts, np.int64)), (1 << players) - 1) == expected


@given(st.lists(st.integers(0, 2**15 - 1), min_size=2, max_size=4)
       | st.lists(st.integers(0, 3), min_size=2, max_size=4))  # small counts: many ties
def test_top_seats_are_the_seats_level_with_the_top_count(counts):
    top = max(counts)
    expected = sum(1 << seat for seat, count in enumerate(counts) if count == top)
    assert top_seats(packed_treasures(np.array(counts, np.int64)), (1 << len(counts)) - 1) == expected


def _outcome(players, rounds):
    return Outcome(scores=np.zeros(players, np.int64), winners=np.zeros(players, np.int64),
                   lengths=np.zeros(2, np.int64), capped=np.zeros(1, np.int64), standings=np.zeros(rounds, np.int64),
                   steps=np.zeros(N_STEPS, np.int64), triggered=np.zeros(1, np.int64),
                   holdings=np.zeros((players, 1), np.int64))


def test_the_standings_are_those_after_each_rounds_last_turn_and_the_games_last():
    # 3 players, 7 turns: rounds end after turns 3 and 6, and the game after turn 7 (a partial round)
    log = np.zeros(8, np.int64)
    after = {1: (1, 0, 0), 2: (1, 1, 0), 3: (1, 2, 0), 4: (2, 2, 0), 5: (2, 2, 1), 6: (3, 2, 1), 7: (3, 2, 4)}
    for turn, counts in after.items():
        log[turn] = packed_treasures(np.array(counts, np.int64))
    outcome = _outcome(3, 10)
    note_standings_from_log(outcome.standings, outcome.steps, log, 7, 3)
    # after turn 3: seat 2 alone (0b010); turn 6: seat 1 (0b001); turn 7: seat 3 (0b100)
    assert outcome.standings[:4].tolist() == [0b010, 0b001, 0b100, 0]
    # 3 rounds noted; the last sole leader seat 3; three leads taken (seat 2, then 1, then 3: two lead
    # changes); new top seats after each round (the last in bit 0)
    assert outcome.steps.tolist() == [3, 0b100, 3, 0b111]


def test_a_game_ending_with_its_round_notes_no_round_twice_and_the_standings_stop_at_their_capacity():
    log = np.zeros(9, np.int64)
    for turn in range(1, 9):  # seat 1 leads alone after every turn
        log[turn] = packed_treasures(np.array((turn, 0), np.int64))
    outcome = _outcome(2, 10)
    note_standings_from_log(outcome.standings, outcome.steps, log, 8, 2)  # 4 whole rounds
    assert outcome.standings[:5].tolist() == [1, 1, 1, 1, 0]
    assert outcome.steps.tolist() == [4, 1, 1, 0b1000]  # a lead taken, and new top seats, after the first round only
    outcome = _outcome(2, 4)  # exactly full: every round noted, the new top seats given
    note_standings_from_log(outcome.standings, outcome.steps, log, 8, 2)
    assert outcome.standings.tolist() == [1, 1, 1, 1]
    assert outcome.steps.tolist() == [4, 1, 1, 0b1000]
    outcome = _outcome(2, 3)
    note_standings_from_log(outcome.standings, outcome.steps, log, 8, 2)
    assert outcome.standings.tolist() == [1, 1, 1]
    assert outcome.steps.tolist() == [3, 1, 1, 0]  # a round not noted: the new top seats not given


def test_a_game_shorter_than_a_round_notes_its_one_partial_round():
    log = np.zeros(3, np.int64)
    log[1] = packed_treasures(np.array((0, 0, 0), np.int64))
    log[2] = packed_treasures(np.array((0, 1, 0), np.int64))
    outcome = _outcome(3, 10)
    note_standings_from_log(outcome.standings, outcome.steps, log, 2, 3)  # 2 turns of 3 players
    assert outcome.standings[:2].tolist() == [0b010, 0]
    assert outcome.steps.tolist() == [1, 0b010, 1, 0b1]
