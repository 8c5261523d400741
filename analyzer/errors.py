"""The one exception type for bad input: the CLI prints its message as one line, exit 2.

A message names the API's parameters through :func:`param` (``param("n")``); the
exception reads with the parameter names themselves (``n``), and the CLI words the same
message with its flags (``--n``, see :meth:`AnalyzerError.worded`). Every message is
made safe to print: one line, control and bidirectional formatting characters escaped,
at most ``MAX_MESSAGE_CHARS`` characters, so no input can flood or garble a terminal.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable

#: the longest error line; a longer message is cut (a large value is never echoed whole)
MAX_MESSAGE_CHARS = 300
#: the marks around a parameter name in a message (no command line or file name holds NUL)
_MARK = "\x00"
_PARAMETER = re.compile(f"{_MARK}([a-z_]+){_MARK}")
#: the bidirectional formatting characters (they can make text read in another order)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def param(name: str) -> str:
    """The API parameter ``name`` inside a message: its own name in the API, its flag on the command line."""
    return f"{_MARK}{name}{_MARK}"


def safe_text(text: str, keep: str = "") -> str:
    """``text`` with control and bidirectional formatting characters escaped (``\\u202e``),
    except those in ``keep``: text from a file shown as written, never as the terminal or
    a PDF would act on it."""
    def unsafe(char: str) -> bool:
        return char not in keep and (char in BIDI_CONTROLS or unicodedata.category(char) == "Cc")

    if not any(unsafe(char) for char in text):
        return text
    return "".join(char.encode("unicode_escape").decode("ascii") if unsafe(char) else char for char in text)


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """The first line of ``text``, safe to print and at most ``limit`` characters long."""
    first = text.partition("\n")[0].splitlines()
    line = first[0] if first else ""
    shown = safe_text(line[:limit])
    if len(shown) < len(line) or len(shown) > limit:
        shown = shown[:limit - 1] + "…"
    return shown


def closest_first(name: str, allowed: Iterable[str], budget: int = 150) -> str:
    """The ``allowed`` names joined by commas, the closest to ``name`` (a misspelling) first,
    cut at a whole name to fit ``budget`` characters with how many more there are: an error
    that lists them shows the likely one even where the list is long."""
    names = list(dict.fromkeys(allowed))
    if not names:
        return "none"
    typed = str(name)[:100].lower()
    names.sort(key=lambda candidate: (-difflib.SequenceMatcher(None, typed, candidate.lower()).ratio(), candidate))
    shown: list[str] = []
    for index, candidate in enumerate(names):
        rest = len(names) - index - 1
        tail = f", and {rest} more" if rest else ""
        if shown and len(", ".join([*shown, candidate])) + len(tail) > budget:
            return ", ".join(shown) + f", and {len(names) - index} more"
        shown.append(candidate)
    return ", ".join(shown)


def shortened(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with ``…``: a value echoed in a message leaves room for the rest."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class AnalyzerError(ValueError):
    """Bad input of any kind (unknown game, bad option, malformed scenario, ...).

    The message is a single line that names the problem; the CLI prints it as is,
    with its flags for the parameters the message names.
    """

    def __init__(self, message: str):
        self.template = message
        super().__init__(self.worded(lambda name: name))

    def worded(self, word: Callable[[str], str]) -> str:
        """The message, one safe line, with each parameter written ``word(name)``."""
        return one_line(_PARAMETER.sub(lambda match: word(match.group(1)), self.template))
