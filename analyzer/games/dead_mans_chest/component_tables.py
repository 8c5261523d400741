"""The component file's numbers as parameters (``--set "captains[Cutler Beckett].loot=225"``).

Named components are rows by their name (captains, ships, mascots); the LIFE tiles and
cards by their place in the file (``cards[12].amount``), and the board's money spaces by
segment and place (``spaces[main 2].amount``, the second space of the main route). Tags
select groups: a card's ``action``, a space's ``kind`` and ``segment``, a tile's ``mascot``.
"""

from __future__ import annotations

from dataclasses import replace

from analyzer.errors import AnalyzerError
from analyzer.games.component_params import ComponentRow, ComponentTable
from analyzer.games.dead_mans_chest.components import Components
from analyzer.games.dead_mans_chest.layout import MONEY_SPACES, NO_MASCOT, TILE_COUNT_ACTIONS
from analyzer.games.options import Option

#: the largest amount a parameter may take (as in the component file)
MAX_AMOUNT = 10**9


def _amount(name: str, what: str, low: int = 0) -> Option:
    return Option(name, "int", 0, what, low=low, high=MAX_AMOUNT)


def _money_spaces(components: Components) -> list[tuple[int, str]]:
    """(index, row name) of every collect or pay space: ``segment place`` (place from 1)."""
    rows, place, segment = [], 0, None
    for index, space in enumerate(components.spaces):
        place = place + 1 if space.segment == segment else 1
        segment = space.segment
        if space.kind in MONEY_SPACES:
            rows.append((index, f"{space.segment} {place}"))
    return rows


def tables(components: Components) -> tuple[ComponentTable, ...]:
    """The numbers of ``components`` as tables."""
    mascots = [m.name for m in components.mascots]
    return (
        ComponentTable("captains", tuple(ComponentRow(c.name, {"loot": c.loot}) for c in components.captains),
                       (_amount("loot", "dollars per Share the Loot space"),), component_kind="captain"),
        ComponentTable("ships", tuple(ComponentRow(s.name, {"fee": s.fee, "combat": s.combat}, {"rank": s.rank})
                                      for s in components.ships),
                       (_amount("fee", "the ship's price and value"), _amount("combat", "the ship's combat value"))),
        ComponentTable("mascots", tuple(ComponentRow(m.name, {"fee": m.fee}) for m in components.mascots),
                       (_amount("fee", "the mascot's price and value"),)),
        ComponentTable("tiles", tuple(ComponentRow(str(i + 1), {"value": t.value},
                                                   {"mascot": "none" if t.mascot == NO_MASCOT else mascots[t.mascot]})
                                      for i, t in enumerate(components.tiles)),
                       (_amount("value", "the LIFE tile's value in dollars"),)),
        ComponentTable("cards", tuple(ComponentRow(str(i + 1), {"amount": c.amount}, {"action": c.action})
                                      for i, c in enumerate(components.cards)),
                       (_amount("amount", "the LIFE card's amount (dollars, or tiles)"),)),
        ComponentTable("spaces", tuple(ComponentRow(name, {"amount": components.spaces[i].amount},
                                                    {"kind": components.spaces[i].kind,
                                                     "segment": components.spaces[i].segment})
                                       for i, name in _money_spaces(components)),
                       (_amount("amount", "dollars the space collects or pays"),)),
    )


def with_values(components: Components, values: dict[str, dict[str, dict[str, int]]]) -> Components:
    """``components`` with the numbers of ``values`` (:func:`~analyzer.games.component_params.table_values`)."""
    captains, ships, mascots = values["captains"], values["ships"], values["mascots"]
    tiles, cards = list(values["tiles"].values()), list(values["cards"].values())
    spaces = list(components.spaces)
    for index, name in _money_spaces(components):
        spaces[index] = replace(spaces[index], amount=values["spaces"][name]["amount"])
    changed = replace(
        components,
        captains=tuple(replace(c, loot=captains[c.name]["loot"]) for c in components.captains),
        ships=tuple(replace(s, **ships[s.name]) for s in components.ships),
        mascots=tuple(replace(m, **mascots[m.name]) for m in components.mascots),
        tiles=tuple(replace(t, **v) for t, v in zip(components.tiles, tiles, strict=True)),
        cards=tuple(replace(c, **v) for c, v in zip(components.cards, cards, strict=True)),
        spaces=tuple(spaces),
    )
    for place, card in enumerate(changed.cards):
        if card.action in TILE_COUNT_ACTIONS and card.amount < 1:
            raise AnalyzerError(f"cards[{place + 1}].amount = 0 is not allowed: a {card.action} card must give at "
                                f"least 1 tile")
    return changed
