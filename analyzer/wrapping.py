"""Text laid out for a terminal: 80 columns (or a wider terminal's width), never breaking a word.

Prose wraps at spaces only: a path (``scenarios/skull-island/target-8000.toml``), a
hyphenated name or a number is never split. A command (``analyze ...`` up to the end of
its sentence) is kept whole on one line; one longer than the width stands on its own
lines, broken between its arguments, each line but the last ending in `` \\`` so the
lines still paste into a shell as one command.
"""

from __future__ import annotations

import re
import shutil

#: the width every command's output and help fit when the terminal is not wider
COLUMNS = 80
#: the word that starts a command inside prose
COMMAND_WORD = "analyze"
#: the indent of a command's continuation lines (below its first line)
CONTINUATION_INDENT = "    "
#: a token that ends a command: it ends a sentence or a clause
_ENDS_COMMAND = re.compile(r"[.,;)]$|[:]$")


def output_width(stream=None) -> int:
    """80 columns, or the terminal's width when the output is a terminal wider than that."""
    try:
        if stream is not None and not stream.isatty():
            return COLUMNS
        columns = shutil.get_terminal_size((COLUMNS, 24)).columns
    except (AttributeError, OSError, ValueError):
        return COLUMNS
    return max(COLUMNS, columns)


def _is_argument(token: str, previous: str) -> bool:
    """Whether ``token`` goes on with a command whose last token was ``previous``: an option, an
    option's value, or a file or setting (a path, ``name=value``); a plain word is prose again."""
    return token.startswith("-") or previous.startswith("-") or any(mark in token for mark in "/=.")


def _units(text: str) -> list[tuple[str, list[str]]]:
    """``text`` as ``("word", [word])`` and ``("command", [tokens])`` units, split at spaces: a
    command is ``analyze``, its subcommand and the arguments after it (to the end of a clause)."""
    tokens = text.split()
    units: list[tuple[str, list[str]]] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.lstrip("`(\"'") == COMMAND_WORD and index + 1 < len(tokens) and not _ENDS_COMMAND.search(token):
            command = [token, tokens[index + 1]]
            index += 2
            while index < len(tokens) and not (_ENDS_COMMAND.search(command[-1]) or command[-1].endswith("`")) \
                    and _is_argument(tokens[index], command[-1]):
                command.append(tokens[index])
                index += 1
            units.append(("command", command))
        else:
            units.append(("word", [token]))
            index += 1
    return units


def _arguments(tokens: list[str]) -> list[str]:
    """A command's tokens grouped as they belong together: an option with its value."""
    groups: list[str] = []
    for token in tokens:
        if groups and groups[-1].startswith("-") and " " not in groups[-1] and not token.startswith("-"):
            groups[-1] += " " + token
        else:
            groups.append(token)
    return groups


def command_lines(tokens: list[str], width: int, indent: str = "") -> list[str]:
    """A command too long for one line: broken between arguments, `` \\`` ending every line but
    the last, continuation lines indented (an argument longer than a line stands alone)."""
    lines: list[str] = []
    current = indent
    for argument in _arguments(tokens):
        if current.strip() and len(current) + 1 + len(argument) + 2 > width:
            lines.append(current + " \\")
            current = indent + CONTINUATION_INDENT + argument
        else:
            current = f"{current} {argument}" if current.strip() else indent + argument
    lines.append(current)
    return lines


def wrap(text: str, width: int | None = None, indent: str = "", subsequent_indent: str | None = None) -> list[str]:
    """``text`` as lines of at most ``width`` characters (default :func:`output_width`), broken
    at spaces only; a command whole on one line, or on its own lines with `` \\``."""
    width = output_width() if width is None else width
    subsequent_indent = indent if subsequent_indent is None else subsequent_indent
    lines: list[str] = []
    current, prefix = "", indent

    def flush():
        nonlocal current, prefix
        if current:
            lines.append(prefix + current)
            prefix, current = subsequent_indent, ""

    for kind, tokens in _units(text):
        piece = " ".join(tokens)
        room = width - len(prefix)
        if current and len(current) + 1 + len(piece) <= room:
            current += " " + piece
        elif len(piece) <= width - len(subsequent_indent if current else prefix) or kind == "word":
            flush()
            current = piece
        else:
            flush()
            lines.extend(command_lines(tokens, width, prefix))
            prefix = subsequent_indent
    flush()
    return lines or [indent.rstrip()]


def fill(text: str, width: int | None = None, indent: str = "", subsequent_indent: str | None = None) -> str:
    """:func:`wrap`'s lines joined by newlines."""
    return "\n".join(wrap(text, width, indent, subsequent_indent))
