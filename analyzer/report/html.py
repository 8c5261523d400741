"""The report as one self-contained HTML file: the PDF's pages, figures as inline SVG, text as text.

It reads on a phone as on a desk: text pages reflow; a table wider than the screen scrolls
inside its own box, never the page. Each figure is there twice, as inline SVG that scales
to the width of its box: as on the PDF's page, shown on a wide screen, and laid out again
for a narrow one (:mod:`analyzer.report.narrow`: its charts one below the other, every text
at least 10 CSS pixels at a 400 px screen; its title, subtitle and notes as HTML text), shown
on a screen up to 50rem wide. Style sheet media queries choose; nothing else does.
Nothing in the file refers outside it: no script, no style sheet, font or image to fetch.
Its own Content-Security-Policy forbids every fetch, so a browser shows it offline and a
shared copy carries everything. Each figure's SVG ids get its page's name (and ``narrow``
for the narrow drawing) as a prefix, so the figures of one file never share an id.
Written atomically, like the PDF.
"""

from __future__ import annotations

import datetime
import html
import io
import re
from collections.abc import Iterable
from pathlib import Path

from analyzer.engine.garbage import oldest_generation_held
from analyzer.files import atomic_path
from analyzer.report.document import Entry, Page
from analyzer.version import __version__

#: nothing may be fetched; only the inline style sheet and the figures' style attributes apply
CONTENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
#: matplotlib's SVG metadata (Dublin Core, with URLs) is left out
NO_SVG_METADATA = {"Format": None, "Type": None, "Creator": None, "Date": None}
STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: #222;
       margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; line-height: 1.45; overflow-wrap: anywhere; }
h1 { font-size: 1.8rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; margin: 0 0 0.6rem; }
.about { color: #555; margin-top: 0; }
nav ol { columns: 2; column-gap: 2rem; padding-left: 1.5rem; }
section { border-top: 1px solid #ddd; padding-top: 1.2rem; margin-top: 1.8rem; }
figure { margin: 0; }
.table-box { overflow-x: auto; max-width: 100%; }
h3 { font-size: 1.05rem; margin: 1rem 0 0.2rem; }
h3 + p { margin-top: 0; }
.action { font-style: italic; color: #1f4f7f; margin-top: 0.2rem; }
.drawn { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
figure svg { display: block; width: 100%; height: auto; }
figure.narrow { display: none; max-width: 36rem; }
figcaption p { color: #444; margin: 0 0 0.4rem; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.8rem 0; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #eee; }
table { overflow-wrap: normal; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
a { color: #1f5f9f; }
/* a narrow screen: one column of contents, and each figure drawn for it, its title as a heading */
@media (max-width: 50rem) {
  body { padding: 0.6rem 0.8rem 2rem; }
  nav ol { columns: 1; }
  figure.wide { display: none; }
  figure.narrow { display: block; }
  h2.drawn { position: static; width: auto; height: auto; overflow: visible; clip-path: none; }
}
@media print { section { break-before: page; border-top: none; } nav { display: none; } }
"""
#: the tags of an SVG (attribute values escape ``<`` and ``>``, so a tag never spans text)
_TAG = re.compile(r"<[^<>]+>")
#: where an SVG tag defines or refers to an id
_ID = re.compile(r'(\bid="|\bhref="#|url\(#)')
_NUMBER = re.compile(r"[+\-\u2212]?[\d.,]+(%| ?[a-z]{0,3})?")


@oldest_generation_held()  # the pages' many short-lived objects (see analyzer.engine.garbage)
def write_html(pages: Iterable[Page], path: str | Path, title: str, subject: str = "") -> int:
    """Write the pages into one HTML file, atomically; returns the page count. Figures are closed as written."""
    import matplotlib.pyplot as plt

    anchors: set[str] = set()
    contents, sections = [], []
    for page in pages:
        anchor = _anchor(page.name, anchors)
        heading = page.title or page.figure.get_suptitle() or page.name
        contents.append(f'<li><a href="#{anchor}">{_text(heading)}</a></li>')
        body = _text_body(page) if page.is_text else _figure_body(page, anchor, heading)
        shown = "" if page.is_text else ' class="drawn"'  # a figure draws its title: the heading is not shown twice
        sections.append(f'<section id="{anchor}">\n<h2{shown}>{_text(heading)}</h2>\n{body}\n</section>')
        plt.close(page.figure)
    when = datetime.datetime.now().astimezone()
    document = "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="pirate-analyzer {_text(__version__)}">',
        f"<title>{_text(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_text(title)}</h1>",
        f'<p class="about">{_text(subject)}{" · " if subject else ""}pirate-analyzer {_text(__version__)}, '
        f"{when:%Y-%m-%d %H:%M %Z}</p>",
        '<nav aria-label="Contents">',
        "<h2>Contents</h2>",
        "<ol>", *contents, "</ol>",
        "</nav>",
        *sections,
        "</body>",
        "</html>",
        "",
    ])
    with atomic_path(path) as temporary:
        temporary.write_text(document, encoding="utf-8")
    return len(sections)


def _text(value) -> str:
    return html.escape(str(value), quote=True)


def _anchor(name: str, taken: set[str]) -> str:
    """An id for the page's section: its name (made of letters, digits and hyphens), unique in the file."""
    base = "page-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "page")
    anchor, number = base, 1
    while anchor in taken:
        number += 1
        anchor = f"{base}-{number}"
    taken.add(anchor)
    return anchor


def _text_body(page: Page) -> str:
    """A text page as paragraphs and an HTML table."""
    parts = [_paragraph(paragraph) for paragraph in page.paragraphs]
    if page.rows:
        parts.append('<div class="table-box"><table>')
        parts.append("<thead><tr>" + "".join(f'<th scope="col">{_text(h)}</th>' for h in page.headers)
                     + "</tr></thead>")
        parts.append("<tbody>")
        for row in page.rows:
            cells = "".join(f'<td class="number">{_text(cell)}</td>' if _NUMBER.fullmatch(str(cell).strip())
                            else f"<td>{_text(cell)}</td>" for cell in row)
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table></div>")
    return "\n".join(parts)


def _paragraph(paragraph) -> str:
    """A paragraph; a headed one (a verdict) as its heading, its text and its action."""
    if isinstance(paragraph, Entry):
        action = f'\n<p class="action">Action: {_text(paragraph.action)}</p>' if paragraph.action else ""
        return f"<h3>{_text(paragraph.heading)}</h3>\n<p>{_text(paragraph.text)}</p>{action}"
    return f"<p>{_text(paragraph)}</p>"


def _figure_body(page: Page, anchor: str, heading: str) -> str:
    """The page's figure as inline SVG twice: as drawn for the page, and laid out for a narrow screen
    with its subtitle and notes as a caption."""
    from analyzer.report.narrow import narrow_layout

    wide = _svg(page.figure, anchor)
    caption = "".join(f"<p>{_text(line)}</p>" for line in narrow_layout(page.figure))
    narrow = _svg(page.figure, f"{anchor}-narrow")
    label = f'role="img" aria-label="{_text(heading)}"'
    return (f'<figure class="wide" {label}>\n{wide}\n</figure>\n'
            f'<figure class="narrow">{f"<figcaption>{caption}</figcaption>" if caption else ""}\n'
            f'{narrow.replace("<svg ", f"<svg {label} ", 1)}\n</figure>')


def _svg(figure, prefix: str) -> str:
    """The figure as an SVG element, its ids prefixed with ``prefix``: the same figure gives the same ids."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": prefix}):
        figure.savefig(buffer, format="svg", metadata=NO_SVG_METADATA)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # without the XML prolog and DOCTYPE
    return _TAG.sub(lambda tag: _ID.sub(lambda m: f"{m.group(1)}{prefix}-", tag.group()), svg).strip()
