"""Ships: the Shipyard (buy, wait, forced loan), Acquire Vessel both ways, raids with
combat, re-spun ties and the Black Pearl swap (RULES.md dead-mans-chest).

Ships of the rules tests' board (fee, combat): Sloop 500/0, Cutter 700/0, Schooner 900/1, Edinburgh
Trader 1100/1, Brigantine 1300/1, Interceptor 1600/2, Frigate 2000/2, Black Pearl
2500/2, Galleon (Man of War) 3000/3.
"""

import pytest

from analyzer.games.dead_mans_chest.actions import acquire_vessel, battle, raid, visit_shipyard
from analyzer.games.dead_mans_chest.layout import (
    LOANS,
    NO_SHIP,
    OWNER_FREE,
    RAID_WINS,
    RAIDS,
    RETIRED,
    SHIP,
    SHIPYARD_LOANS,
    SHIPYARD_WAITS,
    WAITS,
)
from analyzer.games.dead_mans_chest.ship_choices import choose_raid_target
from analyzer.games.dead_mans_chest.ships import attack_win_probability

from .rigged_game import RULES_BOARD, RiggedGame


def shipyard_game(strategy, cash, ships, rules=None):
    game = RiggedGame(players=3, strategies=(strategy,), rules=rules)
    game.set_cash(0, cash)
    game.only_ships_in_deck(*ships, holder=2)
    return game


@pytest.mark.parametrize("strategy,cash,ships,bought,left", [
    ("sensible", 1000, ("Sloop", "Galleon"), "Sloop", 500),              # only the Sloop is affordable
    ("sensible", 3000, ("Frigate", "Interceptor"), "Interceptor", 1400),  # same combat: the cheaper
    ("aggressive", 3000, ("Frigate", "Interceptor"), "Interceptor", 1400),  # same combat: the cheaper too
    ("aggressive", 3000, ("Frigate", "Black Pearl"), "Frigate", 1000),   # not the swap target
    ("thrifty", 3000, ("Frigate", "Galleon"), "Frigate", 1000),           # the cheapest
    ("sensible", 3100, ("Frigate", "Galleon"), "Frigate", 1100),          # Galleon would leave 100 < 500
    ("sensible", 3500, ("Frigate", "Galleon"), "Galleon", 500),           # keeps the $500 reserve
    ("aggressive", 3100, ("Frigate", "Galleon"), "Galleon", 100),
])
def test_shipyard_buys(strategy, cash, ships, bought, left):
    game = shipyard_game(strategy, cash, ships)
    assert visit_shipyard(game.m, 0)
    assert game.scratch.players[0, SHIP] == game.ship(bought)
    assert game.scratch.ship_owner[game.ship(bought)] == 0
    assert game.cash(0) == left


def test_shipyard_waits_then_borrows_for_the_cheaper():
    game = shipyard_game("sensible", 1000, ("Black Pearl", "Galleon"))
    assert not visit_shipyard(game.m, 0)          # wait 1
    assert not visit_shipyard(game.m, 0)          # wait 2 (shipyard_max_waits = 2)
    assert game.scratch.counters[SHIPYARD_WAITS] == 2 and game.scratch.players[0, WAITS] == 2
    assert visit_shipyard(game.m, 0)              # borrows $2000 and buys the Black Pearl ($2500)
    assert game.scratch.players[0, SHIP] == game.ship("Black Pearl")
    assert game.scratch.players[0, LOANS] == 1 and game.cash(0) == 1000 + 2000 - 2500
    assert game.scratch.counters[SHIPYARD_LOANS] == 1 and game.scratch.players[0, WAITS] == 0


def test_shipyard_borrows_as_often_as_needed_without_waiting():
    game = shipyard_game("sensible", 0, ("Black Pearl", "Galleon"), rules={"shipyard_max_waits": 0})
    assert visit_shipyard(game.m, 0)
    assert game.scratch.players[0, LOANS] == 2 and game.cash(0) == 4000 - 2500


def test_shipyard_without_loans_sails_on_shipless():
    game = shipyard_game("sensible", 1000, ("Black Pearl", "Galleon"), rules={"loans": False, "shipyard_max_waits": 1})
    assert not visit_shipyard(game.m, 0)
    assert visit_shipyard(game.m, 0)
    assert game.scratch.players[0, SHIP] == NO_SHIP and game.cash(0) == 1000 and game.scratch.players[0, LOANS] == 0


def test_shipyard_draws_what_is_left():
    game = shipyard_game("aggressive", 5000, ("Cutter",))
    assert visit_shipyard(game.m, 0)
    assert game.scratch.players[0, SHIP] == game.ship("Cutter")


def vessel_game(strategy, cash):
    """Player 0 sails a Sloop; player 1 a Frigate; player 2 has retired with the Galleon."""
    game = RiggedGame(players=3, strategies=(strategy,))
    game.give_ship(0, "Sloop")
    game.give_ship(1, "Frigate")
    game.give_ship(2, "Galleon")
    game.scratch.players[2, RETIRED] = 1
    game.set_cash(0, cash)
    game.set_cash(1, 0)
    return game


def test_acquire_vessel_from_a_player():
    game = vessel_game("sensible", 3000)
    acquire_vessel(game.m, 0)
    # the Frigate (combat 2) for the $1500 difference, paid to its owner; the retired
    # player's Galleon is not on offer
    assert game.scratch.players[0, SHIP] == game.ship("Frigate") and game.scratch.players[1, SHIP] == game.ship("Sloop")
    assert game.cash(0) == 1500 and game.cash(1) == 1500
    assert game.scratch.ship_owner[game.ship("Frigate")] == 0 and game.scratch.ship_owner[game.ship("Sloop")] == 1


def test_acquire_vessel_from_the_deck():
    game = vessel_game("sensible", 1000)   # the Frigate would cost 1500: not offered
    game.only_ships_in_deck("Schooner", "Cutter", holder=2)
    acquire_vessel(game.m, 0)
    # the Schooner (combat 1) for 900 - 500; the Sloop goes back to the deck
    assert game.scratch.players[0, SHIP] == game.ship("Schooner") and game.cash(0) == 600
    assert game.scratch.ship_owner[game.ship("Sloop")] == OWNER_FREE
    assert game.scratch.players[1, SHIP] == game.ship("Frigate")


def test_acquire_vessel_declined():
    # thrifty never upgrades; sensible keeps its $500 reserve (the Schooner would leave 100)
    for strategy, cash in (("thrifty", 10000), ("sensible", 500)):
        game = vessel_game(strategy, cash)
        game.only_ships_in_deck("Schooner", holder=2)
        acquire_vessel(game.m, 0)
        assert game.scratch.players[0, SHIP] == game.ship("Sloop") and game.cash(0) == cash


def test_random_upgrades_are_legal():
    for seed in range(40):
        game = RiggedGame(players=3, strategies=("random",), seed=seed)
        game.give_ship(0, "Brigantine")
        game.give_ship(1, "Frigate")
        game.give_ship(2, "Cutter")
        game.set_cash(0, 800)
        game.set_cash(1, 0)
        acquire_vessel(game.m, 0)
        ship = game.scratch.players[0, SHIP]
        fee = game.components.ships[ship].fee
        assert 1300 <= fee <= 2100 and game.cash(0) == 800 - (fee - 1300)  # never weaker, never unaffordable


def test_attack_win_probability_by_hand():
    # equal combat: symmetric; +1: attacker wins 55 of 100 spin pairs, ties 9 -> 55/91;
    # +2: loses 28, ties 8 -> 64/92; +3: loses 21, ties 7 -> 72/93
    assert attack_win_probability(0) == pytest.approx(0.5)
    assert attack_win_probability(1) == pytest.approx(55 / 91)
    assert attack_win_probability(2) == pytest.approx(64 / 92)
    assert attack_win_probability(3) == pytest.approx(72 / 93)
    assert attack_win_probability(-2) == pytest.approx(28 / 92)


def test_battle_frequency_matches_the_spinner():
    game = RiggedGame(players=2)
    game.give_ship(0, "Frigate")   # combat 2
    game.give_ship(1, "Sloop")     # combat 0
    n = 20000
    wins = sum(battle(game.m, 0, 1) for _ in range(n))
    p = 64 / 92
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_raid_takes_spin_times_100_and_the_black_pearl():
    outcomes = set()
    for seed in range(40):
        game = RiggedGame(players=3, seed=seed)
        game.give_ship(0, "Sloop")
        game.give_ship(1, "Black Pearl")   # player 2 has no ship: cannot be attacked
        game.set_cash(0, 0)
        game.set_cash(1, 5000)
        raid(game.m, 0)
        assert game.scratch.counters[RAIDS] == 1
        won = bool(game.scratch.counters[RAID_WINS])
        outcomes.add(won)
        if won:
            assert game.cash(0) in range(100, 1001, 100) and game.cash(0) + game.cash(1) == 5000
            assert game.scratch.players[0, SHIP] == game.ship("Black Pearl")
            assert game.scratch.players[1, SHIP] == game.ship("Sloop")
        else:
            assert game.cash(0) == 0 and game.cash(1) == 5000 and game.scratch.players[0, SHIP] == game.ship("Sloop")
    assert outcomes == {True, False}


def test_raid_needs_a_target_with_a_ship_still_at_sea():
    game = RiggedGame(players=3)
    game.give_ship(0, "Sloop")
    game.give_ship(1, "Galleon")
    game.scratch.players[1, RETIRED] = 1
    raid(game.m, 0)
    assert game.scratch.counters[RAIDS] == 0


def test_no_raids_rule():
    game = RiggedGame(players=2, rules={"raids": False})
    game.give_ship(0, "Sloop")
    game.give_ship(1, "Sloop")
    raid(game.m, 0)
    assert game.scratch.counters[RAIDS] == 0


def test_raid_targets():
    # candidates: player 1 (Galleon, combat 3, rich) and player 2 (Sloop, combat 0, poor)
    for strategy, expected in (("sensible", 2), ("thrifty", 2), ("aggressive", 1)):
        game = RiggedGame(players=3, strategies=(strategy,))
        game.give_ship(0, "Cutter")
        game.give_ship(1, "Galleon")
        game.give_ship(2, "Sloop")
        game.set_cash(1, 9000)
        game.scratch.cand[0], game.scratch.cand[1] = 1, 2
        assert game.scratch.cand[choose_raid_target(game.m, 0, 2)] == expected, strategy
    # the Black Pearl is worth attacking for the swap even against equal combat
    game = RiggedGame(players=3)
    game.give_ship(0, "Cutter")
    game.give_ship(1, "Frigate")
    game.give_ship(2, "Black Pearl")
    game.scratch.cand[0], game.scratch.cand[1] = 1, 2
    assert game.scratch.cand[choose_raid_target(game.m, 0, 2)] == 2


# -- RULES.md "Ships:": a player has at most one ship, and no trade leaves another
# -- player shipless; "weaker" means lower combat (fee breaks ties).
def test_shipless_player_acquires_only_from_the_deck():
    # player 0 has no ship and $3000; player 1 sails the Frigate ($2000). A trade with a
    # player needs a ship to give in return ("give the other player your ship"), so the
    # only way is the deck: the Schooner at its full fee of $900.
    game = RiggedGame(players=3)
    game.give_ship(0, None)
    game.give_ship(1, "Frigate")
    game.set_cash(0, 3000)
    game.set_cash(1, 0)
    game.only_ships_in_deck("Schooner", holder=2)
    acquire_vessel(game.m, 0)
    assert game.scratch.players[1, SHIP] == game.ship("Frigate") and game.cash(1) == 0
    assert game.scratch.players[0, SHIP] == game.ship("Schooner") and game.cash(0) == 3000 - 900


def test_shipless_raider_takes_the_money_but_not_the_black_pearl():
    # a shipless raider (combat 0) against the Black Pearl (combat 2) wins 28 of 92 spin
    # pairs; a win takes spin x $100 and no swap happens: the owner keeps the Pearl
    outcomes = set()
    for seed in range(40):
        game = RiggedGame(players=3, seed=seed)
        game.give_ship(0, None)
        game.give_ship(1, "Black Pearl")
        game.set_cash(0, 0)
        game.set_cash(1, 5000)
        raid(game.m, 0)
        won = bool(game.scratch.counters[RAID_WINS])
        outcomes.add(won)
        assert game.scratch.players[0, SHIP] == NO_SHIP
        assert game.scratch.players[1, SHIP] == game.ship("Black Pearl")
        assert game.scratch.ship_owner[game.ship("Black Pearl")] == 1
        assert game.cash(0) + game.cash(1) == 5000 and (game.cash(0) in range(100, 1001, 100)) == won
    assert outcomes == {True, False}


@pytest.fixture
def weak_frigate(tmp_path):
    """The rules tests' board with a Frigate of combat 1: dearer ($2000) but weaker than
    the Interceptor ($1600, combat 2)."""
    text = RULES_BOARD.read_text(encoding="utf-8")
    frigate = 'name = "Frigate"\nrank = "Frigate"\nfee = 2000\ncombat = 2'
    assert text.count(frigate) == 1
    path = tmp_path / "weak-frigate.toml"
    path.write_text(text.replace(frigate, frigate[:-1] + "1"), encoding="utf-8")
    return {"components": str(path)}


def test_no_trade_for_a_weaker_dearer_ship(weak_frigate):
    # player 0: Interceptor ($1600, combat 2) and $5000; player 1: the Frigate ($2000,
    # combat 1); the deck: the Edinburgh Trader ($1100, combat 1). Neither is an
    # upgrade ("you cannot trade for a weaker ship"), whatever random picks.
    for seed in range(40):
        game = RiggedGame(players=3, strategies=("random",), rules=weak_frigate, seed=seed)
        game.give_ship(0, "Interceptor")
        game.give_ship(1, "Frigate")
        game.set_cash(0, 5000)
        game.only_ships_in_deck("Edinburgh Trader", holder=2)
        acquire_vessel(game.m, 0)
        assert game.scratch.players[0, SHIP] == game.ship("Interceptor") and game.cash(0) == 5000, seed
        assert game.scratch.players[1, SHIP] == game.ship("Frigate"), seed


def test_trade_up_to_a_stronger_cheaper_ship(weak_frigate):
    # player 0: the Frigate ($2000, combat 1) and $1000; the deck: the Interceptor ($1600,
    # combat 2), an upgrade. Trading the Frigate in at face value ($2000) and paying the
    # Interceptor's $1600 leaves player 0 $400 richer.
    game = RiggedGame(players=3, rules=weak_frigate)
    game.give_ship(0, "Frigate")
    game.give_ship(1, "Sloop")
    game.set_cash(0, 1000)
    game.only_ships_in_deck("Interceptor", holder=2)
    acquire_vessel(game.m, 0)
    assert game.scratch.players[0, SHIP] == game.ship("Interceptor") and game.cash(0) == 1400
    assert game.scratch.ship_owner[game.ship("Frigate")] == OWNER_FREE
