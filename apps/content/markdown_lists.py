"""Lists indented as CommonMark (and so GitHub, and the editors authors use) indents them, on top of sane_lists.

Python-Markdown counts list indentation in steps of 4 spaces: an item's next paragraph (or formula) and a list
nested in it must be indented by 4. Authors indent them to the item's text instead: 2 spaces under "- ", 3 under
"1. ". At 2 or 3 spaces such a paragraph ended the list and the next item started another (`<ol start="2">`),
and a nested list became more items of its parent, or its parent's text. Pure, like the rest of the renderer.

Each item's text column is kept while parsing. A block after a blank line goes to the deepest open item whose
text it is indented to, as in CommonMark, and a nested item's line is moved to Python-Markdown's 4 spaces past its
parent's text. What is code in an item does not change (4 spaces past Python-Markdown's 4 a level). Lists indented
by 4, as Python-Markdown wants, render as before but for two fixes towards CommonMark: a list item's line less
indented than the block before it is an item of the list further out, no longer that block's text, and an item
followed by a code block is a loose one (its text a paragraph) like any other.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree  # noqa: N813 - Markdown's own name for it
from collections.abc import Iterator
from dataclasses import dataclass, field

import markdown
from markdown.blockparser import BlockParser
from markdown.blockprocessors import ListIndentProcessor
from markdown.extensions import Extension
from markdown.extensions.sane_lists import SaneOListProcessor, SaneUListProcessor
from markdown.preprocessors import Preprocessor

# Any list item's start, of either kind and at any indentation (CHILD_RE knows only its own kind, up to 3 spaces).
_MARKER = re.compile(r"^[ ]*(?:\d+\.|[*+-])[ ]+")
_LIST_TAGS = ("ol", "ul")
# A quote's markers, then a fence's opening line; and the start of an item with text.
_QUOTE = re.compile(r"^(?:[ ]{0,3}>[ ]?)*")
_FENCE = re.compile(r"^(?P<indent>[ ]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_ITEM = re.compile(r"^(?P<marker>[ ]*(?:\d+\.|[*+-]))(?P<spaces>[ ]+)\S")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _text_column(child: re.Match[str]) -> int:
    """Where an item's text starts, from a match of CHILD_RE (marker, spaces, text). As in CommonMark, more than 4
    spaces after the marker start an indented code block, so the text then starts 1 past the marker."""
    spaces = child.start(3) - child.end(1)
    return child.start(3) if child[3] and spaces <= 4 else child.end(1) + 1


@dataclass
class _Columns:
    """What one conversion knows of its items' columns, each counted from the text of the item around its list."""

    text: dict[etree.Element, int] = field(default_factory=dict)  # each <li> -> where its text starts
    # An <li> -> how many spaces past its text the block being parsed into it lost: Python-Markdown's 4 a level.
    cut: dict[etree.Element, int] = field(default_factory=dict)


class _ItemColumns:
    """sane_lists' list processor, noting where each item's text starts; a nested item indented to that text is
    moved to the 4 spaces past it that Python-Markdown reads as nesting."""

    def __init__(self, parser: BlockParser, columns: _Columns) -> None:
        super().__init__(parser)
        self.columns = columns

    def _lines(self, block: str) -> Iterator[tuple[str, int | None]]:
        """Each line as Python-Markdown should read it, with the text column of the item it starts (else None)."""
        column, nested = None, False
        for line in block.split("\n"):
            child, indent = self.CHILD_RE.match(line), _indent(line)
            if child and (column is None or indent < column):
                column, nested = _text_column(child), False
                yield line, column
            elif column is not None and column <= indent and (nested or indent < column + 4) and _MARKER.match(line):
                # 4 or more past the text, with no nested item yet, it is the item's text, as in CommonMark.
                nested, shift = True, self.tab_length - column
                yield (" " * shift + line if shift >= 0 else line[-shift:]), None
            else:
                yield line, None

    def get_items(self, block: str) -> list[str]:  # Markdown's API
        return super().get_items("\n".join(line for line, _ in self._lines(block)))

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        columns = [column for _, column in self._lines(blocks[0]) if column is not None]
        # The list the items go to, found as Python-Markdown finds it: the one they continue, or a new one.
        sibling = self.lastChild(parent)
        if sibling is not None and sibling.tag in self.SIBLING_TAGS:
            lst = sibling
        else:
            lst = parent if parent.tag in _LIST_TAGS else None
        before, cut = len(lst) if lst is not None else 0, self.columns.cut.get(parent, 0)
        super().run(parent, blocks)
        lst = parent[-1] if lst is None else lst
        self.columns.text.update((item, column + cut) for item, column in zip(lst[before:], columns, strict=True))


class _OListProcessor(_ItemColumns, SaneOListProcessor):
    pass


class _UListProcessor(_ItemColumns, SaneUListProcessor):
    pass


class _ItemContinuation(ListIndentProcessor):
    """A block after a blank line belongs to the deepest open item whose text it is indented to."""

    def __init__(self, parser: BlockParser, columns: _Columns) -> None:
        super().__init__(parser)
        self.columns = columns

    def _item(self, parent: etree.Element, block: str) -> tuple[etree.Element, int, int] | None:
        """(the item, its text's column, how many spaces the block's lines lose), or None to leave the block to
        Python-Markdown."""
        if self.parser.state.isstate("list") or self.parser.state.isstate("detabbed"):
            return None  # an item's own lines, already moved to Python-Markdown's steps
        indent, column, depth, node, found = _indent(block), 0, 0, parent, None
        while len(node) and node[-1].tag in _LIST_TAGS and len(node[-1]):
            item = node[-1][-1]
            column += self.columns.text.get(item, self.tab_length)
            depth += 1
            if indent < column:
                break
            # Python-Markdown's 4 a level come off too, so that 4 more are code, as they always were.
            found, node = (item, column, max(column, self.tab_length * depth)), item
        return found

    def test(self, parent: etree.Element, block: str) -> bool:
        return self._item(parent, block) is not None or super().test(parent, block)

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        found = self._item(parent, blocks[0])
        if found is None:
            super().run(parent, blocks)
            return
        item, column, strip = found
        lines = blocks.pop(0).split("\n")
        # A list item indented less than this item's text starts an item of a list further out, as in CommonMark:
        # Python-Markdown made "2. next" after "   - sub" text of the sub-item.
        end = next((i for i, line in enumerate(lines) if i and _indent(line) < column and _MARKER.match(line)), None)
        if end is not None:
            blocks.insert(0, "\n".join(lines[end:]))
            lines = lines[:end]
        block = "\n".join(line[min(strip, _indent(line)) :] for line in lines)
        if item.text:
            # A tight item (its text bare in the <li>) followed by a block is loose: its text becomes a paragraph.
            paragraph = etree.Element("p")
            paragraph.text, item.text = item.text, ""
            item.insert(0, paragraph)
        self.columns.cut[item] = min(strip, _indent(lines[0])) - column
        self.parser.state.set("detabbed")
        try:
            self.parser.parseChunk(item, block)
        finally:
            self.parser.state.reset()
            del self.columns.cut[item]


class _NestedFences(Preprocessor):
    """A fence indented in a list item (to its text, as on GitHub) or inside a quote is a code block, as one at
    the left margin is: fenced_code finds fences at column 0 only, and made the language word and the code an
    inline code span. Each such fence is handed to fenced_code dedented, and its placeholder put where the fence
    was, indented as it was, between blank lines, so the list or quote holds it; a fence opened on an item's own
    line ("1. ```bash") becomes that item's text, its code block. Fences at column 0 are left to
    fenced_code as before, and what is code by indentation (4 past Python-Markdown's 4 a level) stays code."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        items: list[int] = []  # the text column of each open list item, outermost first
        i, blank = 0, True
        while i < len(lines):
            line = lines[i]
            quote = _QUOTE.match(line)[0]
            body = line[len(quote) :]
            indent, item, fence = _indent(body), _ITEM.match(body), _FENCE.match(body)
            if not quote and line.strip() and (blank or item or fence):
                while items and indent < items[-1]:
                    items.pop()
            column = 0 if quote else (items[-1] if items else 0)
            code = max(column, 4 * (0 if quote else len(items))) + 4  # where indented code starts
            if not quote and item and indent < code:
                spaces = len(item["spaces"])
                items.append(len(item["marker"]) + (spaces if spaces <= 4 else 1))
                # A fence opened on the item's own line ("1. ```bash"), as GitHub reads it: the item's code block.
                opening = _FENCE.match(" " * items[-1] + body[item.end("spaces") :]) if spaces <= 4 else None
                end = self._closing(lines, i, quote, items[-1], opening) if opening else None
                if end is not None and (placeholder := self._stash(lines[i : end + 1], "", items[-1], opening)):
                    out.append(body[: item.end("spaces")] + placeholder)
                    following = lines[end + 1] if end + 1 < len(lines) else ""
                    if following.strip() and _indent(following) >= items[-1] and not _MARKER.match(following):
                        out.append("")  # the item's text goes on after its code: a paragraph of its own
                    i, blank = end + 1, False
                    continue
            elif fence and indent < code:
                end = self._closing(lines, i, quote, column, fence)
                if end is None:
                    pass  # unclosed, or cut short by the end of its item or quote: left as it was
                elif not quote and indent == 0:  # fenced_code's own: left to it, exactly as before
                    out.extend(lines[i : end + 1])
                    i, blank = end + 1, False
                    continue
                elif (placeholder := self._stash(lines[i : end + 1], quote, indent, fence)) is not None:
                    out += [quote.rstrip(), quote + " " * indent + placeholder]
                    # A quote's last line left blank (">") would leave a newline in the placeholder's paragraph.
                    if end + 1 < len(lines) and lines[end + 1].startswith(quote.rstrip()):
                        out.append(quote.rstrip())
                    i, blank = end + 1, True
                    continue
            out.append(line)
            i, blank = i + 1, not body.strip()
        return out

    @staticmethod
    def _closing(lines: list[str], start: int, quote: str, column: int, fence: re.Match[str]) -> int | None:
        """The line closing the fence opened at `start`, or None: unclosed, or a line ends its item or quote."""
        if not quote and not fence["indent"]:  # fenced_code's own closing line: the same fence, at column 0
            close = re.compile(f"^{re.escape(fence['fence'])}[ ]*$")
        else:
            close = re.compile(f"^[ ]*{re.escape(fence['fence'][0])}{{{len(fence['fence'])},}}[ ]*$")
        for i in range(start + 1, len(lines)):
            line = lines[i]
            if quote and not line.startswith(quote) and line.rstrip() != quote.rstrip():
                return None
            rest = line[len(quote) :]
            if not rest.strip():
                continue
            if _indent(rest) < column:
                return None
            if close.match(rest) and _indent(rest) - column <= 3:
                return i
        return None

    def _stash(self, lines: list[str], quote: str, indent: int, fence: re.Match[str]) -> str | None:
        """The placeholder fenced_code stores for these lines dedented, or None if it does not take them."""
        body = [line[len(quote) :] for line in lines[1:-1]]
        dedented = [fence["fence"] + fence["info"], *(line[min(indent, _indent(line)) :] for line in body)]
        result = self.md.preprocessors["fenced_code_block"].run([*dedented, fence["fence"]])
        kept = [line for line in result if line.strip()]
        return kept[0] if len(kept) == 1 else None  # else the opening and closing lines at least


class _ListsAfterText(Preprocessor):
    """A list straight under a line of text starts there, as in CommonMark (a numbered one only from "1."), and a
    numbered list straight under a bulleted one (or the other way round) is a list of its own. Python-Markdown wants
    a blank line before each: it made "Steps:" and the items under it one paragraph, and numbered items more text of
    the last bullet. Each gets that blank line here, but not within a formula or a code span going on over lines,
    where a line starting "- " is TeX or code; fences and raw HTML are placeholders by now."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        # The block the line is in: None after a blank line, "text", "list" or "other" (code, a quote, a table).
        block, kind, column, opened, blank, previous, rows = None, "", 0, "", True, "", 0
        for line in lines:
            stripped, indent, item = line.strip(), _indent(line), _ITEM.match(line)
            marker = item["marker"].strip() if item else ""
            line_kind = "ol" if marker[:1].isdigit() else "ul"
            if not stripped:
                opened, blank, block = "", True, block if block == "list" else None
            elif not opened:
                if block == "text" and indent < 4 and marker in _STARTS:
                    out.append("")
                    block, kind, column = "list", line_kind, indent
                elif block == "list" and item and indent == column and line_kind != kind and marker in _STARTS:
                    out.append("")
                    kind = line_kind
                elif block is None or (block == "list" and blank and not indent and not item):
                    if item and indent < 4:
                        block, kind, column = "list", line_kind, indent
                    else:
                        block = "other" if indent >= 4 or stripped[0] in ">|" else "text"
                if stripped.startswith("#") and block == "text":
                    block = None  # a heading is a block of its own line
                elif (
                    block == "text"
                    and rows == 1
                    and "|" in previous
                    and "|" in stripped
                    and _TABLE_RULE.match(stripped)
                ):
                    block = "other"  # a table without its outer pipes: a row starting "- " is still a row
            if stripped:
                opened, blank = _still_open(opened, line), False
            out.append(line)
            previous, rows = line, rows + 1 if stripped else 0  # a table's header is its block's first line
        return out


# A table's line under its header, as the tables extension knows it: dashes (aligned by colons) between pipes.
_TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?$")
# The markers that may start a list where a line of text would go on, as in CommonMark: a numbered one only from 1.
_STARTS = ("-", "*", "+", "1.")
# A backslash and what it escapes, else what opens or closes a span over lines: "$$", "\[" and "\]", "\(" and "\)",
# backticks.
_SPANS = re.compile(r"\\[\\$`]|(\$\$|\\[\[\]()]|`+)")
_CLOSING = {"\\[": "\\]", "\\(": "\\)"}


def _still_open(opened: str, line: str) -> str:
    """The span ("$$", "\\[", "\\(" or a run of backticks) open at the end of `line`, given the one open at its
    start."""
    for match in _SPANS.finditer(line):
        mark = match[1]
        if mark is None:
            continue
        if not opened:
            opened = "" if mark in _CLOSING.values() else mark
        elif mark == _CLOSING.get(opened, opened):
            opened = ""
    return opened


class ListIndentation(Extension):
    """Replaces sane_lists' list processors (so it comes after "sane_lists") and the list indentation one."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        columns = _Columns()
        # After whitespace is normalised (30), before fenced_code (25) takes the fences at column 0.
        md.preprocessors.register(_NestedFences(md), "nested_fences", 28)
        # After fenced_code (25) and raw HTML (20) have left placeholders for their blocks.
        md.preprocessors.register(_ListsAfterText(md), "lists_after_text", 15)
        md.parser.blockprocessors.register(_ItemContinuation(md.parser, columns), "indent", 90)
        md.parser.blockprocessors.register(_OListProcessor(md.parser, columns), "olist", 40)
        md.parser.blockprocessors.register(_UListProcessor(md.parser, columns), "ulist", 30)
