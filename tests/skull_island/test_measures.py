"""Skull Island's game quality, mechanics coverage and component balance: what the kernel notes,
checked by hand on single turns and against what game_stats counts of the same runs."""

import pytest

from analyzer.engine.runner import run
from analyzer.games.skull_island import GAME
from analyzer.games.skull_island.components import (
    CAPTAIN,
    CHEST,
    COIN,
    COIN_CARD,
    MONKEY,
    MONKEY_BUSINESS,
    PARROT,
    PEACE,
    SEA_BATTLE_2,
    SKULL,
    STORM,
    SWORD,
)
from analyzer.games.skull_island.coverage import (
    CARD_TITLES,
    CHEST_SAVES,
    FULL_CHEST,
    N_MECHANICS,
    PEACE_PENALTY,
    SEA_BATTLE_LOST,
    SEA_BATTLE_WON,
    STORM_SKULLS,
    THREE_SKULLS,
)
from analyzer.games.skull_island.dice import pack
from analyzer.games.skull_island.rules import TurnRules
from analyzer.games.skull_island.scoring import every_die_scores
from analyzer.games.skull_island.turn_states import ending_events
from analyzer.result import Result, RunInfo
from analyzer.runspec import resolve

GAME_RULES = {option.name: option.default for option in GAME.options}
NO_CARD_DECK = {card: 0 for card in CARD_TITLES if card not in ("storm", "peace")}


def simulate(n=5000, strategies=("threshold",), players=3, seed=11, rules=None) -> dict:
    """The JSON of ``analyze simulate`` for these arguments."""
    spec = resolve(game="skull-island", players=players, strategies=list(strategies), rules=rules)
    prepared = GAME.prepare(spec.rules, spec.players, spec.seats)
    totals = run(GAME, prepared, n, seed=seed, workers=1)
    return Result(spec, prepared, totals, RunInfo(seed=seed, n=n, wall_seconds=0.0, workers=1)).to_dict()


def dice(**faces) -> int:
    counts = [0] * 6
    for face, number in faces.items():
        counts[{"coin": COIN, "monkey": MONKEY, "parrot": PARROT, "sword": SWORD, "skull": SKULL}[face]] = number
    return pack(counts)


def bits(*mechanics) -> int:
    return sum(1 << m for m in mechanics)


@pytest.fixture(scope="module")
def standard():
    """The standard game, three threshold players, 2e4 games."""
    return simulate(20_000)


# -- single turns, by hand (RULES.md's cards) ---------------------------------------------

@pytest.mark.parametrize(("card", "faces", "dead", "own", "expected"), [
    # sea battle 2: 2 sabres + 6 coins alive: won, and every die scores (the needed sabres count)
    (SEA_BATTLE_2, {"sword": 2, "coin": 6}, False, 0, bits(SEA_BATTLE_WON, FULL_CHEST)),
    (SEA_BATTLE_2, {"sword": 1, "coin": 7}, False, 0, bits(SEA_BATTLE_LOST)),
    (SEA_BATTLE_2, {"sword": 2, "skull": 3, "coin": 3}, True, 0, bits(THREE_SKULLS, SEA_BATTLE_LOST)),
    # captain, 8 sabres: 4000 + 500 full chest, doubled (RULES.md's 9000)
    (CAPTAIN, {"sword": 8}, False, 0, bits(FULL_CHEST)),
    # coin card, 3 monkeys 3 sabres 2 skulls: alive, two skulls, no full chest
    (COIN_CARD, {"monkey": 3, "sword": 3, "skull": 2}, False, 0, 0),
    (MONKEY_BUSINESS, {"monkey": 2, "parrot": 1, "coin": 5}, False, 0, bits(FULL_CHEST)),
    (PEACE, {"sword": 1, "coin": 7}, False, 0, bits(PEACE_PENALTY)),
    (PEACE, {"sword": 1, "skull": 3, "coin": 4}, True, 0, bits(THREE_SKULLS, PEACE_PENALTY)),
    (CHEST, {"coin": 3, "skull": 3, "monkey": 2}, True, 600, bits(THREE_SKULLS, CHEST_SAVES)),
    (CHEST, {"monkey": 2, "skull": 3, "parrot": 3}, True, 0, bits(THREE_SKULLS)),
    (STORM, {"skull": 3, "coin": 5}, True, 0, bits(THREE_SKULLS, STORM_SKULLS)),
    (STORM, {"coin": 8}, False, 0, 0),  # only coins and diamonds score: no full chest
    (CAPTAIN, {"skull": 3, "coin": 5}, True, 0, bits(THREE_SKULLS)),  # a card without a mechanic of its own
    (PEACE, {"skull": 4, "coin": 4}, True, 0, bits(THREE_SKULLS)),  # no sabre among the dice: no penalty
])
def test_the_events_of_a_turn_end_by_hand(card, faces, dead, own, expected):
    turn_rules = TurnRules.from_rules(GAME_RULES)
    assert ending_events(card, dice(**faces), dead, own, turn_rules) == expected


def test_no_full_chest_event_when_the_bonus_is_zero():
    turn_rules = TurnRules.from_rules({**GAME_RULES, "full_chest_bonus": 0})
    assert ending_events(CAPTAIN, dice(sword=8), False, 0, turn_rules) == 0
    assert every_die_scores(CAPTAIN, dice(sword=8))
    assert not every_die_scores(COIN_CARD, dice(coin=6, monkey=2))


# -- runs ---------------------------------------------------------------------------------

def test_every_game_notes_its_standings(standard):
    quality = standard["quality"]
    single_winner_games = sum(seat["wins"] for seat in standard["seats"])
    assert quality["games"] == standard["n"]
    # every game lasts two rounds or more: each single-winner game counts for comebacks
    assert quality["comeback_rate"]["games"] == quality["decisive_point"]["games"] == single_winner_games
    assert 0 < quality["decisive_point"]["value"] < 1 and quality["lead_changes"]["value"] > 0


def test_one_standing_per_round():
    """Games capped after their first round note that round once: no comeback can be counted
    (that needs two rounds) and the winner is decided after it (decisive point 1)."""
    result = simulate(2000, rules={"max_rounds": 1})
    assert result["capped_games"] == result["n"] == result["quality"]["games"]
    assert result["quality"]["comeback_rate"]["games"] == 0
    assert result["quality"]["decisive_point"]["value"] == 1.0
    assert result["mechanics"]["Round cap"] == 1.0


def test_the_declared_mechanics_and_components_are_the_reported_ones(standard):
    prepared_names = [m.name for m in GAME.mechanics(None)]
    assert len(prepared_names) == len(set(prepared_names)) == N_MECHANICS
    assert list(standard["mechanics"]) == prepared_names
    assert all(0.0 <= share <= 1.0 for share in standard["mechanics"].values())
    components = {record["component"] for record in standard["components"]}
    assert components == {title for title, _ in CARD_TITLES.values()}
    assert all(record["measure"] == "per draw" for record in standard["components"])


def test_the_standard_game_shows_its_common_mechanics(standard):
    shares = standard["mechanics"]
    for name in ("Gold coin", "Skull Island", "Sea battle blocks Skull Island", "Three skulls", "Full chest bonus",
                 "Sea battle won", "Sea battle lost", "Negative total", "Deck reshuffled", "Final round"):
        assert shares[name] > 0, name
    for name in ("Storm (promo)", "Peace (promo)", "Skull Island off", "Storm skulls hit opponents",
                 "Peace penalty", "Peace spares opponents", "Floor at zero", "Tie play-off round", "Seat bonus",
                 "Round cap"):
        assert shares[name] == 0, name


@pytest.mark.parametrize(("rules", "switched_on", "switched_off"), [
    ({"skull_island": False}, ["Skull Island off"], ["Skull Island", "Sea battle blocks Skull Island"]),
    ({"sea_battle_blocks_island": False}, ["Skull Island"], ["Sea battle blocks Skull Island"]),
    ({"promo_storm": 4}, ["Storm (promo)", "Storm skulls hit opponents"], []),
    ({"promo_peace": 6}, ["Peace (promo)", "Peace penalty", "Peace spares opponents"], []),
    ({"full_chest_bonus": 0}, [], ["Full chest bonus"]),
    ({"floor_at_zero": True}, ["Floor at zero"], ["Negative total"]),
    ({"seat_bonus": 100}, ["Seat bonus"], []),
    ({"card_draw": "independent"}, [], ["Deck reshuffled"]),
    ({"tie_rule": "extra-round"}, ["Tie play-off round"], []),
])
def test_rule_options_switch_their_mechanics(rules, switched_on, switched_off):
    shares = simulate(5000, rules=rules)["mechanics"]
    for name in switched_on:
        assert shares[name] > 0, name
    for name in switched_off:
        assert shares[name] == 0, name


def test_the_seat_bonus_applies_in_every_game():
    assert simulate(500, rules={"seat_bonus": -50})["mechanics"]["Seat bonus"] == 1.0


def test_shares_agree_with_what_the_run_counts():
    result = simulate(5000, rules={"max_rounds": 20, "tie_rule": "extra-round"})  # a third capped
    n, shares, stats = result["n"], result["mechanics"], result["game_stats"]
    assert shares["Round cap"] == result["capped_games"] / n > 0
    assert shares["Shared win"] == result["tie_rate"]
    played_off = shares["Tie play-off round"] * n
    assert 0 < played_off <= stats["extra_rounds_played"] <= 10 * played_off
    cancelled = shares["Final round cancelled"] * n
    assert 0 < cancelled <= stats["final_rounds_cancelled"]


def test_a_card_drawn_each_time_is_one_component_draw(standard):
    """Each component's times are the turns game_stats counts with that card; every turn
    draws one card, so the times add up to the turns played."""
    labels = {seat["strategy"] for seat in standard["seats"]}
    cards = standard["game_stats"]["cards"]
    by_name = {record["component"]: record for record in standard["components"]}
    for card, (title, _) in CARD_TITLES.items():
        turns = sum(cards.get(card, {}).get(label, {}).get("turns", 0) for label in labels)
        assert by_name[title]["times"] == turns, card
        assert by_name[title]["seat_games"] <= min(turns, standard["n"] * standard["players"])
    turns = sum(row["times"] for row in standard["components"])
    assert turns == pytest.approx(standard["lengths"]["turns"]["mean"] * standard["n"])


def test_a_one_card_deck_is_met_in_every_turn_of_every_game():
    result = simulate(1000, rules={"deck": {**NO_CARD_DECK, "chest": 1}})
    shares = result["mechanics"]
    assert shares["Treasure chest"] == 1.0
    assert all(shares[title] == 0 for card, (title, _) in CARD_TITLES.items() if card != "chest")
    assert shares["Treasure chest saves points"] > 0
    (chest,) = [r for r in result["components"] if r["component"] == "Treasure chest"]
    assert chest["seat_games"] == result["n"] * result["players"]
    assert chest["times"] == pytest.approx(result["lengths"]["turns"]["mean"] * result["n"])


def test_a_player_who_never_rerolls_never_uses_the_sorceress():
    deck = {**NO_CARD_DECK, "sorceress": 1}
    assert simulate(1000, strategies=("first-roll",), rules={"deck": deck})["mechanics"][
        "Sorceress rerolls a skull"] == 0
    assert simulate(1000, strategies=("set-chaser",), rules={"deck": deck})["mechanics"][
        "Sorceress rerolls a skull"] > 0



def test_mechanics_the_rules_rule_out_are_listed_as_switched_off():
    from analyzer.api import simulate

    standard = simulate(game="skull-island", n=200, seed=3).to_dict()
    assert {"Storm (promo)", "Peace (promo)", "Seat bonus", "Tie play-off round", "Skull Island off",
            "Floor at zero"} <= set(standard["switched_off"])
    assert "Skull Island" not in standard["switched_off"] and "Round cap" in standard["safeguards"]
    house = simulate(game="skull-island", n=200, seed=3, sets=["promo_storm=2", "skull_island=false",
                                                                "seat_bonus=100"]).to_dict()
    assert {"Storm (promo)", "Skull Island off", "Seat bonus"}.isdisjoint(house["switched_off"])
    assert "Skull Island" in house["switched_off"]
