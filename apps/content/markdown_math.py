"""The Markdown side of `rendering`: Python-Markdown with the extensions that find math, and a conversion that
leaves each formula as a marker for KaTeX. Pure: no request, no ORM, no KaTeX."""

from __future__ import annotations

import hashlib
import re
import secrets
import xml.etree.ElementTree as etree  # noqa: N813 - Markdown's own name for it
from dataclasses import dataclass, field
from html import escape

import markdown
from markdown.blockparser import BlockParser
from markdown.blockprocessors import BlockProcessor, BlockQuoteProcessor
from markdown.extensions import Extension
from markdown.extensions.footnotes import FootnoteBlockProcessor, FootnoteExtension
from markdown.extensions.tables import TableProcessor
from markdown.inlinepatterns import (
    AUTOLINK_RE,
    HTML_RE,
    IMAGE_LINK_RE,
    IMAGE_REFERENCE_RE,
    HtmlInlineProcessor,
    ImageInlineProcessor,
    ImageReferenceInlineProcessor,
    InlineProcessor,
    ShortImageReferenceInlineProcessor,
)
from markdown.util import AtomicString

from .markdown_lists import ListIndentation

# A formula's body never holds its own delimiters ("$$", "\[", "\]"), so one line with two display formulas is not
# one formula "x$$ and $$y", and thousands of unclosed openings cost a scan each to the next, not to the end.
# Any indentation: the block processor sees a block only after indented code has taken its own, and a line indented
# in a list item or a paragraph is that item's or paragraph's.
_DISPLAY_BLOCK = r"^[ ]*(?:\$\$(?P<dollars>(?:(?!\$\$).)+?)\$\$|\\\[(?P<brackets>(?:(?!\\[\[\]]).)+?)\\\])[ \t]*$"
# Display blocks are found before Markdown has seen code spans, so the leftmost of the two wins here: a code span
# over lines keeps a "$$x$$" line of it literal. A span ends with its paragraph, at a blank line, so within a block.
_CODE_SPAN = r"(?<![\\`])(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)"
_BLOCK_SCAN = re.compile(f"{_CODE_SPAN}|{_DISPLAY_BLOCK}", re.MULTILINE | re.DOTALL)
# One pattern, so the leftmost opening wins as in Pandoc: "$a$$b$" is two inline formulas, not a "$$" left open.
_MATH = (
    r"(?<!\\)\$\$(?P<dollars>(?:(?!\$\$).)+?)(?<!\\)\$\$"
    r"|(?<!\\)\\\[(?P<brackets>(?:(?!\\[\[\]]).)+?)\\\]"
    r"|(?<![\\$])\$(?=[^\s$])(?P<dollar>(?:\\.|[^\\$\n])+?)(?<=\S)(?<!\\)\$(?!\d)"
    r"|(?<!\\)\\\((?P<parens>(?:(?!\\[()]).)+?)\\\)"
)
# Where math may start in a line of inline text: code spans are skipped, as Markdown stashes them first.
_LINE_SCAN = re.compile(f"{_CODE_SPAN}|{_MATH}", re.DOTALL)
# A start or end tag, quoted attribute values and all, in Markdown's output.
_HTML_TAG = re.compile(r"""<[^<>"']*(?:(?:"[^"]*"|'[^']*')[^<>"']*)*>""")
_DISPLAY = {"dollars": True, "brackets": True, "dollar": False, "parens": False}


def _formula(match: re.Match[str]) -> tuple[str, bool]:
    """(tex, display) of a match of _MATH or _DISPLAY_BLOCK."""
    group = next(name for name in _DISPLAY if match.groupdict().get(name) is not None)
    return match[group], _DISPLAY[group]


@dataclass
class MathCollector:
    """Math found in one document, replaced by markers until KaTeX has run; and the footnote ids it made."""

    nonce: str = field(default_factory=lambda: secrets.token_hex(6))
    formulas: list[tuple[str, bool]] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # each formula as written, delimiters and all
    footnote_ids: set[str] = field(default_factory=set)  # the only ids the sanitiser lets through

    def marker(self, tex: str, *, display: bool, source: str) -> str:
        self.formulas.append((tex.strip(), display))
        self.sources.append(source)
        return f"\x02math-{self.nonce}-{len(self.formulas) - 1}\x03"

    def pattern(self) -> re.Pattern[str]:
        return re.compile(f"\x02math-{self.nonce}-(\\d+)\x03")

    def literal_in_tags(self, html: str) -> str:
        """`html` with each marker inside a tag (a link's URL or title, a raw HTML attribute) back to its source.

        Math is found before Markdown knows where links and tags are, and KaTeX's HTML inside an attribute would
        break the tag open; a dollar in a URL or a title is text. Markdown's raw-HTML pattern writes a marker back
        as `\\` + marker (it takes anything stashed for a backslash escape), so that backslash goes too.
        """
        inside = re.compile(r"\\?" + self.pattern().pattern)

        def literal(tag: re.Match[str]) -> str:
            return inside.sub(lambda m: escape(self.sources[int(m[1])]), tag[0])

        return _HTML_TAG.sub(literal, html)


class _DisplayMathProcessor(BlockProcessor):
    """A display formula alone on its line(s) is a `<div class="math-display">` between the text before and after it.

    A block processor rather than a preprocessor, so the formula stays where Markdown puts its line: in a list item
    (lazily continued or indented), a quote or a footnote, as at the top. A preprocessor could only cut the text
    at the formula, which ended the list around it (a second `<ol start="2">` after the formula)."""

    def __init__(self, parser: BlockParser, collector: MathCollector) -> None:
        super().__init__(parser)
        self.collector = collector

    @staticmethod
    def _first(block: str) -> re.Match[str] | None:
        return next((m for m in _BLOCK_SCAN.finditer(block) if not m["ticks"]), None)

    def test(self, parent: etree.Element, block: str) -> bool:
        formula = self._first(block)
        if formula is None:
            return False
        # Ahead of tables and setext headings (which would take the line as a row or a title), but behind the
        # containers: a list, a quote or a footnote that opens before the formula holds it, and this runs again
        # on the container's inside.
        processors = self.parser.blockprocessors
        before = block[: formula.start()]
        return not (
            any(processors[name].test(parent, block) for name in ("olist", "ulist"))
            or BlockQuoteProcessor.RE.search(before)
            or ("footnote" in processors and FootnoteBlockProcessor.RE.search(before))
        )

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        block = blocks.pop(0)
        formula = self._first(block)
        before, after = block[: formula.start()].rstrip("\n"), block[formula.end() :].lstrip("\n")
        if before.strip():
            self.parser.parseBlocks(parent, [before])
        marker = self.collector.marker(_formula(formula)[0], display=True, source=formula[0])
        etree.SubElement(parent, "div", {"class": "math-display"}).text = AtomicString(marker)
        if after.strip():
            blocks.insert(0, after)


class _InlineMathProcessor(InlineProcessor):
    def __init__(self, md: markdown.Markdown, collector: MathCollector) -> None:
        super().__init__(f"(?P<autolink>{AUTOLINK_RE})|{_MATH}", md)
        self.collector = collector

    def handleMatch(self, m: re.Match[str], data: str):  # noqa: N802 - Markdown's API
        if m["autolink"]:
            return None, m.start(0), m.end(0)  # left as text for Markdown's autolink pattern
        tex, display = _formula(m)
        marker = self.collector.marker(tex, display=display, source=m[0])
        return self.md.htmlStash.store(marker), m.start(0), m.end(0)


class _MathTableProcessor(TableProcessor):
    """Table rows split at no `|` inside math, as they split at none inside code: `| norm | $|x|$ |` has two cells."""

    def _split(self, row: str) -> list[str]:
        spans = [m.span() for m in _LINE_SCAN.finditer(row) if not m["ticks"] and "|" in m[0]]
        if not spans:
            return super()._split(row)
        # The row cannot hold this stand-in, so hiding those pipes behind it changes nothing else.
        hidden = next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in row)
        chars = list(row)
        for start, end in spans:
            chars[start:end] = [hidden if c == "|" else c for c in chars[start:end]]
        return [cell.replace(hidden, "|") for cell in super()._split("".join(chars))]


class _ImageAsAlt:
    """An image as its alt text, "[image: diagram]": the sanitiser drops <img> (no external images), which left
    nothing at all where the image was. Math in the alt text is typeset."""

    def handleMatch(self, m: re.Match[str], data: str):  # noqa: N802 - Markdown's API
        image, start, end = super().handleMatch(m, data)
        if image is None:
            return image, start, end
        alt = image.get("alt", "").strip()
        span = etree.Element("span", {"class": "image-alt"})
        span.text = AtomicString(f"[image: {alt}]" if alt else "[image]")
        return span, start, end


class _ImageAlt(_ImageAsAlt, ImageInlineProcessor):
    pass


class _ImageReferenceAlt(_ImageAsAlt, ImageReferenceInlineProcessor):
    pass


class _ShortImageReferenceAlt(_ImageAsAlt, ShortImageReferenceInlineProcessor):
    pass


class _Footnotes(FootnoteExtension):
    """Footnotes numbered in their ids, behind a digest of the document: the fields of a card are rendered one by
    one and shown on one page, where a question's "fn-1" would be its answer's too. Numbers, not the author's
    labels, so an id is always a plain token."""

    def __init__(self, collector: MathCollector, text: str) -> None:
        super().__init__(SEPARATOR="-")
        self.collector = collector
        self.digest = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:10]
        self.numbers: dict[str, int] = {}

    def _id(self, kind: str, label: str) -> str:
        return f"{kind}-{self.digest}-{self.numbers.setdefault(label, len(self.numbers) + 1)}"

    def makeFootnoteId(self, id: str) -> str:  # noqa: N802 - Markdown's API
        footnote_id = self._id("fn", id)
        self.collector.footnote_ids.add(footnote_id)
        return footnote_id

    def makeFootnoteRefId(self, id: str, found: bool = False) -> str:  # noqa: N802 - Markdown's API
        ref_id = self.unique_ref(self._id("fnref", id), found)
        self.collector.footnote_ids.add(ref_id)
        return ref_id


# Names of HTML elements: only these open a tag in a card's text. Anything else in angle brackets is text as
# written ("--bs <batch_size>", "List<Tensor>"), where it used to be taken for an unknown tag and dropped.
_HTML_NAMES = frozenset(
    re.findall(
        r"\S+",
        """
    a abbr address area article aside audio b base bdi bdo big blockquote body br button canvas caption center cite
    code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font
    footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html i iframe img input ins kbd label legend li link
    main map mark marquee math menu meta meter nav noembed noframes noscript object ol optgroup option output p param
    picture plaintext pre progress q rp rt ruby s samp script section select slot small source span strike strong
    style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video
    wbr xmp
    """,
    )
)
# A tag's name, ended by a space, "/" or the tag's end ("<batch_size>" names nothing: "_" follows "batch").
_TAG_NAME = re.compile(r"/?([A-Za-z][A-Za-z0-9]*)(?=[\s/]|$)")


class _KnownHtml(HtmlInlineProcessor):
    def handleMatch(self, m: re.Match[str], data: str):  # noqa: N802 - Markdown's API
        tag = m.group(2)  # what is between the brackets: "!-- … --" for a comment, left to Markdown
        name = _TAG_NAME.match(tag)
        if not tag.startswith("!") and not (name and name[1].lower() in _HTML_NAMES):
            return None, None, None
        return super().handleMatch(m, data)


class _MathExtension(Extension):
    def __init__(self, collector: MathCollector) -> None:
        super().__init__()
        self.collector = collector

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.ESCAPED_CHARS.append("$")
        # After indented code (80), which keeps a "$$" line literal, and before tables (75).
        md.parser.blockprocessors.register(_DisplayMathProcessor(md.parser, self.collector), "math_block", 79)
        # After backticks (190), before escapes (180) and emphasis.
        md.inlinePatterns.register(_InlineMathProcessor(md, self.collector), "math", 186)
        md.inlinePatterns.register(_KnownHtml(HTML_RE, md), "html", 90)
        md.inlinePatterns.register(_ImageAlt(IMAGE_LINK_RE, md), "image_link", 150)
        md.inlinePatterns.register(_ImageReferenceAlt(IMAGE_REFERENCE_RE, md), "image_reference", 140)
        md.inlinePatterns.register(_ShortImageReferenceAlt(IMAGE_REFERENCE_RE, md), "short_image_ref", 125)
        # Replaces the tables extension's own (so "tables" comes before this extension), with its configuration.
        tables = md.parser.blockprocessors["table"]
        md.parser.blockprocessors.register(_MathTableProcessor(md.parser, tables.config), "table", 75)


def _markdown(collector: MathCollector, text: str) -> markdown.Markdown:
    return markdown.Markdown(
        extensions=[
            "fenced_code",
            "tables",
            "sane_lists",
            ListIndentation(),
            _Footnotes(collector, text),
            _MathExtension(collector),
        ],
        extension_configs={"tables": {"use_align_attribute": True}},  # made classes in convert()
        output_format="html",
    )


# Python-Markdown's link pattern is quadratic in unmatched "[" (5,000 take seconds). No real card
# has this many, so past it brackets are literal and no link is made.
MAX_LINK_BRACKETS = 500
# Switched off rather than escaping every "[": an escaped "\[" would now open display math.
_BRACKET_PATTERNS = (
    "reference", "link", "image_link", "image_reference", "short_reference", "short_image_ref", "footnote",
)  # fmt: skip


# A table column's alignment as a class: the align attribute is obsolete HTML, and the inline style the tables
# extension writes otherwise is one the sanitiser drops.
_ALIGNED = re.compile(r'(<t[hd]) align="(left|right|center)"')


def convert(collector: MathCollector, text: str) -> str:
    md = _markdown(collector, text)
    if text.count("[") > MAX_LINK_BRACKETS:
        for name in _BRACKET_PATTERNS:
            md.inlinePatterns.deregister(name)
        md.parser.blockprocessors.deregister("reference")
        md.parser.blockprocessors.deregister("footnote")
    try:
        return _ALIGNED.sub(r'\1 class="align-\2"', collector.literal_in_tags(md.convert(text)))
    except RecursionError:
        # Python-Markdown recurses once per nesting level, so a few hundred nested list
        # markers ("- - - … x") exhaust the stack; such text is shown as typed instead.
        collector.formulas.clear()
        collector.sources.clear()
        collector.footnote_ids.clear()
        return f"<p>{escape(text)}</p>"
