"""What a game's statistics mean, read from the game's documentation (``docs/<game id>.md``).

Each game documents its ``game_stats`` keys in a section whose heading names
`` `game_stats` ``: a table (`` | `key`, `.other` | meaning | ``) or running text where a
key is followed by its definition in brackets (`` `final_rounds_cancelled` (the trigger
fell below the target) ``) in a list item. Where the documentation is not installed, there is no
glossary and the report shows the key in words.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
_SECTION = re.compile(r"^#+ [^\n]*`game_stats`[^\n]*\n(.*?)(?=^#+ |\Z)", re.MULTILINE | re.DOTALL)
_KEY = re.compile(r"`([^`]+)`")
#: the prefix of a key defined in passing (in brackets after it), which holds wherever it is nested
INLINE = "*"
_INLINE = re.compile(r"`([A-Za-z_][\w.]*)` \(([^()]+)\)")


def _plain(text: str) -> str:
    """Documentation text in plain words: a `code_key` in it becomes words (code key)."""
    text = _KEY.sub(lambda match: match.group(1).replace("_", " "), text)
    return " ".join(text.split())


def _listed(section: str) -> list[str]:
    """The lines of the section's list items and table rows (not of its running paragraphs)."""
    lines, inside = [], False
    for line in section.splitlines():
        inside = line.startswith(("- ", "|")) or (inside and line.startswith("  ") and line.strip() != "")
        if inside:
            lines.append(line)
    return lines


def _one_each(meaning: str, count: int) -> list[str]:
    """The meaning of each of ``count`` keys defined in one row: its own part where the row lists one per
    key ("rounds that ended ...; their share; parrots left in all", or "refills: count, per round, ..."),
    else the whole meaning for each."""
    parts = meaning.split("; ")
    if count > 1 and len(parts) == count:
        return [parts[0]] + [f"{part} ({parts[0]})" if part.startswith("their ") else part for part in parts[1:]]
    head, _, tail = meaning.partition(": ")
    items = tail.split(", ")
    if count > 1 and tail and len(items) == count:
        return [f"{head}: {item}" for item in items]
    return [meaning] * count


def parse(text: str) -> dict[str, str]:
    """Key (dotted for nested keys; ``INLINE`` + key for keys defined in passing) -> meaning,
    from the documentation ``text``."""
    entries: dict[str, str] = {}
    for section in _SECTION.findall(text):
        for line in section.splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
            if len(cells) < 2 or "`" not in cells[0]:
                continue
            prefix, keys = "", []
            for key in _KEY.findall(cells[0]):
                if key.startswith("."):
                    key = prefix + key[1:]
                else:
                    prefix = key.rsplit(".", 1)[0] + "." if "." in key else ""
                keys.append(key)
            for key, said in zip(keys, _one_each(_plain(cells[1]), len(keys)), strict=True):
                entries.setdefault(key, said)
        for key, meaning in _INLINE.findall(" ".join(_listed(section))):
            entries.setdefault(INLINE + key, _plain(meaning))
    return entries


@functools.cache
def glossary(game_id: str) -> dict[str, str]:
    """The meanings of ``game_id``'s statistics, or nothing when its documentation is absent."""
    path = DOCS / f"{game_id}.md"
    return parse(path.read_text(encoding="utf-8")) if path.is_file() else {}


def meaning(entries: dict[str, str], path: tuple[str, ...]) -> str:
    """The meaning of the statistic at ``path``: its dotted key's, else one defined in passing
    for its own name (wherever it is nested)."""
    return entries.get(".".join(path)) or entries.get(INLINE + path[-1], "")
