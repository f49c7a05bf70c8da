"""Plain text of rendered card HTML, for places that cannot show HTML (CSV exports, titles): formulas read as
a line of text ("σ(x)=1/(1+e^(−x))"), never as their TeX source or as KaTeX's layout boxes. Pure, stdlib only.

KaTeX writes each formula twice: MathML (read by screen readers) and positioned HTML (aria-hidden, for the eye).
The text comes from the MathML, which says what is a fraction, a power or an index; its TeX annotation and the
HTML copy are skipped.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
# Their content is not text: KaTeX's drawn copy of a formula, TeX source, drawings.
_SKIP = frozenset({"annotation", "annotation-xml", "svg", "script", "style", "template"})
# KaTeX's drawn copy; footnotes and the marks that link to them, which belong to no line of text.
_UNSAID = frozenset({"katex-html", "footnote", "footnote-ref"})
# A line of its own in the page: a space in the text, so words either side do not run together.
_BLOCKS = frozenset(
    {"address", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5",
     "h6", "hr", "li", "ol", "p", "pre", "table", "td", "th", "tr", "ul"}
)  # fmt: skip
_SIMPLE = re.compile(r"(?:[^\W_][\u0300-\u036f\u20d0-\u20ff]*)+|\d+(?:\.\d+)?|[^\s()]")
# KaTeX's accents (\\hat, \\bar, \\tilde, \\dot, \\vec) as combining marks.
_ACCENTS = {"^": "\u0302", "ˉ": "\u0304", "~": "\u0303", "˙": "\u0307", "⃗": "\u20d7", "→": "\u20d7"}
# MathML's invisible operators (function application, invisible times, ...) and zero-width spaces.
_INVISIBLE = str.maketrans(dict.fromkeys(map(ord, "\u2061\u2062\u2063\u2064\u200b"), None))


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    children: list[_Node | str] = field(default_factory=list)


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("", {})
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, {name: value or "" for name, value in attrs})
        self.open[-1].children.append(node)
        if tag not in _VOID:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(_Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def _math(node: _Node | str) -> str:
    """A MathML element as a line: fractions with "/", powers with "^", indices with "_", roots with "√"."""
    if isinstance(node, str):
        return node.translate(_INVISIBLE).strip()
    if node.tag in _SKIP:
        return ""
    parts = [_math(child) for child in node.children if isinstance(child, _Node) or child.strip()]
    if node.tag in ("mrow", "math", "semantics", "mstyle", "mpadded", "mphantom"):
        parts = [part for part in parts if part]
    if node.tag == "mfrac" and len(parts) == 2:
        return f"{_group(parts[0])}/{_group(parts[1])}"
    if node.tag == "msup" and len(parts) == 2:
        return f"{_group(parts[0])}^{_group(parts[1])}"
    if node.tag == "msub" and len(parts) == 2:
        return f"{_group(parts[0])}_{_group(parts[1])}"
    if node.tag == "msubsup" and len(parts) == 3:
        return f"{_group(parts[0])}_{_group(parts[1])}^{_group(parts[2])}"
    if node.tag == "munderover" and len(parts) == 3:
        return f"{parts[0]}_{_group(parts[1])}^{_group(parts[2])} "
    if node.tag == "munder" and len(parts) == 2:
        return f"{parts[0]}_{_group(parts[1])} "
    if node.tag == "mover" and len(parts) == 2:
        # An accent on a letter combines with it (ŷ, x̄); a limit written above stays as a power.
        if node.attrs.get("accent") == "true":
            mark = _ACCENTS.get(parts[1], "")
            return parts[0] + mark if len(parts[0]) == 1 else parts[0]
        return f"{parts[0]}^{_group(parts[1])} "
    if node.tag == "msqrt":
        return f"√{_group(_joined(parts))}"
    if node.tag == "mroot" and len(parts) == 2:
        return f"{_group(parts[1])}√{_group(parts[0])}"
    if node.tag == "mtext":
        return f" {''.join(parts)} "
    if node.tag == "mspace":
        return " "
    if node.tag == "mtr":
        return " ".join(parts)
    if node.tag == "mtable":
        return "; ".join(parts)
    return _joined(parts)


def _joined(parts: list[str]) -> str:
    """Operands side by side, as MathML has them: a space where two would run together ("W_q x", not "W_qx")."""
    out = ""
    for part in parts:
        if out and part and (out[-1].isalnum() or unicodedata.combining(out[-1])) and part[0].isalnum():
            out += " "
        out += part
    return out


def _group(text: str) -> str:
    """`text` in brackets unless it is one symbol or number (or bracketed already): "e^(−x)", "x^2"."""
    text = " ".join(text.split())
    if _SIMPLE.fullmatch(text) or (text[:1] == "(" and text[-1:] == ")" and text.count("(") == 1):
        return text
    return f"({text})"


def _text(node: _Node | str, out: list[str]) -> None:
    if isinstance(node, str):
        out.append(node)
        return
    if node.tag in _SKIP or _UNSAID.intersection(node.attrs.get("class", "").split()):
        return
    if node.tag == "math":
        out.append(_math(node).strip())
        return
    if node.tag == "img":
        out.append(f" {node.attrs.get('alt', '')} ")
        return
    block = node.tag in _BLOCKS
    if block:
        out.append(" ")
    for child in node.children:
        _text(child, out)
    if block:
        out.append(" ")


def plain_text(html: str) -> str:
    """The text of `html` on one line, formulas included as text, whitespace collapsed."""
    tree = _Tree()
    tree.feed(html)
    tree.close()
    out: list[str] = []
    _text(tree.root, out)
    return unicodedata.normalize("NFC", " ".join("".join(out).translate(_INVISIBLE).split()))
