"""Markdown + KaTeX + nh3: card text in, safe HTML out. Pure: no request, no ORM.

Math is pulled out before Markdown sees it (so `_` and `*` inside TeX are not emphasis), rendered by KaTeX, and
put back afterwards. Code stays literal: fences and code spans (even one running over lines) are set aside before
math is looked for. `\\$` is a literal dollar, and "$5 and $6" is not math: like Pandoc, an opening `$` must be
followed by a non-space and a closing `$` preceded by a non-space and not followed by a digit.
The leftmost opening wins, so "$a$$b$" is two inline formulas and "$$x$$ and $$y$$" two display ones.
A display formula alone on its line(s) is a block of its own, where Markdown puts that line: inside a list item
(the list goes on after it), a quote or a footnote as at the top level. List items take what is indented to their
text, as on GitHub (2 spaces under "- ", 3 under "1. "), not only Python-Markdown's 4 (markdown_lists.py).
A fence indented in a list item (or in a quote) is a code block there, as one at the left margin is.
A `|` inside math does not end a table cell, as one inside a code span does not.
Math in a link's URL or title, an autolink or a raw HTML attribute is text as written: never typeset there.

LaTeX's `\\(…\\)` is inline math and `\\[…\\]` display math too (as Pandoc's tex_math_single_backslash): ML
notes are full of them, and Markdown alone would drop the backslashes. So `\\[` is no longer an escaped bracket
when a `\\]` closes it; `\\\\[` is a backslash and a bracket, and an unclosed `\\[` or `\\(` stays a bracket.

A Markdown image shows as its alt text, "[image: diagram]": the sanitiser keeps no <img> (no external images).
Footnotes (`See[^1]` and a `[^1]: …` line) are Python-Markdown's. Their ids are numbers behind a digest of the
text, so the fields shown on one page do not share one (only fields with the very same text would); the sanitiser
lets no other id through.

markdown_math.py holds the Markdown side (finding math); this module typesets, sanitises and moves styles.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from html import escape, unescape

import nh3

from .katex import KatexParseError, render_tex
from .markdown_math import MathCollector, convert


def formula_excerpt(tex: str, length: int = 80) -> str:
    """A formula as an error message quotes it: whole when short, else its start and a count of the rest."""
    flat = " ".join(tex.split())
    return flat if len(flat) <= length else f"{flat[:length]}… ({len(flat) - length:,} more characters)"


def formula_refusal(formula: str, message: str) -> str:
    """How a form and the seed loader name a formula KaTeX refused (`formula` as written, from Rendered.errors)."""
    return f"KaTeX cannot typeset {formula_excerpt(formula)}: {message}"


# What marks a formula KaTeX could not parse in stored HTML.
MATH_ERROR_MARK = 'class="katex-error"'


def math_error_html(tex: str, message: str, *, display: bool) -> str:
    """The visible stand-in for a formula KaTeX could not parse."""
    tag = "div" if display else "span"
    return (
        f'<{tag} {MATH_ERROR_MARK} title="{escape(message)}">'
        f"<code>{escape(tex)}</code> "
        f'<span class="katex-error-message">{escape(message)}</span></{tag}>'
    )


def find_math(text: str) -> list[tuple[str, bool]]:
    """The formulas in `text` as (tex, display), found exactly as `render` finds them."""
    collector = MathCollector()
    html = convert(collector, text)
    # Display math is matched in its own pass, so restore document order.
    return [collector.formulas[int(m[1])] for m in collector.pattern().finditer(html)]


@dataclass(frozen=True)
class Rendered:
    html: str
    styles: dict[str, str]  # class name -> CSS declarations that replaced an inline style attribute
    # (formula as written, delimiters and all, KaTeX message) for each formula KaTeX rejected, in document order,
    # to be quoted as the author wrote it ("\[...\]", not "$...$"): the html shows these as
    # math_error_html, and a caller that must refuse them (a form, an import) need not typeset twice.
    errors: tuple[tuple[str, str], ...] = ()


def render(text: str) -> Rendered:
    """Safe HTML for a Markdown body with `$…$` / `$$…$$` math typeset by KaTeX.

    KaTeX positions glyphs with inline `style` attributes; a strict Content Security
    Policy forbids those, so each becomes a class whose rule is served as a stylesheet.
    A formula KaTeX rejects shows as its source with KaTeX's message, and is listed in `errors`.
    """
    if not text.strip():
        return Rendered("", {})
    collector = MathCollector()
    html = convert(collector, text)
    errors = []

    def typeset(marker: re.Match[str]) -> str:
        index = int(marker[1])
        tex, display = collector.formulas[index]
        try:
            return render_tex(tex, display=display)
        except KatexParseError as exc:
            errors.append((collector.sources[index], str(exc)))
            return math_error_html(tex, str(exc), display=display)

    # The author's own HTML first, on its own terms: colours only, and no class but those Markdown writes. With a
    # class of the site's (.skip-link is absolutely placed) and KaTeX's sizes a span covered every page.
    html = sanitize(html, ids=collector.footnote_ids, author=True)
    # Typeset as the markers come (document order, as find_math has them), so errors keep that order too.
    html = collector.pattern().sub(typeset, html)
    return replace(styles_to_classes(sanitize(html, ids=collector.footnote_ids).strip()), errors=tuple(errors))


_START_TAG = re.compile(r'<[a-zA-Z][^\s>/]*(?:\s+[^\s"\'>/=]+(?:="[^"]*")?)*\s*/?>')
_STYLE_ATTR = re.compile(r'\s+style="([^"]*)"')
_CLASS_ATTR = re.compile(r'(\s+class=")([^"]*)(")')


def style_class(declarations: str) -> str:
    return "s" + hashlib.sha1(declarations.encode(), usedforsecurity=False).hexdigest()[:10]


def styles_to_classes(html: str) -> Rendered:
    """Moves every style attribute into a class named after its declarations (made !important, as inline was)."""
    styles: dict[str, str] = {}

    def rewrite(tag: re.Match[str]) -> str:
        text = tag[0]
        style = _STYLE_ATTR.search(text)
        if style is None:
            return text
        text = text[: style.start()] + text[style.end() :]
        declarations = _important(style_parts(unescape(style[1])))
        if not declarations:
            return text
        name = style_class(declarations)
        styles[name] = declarations
        if _CLASS_ATTR.search(text):
            return _CLASS_ATTR.sub(lambda m: f"{m[1]}{m[2]} {name}{m[3]}", text, count=1)
        end = -2 if text.endswith("/>") else -1
        return f'{text[:end]} class="{name}"{text[end:]}'

    return Rendered(_START_TAG.sub(rewrite, html), styles)


_IMPORTANT = " !important"
_PLAIN_VALUE = re.compile(r"[\w#%.\- ]+", re.ASCII)


def style_compact(declarations: str) -> str:
    """Declarations as `styles_to_classes` writes them, without the `!important` each carries (for a URL)."""
    return declarations.replace(_IMPORTANT, "")


def style_expand(compact: str) -> tuple[str, str]:
    """(class name, declarations) back from `style_compact`'s output.

    ValueError unless every declaration is a property KaTeX writes with a plain value (letters, digits, `#%.-_`
    and spaces: no quotes, slashes, braces or functions), so a rule built from text a browser sent is safe to serve.
    """
    declarations = _important(style_parts(compact))
    if not declarations:
        raise ValueError(f"not a style this renderer writes: {compact[:80]!r}")
    return style_class(declarations), declarations


def _important(parts: list[tuple[str, str]]) -> str:
    """Declarations as a rule holds them, each !important as the inline style was."""
    return ";".join(f"{prop}:{value}{_IMPORTANT}" for prop, value in parts)


def style_parts(declarations: str) -> list[tuple[str, str]]:
    """(property, value) of each declaration, or none at all unless every one is a property KaTeX writes with a
    plain value (letters, digits, `#%.-_` and spaces: no quotes, slashes, braces or functions).

    All or nothing: nh3 reads `color:a<"b;position:fixed;c"` as one declaration, a colour whose quoted string holds
    the semicolons, and dropping only the pieces that fail would let `position:fixed` through on its own."""
    parts = []
    for part in declarations.split(";"):
        prop, colon, value = (piece.strip() for piece in part.partition(":"))
        if not (prop or colon or value):
            continue  # the empty piece after a closing ";"
        if not colon or prop not in _STYLE_PROPERTIES or not _PLAIN_VALUE.fullmatch(value):
            return []
        parts.append((prop, value))
    return parts


_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "kbd", "li", "ol", "p", "pre", "s",
    "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
_MATHML_TAGS = {
    "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace",
    "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover",
    "mtable", "mtr", "mtd", "mlabeledtr", "mstyle", "mpadded", "mphantom", "menclose",
    "merror", "mmultiscripts", "mprescripts", "none",
}  # fmt: skip
_MATHML_ATTRIBUTES = {
    "accent", "accentunder", "columnalign", "columnlines", "columnspacing", "depth", "display",
    "displaystyle", "encoding", "fence", "form", "height", "largeop", "linethickness", "lspace",
    "mathbackground", "mathcolor", "mathsize", "mathvariant", "maxsize", "minsize", "movablelimits",
    "notation", "rowalign", "rowlines", "rowspacing", "rspace", "scriptlevel", "separator",
    "stretchy", "symmetric", "voffset", "width", "xmlns",
}  # fmt: skip
_SVG_TAGS = {"svg", "path", "line", "g", "rect"}
_SVG_ATTRIBUTES = {
    "d", "fill", "height", "preserveAspectRatio", "stroke", "stroke-width", "viewBox",
    "width", "x", "x1", "x2", "y", "y1", "y2", "xmlns",
}  # fmt: skip
# Only the properties KaTeX writes inline; nothing that can move content out of its box.
_STYLE_PROPERTIES = {
    "border-bottom-width", "border-color", "border-right-style", "border-right-width",
    "border-style", "border-top-width", "border-width", "bottom", "color", "height",
    "margin-left", "margin-right", "max-width", "min-width", "padding-left", "padding-right",
    "top", "vertical-align", "width", "background-color",
}  # fmt: skip
_ATTRIBUTES = {
    "*": {"class"},
    "a": {"href", "title"},
    "abbr": {"title"},
    "ol": {"start"},
    "span": {"aria-hidden", "style", "title"},
    "div": {"title"},
    **dict.fromkeys(_MATHML_TAGS, _MATHML_ATTRIBUTES),
    **dict.fromkeys(_SVG_TAGS, _SVG_ATTRIBUTES),
}


# An author may colour text; sizes and positions are KaTeX's alone (with them a span could cover the page).
_AUTHOR_STYLE_PROPERTIES = {"color", "background-color"}
_MARKDOWN_CLASS = re.compile(
    r"footnote|footnote-ref|footnote-backref|math-display|image-alt|align-(?:left|right|center)|language-[\w+#.-]{1,40}"
)


def _markdown_classes(_element: str, attribute: str, value: str) -> str | None:
    if attribute != "class":
        return value
    return " ".join(name for name in value.split() if _MARKDOWN_CLASS.fullmatch(name)) or None


def sanitize(html: str, *, ids: Collection[str] = (), author: bool = False) -> str:
    """nh3 with an allow-list that keeps Markdown's output and KaTeX's HTML, MathML
    and SVG, but never scripts, event handlers or javascript: URLs. For the `author`'s
    HTML, before KaTeX's is added: colours only in a style, and only the classes Markdown writes.

    `ids` are the footnote ids the conversion made: no other id survives, so an author's
    raw HTML cannot take one the page (or another field's footnotes) already uses."""
    allowed_ids = set(ids)
    return nh3.clean(
        html,
        tags=_TAGS | _MATHML_TAGS | _SVG_TAGS,
        attributes=_ATTRIBUTES,
        attribute_filter=_markdown_classes if author else None,
        tag_attribute_values={"sup": {"id": allowed_ids}, "li": {"id": allowed_ids}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
        filter_style_properties=_AUTHOR_STYLE_PROPERTIES if author else _STYLE_PROPERTIES,
    )
