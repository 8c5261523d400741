"""Writing pages: one PDF (atomically) or one image file per figure (the HTML form: ``html.py``)."""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.engine.garbage import oldest_generation_held
from analyzer.errors import AnalyzerError
from analyzer.files import atomic_path, check_output_path, check_writable
from analyzer.version import __version__

FIGURE_FORMATS = ("png", "svg")
#: the extensions of a report file: a PDF, or one self-contained HTML file
REPORT_SUFFIXES = (".pdf", ".html", ".htm")
HTML_SUFFIXES = (".html", ".htm")


@dataclass(frozen=True)
class Entry:
    """A headed paragraph of a text page (a verdict): its heading, its text and the action it calls
    for. As a string it reads as one paragraph; the HTML report keeps its heading and action apart."""

    heading: str
    text: str
    action: str = ""

    def __str__(self) -> str:
        return f"{self.heading}: {self.text}" + (f" Action: {self.action}" if self.action else "")


@dataclass
class Page:
    """One page of a report; ``plot`` pages are also written by ``--figures``, text pages are not.

    A text page also keeps its words (``title``, ``paragraphs`` (strings or :class:`Entry`), a table
    of ``headers`` and ``rows``) so that the HTML report shows them as text; the PDF draws ``figure``
    either way.
    """

    name: str
    figure: object
    plot: bool = True
    title: str | None = None
    paragraphs: list = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)

    @property
    def is_text(self) -> bool:
        return bool(self.paragraphs or self.rows)


def name_scenario(pages: list[Page], scenario: str) -> list[Page]:
    """The pages of one scenario of several, each titled with its name (the contents of the HTML report
    would list "Win rate by seat" once per scenario otherwise)."""
    for page in pages:
        heading = page.title or page.figure.get_suptitle() or page.name
        if scenario not in heading:
            page.title = f"{' '.join(heading.split())} ({scenario})"
    return pages


def check_pdf_path(path: str | Path) -> Path:
    return check_output_path(path, (".pdf",))


def check_report_path(path: str | Path) -> Path:
    """A report's file: ``.pdf``, or ``.html``/``.htm`` for the HTML form."""
    return check_output_path(path, REPORT_SUFFIXES)


def is_html(path: str | Path) -> bool:
    return Path(path).suffix.lower() in HTML_SUFFIXES


def check_figure_folder(path: str | Path, fmt: str) -> Path:
    """The folder for ``--figures``: an existing writable folder, or a new one in a writable folder."""
    if fmt not in FIGURE_FORMATS:
        raise AnalyzerError(f"--figures {fmt!r} is not allowed; it must be one of {', '.join(FIGURE_FORMATS)}")
    path = Path(path)
    if path.suffix:
        raise AnalyzerError(f"output {path}: with --figures, -o names a folder (without an extension) for the "
                            f"{fmt} files")
    if path.exists():
        if not path.is_dir():
            raise AnalyzerError(f"output {path} is a file, not a folder")
        folder = path
    else:
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise AnalyzerError(f"output {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise AnalyzerError(f"output {path}: the folder {folder} is not writable")
    check_writable(folder / f"figure.{fmt}", f"output {path}")
    return path


@oldest_generation_held()  # the pages' many short-lived objects (see analyzer.engine.garbage)
def write_pdf(pages: Iterable[Page], path: str | Path, title: str, subject: str = "") -> int:
    """Write the pages into one PDF, atomically; returns the page count. Figures are closed as written."""
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    metadata = {"Title": title, "Subject": subject, "Creator": f"pirate-analyzer {__version__}",
                "CreationDate": datetime.datetime.now(datetime.UTC)}
    count = 0
    with atomic_path(path) as temp, PdfPages(temp, metadata=metadata) as pdf:
        for page in pages:
            pdf.savefig(page.figure)
            plt.close(page.figure)
            count += 1
    return count


@oldest_generation_held()
def write_figures(pages: Iterable[Page], folder: str | Path, fmt: str) -> list[Path]:
    """Write every plot page as ``folder/<name>.<fmt>`` (each atomically); text pages are skipped.

    All or nothing: when a page fails (or the run is interrupted), the files already written
    are removed, and the folder too when this call made it."""
    import matplotlib.pyplot as plt

    folder = Path(folder)
    made = not folder.exists()
    folder.mkdir(exist_ok=True)
    written = []
    try:
        for page in pages:
            if page.plot:
                target = folder / f"{page.name}.{fmt}"
                with atomic_path(target) as temp:
                    page.figure.savefig(temp, format=fmt, dpi=150 if fmt == "png" else None)
                written.append(target)
            plt.close(page.figure)
    except BaseException:
        for target in written:
            with contextlib.suppress(OSError):
                target.unlink()
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return written
