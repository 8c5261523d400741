"""A game's component data as parameters: ``TABLE[NAME].FIELD`` and ``TABLE[FIELD=VALUE].FIELD``.

A game declares its component data as tables (:meth:`Game.component_tables`): named rows
of typed numbers (a captain's loot, a ship's fee, a card's count), each row optionally
with text tags to select it by (a LIFE card's action). Every number is then a
parameter that ``--set``, a scenario's ``[rules]``, ``sweep --param`` and ``balance
--param`` accept, parsed and validated here:

- ``captains[Cutler Beckett].loot=225``: one row, by name;
- ``captains[loot=250].loot=225``: a group, every row whose ``loot`` (or tag) is 250
  as the table stands when this override is applied;
- ``captains[*].loot=225``: every row.

Overrides apply in the order given, so a later one wins. A table declared with
``option`` is a view of that ``int_map`` rule option (a deck's card counts): its
override is written into the option itself. The others are kept in the rules under
their canonical key (``captains[Cutler Beckett].loot``) and the game applies them
while preparing its kernel inputs (:func:`table_values_of`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.games.options import Option

#: the selector of every row
ALL_ROWS = "*"
#: the most characters an error line of this module takes
MAX_ERROR_CHARS = 300
_ROWS = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*\[(.*)\]\s*$", re.S)
_KEY = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*\[(.*)\]\s*\.\s*([A-Za-z_][\w-]*)\s*$", re.S)


@dataclass(frozen=True)
class ComponentRow:
    """One component: its name, its numbers by field, and text tags it may be selected by."""

    name: str
    values: dict[str, int | float]
    tags: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ComponentTable:
    """A table of a game's component data: ``fields`` type and bound every row's numbers
    (an :class:`Option` per field, its name the field's). ``option`` names the ``int_map``
    rule option the table is a view of (one field: the count of each entry), or None.
    ``component_kind``: the ``Component.kind`` its rows are measured as, under their names
    (e.g. ``captain``), or None."""

    name: str
    rows: tuple[ComponentRow, ...]
    fields: tuple[Option, ...]
    option: str | None = None
    component_kind: str | None = None

    def field_option(self, name: str) -> Option:
        for option in self.fields:
            if option.name == name:
                return option
        raise KeyError(name)


def option_view(table: str, option: Option, rules: dict[str, Any], field_name: str = "count") -> ComponentTable:
    """A table over the ``int_map`` rule ``option`` (e.g. a deck's card counts): one row per entry."""
    number = Option(field_name, "int", 0, option.description, low=option.low, high=option.high)
    return ComponentTable(table, tuple(ComponentRow(name, {field_name: count})
                                       for name, count in rules[option.name].items()), (number,), option.name)


@dataclass(frozen=True)
class ComponentKey:
    """A parsed ``TABLE[SELECTOR].FIELD``; ``selector`` is a row name, ``FIELD=VALUE`` or ``*``."""

    table: str
    selector: str
    field: str

    @property
    def text(self) -> str:
        return f"{self.table}[{self.selector}].{self.field}"


def is_component_key(name: str) -> bool:
    """Whether a rule name is a component parameter (rule option names have no brackets)."""
    return "[" in name


def split_assignment(text: str) -> tuple[str, str] | None:
    """``NAME=VALUE`` -> (NAME, VALUE), or None without ``=``. A component parameter's group
    selector has its own ``=`` inside the brackets: its value follows the first ``=`` after them."""
    equals, bracket = text.find("="), text.find("[")
    if 0 <= bracket < equals:
        closing = text.find("]", bracket)
        equals = text.find("=", closing) if closing >= 0 else -1
    if equals < 0:
        return None
    return text[:equals], text[equals + 1:]


def parse_key(text: str, where: str) -> ComponentKey:
    match = _KEY.match(text)
    if match is None or not match.group(2).strip():
        raise AnalyzerError(_short(f"{where}: {text!r} must be written TABLE[NAME].FIELD, TABLE[FIELD=VALUE].FIELD "
                                   f"or TABLE[*].FIELD"))
    table, selector, field_name = match.groups()
    return ComponentKey(table, selector.strip(), field_name)


def _short(line: str) -> str:
    return line if len(line) <= MAX_ERROR_CHARS else line[:MAX_ERROR_CHARS - 1] + "…"


def _closest(wrong: str, names: list[str]) -> str:
    """``names`` closest to ``wrong`` first (as many as fit an error line)."""
    ranked = sorted(names, key=lambda name: -difflib.SequenceMatcher(None, wrong.lower(), name.lower()).ratio())
    return ", ".join(ranked)


def _table(tables: tuple[ComponentTable, ...], key: ComponentKey, game_id: str, where: str) -> ComponentTable:
    for table in tables:
        if table.name == key.table:
            return table
    if not tables:
        raise AnalyzerError(f"{where}: {game_id} has no component tables to set ({key.text})")
    raise AnalyzerError(_short(f"{where}: {game_id} has no component table {key.table!r}; tables: "
                               + _closest(key.table, [t.name for t in tables])))


def _field(table: ComponentTable, key: ComponentKey, where: str) -> Option:
    try:
        return table.field_option(key.field)
    except KeyError:
        raise AnalyzerError(_short(f"{where}: {table.name} has no number {key.field!r}; numbers: "
                                   + _closest(key.field, [o.name for o in table.fields]))) from None


def _matches(row: ComponentRow, field_name: str, wanted: str) -> bool:
    if field_name in row.tags:
        return row.tags[field_name] == wanted
    try:
        return float(row.values[field_name]) == float(wanted.replace("_", ""))
    except ValueError:
        return False


def _selected(table: ComponentTable, key: ComponentKey, where: str) -> list[int]:
    """Indices of the rows ``key`` selects; an unknown name or a group of no row is an error."""
    names = [row.name for row in table.rows]
    if key.selector == ALL_ROWS:
        return list(range(len(table.rows)))
    if key.selector in names:
        return [names.index(key.selector)]
    by, sep, wanted = key.selector.partition("=")
    by, wanted = by.strip(), wanted.strip()
    if not sep:
        raise AnalyzerError(_short(f"{where}: {table.name} has no {key.selector!r}; closest: "
                                   + _closest(key.selector, names)))
    selectable = [o.name for o in table.fields] + sorted({tag for row in table.rows for tag in row.tags})
    if by not in selectable:
        raise AnalyzerError(_short(f"{where}: {table.name} cannot be grouped by {by!r}; by: "
                                   + _closest(by, selectable)))
    rows = [i for i, row in enumerate(table.rows) if _matches(row, by, wanted)]
    if not rows:
        seen = sorted({str(row.tags.get(by, row.values.get(by))) for row in table.rows})
        raise AnalyzerError(_short(f"{where}: no row of {table.name} has {by} = {wanted}; values: "
                                   + ", ".join(seen)))
    return rows


def _with_override(table: ComponentTable, key: ComponentKey, value: Any, where: str) -> ComponentTable:
    rows = list(table.rows)
    for index in _selected(table, key, where):
        rows[index] = replace(rows[index], values={**rows[index].values, key.field: value})
    return replace(table, rows=tuple(rows))


def _applied(tables: tuple[ComponentTable, ...], rules: dict[str, Any], game_id: str) -> dict[str, ComponentTable]:
    """The tables with the rules' stored overrides applied, in the order given."""
    current = {table.name: table for table in tables}
    for name, value in rules.items():
        if is_component_key(name):
            key = parse_key(name, "rules")
            table = _table(tables, key, game_id, "rules")
            current[table.name] = _with_override(current[table.name], key, value, "rules")
    return current


def selected_rows(game, rules: dict[str, Any], text: str, where: str) -> tuple[ComponentTable, list[str], list[str]]:
    """``TABLE[SELECTOR]`` -> (the table as the rules leave it, names of the rows selected, of the others)."""
    match = _ROWS.match(text)
    if match is None or not match.group(2).strip():
        raise AnalyzerError(_short(f"{where}: {text!r} must be written TABLE[NAME], TABLE[FIELD=VALUE] or TABLE[*]"))
    key = ComponentKey(match.group(1), match.group(2).strip(), "")
    table = _table(tables_under(game, rules), key, game.id, where)
    chosen = set(_selected(table, key, where))
    names = [row.name for row in table.rows]
    return table, [n for i, n in enumerate(names) if i in chosen], [n for i, n in enumerate(names) if i not in chosen]


def component_option(game, rules: dict[str, Any], name: str, where: str) -> Option:
    """The parameter ``name`` (``TABLE[SELECTOR].FIELD``) of ``game`` under ``rules`` as a typed option
    named by its canonical key, its default the selected rows' current value (the first row's for a
    group); raise AnalyzerError with one line when the table, row or field is unknown."""
    key = parse_key(name, where)
    table = _table(tables_under(game, rules), key, game.id, where)
    number = _field(table, key, where)
    first = _selected(table, key, where)[0]
    description = f"{key.field} of {'every row' if key.selector == ALL_ROWS else key.selector} in {table.name}"
    return replace(number, name=key.text, default=table.rows[first].values[key.field], description=description)


def set_component(game, rules: dict[str, Any], name: str, value: Any, where: str, from_text: bool) -> dict[str, Any]:
    """``rules`` with the parameter ``name`` set to ``value`` (validated; text parsed when ``from_text``).

    A table that views a rule option changes that option; any other keeps the override
    under its canonical key, moved to the end so that it applies last.
    """
    option = component_option(game, rules, name, where)
    value = option.parse_text(value, where) if from_text else option.validate(value, where)
    key = parse_key(option.name, where)
    table = next(t for t in game.component_tables(rules) if t.name == key.table)
    changed = dict(rules)
    if table.option is not None:
        counts = dict(changed[table.option])
        for index in _selected(table, key, where):
            counts[table.rows[index].name] = value
        changed[table.option] = counts
        return changed
    changed.pop(key.text, None)
    changed[key.text] = value
    return changed


def table_values_of(tables: tuple[ComponentTable, ...], rules: dict[str, Any]) -> dict[str, dict[str, dict]]:
    """Table name -> row name -> field -> value of ``tables`` with the rules' overrides applied (for a
    game's ``prepare``; the tables a rule option views read that option, so need none of this)."""
    return {name: {row.name: dict(row.values) for row in table.rows}
            for name, table in _applied(tables, rules, "the game").items()}


def kept_under(game, rules: dict[str, Any], name: str) -> str:
    """The rule a parameter is kept under in ``rules``: the option its table views (a deck's counts),
    else its canonical key; a rule option's own name."""
    if not is_component_key(name):
        return name
    key = parse_key(name, "rules")
    table = next((t for t in game.component_tables(rules) if t.name == key.table), None)
    return table.option if table is not None and table.option is not None else key.text


def tables_under(game, rules: dict[str, Any]) -> tuple[ComponentTable, ...]:
    """The game's component tables with the rules' overrides applied (the numbers a run plays)."""
    return tuple(_applied(game.component_tables(rules), rules, game.id).values())


def has_overrides(rules: dict[str, Any]) -> bool:
    return any(is_component_key(name) for name in rules)


def describe_tables(game, rules: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables as ``analyze rules`` lists them: name, fields with type and bounds, rows, groups."""
    return [{"table": table.name, "fields": [o.describe() for o in table.fields],
             "rows": [row.name for row in table.rows], "group_by": sorted({t for r in table.rows for t in r.tags}),
             **({"option": table.option} if table.option else {})}
            for table in game.component_tables(rules)]
