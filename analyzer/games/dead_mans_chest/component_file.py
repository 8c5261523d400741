"""The component file: the game's components as TOML.

The packaged ``components.toml`` is a documented reconstruction; the rule option
``components`` names another file in the same format. Loading validates everything and
raises ``AnalyzerError`` with one line naming the file and the problem.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.files import MAX_COMPONENTS_BYTES, parse_toml, read_input
from analyzer.games.dead_mans_chest.components import Captain, Card, Components, Mascot, Route, Ship, Space, Tile
from analyzer.games.dead_mans_chest.layout import (
    CARD_ACTIONS,
    MONEY_SPACES,
    NO_MASCOT,
    NO_SPACE,
    SPACE_KINDS,
    TILE_COUNT_ACTIONS,
)

PACKAGED = "packaged"
MAX_AMOUNT = 10**9  # dollars (or tiles) any one number in the file may reach
PACKAGED_PATH = Path(__file__).with_name("components.toml")

_TOP_KEYS = {"name", "description", "board", "captains", "ships", "mascots", "life"}
_LIFE_KEYS = {"tiles", "cards"}


def resolve_path(option_value: str) -> Path:
    """The file the ``components`` option names (``packaged`` = the reconstruction)."""
    if option_value == PACKAGED:
        return PACKAGED_PATH
    return Path(option_value).expanduser().resolve()


def load_components(option_value: str) -> Components:
    """Load and validate the component file named by the ``components`` option."""
    path = resolve_path(option_value)
    try:
        stat = path.stat()
    except OSError:
        raise AnalyzerError(f"components file {path} not found (rule option components)") from None
    return _load_cached(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _load_cached(path: str, _mtime_ns: int, _size: int) -> Components:
    raw = read_input(path, "components file", MAX_COMPONENTS_BYTES)
    data = parse_toml(raw, f"components file {path}")
    return _Parser(path, hashlib.sha256(raw).hexdigest()).parse(data)



class _Parser:
    """Turns the TOML tables into :class:`Components`, failing on the first problem."""

    def __init__(self, path: str, sha256: str):
        self.path = path
        self.sha256 = sha256

    def fail(self, message: str):
        raise AnalyzerError(f"components file {self.path}: {message}")

    # -- small typed readers -------------------------------------------------------------
    def table_list(self, data: dict, key: str, name: str | None = None) -> list[dict]:
        items = data.get(key)
        if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
            self.fail(f"{name or key} must be a non-empty list of tables")
        return items

    def known_keys(self, item: dict, allowed: set[str], where: str) -> None:
        unknown = sorted(set(item) - allowed)
        if unknown:
            self.fail(f"{where} has unknown key {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")

    def text(self, item: dict, key: str, where: str, default: str | None = None) -> str:
        value = item.get(key, default)
        if not isinstance(value, str) or (default is None and not value):
            self.fail(f"{where} needs a text {key}")
        return value

    def amount(self, item: dict, key: str, where: str, what: str = "") -> int:
        value = item.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{where} needs a whole number {key}")
        if value < 0:
            self.fail(f"{where} has a negative {what or key} ({value})")
        if value > MAX_AMOUNT:
            self.fail(f"{where} has a {what or key} above {MAX_AMOUNT:,} ({value})")
        return value

    # -- the sections ------------------------------------------------------------------------
    def parse(self, data: dict) -> Components:
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            self.fail(f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_TOP_KEYS))}")
        life = data.get("life")
        if not isinstance(life, dict):
            self.fail("needs a [life] table with the LIFE tiles and cards")
        self.known_keys(life, _LIFE_KEYS, "[life]")
        spaces, next_space, routes = self.board(self.table_list(data, "board"))
        mascots = self.mascots(self.table_list(data, "mascots"))
        return Components(
            path=self.path,
            sha256=self.sha256,
            name=self.text(data, "name", "the file", default=Path(self.path).stem),
            spaces=spaces,
            next_space=next_space,
            routes=routes,
            captains=self.captains(self.table_list(data, "captains"), routes),
            ships=self.ships(self.table_list(data, "ships")),
            mascots=mascots,
            tiles=self.tiles(self.table_list(life, "tiles", "[life] tiles"), mascots),
            cards=self.cards(self.table_list(life, "cards", "[life] cards")),
        )

    def space(self, entry, where: str, segment: str) -> Space:
        if isinstance(entry, str):
            entry = {"kind": entry}
        if not isinstance(entry, dict):
            self.fail(f"{where} must be a space kind or a table {{kind, amount, text}}")
        self.known_keys(entry, {"kind", "amount", "text"}, where)
        kind = entry.get("kind")
        if kind not in SPACE_KINDS:
            self.fail(f"{where} has unknown kind {kind!r}; kinds: {', '.join(SPACE_KINDS)}")
        if kind in MONEY_SPACES:
            amount = self.amount(entry, "amount", f"{where} ({kind})")
        elif "amount" in entry:
            self.fail(f"{where} ({kind}) takes no amount")
        else:
            amount = 0
        return Space(kind, amount, self.text(entry, "text", where, default=""), segment)

    def board(self, segments: list[dict]):
        names: list[str] = []
        for index, segment in enumerate(segments):
            where = f"board segment {index + 1}"
            self.known_keys(segment, {"name", "title", "spaces", "then"}, where)
            name = self.text(segment, "name", where)
            if name in names:
                self.fail(f"board segment name {name!r} is used twice")
            names.append(name)
            self.text(segment, "title", where, default=name)
            if not isinstance(segment.get("spaces"), list) or not segment["spaces"]:
                self.fail(f"board segment {name!r} needs a non-empty list of spaces")
        for segment in segments:
            then = segment.get("then")
            if then is not None and then not in names:
                self.fail(f"board segment {segment['name']!r} continues into unknown segment {then!r}")

        spaces: list[Space] = []
        first_space: dict[str, int] = {}
        for segment in segments:
            first_space[segment["name"]] = len(spaces)
            for position, entry in enumerate(segment["spaces"]):
                space = self.space(entry, f"space {position + 1} of board segment {segment['name']!r}",
                                   segment["name"])
                if space.kind == "start" and position != 0:
                    self.fail(f"board segment {segment['name']!r}: a start space must come first")
                spaces.append(space)

        next_space = [index + 1 for index in range(len(spaces))]
        for segment in segments:
            last = first_space[segment["name"]] + len(segment["spaces"]) - 1
            then = segment.get("then")
            next_space[last] = NO_SPACE if then is None else first_space[then]
        continued = {s.get("then") for s in segments}
        for segment in segments:
            if spaces[first_space[segment["name"]]].kind == "start" and segment["name"] in continued:
                self.fail(f"board segment {segment['name']!r} begins with a start space but another segment "
                          "continues into it")

        isla = [i for i, s in enumerate(spaces) if s.kind == "isla_cruces"]
        if not isla:
            self.fail("the board has no Isla Cruces space (kind isla_cruces)")
        if len(isla) > 1:
            self.fail(f"the board has {len(isla)} Isla Cruces spaces; it needs exactly one")
        starts = [s["name"] for s in segments if spaces[first_space[s["name"]]].kind == "start"]
        if not starts:
            self.fail("the board has no start route (a segment whose first space is start)")

        routes = []
        reachable: set[str] = set()
        for name in starts:
            routes.append(self.route(name, segments, first_space, spaces, reachable))
        unreachable = [s["name"] for s in segments if s["name"] not in reachable]
        if unreachable:
            self.fail(f"board segment {unreachable[0]!r} cannot be reached from any start")
        return tuple(spaces), tuple(next_space), tuple(routes)

    def route(self, name, segments, first_space, spaces, reachable) -> Route:
        """Follow start segment ``name`` to the end; it must end at Isla Cruces with one Shipyard."""
        by_name = {s["name"]: s for s in segments}
        path: list[int] = []
        seen: set[str] = set()
        segment = name
        while segment is not None:
            if segment in seen:
                self.fail(f"start route {name!r} loops back into board segment {segment!r}")
            seen.add(segment)
            reachable.add(segment)
            first = first_space[segment]
            path.extend(range(first, first + len(by_name[segment]["spaces"])))
            segment = by_name[segment].get("then")
        kinds = [spaces[i].kind for i in path]
        if kinds[-1] != "isla_cruces":
            if "isla_cruces" in kinds:
                self.fail(f"start route {name!r} goes on past Isla Cruces; it must be the route's last space")
            self.fail(f"start route {name!r} does not end at Isla Cruces")
        shipyards = kinds.count("shipyard")
        if shipyards != 1:
            self.fail(f"start route {name!r} passes {shipyards} Shipyards; every route needs exactly one")
        return Route(name, by_name[name].get("title", name), tuple(path))

    def captains(self, items: list[dict], routes: tuple[Route, ...]) -> tuple[Captain, ...]:
        route_names = [r.name for r in routes]
        captains = []
        for index, item in enumerate(items):
            where = f"captain {index + 1}"
            self.known_keys(item, {"name", "start", "loot"}, where)
            name = self.text(item, "name", where)
            start = item.get("start")
            if start not in route_names:
                self.fail(f"captain {name!r} starts at {start!r}, which is not a start on the board "
                          f"(starts: {', '.join(route_names)})")
            captains.append(Captain(name, route_names.index(start), self.amount(item, "loot", f"captain {name!r}")))
        self.unique([c.name for c in captains], "captain")
        return tuple(captains)

    def ships(self, items: list[dict]) -> tuple[Ship, ...]:
        ships = []
        for index, item in enumerate(items):
            where = f"ship {index + 1}"
            self.known_keys(item, {"name", "rank", "fee", "combat", "black_pearl"}, where)
            name = self.text(item, "name", where)
            pearl = item.get("black_pearl", False)
            if not isinstance(pearl, bool):
                self.fail(f"ship {name!r}: black_pearl must be true or false")
            ships.append(Ship(name, self.text(item, "rank", where, default=""),
                              self.amount(item, "fee", f"ship {name!r}", what="fee"),
                              self.amount(item, "combat", f"ship {name!r}", what="combat value"), pearl))
        self.unique([s.name for s in ships], "ship")
        if sum(s.black_pearl for s in ships) > 1:
            self.fail("more than one ship is marked black_pearl")
        return tuple(ships)

    def mascots(self, items: list[dict]) -> tuple[Mascot, ...]:
        mascots = []
        for index, item in enumerate(items):
            where = f"mascot {index + 1}"
            self.known_keys(item, {"name", "fee"}, where)
            name = self.text(item, "name", where)
            mascots.append(Mascot(name, self.amount(item, "fee", f"mascot {name!r}", what="fee")))
        self.unique([m.name for m in mascots], "mascot")
        if len(mascots) > 62:
            self.fail(f"{len(mascots)} mascots; at most 62 are supported")
        return tuple(mascots)

    def tiles(self, items: list[dict], mascots: tuple[Mascot, ...]) -> tuple[Tile, ...]:
        names = [m.name for m in mascots]
        tiles = []
        for index, item in enumerate(items):
            where = f"LIFE tile {index + 1}"
            self.known_keys(item, {"value", "mascot"}, where)
            mascot = item.get("mascot")
            if mascot is not None and mascot not in names:
                self.fail(f"{where} has unknown mascot {mascot!r}; mascots: {', '.join(names)}")
            tiles.append(Tile(self.amount(item, "value", where, what="value"),
                              NO_MASCOT if mascot is None else names.index(mascot)))
        return tuple(tiles)

    def cards(self, items: list[dict]) -> tuple[Card, ...]:
        cards = []
        for index, item in enumerate(items):
            where = f"LIFE card {index + 1}"
            self.known_keys(item, {"action", "amount", "text"}, where)
            action = item.get("action")
            if action not in CARD_ACTIONS:
                self.fail(f"{where} has unknown action {action!r}; actions: {', '.join(CARD_ACTIONS)}")
            amount = self.amount(item, "amount", where)
            if action in TILE_COUNT_ACTIONS and amount < 1:
                self.fail(f"{where} ({action}) must give at least 1 tile")
            cards.append(Card(action, amount, self.text(item, "text", where, default="")))
        return tuple(cards)

    def unique(self, names: list[str], what: str) -> None:
        for name in names:
            if names.count(name) > 1:
                self.fail(f"{what} name {name!r} is used twice")
