"""Writing result files atomically: a temporary name in the same folder, then a rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from analyzer.errors import AnalyzerError


def check_output_path(path: str | Path, allowed: tuple[str, ...]) -> Path:
    """Validate an output path before any work is done: extension and writable folder."""
    path = Path(path)
    if path.suffix.lower() not in allowed:
        raise AnalyzerError(f"output {path}: the extension must be one of {', '.join(allowed)}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise AnalyzerError(f"output {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise AnalyzerError(f"output {path}: the folder {folder} is not writable")
    if path.is_dir():
        raise AnalyzerError(f"output {path} is a folder, not a file name")
    return path


@contextlib.contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; rename it to ``path`` only on success."""
    path = Path(path)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")
    os.close(fd)
    try:
        yield Path(temp)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def write_text_atomic(path: str | Path, text: str) -> None:
    with atomic_path(path) as temp:
        temp.write_text(text, encoding="utf-8")
