"""Dead Man's Chest reports its standings, mechanics and what each player holds to the engine's measures."""

import pytest

from analyzer.api import simulate

N = 1500


@pytest.fixture(scope="module")
def standard():
    return simulate(game="dead-mans-chest", n=N, seed=8).to_dict()


def test_every_game_notes_its_standings_and_ends_on_the_final_count(standard):
    quality = standard["quality"]
    assert quality["games"] == N
    # a single winner leads alone after the final count, so the decisive point is below 1 on average
    assert 0 < quality["decisive_point"]["value"] < 1
    assert quality["decisive_point"]["games"] == N - round(standard["tie_rate"] * N)


def test_captains_held_are_the_captains_of_the_games_own_statistics(standard):
    held = {c["component"]: c["seat_games"] for c in standard["components"] if c["kind"] == "captain"}
    captains = standard["game_stats"]["captains"]
    assert held == {name: block["games"] for name, block in captains.items()}
    assert sum(held.values()) == N * standard["players"]
    routes = [c["seat_games"] for c in standard["components"] if c["kind"] == "start route"]
    assert sum(routes) == N * standard["players"]


def test_mechanics_agree_with_the_event_counts_and_switch_off_with_their_rule(standard):
    shares = standard["mechanics"]
    assert 0 < shares["raid"] <= 1 and shares["turn cap reached"] == 0
    no_raids = simulate(game="dead-mans-chest", n=300, seed=8, sets=["raids=false"]).to_dict()["mechanics"]
    assert no_raids["raid"] == 0 and no_raids["raid won"] == 0


def test_a_turn_cap_that_stops_every_game_is_reported():
    shares = simulate(game="dead-mans-chest", n=200, seed=8, sets=["max_turns=10"]).to_dict()["mechanics"]
    assert shares["turn cap reached"] == 1.0


def test_spaces_and_life_cards_met_agree_with_each_other(standard):
    times = {c["component"]: c["times"] for c in standard["components"]}
    cards = sum(t for name, t in times.items() if name.startswith("LIFE card: "))
    assert cards == times["life space"] > 0  # one LIFE card per landing on a LIFE space
    # every player stops at the shipyard and ends on Isla Cruces once (no capped game here)
    assert times["shipyard space"] == times["isla cruces space"] == N * standard["players"]
    assert "start space" not in times and "landed on start" not in standard["mechanics"]
