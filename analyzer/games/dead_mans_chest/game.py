"""dead-mans-chest (The Game of Life: Pirates of the Caribbean – Dead Man's Chest)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyzer.engine.memory import padded_zeros
from analyzer.games.base import (
    ACQUIRED,
    ASSIGNED,
    OUTCOME,
    PER_DRAW,
    PROCEDURE,
    RANDOM_ASSIGNMENT,
    SAFEGUARD,
    Component,
    Game,
    Mechanic,
    Prepared,
    RandomAssignment,
    StrategyChoice,
)
from analyzer.games.component_params import ComponentTable
from analyzer.games.dead_mans_chest import component_tables
from analyzer.games.dead_mans_chest import rules as rules_module
from analyzer.games.dead_mans_chest import stats as stats_module
from analyzer.games.dead_mans_chest.component_file import load_components
from analyzer.games.dead_mans_chest.kernel import Inputs, Scratch, Tally, make_match, play_game
from analyzer.games.dead_mans_chest.layout import (
    CARD_ACTIONS,
    EVENTS,
    INVARIANTS,
    N_COUNTERS,
    N_PLAYER_FIELDS,
    N_VALUE_PARTS,
    SPACE_KINDS,
)
from analyzer.games.dead_mans_chest.search_state import MAX_SEARCHED_DECISIONS, N_SEARCH_FIELDS, N_SEARCH_KEYS
from analyzer.games.dead_mans_chest.strategies import DEFAULT_STRATEGY, STRATEGIES, seat_arrays

#: final values from -$20,000 to $130,000 in $250 bins (outside: the end bins)
SCORE_BINS = (-20000, 250, 600)


#: the rule setting that deals the captains at random instead of drafting them (with it, the captains' and
#: start routes' effects are causes; a verdict suggests it where the game accepts it)
RANDOM_CAPTAINS = ("captain_draft", "random")

#: the mechanics in the kernel's order: its events (``layout.EVENTS``), then kernel.MECHANIC_MASCOT, MECHANIC_CAPPED
MECHANICS = (
    Mechanic("raid", "a player raids another (a space or a spin lets them attack)", possible=lambda r: r["raids"]),
    Mechanic("raid won", "a raider beats the defender's ship", possible=lambda r: r["raids"]),
    Mechanic("shipyard wait", "a player waits at the shipyard for a ship", kind=PROCEDURE),
    Mechanic("loan at the shipyard", "a player takes a loan to buy a ship", possible=lambda r: r["loans"]),
    Mechanic("loan", "a player takes a loan", possible=lambda r: r["loans"]),
    Mechanic("LIFE tile taken", "a LIFE tile is taken from the pile or another player"),
    Mechanic("tile pile ran dry", "a LIFE tile was due and the pile was empty", kind=OUTCOME),
    Mechanic("mascot bought", "a player ends the game with a mascot"),
    Mechanic("turn cap reached", "the game was stopped by max_turns before every player retired", kind=SAFEGUARD),
    *(Mechanic(f"landed on {kind.replace('_', ' ')}", f"a player ends a move on a {kind.replace('_', ' ')} space")
      for kind in SPACE_KINDS[1:]),
    *(Mechanic(f"LIFE card: {action.replace('_', ' ')}", f"a player draws a LIFE card that says "
               f"{action.replace('_', ' ')}") for action in CARD_ACTIONS),
)


class DeadMansChest(Game):
    id = "dead-mans-chest"
    title = "The Game of Life: Pirates of the Caribbean – Dead Man's Chest"
    description = ("roll-and-move with choices: captains, ships, mascots, raids and LIFE tiles; "
                   "highest final value wins")
    min_players = 2
    max_players = 6
    default_players = 4
    score_unit = "dollars"
    length_units = ("rounds", "turns")
    options = rules_module.OPTIONS
    strategies = STRATEGIES
    default_strategy = DEFAULT_STRATEGY
    record_columns = EVENTS
    tally_type = Tally
    #: captains dealt at random instead of drafted (their start route comes with them)
    random_assignment = RandomAssignment({"captain_draft": "random"}, ("captain", "start route"))

    def check_rules(self, rules: dict[str, Any], players: int) -> None:
        rules_module.check_rules(rules, players)

    def prepare(self, rules: dict[str, Any], players: int, seats: list[StrategyChoice]) -> Prepared:
        """The run's kernel inputs, invariant checks off (tests switch them on with
        ``prepared.inputs._replace(check_invariants=True)``)."""
        components = rules_module.check_rules(rules, players)
        max_turns = rules["max_turns"]
        return Prepared(
            players=players,
            rules=dict(rules),
            seats=list(seats),
            score_bins=SCORE_BINS,
            length_caps={"rounds": -(-max_turns // players), "turns": max_turns},
            inputs=Inputs(
                **components.board_arrays(rules["loot_multiplier"], rules_module.forced_route(rules)),
                **rules_module.kernel_rules(rules, components),
                **seat_arrays(seats),
                check_invariants=False,
            ),
            facts=stats_module.component_names(components),
        )

    def play_function(self):
        return play_game

    def tally_shapes(self, prepared: Prepared) -> dict[str, tuple[int, ...]]:
        inputs = prepared.inputs
        captains = (inputs.captains.shape[0],)
        routes = (inputs.route_start.shape[0],)
        ships = (inputs.ships.shape[0] + 1,)
        mascots = inputs.mascot_fee.shape
        return {
            "value_parts_sum": (prepared.players, N_VALUE_PARTS),
            **{f"captain_{k}": captains for k in ("games", "wins", "ties", "value_sum", "value_sq")},
            **{f"route_{k}": routes for k in ("games", "wins", "ties", "value_sum", "value_sq")},
            "ship_games": ships, "ship_wins": ships, "mascot_games": mascots, "mascot_wins": mascots,
            "events_sum": (len(EVENTS),), "events_sq": (len(EVENTS),),
            "invariant_violations": (len(INVARIANTS) if inputs.check_invariants else 0,),
        }

    def tally_rules(self, prepared: Prepared):
        """Per game every player has one captain, start route and ship (or none) and each mascot at
        most once: at most one game per player of each, one win; the values are signed."""
        from analyzer.engine.tally_limits import ONCE, SIGNED, SQUARES, TallyRules

        players = (0, prepared.players)
        limits = {"value_parts_sum": SIGNED, "events_sum": (0, None), "events_sq": SQUARES,
                  "invariant_violations": (0, None), "ship_games": players, "ship_wins": ONCE,
                  "mascot_games": players, "mascot_wins": ONCE}
        at_most = [("ship_wins", "ship_games"), ("mascot_wins", "mascot_games"), ("events_sum", "events_sq")]
        moments = [("events_sum", "events_sq", "games")]
        for kind in ("captain", "route"):
            limits.update({f"{kind}_games": players, f"{kind}_wins": ONCE, f"{kind}_ties": players,
                           f"{kind}_value_sum": SIGNED, f"{kind}_value_sq": SQUARES})
            at_most += [(f"{kind}_wins", f"{kind}_games"), (f"{kind}_ties", f"{kind}_games")]
            moments.append((f"{kind}_value_sum", f"{kind}_value_sq", f"{kind}_games"))
        return TallyRules(limits, at_most, moments)

    def scratch(self, prepared: Prepared) -> Scratch:
        inputs = prepared.inputs
        players = prepared.players
        n_tiles = inputs.tiles.shape[0]
        n_cards = inputs.cards.shape[0]
        n_ships = inputs.ships.shape[0]
        candidates = max(players, n_tiles, n_ships, inputs.mascot_fee.shape[0], inputs.captains.shape[0]) + 1
        game_state = _views_of_one_block(dict(
            players=(players, N_PLAYER_FIELDS), tile_loc=(n_tiles,), pile=(n_tiles,), isla=(n_tiles,),
            life_draw=(n_cards,), life_discard=(n_cards,), ship_owner=(n_ships,),
            mascot_owner=inputs.mascot_fee.shape, captain_free=(inputs.captains.shape[0],), counters=(N_COUNTERS,),
            profile=(players,), rng=(4,)))
        game_state["rng"] = game_state["rng"].view(np.uint64)
        state = dict(
            **game_state,
            saved_state=padded_zeros(game_state["game_state"].shape[0]),
            cand=padded_zeros(candidates),
            cost=padded_zeros(candidates),
            drawn=padded_zeros(2),
            seen=padded_zeros(max(n_tiles, n_cards, n_ships, inputs.mascot_fee.shape[0]) + 1),
            violations=padded_zeros(len(INVARIANTS)),
            parts=padded_zeros((players, N_VALUE_PARTS)),
            search=padded_zeros(N_SEARCH_FIELDS),
            search_key=padded_zeros(N_SEARCH_KEYS, np.uint64),
            fixed=padded_zeros(MAX_SEARCHED_DECISIONS),
            option_values=padded_zeros(candidates + 2, np.float64),  # the most options: Acquire Vessel's
            option_squares=padded_zeros(candidates + 2, np.float64),
            deal=padded_zeros(n_tiles),
            rollout_scores=padded_zeros(players),
        )
        return Scratch(**state, match=make_match(inputs, state))

    def check_chunk(self, prepared: Prepared, aggregates: dict[str, np.ndarray]) -> None:
        """Refuse a chunk in which the kernel broke one of the game's invariants (checking mode)."""
        counts = aggregates["invariant_violations"]
        if counts.any():
            broken = ", ".join(f"{name} {int(count)}" for name, count in zip(INVARIANTS, counts, strict=True) if count)
            raise RuntimeError(f"dead-mans-chest: the kernel broke the game's invariants ({broken} violations)")

    def mechanics(self, prepared: Prepared) -> tuple[Mechanic, ...]:
        return MECHANICS

    def components(self, prepared: Prepared) -> tuple[Component, ...]:
        """What each player holds at the end (presence: captains, start routes, ships, mascots),
        then what every player meets (per draw: the space kinds landed on but the start, the LIFE
        card actions drawn), in the kernel's order (``kernel.note_measures``)."""
        facts = prepared.facts
        random = prepared.rules.get(RANDOM_CAPTAINS[0]) == RANDOM_CAPTAINS[1]
        assigned = {"origin": ASSIGNED, "evidence": RANDOM_ASSIGNMENT if random else None,
                    "randomize": "=".join(RANDOM_CAPTAINS)}
        return (*(Component(name, "captain", attributes=(("loot", loot),), table="captains", **assigned)
                  for name, loot in zip(facts["captain_names"], facts["captain_loot"], strict=True)),
                *(Component(name, "start route", **assigned) for name in facts["route_titles"]),
                *(Component(name, "ship at the end", origin=ACQUIRED, table="ships", price="fee",
                            attributes=(("fee", fee), ("combat", combat)))
                  for name, fee, combat in zip(facts["ship_names"], facts["ship_fees"], facts["ship_combat"],
                                               strict=True)),
                *(Component(name, "mascot", origin=ACQUIRED, table="mascots", price="fee", attributes=(("fee", fee),))
                  for name, fee in zip(facts["mascot_names"], facts["mascot_fees"], strict=True)),
                *(Component(f"{kind.replace('_', ' ')} space", "board space", PER_DRAW) for kind in SPACE_KINDS[1:]),
                *(Component(f"LIFE card: {action.replace('_', ' ')}", "LIFE card", PER_DRAW)
                  for action in CARD_ACTIONS))

    def component_tables(self, rules: dict[str, Any]) -> tuple[ComponentTable, ...]:
        """The component file's numbers (see :mod:`component_tables`)."""
        return component_tables.tables(load_components(rules["components"]))

    def game_stats(self, totals, prepared: Prepared) -> dict[str, Any]:
        return stats_module.game_stats(totals, prepared)

    def game_stats_table(self, stats: dict[str, Any]) -> str:
        return stats_module.format_table(stats)


def _views_of_one_block(shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """Zeroed int64 arrays of these shapes carved from one padded block, and the block
    itself as ``game_state``."""
    sizes = [math.prod(shape) for shape in shapes.values()]
    block = padded_zeros(sum(sizes))
    views = {"game_state": block}
    at = 0
    for (name, shape), size in zip(shapes.items(), sizes, strict=True):
        views[name] = block[at:at + size].reshape(shape)
        at += size
    return views


GAME = DeadMansChest()
