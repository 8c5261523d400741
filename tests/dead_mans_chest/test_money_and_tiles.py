"""Money and LIFE tiles: debts, cashing in tiles, loans and their repayment, tiles from
the pile or from players, Isla Cruces, retired players' spins, LIFE cards, mascots,
the captain draft and the final count (RULES.md dead-mans-chest)."""

import numpy as np
import pytest

from analyzer.engine.rng import seed_game
from analyzer.games.dead_mans_chest.actions import (
    collect_tiles,
    land_on,
    play_life_card,
    retire,
    retired_turn,
    take_tile_from_player,
)
from analyzer.games.dead_mans_chest.decisions import choose_captain
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN,
    CARD_ACTIONS,
    CASH,
    DISCARD_COUNT,
    DRAW_COUNT,
    IN_PILE,
    ISLA_COUNT,
    LOANS,
    N_VALUE_PARTS,
    PILE_COUNT,
    PILE_RAN_DRY,
    POS,
    RETIRED,
    RETIRED_COUNT,
    ROUTE,
    SHIP,
    TILE_WORTH,
    TILES,
    TILES_TAKEN,
    TREASURY,
    UNPAID,
    VALUE_PARTS,
)
from analyzer.games.dead_mans_chest.money import pay_debt, settle_loans
from analyzer.games.dead_mans_chest.tiles import return_to_pile
from analyzer.games.dead_mans_chest.turns import final_values, play_turn, standing_leaders, standing_value

from .rigged_game import RiggedGame


def test_debt_paid_from_cash():
    game = RiggedGame()
    game.set_cash(0, 1000)
    pay_debt(game.m, 0, TREASURY, 300)
    assert game.cash(0) == 700


def test_short_of_money_cashes_in_a_tile_it_cannot_double():
    game = RiggedGame()
    game.give_mascot(0, "Monkey")
    monkey, big, small = game.tile(2000, "Monkey"), game.tile(1000), game.tile(500)
    for tile in (monkey, big, small):
        game.give_tile(0, tile)
    game.set_cash(0, 100)
    pile = game.scratch.counters[PILE_COUNT]
    pay_debt(game.m, 0, TREASURY, 800)
    # $700 missing: not the doubled Monkey tile; the smallest plain tile covering it: $1000
    assert sorted(game.tiles_of(0)) == sorted([monkey, small])
    assert game.scratch.tile_loc[big] == IN_PILE and game.scratch.counters[PILE_COUNT] == pile + 1
    assert game.cash(0) == 100 + 1000 - 800 and game.scratch.players[0, LOANS] == 0


def test_no_tiles_left_borrows():
    game = RiggedGame()
    game.set_cash(0, 100)
    pay_debt(game.m, 0, TREASURY, 3000)
    assert game.scratch.players[0, LOANS] == 2 and game.cash(0) == 100 + 4000 - 3000


def test_without_loans_a_debt_is_paid_as_far_as_cash_goes():
    game = RiggedGame(rules={"loans": False})
    game.set_cash(0, 100)
    game.set_cash(1, 0)
    pay_debt(game.m, 0, 1, 800)
    assert game.cash(0) == 0 and game.cash(1) == 100 and game.scratch.players[0, LOANS] == 0


@pytest.mark.parametrize("mode,cash_after,unpaid,tiles_after", [
    ("subtract", 0, 2000, 1),        # $5000 due (2 x (2000 + 500)), $3000 in hand
    ("forgive", 0, 2000, 1),         # recorded, but not subtracted at the count
    ("cash_in_tiles", 500, 0, 0),    # the $2500 tile is cashed in first
])
def test_loans_repaid_at_isla_cruces(mode, cash_after, unpaid, tiles_after):
    game = RiggedGame(rules={"unpaid_loan": mode})
    game.give_tile(0, game.tile(2500))
    game.scratch.players[0, LOANS] = 2
    game.set_cash(0, 3000)
    settle_loans(game.m, 0)
    assert game.cash(0) == cash_after and game.scratch.players[0, UNPAID] == unpaid
    assert game.scratch.players[0, LOANS] == 0 and game.scratch.players[0, TILES] == tiles_after


def test_final_count():
    game = RiggedGame(rules={"unpaid_loan": "subtract"})
    game.give_mascot(0, "Donkey")
    game.give_tile(0, game.tile(1000, "Donkey"))
    game.give_tile(0, game.tile(1500))
    game.give_ship(0, "Frigate")
    game.set_cash(0, 3000)
    game.scratch.players[0, UNPAID] = 500
    parts = np.zeros((3, N_VALUE_PARTS), np.int64)
    scores = np.zeros(3, np.int64)
    final_values(game.m, parts, scores)
    # tiles 2500 (+1000 for the Donkey tile), cash 3000, Frigate 2000, Donkey 200, - 500
    assert dict(zip(VALUE_PARTS, parts[0], strict=True)) == {
        "tiles": 2500, "mascot_bonus": 1000, "cash": 3000, "ship": 2000, "mascots": 200, "unpaid_loans": 500}
    assert scores[0] == 8200


def test_tile_worth_follows_tiles_and_mascots():
    """A player's tiles' worth, kept as tiles change hands and mascots are bought, is what the final
    count makes of the tiles they hold; the standings after a round read it."""
    game = RiggedGame(rules={"unpaid_loan": "subtract"})
    worth = game.scratch.players[:, TILE_WORTH]
    big, small, plain = game.tile(1000, "Donkey"), game.tile(500, "Donkey"), game.tile(1500)
    for tile in (big, small, plain):
        game.give_tile(0, tile)
    assert list(worth) == [3000, 0, 0]
    game.give_mascot(0, "Donkey")               # both Donkey tiles count double: +1500
    assert list(worth) == [4500, 0, 0]
    game.give_tile(1, big)                      # worth 2000 to player 0, 1000 to player 1
    assert list(worth) == [2500, 1000, 0]
    return_to_pile(game.m, plain)
    assert list(worth) == [1000, 1000, 0]
    game.give_tile(0, game.tile(1000, "Donkey", where=1))
    assert list(worth) == [3000, 0, 0]
    game.set_cash(0, 700)
    game.scratch.players[0, UNPAID] = 300
    standings = [standing_value(game.m, p) for p in range(3)]
    parts = np.zeros((3, N_VALUE_PARTS), np.int64)
    scores = np.zeros(3, np.int64)
    final_values(game.m, parts, scores)
    # tiles 1500 (+1500 bonus), cash 700, Donkey 200, unpaid 300
    assert standings[0] == scores[0] == 3000 + 700 + 200 - 300
    assert standings == list(scores)
    assert standing_leaders(game.m) == 0b001
    game.set_cash(1, game.scratch.players[1, CASH] + standings[0] - standings[1])  # level at the top
    assert standing_leaders(game.m) == 0b011


def test_collect_tiles_from_the_pile():
    game = RiggedGame()
    pile = game.scratch.counters[PILE_COUNT]
    collect_tiles(game.m, 0, 2)
    assert game.scratch.players[0, TILES] == 2 and game.scratch.counters[PILE_COUNT] == pile - 2
    assert game.scratch.counters[PILE_RAN_DRY] == 0


def test_empty_pile_takes_from_players():
    game = RiggedGame(players=3)
    game.empty_pile(1)                 # player 1 holds every pile tile
    tile = game.tiles_of(1)[0]
    game.give_tile(2, tile)
    game.set_cash(2, 50000)            # player 2 is the leader: sensible takes from them
    collect_tiles(game.m, 0, 1)
    assert game.tiles_of(0) == [tile]
    assert game.scratch.counters[PILE_RAN_DRY] == 1 and game.scratch.counters[TILES_TAKEN] == 1


def test_one_tile_a_turn_from_a_retired_player():
    game = RiggedGame(players=3)
    game.empty_pile(1)
    game.scratch.players[1, RETIRED] = 1
    collect_tiles(game.m, 0, 3)        # only player 1 has tiles, and has retired
    assert game.scratch.players[0, TILES] == 1


def test_retired_take_limit_option():
    game = RiggedGame(players=3, rules={"retired_take_limit": 2})
    game.empty_pile(1)
    game.scratch.players[1, RETIRED] = 1
    collect_tiles(game.m, 0, 3)
    assert game.scratch.players[0, TILES] == 2


def test_nothing_to_take():
    game = RiggedGame(players=2)
    game.empty_pile(0)
    assert not take_tile_from_player(game.m, 0)


def test_chosen_tile_from_a_player():
    game = RiggedGame(players=2, rules={"tile_from_player": "choose"})
    game.give_mascot(0, "Pig")
    for tile in (game.tile(2500), game.tile(1000), game.tile(1500, "Turtle"), game.tile(1000, "Pig")):
        game.give_tile(1, tile)
    best = game.tile(2500, where=1)
    take_tile_from_player(game.m, 0)
    # worth most to player 0: the Pig tile doubled ($2000) loses to the plain $2500
    assert game.tiles_of(0) == [best]


def test_isla_cruces_picks():
    game = RiggedGame(players=4)
    donkey, plain, small = game.tile(1000, "Donkey"), game.tile(1500), game.tile(500, "Donkey")
    game.set_isla(donkey, plain, small)
    game.give_mascot(0, "Donkey")
    retire(game.m, 0)   # worth to player 0: 2000, 1500, 1000
    retire(game.m, 1)   # of the two left: the $1500
    retire(game.m, 2)   # the last one
    retire(game.m, 3)   # nothing left
    assert [game.tiles_of(p) for p in range(4)] == [[donkey], [plain], [small], []]
    assert game.scratch.counters[ISLA_COUNT] == 0 and game.scratch.counters[RETIRED_COUNT] == 4
    assert all(game.scratch.players[:, RETIRED])


def test_retired_player_takes_a_tile_on_a_ten():
    game = RiggedGame(players=2)
    game.scratch.players[0, RETIRED] = 1
    n = 20000
    taken = 0
    for _ in range(n):
        retired_turn(game.m, 0)
        for tile in game.tiles_of(0):
            taken += 1
            return_to_pile(game.m, tile)
    assert abs(taken / n - 0.1) < 4 * (0.09 / n) ** 0.5


def test_retired_tile_spin_option():
    game = RiggedGame(players=2, rules={"retired_tile_spin": 1})
    retired_turn(game.m, 0)
    assert game.scratch.players[0, TILES] == 1


@pytest.mark.parametrize("position,kind,change", [(2, "collect", 300), (6, "pay", -200), (9, "share_the_loot", 0)])
def test_general_spaces(position, kind, change):
    # main route: 2 "Salvage a wreck. Collect $300.", 6 "Repair the rigging. Pay $200.";
    # a Share the Loot space pays on entering, not again for ending the move there
    game = RiggedGame(players=2)
    space = game.space("main", position)
    assert game.kind(space) == kind
    game.set_cash(0, 1000)
    land_on(game.m, 0, space)
    assert game.cash(0) == 1000 + change


def test_davy_jones_costs_spin_times_100():
    game = RiggedGame(players=2)
    space = game.space("main", 10)
    assert game.kind(space) == "davy_jones"
    n = 20000
    paid = []
    for _ in range(n):
        game.set_cash(0, 5000)
        land_on(game.m, 0, space)
        paid.append(5000 - game.cash(0))
    assert set(paid) == set(range(100, 1001, 100))
    sd = 100 * ((100 - 1) / 12) ** 0.5
    assert abs(np.mean(paid) - 550) < 4 * sd / n ** 0.5


def life_card_game(action, amount):
    """A 4-player game whose LIFE draw pile holds one card: ``action`` ``amount``."""
    game = RiggedGame(players=4)
    card = [i for i, c in enumerate(game.components.cards) if c.action == action and c.amount == amount][0]
    game.scratch.life_draw[0] = card
    game.scratch.counters[DRAW_COUNT] = 1
    game.scratch.counters[DISCARD_COUNT] = 0
    for p in range(4):
        game.set_cash(p, 1000)
    game.scratch.players[3, RETIRED] = 1
    return game, card


@pytest.mark.parametrize("action,amount,cash", [
    ("collect", 800, [1800, 1000, 1000, 1000]),
    ("pay", 600, [400, 1000, 1000, 1000]),
    ("collect_from_each", 200, [1400, 800, 800, 1000]),   # not from the retired player
    ("pay_each", 100, [700, 1100, 1100, 1100]),
])
def test_life_money_cards(action, amount, cash):
    game, card = life_card_game(action, amount)
    play_life_card(game.m, 0)
    assert [game.cash(p) for p in range(4)] == cash
    assert game.scratch.counters[DRAW_COUNT] == 0 and game.scratch.counters[DISCARD_COUNT] == 1
    assert game.scratch.life_discard[0] == card


def test_life_tile_cards():
    game, _ = life_card_game("tiles", 2)
    play_life_card(game.m, 0)
    assert game.scratch.players[0, TILES] == 2
    game, _ = life_card_game("take_tiles", 1)
    tile = game.tile(3000)
    game.give_tile(2, tile)
    play_life_card(game.m, 0)
    assert game.tiles_of(0) == [tile]


@pytest.mark.parametrize("action,sign", [("spin_collect", 1), ("spin_pay", -1)])
def test_life_spin_cards(action, sign):
    seen = set()
    for seed in range(60):
        game, _ = life_card_game(action, 100)
        seed_game(seed, 0, game.scratch.rng)
        play_life_card(game.m, 0)
        seen.add(sign * (game.cash(0) - 1000))
    assert seen <= set(range(100, 1001, 100)) and len(seen) >= 8


def test_life_deck_refills_from_the_discards():
    game = RiggedGame()
    n = len(game.components.cards)
    game.scratch.life_discard[:n] = game.scratch.life_draw[:n]
    game.scratch.counters[DISCARD_COUNT] = n
    game.scratch.counters[DRAW_COUNT] = 0
    play_life_card(game.m, 0)
    assert game.scratch.counters[DRAW_COUNT] == n - 1 and game.scratch.counters[DISCARD_COUNT] == 1


@pytest.mark.parametrize("strategy,tile,cash,bought", [
    ("sensible", (2000, "Monkey"), 2000, "Monkey"),   # doubles the Monkey tile in hand
    ("sensible", (500, "Donkey"), 2000, "Donkey"),
    ("sensible", (2000, "Monkey"), 900, "Donkey"),    # the Monkey would break the $500 reserve
    ("thrifty", None, 5000, None),                    # nothing in hand to double
    ("thrifty", (500, "Donkey"), 5000, "Donkey"),
    ("sensible", None, 150, None),                    # cannot afford either
])
def test_choose_another_mascot(strategy, tile, cash, bought):
    game = RiggedGame(players=3, strategies=(strategy,))
    game.only_mascots_in_deck("Donkey", "Monkey", holder=2)
    if tile:
        game.give_tile(0, game.tile(*tile))
    game.set_cash(0, cash)
    space = game.space("main", 18)
    assert game.kind(space) == "choose_another_mascot"
    land_on(game.m, 0, space)
    owned = game.mascots_of(0)
    assert owned == ([bought] if bought else [])


@pytest.mark.parametrize("cash,owned", [(300, ["Donkey"]), (100, [])])
def test_choose_a_mascot_stop_must_buy(cash, owned):
    # from space 19 any spin stops on Choose a Mascot (space 20): the only affordable
    # mascot must be bought; then the ship spins and sails on (spaces 21-30 hold no mascot)
    game = RiggedGame(players=3)
    game.only_mascots_in_deck("Donkey", "Monkey", holder=2)
    game.give_ship(0, "Sloop")
    game.place(0, "main", 19)
    game.set_cash(0, cash)
    play_turn(game.m, 0)
    assert game.mascots_of(0) == owned
    assert game.space("main", 21) <= game.scratch.players[0, POS] <= game.space("main", 30)


def test_shipyard_then_sail_on_in_the_same_turn():
    game = RiggedGame(players=3)
    game.place(0, "harbour", 2)
    game.set_cash(0, 5000)
    play_turn(game.m, 0)
    assert game.scratch.players[0, SHIP] >= 0
    assert game.space("main", 1) <= game.scratch.players[0, POS] <= game.space("main", 10)


def test_waiting_at_the_shipyard_uses_the_turn():
    game = RiggedGame(players=3)
    game.only_ships_in_deck("Galleon", holder=2)
    game.place(0, "main", 0)
    game.set_cash(0, 0)
    play_turn(game.m, 0)
    assert game.scratch.players[0, POS] == game.space("main", 0) and game.scratch.players[0, SHIP] < 0


@pytest.mark.parametrize("first,second,strategy,kept", [
    ("Elizabeth Swann", "Jack Sparrow", "sensible", "Jack Sparrow"),      # 300 x 14 < 400 x 12
    ("Joshamee Gibbs", "Will Turner", "sensible", "Will Turner"),         # 300 x 12 < 300 x 14
    ("Elizabeth Swann", "Hector Barbossa", "sensible", "Elizabeth Swann"),  # 4200 each: the first
    ("Elizabeth Swann", "Hector Barbossa", "aggressive", "Hector Barbossa"),  # loot 350 > 300
])
def test_captain_choice(first, second, strategy, kept):
    game = RiggedGame(strategies=(strategy,))
    assert choose_captain(game.m, 0, game.captain(first), game.captain(second)) == game.captain(kept)


def test_draft_and_starts():
    for seed in range(30):
        game = RiggedGame(players=6, strategies=("random",), seed=seed)
        captains = [game.components.captains[c] for c in game.scratch.players[:, CAPTAIN]]
        assert len({c.name for c in captains}) == 6
        for p, captain in enumerate(captains):
            assert game.scratch.players[p, ROUTE] == captain.route
            assert game.scratch.players[p, POS] == game.components.routes[captain.route].start
            assert game.scratch.players[p, SHIP] < 0


def test_all_start_from_the_landlubbers_start():
    game = RiggedGame(players=6, rules={"start_route": "landlubber"})
    assert set(game.scratch.players[:, ROUTE]) == {0}
    assert set(game.scratch.players[:, POS]) == {game.space("landlubber", 0)}
    # the captain's worth is judged on the forced route: Jack Sparrow 400 x 14
    assert game.prep.inputs.captains[game.captain("Jack Sparrow"), 2] == 400 * 14


def test_card_vocabulary_is_covered():
    game = RiggedGame()
    assert {c.action for c in game.components.cards} == set(CARD_ACTIONS)
