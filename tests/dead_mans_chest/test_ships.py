"""Ships: the Shipyard (buy, wait, forced loan), Acquire Vessel both ways, raids with
combat, re-spun ties and the Black Pearl swap (RULES.md dead-mans-chest).

Packaged ships (fee, combat): Sloop 500/0, Cutter 700/0, Schooner 900/1, Edinburgh
Trader 1100/1, Brigantine 1300/1, Interceptor 1600/2, Frigate 2000/2, Black Pearl
2500/2, Galleon (Man of War) 3000/3.
"""

import pytest

from analyzer.games.dead_mans_chest.actions import acquire_vessel, battle, raid, visit_shipyard
from analyzer.games.dead_mans_chest.decisions import attack_win_probability, choose_raid_target
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

from .table import Table


def shipyard_table(strategy, cash, ships, rules=None):
    t = Table(players=3, strategies=(strategy,), rules=rules)
    t.set_cash(0, cash)
    t.only_ships_in_deck(*ships, holder=2)
    return t


@pytest.mark.parametrize("strategy,cash,ships,bought,left", [
    ("sensible", 1000, ("Sloop", "Galleon"), "Sloop", 500),              # only the Sloop is affordable
    ("sensible", 3000, ("Frigate", "Interceptor"), "Interceptor", 1400),  # same combat: the cheaper
    ("aggressive", 3000, ("Frigate", "Interceptor"), "Frigate", 1000),    # same combat: the dearer
    ("thrifty", 3000, ("Frigate", "Galleon"), "Frigate", 1000),           # the cheapest
    ("sensible", 3100, ("Frigate", "Galleon"), "Frigate", 1100),          # Galleon would leave 100 < 500
    ("sensible", 3500, ("Frigate", "Galleon"), "Galleon", 500),           # keeps the $500 reserve
    ("aggressive", 3100, ("Frigate", "Galleon"), "Galleon", 100),
])
def test_shipyard_buys(strategy, cash, ships, bought, left):
    t = shipyard_table(strategy, cash, ships)
    assert visit_shipyard(t.m, 0)
    assert t.st.players[0, SHIP] == t.ship(bought)
    assert t.st.ship_owner[t.ship(bought)] == 0
    assert t.cash(0) == left


def test_shipyard_waits_then_borrows_for_the_cheaper():
    t = shipyard_table("sensible", 1000, ("Black Pearl", "Galleon"))
    assert not visit_shipyard(t.m, 0)          # wait 1
    assert not visit_shipyard(t.m, 0)          # wait 2 (shipyard_max_waits = 2)
    assert t.st.counters[SHIPYARD_WAITS] == 2 and t.st.players[0, WAITS] == 2
    assert visit_shipyard(t.m, 0)              # borrows $2000 and buys the Black Pearl ($2500)
    assert t.st.players[0, SHIP] == t.ship("Black Pearl")
    assert t.st.players[0, LOANS] == 1 and t.cash(0) == 1000 + 2000 - 2500
    assert t.st.counters[SHIPYARD_LOANS] == 1 and t.st.players[0, WAITS] == 0


def test_shipyard_borrows_as_often_as_needed_without_waiting():
    t = shipyard_table("sensible", 0, ("Black Pearl", "Galleon"), rules={"shipyard_max_waits": 0})
    assert visit_shipyard(t.m, 0)
    assert t.st.players[0, LOANS] == 2 and t.cash(0) == 4000 - 2500


def test_shipyard_without_loans_sails_on_shipless():
    t = shipyard_table("sensible", 1000, ("Black Pearl", "Galleon"), rules={"loans": False, "shipyard_max_waits": 1})
    assert not visit_shipyard(t.m, 0)
    assert visit_shipyard(t.m, 0)
    assert t.st.players[0, SHIP] == NO_SHIP and t.cash(0) == 1000 and t.st.players[0, LOANS] == 0


def test_shipyard_draws_what_is_left():
    t = shipyard_table("aggressive", 5000, ("Cutter",))
    assert visit_shipyard(t.m, 0)
    assert t.st.players[0, SHIP] == t.ship("Cutter")


def vessel_table(strategy, cash):
    """Player 0 sails a Sloop; player 1 a Frigate; player 2 has retired with the Galleon."""
    t = Table(players=3, strategies=(strategy,))
    t.give_ship(0, "Sloop")
    t.give_ship(1, "Frigate")
    t.give_ship(2, "Galleon")
    t.st.players[2, RETIRED] = 1
    t.set_cash(0, cash)
    t.set_cash(1, 0)
    return t


def test_acquire_vessel_from_a_player():
    t = vessel_table("sensible", 3000)
    acquire_vessel(t.m, 0)
    # the Frigate (combat 2) for the $1500 difference, paid to its owner; the retired
    # player's Galleon is not on offer
    assert t.st.players[0, SHIP] == t.ship("Frigate") and t.st.players[1, SHIP] == t.ship("Sloop")
    assert t.cash(0) == 1500 and t.cash(1) == 1500
    assert t.st.ship_owner[t.ship("Frigate")] == 0 and t.st.ship_owner[t.ship("Sloop")] == 1


def test_acquire_vessel_from_the_deck():
    t = vessel_table("sensible", 1000)   # the Frigate would cost 1500: not offered
    t.only_ships_in_deck("Schooner", "Cutter", holder=2)
    acquire_vessel(t.m, 0)
    # the Schooner (combat 1) for 900 - 500; the Sloop goes back to the deck
    assert t.st.players[0, SHIP] == t.ship("Schooner") and t.cash(0) == 600
    assert t.st.ship_owner[t.ship("Sloop")] == OWNER_FREE
    assert t.st.players[1, SHIP] == t.ship("Frigate")


def test_acquire_vessel_declined():
    # thrifty never upgrades; sensible keeps its $500 reserve (the Schooner would leave 100)
    for strategy, cash in (("thrifty", 10000), ("sensible", 500)):
        t = vessel_table(strategy, cash)
        t.only_ships_in_deck("Schooner", holder=2)
        acquire_vessel(t.m, 0)
        assert t.st.players[0, SHIP] == t.ship("Sloop") and t.cash(0) == cash


def test_random_upgrades_are_legal():
    for seed in range(40):
        t = Table(players=3, strategies=("random",), seed=seed)
        t.give_ship(0, "Brigantine")
        t.give_ship(1, "Frigate")
        t.give_ship(2, "Cutter")
        t.set_cash(0, 800)
        t.set_cash(1, 0)
        acquire_vessel(t.m, 0)
        ship = t.st.players[0, SHIP]
        fee = t.components.ships[ship].fee
        assert 1300 <= fee <= 2100 and t.cash(0) == 800 - (fee - 1300)  # never weaker, never unaffordable


def test_attack_win_probability_by_hand():
    # equal combat: symmetric; +1: attacker wins 55 of 100 spin pairs, ties 9 -> 55/91;
    # +2: loses 28, ties 8 -> 64/92; +3: loses 21, ties 7 -> 72/93
    assert attack_win_probability(0) == pytest.approx(0.5)
    assert attack_win_probability(1) == pytest.approx(55 / 91)
    assert attack_win_probability(2) == pytest.approx(64 / 92)
    assert attack_win_probability(3) == pytest.approx(72 / 93)
    assert attack_win_probability(-2) == pytest.approx(28 / 92)


def test_battle_frequency_matches_the_spinner():
    t = Table(players=2)
    t.give_ship(0, "Frigate")   # combat 2
    t.give_ship(1, "Sloop")     # combat 0
    n = 20000
    wins = sum(battle(t.m, 0, 1) for _ in range(n))
    p = 64 / 92
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_raid_takes_spin_times_100_and_the_black_pearl():
    outcomes = set()
    for seed in range(40):
        t = Table(players=3, seed=seed)
        t.give_ship(0, "Sloop")
        t.give_ship(1, "Black Pearl")   # player 2 has no ship: cannot be attacked
        t.set_cash(0, 0)
        t.set_cash(1, 5000)
        raid(t.m, 0)
        assert t.st.counters[RAIDS] == 1
        won = bool(t.st.counters[RAID_WINS])
        outcomes.add(won)
        if won:
            assert t.cash(0) in range(100, 1001, 100) and t.cash(0) + t.cash(1) == 5000
            assert t.st.players[0, SHIP] == t.ship("Black Pearl") and t.st.players[1, SHIP] == t.ship("Sloop")
        else:
            assert t.cash(0) == 0 and t.cash(1) == 5000 and t.st.players[0, SHIP] == t.ship("Sloop")
    assert outcomes == {True, False}


def test_raid_needs_a_target_with_a_ship_still_at_sea():
    t = Table(players=3)
    t.give_ship(0, "Sloop")
    t.give_ship(1, "Galleon")
    t.st.players[1, RETIRED] = 1
    raid(t.m, 0)
    assert t.st.counters[RAIDS] == 0


def test_no_raids_rule():
    t = Table(players=2, rules={"raids": False})
    t.give_ship(0, "Sloop")
    t.give_ship(1, "Sloop")
    raid(t.m, 0)
    assert t.st.counters[RAIDS] == 0


def test_raid_targets():
    # candidates: player 1 (Galleon, combat 3, rich) and player 2 (Sloop, combat 0, poor)
    for strategy, expected in (("sensible", 2), ("thrifty", 2), ("aggressive", 1)):
        t = Table(players=3, strategies=(strategy,))
        t.give_ship(0, "Cutter")
        t.give_ship(1, "Galleon")
        t.give_ship(2, "Sloop")
        t.set_cash(1, 9000)
        t.st.cand[0], t.st.cand[1] = 1, 2
        assert t.st.cand[choose_raid_target(t.m, 0, 2)] == expected, strategy
    # the Black Pearl is worth attacking for the swap even against equal combat
    t = Table(players=3)
    t.give_ship(0, "Cutter")
    t.give_ship(1, "Frigate")
    t.give_ship(2, "Black Pearl")
    t.st.cand[0], t.st.cand[1] = 1, 2
    assert t.st.cand[choose_raid_target(t.m, 0, 2)] == 2
