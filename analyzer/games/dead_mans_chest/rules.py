"""Dead Man's Chest's rule options (RULES.md, dead-mans-chest section) and their kernel form.

Every (decision) of RULES.md is an option with the documented default; the
(reconstructed) component data is the ``components`` file.
"""

from __future__ import annotations

from analyzer.errors import AnalyzerError
from analyzer.games.component_params import has_overrides, table_values_of
from analyzer.games.dead_mans_chest import component_tables
from analyzer.games.dead_mans_chest.component_file import PACKAGED, load_components
from analyzer.games.dead_mans_chest.components import Components, check_for_players
from analyzer.games.dead_mans_chest.layout import (
    CAPTAIN_DRAFTS,
    DRAFT_STARTS,
    TILE_FROM_PLAYER_MODES,
    UNPAID_LOAN_MODES,
)
from analyzer.games.options import Option

CAPTAIN_DECIDES = "captain"
MONEY = 10**7  # upper bound for dollar options

OPTIONS = (
    Option("components", "str", PACKAGED,
           "component file (board, captains, ships, mascots, LIFE tiles and cards): 'packaged' is the "
           "documented reconstruction, or the path of a TOML file in the same format"),
    Option("draft_start", "choice", "random",
           "who draws captains first (the book's youngest player; the draft then goes clockwise): random = "
           "a seat drawn at random in every game, unrelated to turn order; first-player = seat 1, who also "
           "moves first; last-player = the last seat", choices=DRAFT_STARTS),
    Option("captain_draft", "choice", "draft",
           "draft = each player draws two captains and keeps one (the book); random = each player is dealt "
           "the first captain drawn, no choice (the same draws: a captain's effect measured where chance "
           "alone assigns it)", choices=CAPTAIN_DRAFTS),
    Option("start_money", "int", 2000, "dollars each player starts with", low=0, high=MONEY),
    Option("start_route", "str", CAPTAIN_DECIDES,
           "'captain': each captain's card names the start; or a start route of the board (e.g. "
           "'landlubber') that every player starts from"),
    Option("loot_multiplier", "float", 1.0, "each captain's Share the Loot amount is multiplied by this",
           low=0, high=100),
    Option("loans", "bool", True,
           "players short of money borrow from the treasury; false: a debt cash and tiles cannot cover is "
           "paid as far as they go and the rest is forgiven, and a player stuck at the Shipyard sails on "
           "without a ship"),
    Option("loan_amount", "int", 2000, "dollars per loan", low=1, high=MONEY),
    Option("loan_interest", "int", 500, "interest due on each loan when it is repaid", low=0, high=MONEY),
    Option("unpaid_loan", "choice", "subtract",
           "loans are repaid from cash on reaching Isla Cruces; what cash cannot cover is: subtract = "
           "subtracted from the final value, cash_in_tiles = first covered by cashing in LIFE tiles, then "
           "subtracted, forgive = forgiven", choices=UNPAID_LOAN_MODES),
    Option("shipyard_max_waits", "int", 2,
           "turns a player who can afford neither drawn ship waits at the Shipyard; on the next such draw "
           "they borrow to buy the cheaper one", low=0, high=1000),
    Option("raids", "bool", True, "raid spaces attack another player (false: they do nothing)"),
    Option("raid_per_spin", "int", 100, "a winning raider takes this many dollars times a spin",
           low=0, high=MONEY),
    Option("davy_jones_per_spin", "int", 100, "Davy Jones' territory costs this many dollars times a spin",
           low=0, high=MONEY),
    Option("isla_cruces_tiles", "int", 3, "hidden LIFE tiles on Isla Cruces for the first arrivals to pick from",
           low=0, high=100),
    Option("retired_tile_spin", "int", 10, "a retired player takes a LIFE tile on a spin of at least this",
           low=1, high=10),
    Option("retired_take_limit", "int", 1,
           "tiles that may be taken from one retired player in one turn (0: retired players' tiles are safe)",
           low=0, high=100),
    Option("tile_from_player", "choice", "random",
           "a tile taken from another player is drawn at random from theirs (tiles lie face down), or "
           "chosen by the taker (choose)", choices=TILE_FROM_PLAYER_MODES),
    Option("max_turns", "int", 5000,
           "a game still running after this many turns (all players' turns) is stopped and counted as capped",
           low=10, high=10**6),
)


def components_for(rules: dict) -> Components:
    """The component file the rules name, with the rules' ``TABLE[NAME].FIELD`` overrides applied."""
    components = load_components(rules["components"])
    if not has_overrides(rules):
        return components
    values = table_values_of(component_tables.tables(components), rules)
    return component_tables.with_values(components, values)


def forced_route(rules: dict) -> str | None:
    return None if rules["start_route"] == CAPTAIN_DECIDES else rules["start_route"]


def check_rules(rules: dict, players: int) -> Components:
    """Validate the component file against the rules and the player count; return it."""
    components = components_for(rules)
    check_for_players(components, players, rules["isla_cruces_tiles"])
    route = forced_route(rules)
    if route is not None and route not in [r.name for r in components.routes]:
        raise AnalyzerError(
            f"start_route = {route!r} is not allowed; it must be 'captain' or a start route of the board: "
            + ", ".join(r.name for r in components.routes)
        )
    return components


def kernel_rules(rules: dict, components: Components) -> dict[str, int | float | bool]:
    """The rules as plain numbers (fields of ``kernel.Inputs``)."""
    tiles = components.tiles
    return dict(
        draft_start=DRAFT_STARTS.index(rules["draft_start"]),
        captain_draft=CAPTAIN_DRAFTS.index(rules["captain_draft"]),
        start_money=int(rules["start_money"]),
        loans=bool(rules["loans"]),
        loan_amount=int(rules["loan_amount"]),
        loan_interest=int(rules["loan_interest"]),
        unpaid_loan=UNPAID_LOAN_MODES.index(rules["unpaid_loan"]),
        shipyard_max_waits=int(rules["shipyard_max_waits"]),
        raids=bool(rules["raids"]),
        raid_per_spin=int(rules["raid_per_spin"]),
        davy_jones_per_spin=int(rules["davy_jones_per_spin"]),
        isla_cruces_tiles=int(rules["isla_cruces_tiles"]),
        retired_tile_spin=int(rules["retired_tile_spin"]),
        retired_take_limit=int(rules["retired_take_limit"]),
        tile_from_player=TILE_FROM_PLAYER_MODES.index(rules["tile_from_player"]),
        max_turns=int(rules["max_turns"]),
        mean_tile_value=float(sum(t.value for t in tiles) / len(tiles)),
    )
