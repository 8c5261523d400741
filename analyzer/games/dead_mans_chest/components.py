"""The game's components: board, captains, ships, mascots, LIFE tiles and LIFE cards.

The printed components are not in the rulebook, so the game reads them from a file
(see :mod:`component_file`); :class:`Components` is what it holds, and turns into the
kernel's arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.games.dead_mans_chest.layout import (
    CARD_ACTIONS,
    SHARED_SPACES,
    SPACE_KINDS,
    STOP_SPACES,
)


@dataclass(frozen=True)
class Space:
    kind: str
    amount: int
    text: str
    segment: str


@dataclass(frozen=True)
class Route:
    """A start route: its start segment and every space from its start to Isla Cruces."""

    name: str
    title: str
    spaces: tuple[int, ...]  # indices into Components.spaces, start first

    @property
    def start(self) -> int:
        return self.spaces[0]


@dataclass(frozen=True)
class Captain:
    name: str
    route: int  # index into Components.routes
    loot: int


@dataclass(frozen=True)
class Ship:
    name: str
    rank: str
    fee: int
    combat: int
    black_pearl: bool


@dataclass(frozen=True)
class Mascot:
    name: str
    fee: int


@dataclass(frozen=True)
class Tile:
    value: int
    mascot: int  # index into Components.mascots, or NO_MASCOT


@dataclass(frozen=True)
class Card:
    action: str
    amount: int
    text: str


@dataclass(frozen=True)
class Components:
    path: str
    sha256: str
    name: str
    spaces: tuple[Space, ...]
    next_space: tuple[int, ...]  # NO_SPACE after Isla Cruces
    routes: tuple[Route, ...]
    captains: tuple[Captain, ...]
    ships: tuple[Ship, ...]
    mascots: tuple[Mascot, ...]
    tiles: tuple[Tile, ...]
    cards: tuple[Card, ...]

    def route_index(self, name: str) -> int:
        for index, route in enumerate(self.routes):
            if route.name == name:
                return index
        raise AnalyzerError(
            f"components file {self.path}: no start route {name!r}; start routes: "
            + ", ".join(r.name for r in self.routes)
        )

    def loot_spaces(self, route: int) -> int:
        """Share the Loot spaces a ship passes from this start to Isla Cruces."""
        return sum(self.spaces[i].kind == "share_the_loot" for i in self.routes[route].spaces)

    def board_arrays(self, loot_multiplier: float, start_route: str | None) -> dict[str, np.ndarray]:
        """The kernel's arrays of the components (fields of ``kernel.Inputs``); ``start_route``
        (a route name) overrides every captain's start."""
        spaces = np.zeros((len(self.spaces), 5), np.int64)
        for index, space in enumerate(self.spaces):
            spaces[index] = (
                SPACE_KINDS.index(space.kind), space.amount, self.next_space[index],
                space.kind in STOP_SPACES, space.kind in SHARED_SPACES,
            )
        forced = None if start_route is None else self.route_index(start_route)
        captains = np.zeros((len(self.captains), 3), np.int64)
        for index, captain in enumerate(self.captains):
            route = captain.route if forced is None else forced
            loot = int(round(captain.loot * loot_multiplier))
            captains[index] = (route, loot, loot * self.loot_spaces(route))
        return dict(
            spaces=spaces,
            route_start=np.array([r.start for r in self.routes], np.int64),
            captains=captains,
            ships=np.array([(s.fee, s.combat, s.black_pearl) for s in self.ships], np.int64).reshape(-1, 3),
            mascot_fee=np.array([m.fee for m in self.mascots], np.int64),
            tiles=np.array([(t.value, t.mascot) for t in self.tiles], np.int64).reshape(-1, 2),
            cards=np.array([(CARD_ACTIONS.index(c.action), c.amount) for c in self.cards], np.int64).reshape(-1, 2),
        )


def check_for_players(components: Components, players: int, isla_cruces_tiles: int) -> None:
    """Checks that depend on the player count and the rules."""
    where = f"components file {components.path}"
    if len(components.captains) < players + 1:
        raise AnalyzerError(f"{where}: {len(components.captains)} captains for {players} players; the draft needs "
                            f"at least players + 1 = {players + 1}")
    if len(components.ships) < players + 1:
        raise AnalyzerError(f"{where}: {len(components.ships)} ships for {players} players; the Shipyard needs "
                            f"at least players + 1 = {players + 1}")
    if len(components.tiles) < isla_cruces_tiles:
        raise AnalyzerError(f"{where}: {len(components.tiles)} LIFE tiles but isla_cruces_tiles = "
                            f"{isla_cruces_tiles} go on Isla Cruces")
