"""Every file ``analyze`` reads or writes, made safe against hostile names and contents.

Inputs (scenarios, component files, checkpoints) are read by :func:`read_input`: a
regular file only (a folder, device, FIFO or socket is refused by name, and a FIFO is
never waited on), at most a size no real file of its kind reaches, and nested at most
``MAX_NESTING`` brackets deep before a recursive parser sees it (:func:`parse_toml`,
:func:`check_nesting`).

Outputs (``-o``, reports, ``--save-games``, checkpoints) are written under a temporary
name beside the destination, then renamed (:func:`atomic_path`), so a file is never
left half-written. :func:`check_output_path` creates and removes such a temporary file
before any game is played, so a destination that cannot be written fails at once (a
permission check alone passes for root on ``/proc``). A new file gets the usual mode
(0666 less the umask), a replaced file keeps its mode. Temporary names carry this
machine and the writing process (``.NAME.analyze-HOST-PID-XXXXXXXX.part``): a run
removes those in its folder whose process is gone, so a killed run leaves nothing behind
for long.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import socket
import stat
import tomllib
from pathlib import Path

from analyzer.errors import AnalyzerError

KIB = 1024
MIB = 1024 * KIB
#: the largest input of each kind (real ones: a scenario under 2 KB, the packaged
#: component file 15 KB, a checkpoint under 1 MB)
MAX_SCENARIO_BYTES = 1 * MIB
MAX_COMPONENTS_BYTES = 4 * MIB
MAX_CHECKPOINT_BYTES = 64 * MIB
#: the deepest nesting of arrays and tables in a TOML or JSON input (real ones: 3)
MAX_NESTING = 32

_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
#: how much of the destination's name a temporary name repeats (names stay under 255 bytes)
_NAME_CHARS = 100
_TEMPORARY = re.compile(r"\..*\.analyze-(?P<host>[0-9a-f]{8})-(?P<pid>\d+)-[0-9a-f]{8}\.part")


# -- reading --------------------------------------------------------------------------------------

def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_input(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (``what`` names it in errors: "scenario file"),
    refusing anything else and anything over ``limit`` bytes, with one line."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise AnalyzerError(f"{what} {path} does not exist") from None
    except OSError as exc:
        raise AnalyzerError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    kind = _kind(os.fstat(descriptor).st_mode)
    if kind is not None:
        os.close(descriptor)
        raise AnalyzerError(f"{what} {path} is {kind}, not a {'file' if kind == 'a folder' else 'regular file'}")
    with os.fdopen(descriptor, "rb") as stream:
        try:
            data = stream.read(limit + 1)  # the size a file reports can lie (/proc) or change
        except OSError as exc:
            raise AnalyzerError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise AnalyzerError(f"{what} {path} is larger than {limit // KIB:,} KB, more than any real one; "
                            f"is it the right file?")
    return data


#: what ends each kind of string, from just after its opening quote (a basic string's
#: escapes are skipped whole; a single-line string also ends at the end of the line)
_STRING_ENDS = {'"""': re.compile(r'\\.|"""', re.S), "'''": re.compile(r"'''"),
                '"': re.compile(r'\\.|["\n]', re.S), "'": re.compile(r"['\n]")}
_SIGNIFICANT = re.compile(r"""\"\"\"|'''|["'#\[\]{}]""")


def check_nesting(text: str, what: str) -> None:
    """Refuse TOML or JSON ``text`` nested more than ``MAX_NESTING`` brackets deep.

    Counts ``[`` and ``{`` outside strings and comments in one pass, so a hostile file
    cannot drive a recursive parser into a RecursionError.
    """
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return
    depth = position = 0
    while (match := _SIGNIFICANT.search(text, position)) is not None:
        token, position = match.group(), match.end()
        if token == "#":
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
        elif token in _STRING_ENDS:
            ends = _STRING_ENDS[token]
            while (end := ends.search(text, position)) is not None and end.group().startswith("\\"):
                position = end.end()
            position = len(text) if end is None else end.end()
            if len(token) == 3:
                while position < len(text) and text[position] == token[0]:
                    position += 1  # a multi-line string may end with one or two more quotes
        elif token in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise AnalyzerError(f"{what} nests arrays or tables more than {MAX_NESTING} deep")
        else:
            depth -= 1


def parse_toml(raw: bytes, what: str) -> dict:
    """The TOML document in ``raw``; one line naming ``what`` when it is not valid TOML."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AnalyzerError(f"{what} is not valid TOML: it is not UTF-8 text") from None
    check_nesting(text, what)
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or a number Python will not convert
        raise AnalyzerError(f"{what} is not valid TOML: {' '.join(str(exc).split())}") from None


# -- writing --------------------------------------------------------------------------------------

def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def remove_stale_temporaries(folder: str | Path) -> None:
    """Remove the temporary files this machine's runs left in ``folder`` when they were killed."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            match = _TEMPORARY.fullmatch(entry.name)
            if match and match["host"] == _HOST and not _process_alive(int(match["pid"])):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def create_temporary(path: str | Path) -> Path:
    """A new empty file beside ``path``, named as this run's temporary file for it, with the
    mode a new file gets (0666 less the umask). Stale temporaries in the folder go first."""
    path = Path(path)
    folder = _folder(path)
    remove_stale_temporaries(folder)
    name = f".{path.name[:_NAME_CHARS]}.analyze-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}.part"
    temporary = folder / name
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666))
    return temporary


def commit_temporary(temporary: Path, path: str | Path) -> None:
    """Rename ``temporary`` to ``path``; a file replaced keeps its mode."""
    with contextlib.suppress(FileNotFoundError):
        existing = os.stat(path)
        if stat.S_ISREG(existing.st_mode):
            os.chmod(temporary, stat.S_IMODE(existing.st_mode))
    os.replace(temporary, path)


def check_output_path(path: str | Path, allowed: tuple[str, ...], what: str = "output") -> Path:
    """Validate an output path before any work is done: a name, its extension (one of
    ``allowed``; any when empty), an existing folder, and a file that can be created there."""
    if not str(path):
        raise AnalyzerError(f"{what}: the file name is empty")
    path = Path(path)
    check_name_length(path, what)
    if allowed and path.suffix.lower() not in allowed:
        raise AnalyzerError(f"{what} {path}: the extension must be one of {', '.join(allowed)}")
    folder = _folder(path)
    if not folder.is_dir():
        raise AnalyzerError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise AnalyzerError(f"{what} {path}: the folder {folder} is not writable")
    with contextlib.suppress(OSError):
        kind = _kind(os.stat(path).st_mode)
        if kind == "a folder":
            raise AnalyzerError(f"{what} {path} is a folder, not a file name")
        if kind is not None:
            raise AnalyzerError(f"{what} {path} is {kind}, not a regular file")
    check_writable(path, f"{what} {path}")
    return path


def _limit(folder: Path, name: str, fallback: int) -> int:
    """The file system's limit ``name`` (``PC_NAME_MAX``, ``PC_PATH_MAX``) for ``folder``."""
    try:
        return os.pathconf(folder if folder.is_dir() else ".", name)
    except (OSError, ValueError, AttributeError):
        return fallback


def check_name_length(path: Path, what: str = "output") -> None:
    """Refuse a file name or path longer than the file system can hold (255 and 4,096 bytes on
    Linux), with one line: the rename at the end of a run would fail after all its games."""
    folder = _folder(path)
    name_bytes, path_bytes = len(os.fsencode(path.name)), len(os.fsencode(os.path.abspath(path)))
    name_max, path_max = _limit(folder, "PC_NAME_MAX", 255), _limit(folder, "PC_PATH_MAX", 4096)
    if name_bytes > name_max:
        raise AnalyzerError(f"{what}: the file name is {name_bytes:,} bytes long; this file system holds at most "
                            f"{name_max:,}")
    if path_bytes >= path_max:
        raise AnalyzerError(f"{what}: the path is {path_bytes:,} bytes long; this file system holds at most "
                            f"{path_max - 1:,}")


def check_distinct_outputs(outputs: dict[str, str | Path | None]) -> None:
    """Refuse two outputs that name the same file (``outputs``: API parameter -> path or None):
    the later one would replace the other's contents."""
    from analyzer.errors import param

    seen: dict[str, str] = {}
    for name, path in outputs.items():
        if path is None or not str(path):
            continue
        key = os.path.normcase(os.path.realpath(path))
        if key in seen:
            raise AnalyzerError(f"{param(seen[key])} and {param(name)} name the same file {path}: each output "
                                f"needs its own file")
        seen[key] = name


def check_writable(path: Path, named: str) -> None:
    """Create and remove a temporary file beside ``path``: the proof that it can be written
    (``named`` names it in the error)."""
    try:
        os.unlink(create_temporary(path))
    except OSError as exc:
        raise AnalyzerError(f"{named} cannot be written in {_folder(path)}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; rename it to ``path`` only on success."""
    temporary = create_temporary(path)
    try:
        yield temporary
        commit_temporary(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text_atomic(path: str | Path, text: str) -> None:
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")
