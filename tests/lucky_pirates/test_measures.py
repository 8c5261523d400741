"""Lucky Pirates reports its standings, mechanics and cards to the engine's measures."""

import pytest

from analyzer.api import simulate

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
