"""The report as one self-contained HTML file (issue 17, item 8): the PDF's pages, figures as
inline SVG, text pages as paragraphs and tables, nothing fetched from anywhere."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from analyzer import experiments
from analyzer.report import report
from tests.cli_checks import assert_one_line_error, run_cli

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"
STANDARD = SCENARIOS / "standard.toml"
TARGET_8000 = SCENARIOS / "target-8000.toml"
N = 2048
#: tags that load something or run something: none belongs in the report
LOADING_TAGS = {"script", "link", "img", "image", "iframe", "frame", "object", "embed", "audio", "video", "source",
                "track", "base", "form", "input", "meta-refresh", "use-external", "foreignobject"}
#: attributes that name a resource; in the report they may only point inside the file (``#id``)
REFERENCE_ATTRIBUTES = {"src", "href", "xlink:href", "srcset", "action", "formaction", "poster", "data", "background",
                        "ping", "manifest", "codebase", "cite", "longdesc"}
#: the only URLs in the file: the SVG namespaces, which are names, never fetched
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


class Outline(HTMLParser):
    """What a test checks in the file: tags and attributes, sections with their heading, text and figures."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.sections: list[dict] = []
        self.contents: list[str] = []  # the href of every entry of the table of contents
        self.styles: list[str] = []
        self.text: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        self._open.append(tag)
        if tag == "section":
            self.sections.append({"id": attributes.get("id"), "heading": "", "svg": 0, "figure_svg": 0,
                                  "paragraphs": 0, "tables": 0})
        elif self.sections:
            section = self.sections[-1]
            if tag == "svg":
                section["svg"] += 1
                section["figure_svg"] += "figure" in self._open[:-1]
            section["paragraphs"] += tag == "p" and "figure" not in self._open  # a figure's caption is not a text page
            section["tables"] += tag == "table"
        if tag == "a" and "nav" in self._open:
            self.contents.append(attributes.get("href"))
        if "style" in attributes:
            self.styles.append(attributes["style"] or "")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data):
        self.text.append(data)
        if self._open and self._open[-1] == "style":
            self.styles.append(data)
        if self.sections and self._open and self._open[-1] == "h2" and "section" in self._open:
            self.sections[-1]["heading"] += data


def parse(path: Path) -> tuple[str, Outline]:
    raw = path.read_bytes().decode("utf-8")  # UTF-8, or this fails
    outline = Outline()
    outline.feed(raw)
    outline.close()
    return raw, outline


def assert_self_contained(raw: str, outline: Outline, pages: int) -> None:
    """Every page a section listed in the contents; every figure an inline SVG; no reference outside the file."""
    assert raw.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in raw
    assert len(outline.sections) == pages >= 1
    assert outline.contents == [f"#{section['id']}" for section in outline.sections]
    ids = [attributes["id"] for _, attributes in outline.tags if "id" in attributes]
    assert len(ids) == len(set(ids)), "an id is used twice"
    for section in outline.sections:
        assert section["heading"].strip(), section
        is_text = section["paragraphs"] or section["tables"]
        assert (section["svg"] == 0) if is_text else (section["svg"] == section["figure_svg"] >= 1), section
    assert sum(section["svg"] for section in outline.sections) >= 1
    for tag, attributes in outline.tags:
        assert tag not in LOADING_TAGS, tag
        if tag == "meta":
            assert "refresh" not in (attributes.get("http-equiv") or "").lower()
        for name, value in attributes.items():
            if name in REFERENCE_ATTRIBUTES:
                assert (value or "").startswith("#"), (tag, name, value)
            assert not (name.startswith("on")), (tag, name)  # no event handler
    for style in outline.styles:
        assert "@import" not in style
        assert all(target.strip("'\" ").startswith("#") for target in re.findall(r"url\(([^)]*)\)", style)), style
    for value in (v for _, attributes in outline.tags for v in attributes.values() if v):
        assert all(target.strip("'\" ").startswith("#") for target in re.findall(r"url\(([^)]*)\)", value)), value
    assert set(re.findall(r"(?:https?|ftp|file):/*[^\s\"'<>)]*", raw, flags=re.I)) <= NAMESPACES
    assert "//" not in "".join(re.findall(r'(?:src|href)="([^"]*)"', raw))


@pytest.fixture(scope="module")
def comparison_html(tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "variants.html"
    outcome = report(scenarios=[STANDARD, TARGET_8000], n=N, seed=2, out=path, skill_n=None)
    return outcome, *parse(path)


def test_several_scenarios_make_one_self_contained_file(comparison_html):
    outcome, raw, outline = comparison_html
    assert outcome.comparison is not None and outcome.path.suffix == ".html"
    assert_self_contained(raw, outline, outcome.pages)
    headings = [section["heading"] for section in outline.sections]
    for title in ("Skull Island (Piraten Kapern): balance report", "The comparison's verdicts",
                  "Every metric side by side", "Win rate by seat and scenario", "Differences to Standard",
                  "Game length by scenario", "Appendix: each scenario on its own", "Verdicts, most important first"):
        assert any(heading.startswith(title) for heading in headings), title
    # the comparison answers first; the single scenarios are an appendix, not their reports again
    assert headings[1].startswith("The comparison's verdicts")
    assert not any(heading.startswith(("Summary:", "Final score distribution")) for heading in headings)
    for anchor in ("page-comparison-verdicts", "page-comparison-win-rates", "page-appendix-seats-1"):
        assert anchor in [section["id"] for section in outline.sections], anchor


def test_text_pages_are_text_and_the_figures_draw_the_numbers(comparison_html):
    outcome, raw, outline = comparison_html
    seats_page = next(s for s in outline.sections if s["heading"].startswith("Appendix: each scenario"))
    assert seats_page["tables"] == 1 and seats_page["svg"] == 0
    text = " ".join(outline.text)
    seats = outcome.runs[0].result.to_dict()["seats"]
    for seat in seats:
        assert f"{seat['win_rate'] * 100:.2f}%" in text  # in the appendix's seat table, as text
    for words in ("first-player advantage", "Target 8000 against Standard", "Seed: 2", "The comparison's verdicts"):
        assert words in text, words
    win_rates = next(s for s in outline.sections if s["id"] == "page-comparison-win-rates")
    assert win_rates["svg"] == 2 and win_rates["paragraphs"] == 0  # drawn for the page, and for a narrow screen
    assert "<?xml" not in raw and "<!DOCTYPE svg" not in raw and "<metadata" not in raw


def test_every_figure_is_drawn_again_for_a_narrow_screen(comparison_html):
    """Each figure twice: as on the page, and NARROW_WIDTH inches wide with every text at least
    SMALLEST_TEXT points (10 CSS px at a 400 px screen; .ci/check-html measures it in a browser),
    both scaling to their box by a viewBox; its subtitle as the narrow figure's caption."""
    from analyzer.report.narrow import NARROW_SCALE, NARROW_WIDTH, SMALLEST_TEXT

    _, raw, outline = comparison_html
    figures = re.findall(r'<figure class="(wide|narrow)"[^>]*>(.*?)</figure>', raw, flags=re.S)
    assert [kind for kind, _ in figures] == ["wide", "narrow"] * (len(figures) // 2) and figures
    for kind, body in figures:
        svg = re.search(r"<svg[^>]*>", body).group()
        width = float(re.search(r'width="([\d.]+)pt"', svg).group(1))
        assert "viewBox=" in svg
        if kind == "narrow":
            assert width == pytest.approx(NARROW_WIDTH * 72)
            sizes = [float(size) for size in re.findall(r"font-size: ([\d.]+)px", body)]
            assert sizes and min(sizes) >= SMALLEST_TEXT - 1e-6 and min(sizes) * NARROW_SCALE >= 10 - 1e-6
    assert "<figcaption><p>" in raw  # a subtitle as text


def test_every_form_of_the_command_writes_html(tmp_path):
    """--game, and a scenario whose name is markup: escaped, never markup; .htm is HTML too."""
    result = run_cli(["report", "--game", "lucky-pirates", "--n", N, "--seed", 1, "--quiet", "--no-skill",
                      "-o", tmp_path / "game.htm"])
    assert result.exit_code == 0, result.output
    assert "game.htm (" in result.stderr and "pages" in result.stderr
    raw, outline = parse(tmp_path / "game.htm")
    assert_self_contained(raw, outline, len(outline.contents))
    assert "Lucky Pirates" in outline.sections[0]["heading"]
    hostile = tmp_path / "hostile.toml"
    name = '<script>alert("x")</script> & <img src=http://example.com/a.png>'
    hostile.write_text(f'game = "lucky-pirates"\nname = \'{name}\'\ndescription = "</section><p>"\n', encoding="utf-8")
    result = run_cli(["report", "--scenario", hostile, "--n", N, "--seed", 1, "--quiet", "-o", tmp_path / "h.html"])
    assert result.exit_code == 0, result.output
    raw, outline = parse(tmp_path / "h.html")
    assert "<script>" not in raw and "</section><p>" not in raw
    assert "&lt;script&gt;" in raw
    text = " ".join(outline.text)
    assert name in text and "</section><p>" in text
    assert f"Summary: {name}" in [section["heading"] for section in outline.sections]
    # the same report as a PDF has as many pages
    pdf = run_cli(["report", "--scenario", hostile, "--n", N, "--seed", 1, "--quiet", "-o", tmp_path / "h.pdf"])
    assert f"({len(outline.sections)} pages" in pdf.stderr


def test_an_unknown_extension_is_refused_before_any_game(tmp_path, monkeypatch):
    def no_game(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(experiments, "play_variant", no_game)
    base = ["report", "--game", "lucky-pirates", "--n", N, "--quiet", "--no-skill", "-o"]
    for name in ("x.xhtml", "x.txt", "x.html.gz", "html"):
        assert_one_line_error(run_cli([*base, tmp_path / name]), "extension", ".pdf", ".html", ".htm")
    assert_one_line_error(run_cli([*base, tmp_path / "missing" / "x.html"]), "does not exist")
    assert list(tmp_path.iterdir()) == []


def test_the_html_is_written_atomically(tmp_path, monkeypatch):
    from analyzer.report import pages

    def broken(*args, **kwargs):
        raise RuntimeError("a page failed")

    monkeypatch.setattr(pages, "run_pages", broken)
    with pytest.raises(RuntimeError):
        report(game="lucky-pirates", n=N, seed=1, out=tmp_path / "x.html", skill_n=None)
    assert list(tmp_path.iterdir()) == []
