"""Golden cases for lists as the renderer reads them (markdown_lists.py): what is indented to an item's text is
that item's, as on GitHub, and a display formula stays in its list item, quote or footnote."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from apps.content.rendering import render


class _Outline(HTMLParser):
    """The blocks a reader sees: lists (and an <ol>'s start), items, paragraphs, quotes and tables, text, and each
    formula by its TeX: `[tex]` for a math-display block, `$$tex$$` for display math inside a line, `$tex$` inline."""

    BLOCKS = {"ol", "ul", "li", "p", "blockquote", "table", "tr", "th", "td", "hr", "h2", "pre"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.formula: list[str] | None = None  # open tags of the formula being read, from its outermost one
        self.kind = ""

    def handle_starttag(self, tag, attrs):
        if self.formula is not None:
            self.formula.append(tag)
            return
        classes = (dict(attrs).get("class") or "").split()
        kind = next((k for k in ("math-display", "katex-display", "katex") if k in classes), None)
        if kind:
            self.formula, self.kind = [tag], kind
        elif tag in self.BLOCKS:
            start = dict(attrs).get("start")
            self.parts.append(f'<{tag} start="{start}">' if start else f"<{tag}>")

    def handle_endtag(self, tag):
        if self.formula is not None:
            self.formula.pop()
            if not self.formula:
                self.formula = None
        elif tag in self.BLOCKS:
            self.parts.append(f"</{tag}>")

    def handle_data(self, data):
        if self.formula is None:
            self.parts.append(data)
        elif self.formula[-1] == "annotation":
            open_, close = {"math-display": "[]", "katex-display": ("$$", "$$"), "katex": "$$"}[self.kind]
            self.parts.append(f"{open_}{data}{close}")


def _outline(html: str) -> str:
    outline = _Outline()
    outline.feed(html)
    return re.sub(r"\s*(<[^>]+>)\s*", r"\1", " ".join("".join(outline.parts).split()))


@pytest.mark.parametrize(
    ("source", "outline"),
    [
        # The formula on the line after the item's text (a lazy continuation, however indented).
        (
            "1. Compute the scale:\n   $$s = \\frac{a}{255}$$\n2. Round: $q = r/s$",
            "<ol><li>Compute the scale:[s = \\frac{a}{255}]</li><li>Round: $q = r/s$</li></ol>",
        ),
        ("- a, then\n  $$x^2$$\n- b", "<ul><li>a, then[x^2]</li><li>b</li></ul>"),
        ("- a, then\n  \\[x^2\\]\n- b", "<ul><li>a, then[x^2]</li><li>b</li></ul>"),
        ("- a\n$$x$$\n- b", "<ul><li>a[x]</li><li>b</li></ul>"),
        ("- a\n  $$\n  x\n  $$\n  and on\n- b", "<ul><li>a[x] and on</li><li>b</li></ul>"),
        ("- $$x$$\n- b", "<ul><li>[x]</li><li>b</li></ul>"),
        # A continuation paragraph indented as Python-Markdown asks (4 spaces), and a nested list.
        ("1. a\n\n    $$x$$\n\n2. b", "<ol><li><p>a</p>[x]</li><li><p>b</p></li></ol>"),
        (
            "1. outer\n    - inner\n      $$x$$\n    - inner 2\n2. outer 2",
            "<ol><li>outer<ul><li>inner[x]</li><li>inner 2</li></ul></li><li>outer 2</li></ol>",
        ),
        # A quote holds its formula, as a block of its own as at the top level.
        ("> so\n> $$x$$\n> then", "<blockquote><p>so</p>[x]<p>then</p></blockquote>"),
        ("> so\n>\n> \\[x\\]\n\nout", "<blockquote><p>so</p>[x]</blockquote><p>out</p>"),
        # At the top level a formula line still ends a table or a paragraph, and is no heading's title.
        ("| a |\n|---|\n| 1 |\n$$x$$", "<table><tr><th>a</th></tr><tr><td>1</td></tr></table>[x]"),
        ("a\n$$x$$\n---", "<p>a</p>[x]<hr>"),
        ("so $$x$$ inline", "<p>so $$x$$ inline</p>"),
        ("    $$x$$", "<pre>$$x$$</pre>"),  # indented code: no formula
    ],
)
def test_a_display_formula_stays_in_its_list_item_or_quote(source, outline):
    """The formula was cut out to the top level: the item closed before it and the list restarted after it."""
    rendered = render(source)
    assert _outline(rendered.html) == outline
    assert rendered.errors == ()


REPORTED = r"""Steps:

1. Compute the scale:

   $$s = \frac{a}{255}$$

2. Round: $q = r/s$

Bullets:

- a, then
  $$x^2$$
- b"""


@pytest.mark.parametrize(
    ("source", "outline"),
    [
        (
            REPORTED,
            r"<p>Steps:</p><ol><li><p>Compute the scale:</p>[s = \frac{a}{255}]</li><li><p>Round: $q = r/s$</p></li>"
            "</ol><p>Bullets:</p><ul><li>a, then[x^2]</li><li>b</li></ul>",
        ),
        # An item's own blocks indented to its text, as on GitHub: 2 spaces under "- ", 3 under "1. ".
        ("- a\n\n  $$x$$\n\n- b", "<ul><li><p>a</p>[x]</li><li><p>b</p></li></ul>"),
        ("1. a\n\n   \\[x\\]\n\n2. b", "<ol><li><p>a</p>[x]</li><li><p>b</p></li></ol>"),
        ("1. a\n\n   para\n\n2. b", "<ol><li><p>a</p><p>para</p></li><li><p>b</p></li></ol>"),
        (
            "- a\n\n  > so\n  > $$x$$\n\n- b",
            "<ul><li><p>a</p><blockquote><p>so</p>[x]</blockquote></li><li><p>b</p></li></ul>",
        ),
        ("- a\n\n  para\n- b", "<ul><li><p>a</p><p>para</p></li><li><p>b</p></li></ul>"),
        ("- a\n\n    para\n- b", "<ul><li><p>a</p><p>para</p></li><li><p>b</p></li></ul>"),  # was "para - b"
        # Nested lists indented to the parent's text, and blocks of the nested items.
        (
            "- a\n  - b\n    - c\n  - d\n- e",
            "<ul><li>a<ul><li>b<ul><li>c</li></ul></li><li>d</li></ul></li><li>e</li></ul>",
        ),
        ("1. a\n   - b\n   - c\n2. d", "<ol><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ol>"),
        (
            "1. Outer:\n   - inner, then\n\n     $$x$$\n\n   - inner 2\n2. Outer 2",
            "<ol><li><p>Outer:</p><ul><li><p>inner, then</p>[x]</li><li><p>inner 2</p></li></ul></li>"
            "<li><p>Outer 2</p></li></ol>",
        ),
        # As before: Python-Markdown's 4 spaces, code 4 past them, and no item for a block indented less than its text.
        (
            "- a\n    - b\n\n    para\n\n- c",
            "<ul><li><p>a</p><ul><li>b</li></ul><p>para</p></li><li><p>c</p></li></ul>",
        ),
        ("- a\n\n        code\n\n- b", "<ul><li><p>a</p><pre>code</pre></li><li><p>b</p></li></ul>"),
        ("- a\n\n      six\n\n- b", "<ul><li><p>a</p><p>six</p></li><li><p>b</p></li></ul>"),
        ("1. a\n\n  two\n\n2. b", '<ol><li>a</li></ol><p>two</p><ol start="2"><li>b</li></ol>'),
        ("a\n\n  two\n\n    code", "<p>a</p><p>two</p><pre>code</pre>"),
    ],
)
def test_lists_indented_as_commonmark_indents_them(source, outline):
    """Python-Markdown wants 4 spaces; at 2 or 3 a formula or a paragraph ended the list, the next item another."""
    rendered = render(source)
    assert _outline(rendered.html) == outline
    assert rendered.errors == ()


def test_a_display_formula_in_a_footnote_stays_in_the_footnote():
    html = render("See[^1].\n\n[^1]: note\n    $$x$$").html
    assert _outline(html[html.index('<div class="footnote">') :]) == "<hr><ol><li><p>note</p>[x]<p>↩</p></li></ol>"


FENCES = """Steps:

1. Install:

   ```bash
   pip install torch
   ```

2. Run it.

- item

  ```python
  x = 1
  ```"""


@pytest.mark.parametrize(
    ("source", "html"),
    [
        # As reported: the language word was shown as code and the block as an inline code span.
        (
            FENCES,
            "<p>Steps:</p>\n<ol>\n<li>\n<p>Install:</p>\n"
            '<pre><code class="language-bash">pip install torch\n</code></pre>\n</li>\n'
            "<li>\n<p>Run it.</p>\n</li>\n</ol>\n<ul>\n<li>\n<p>item</p>\n"
            '<pre><code class="language-python">x = 1\n</code></pre>\n</li>\n</ul>',
        ),
        # Under a 4-space list, right after the item's text, with a blank line and markup inside.
        (
            "- a\n    ```\n    <b>&amp;</b>\n\n    y\n    ```\n- b",
            "<ul>\n<li>\n<p>a</p>\n<pre><code>&lt;b&gt;&amp;amp;&lt;/b&gt;\n\ny\n</code></pre>\n</li>\n<li>\n<p>b</p>\n"
            "</li>\n</ul>",
        ),
        # Math inside stays literal, as in a fence at the left margin.
        (
            "1. a\n\n   ```\n   $$x$$ and $y$\n   ```",
            "<ol>\n<li>\n<p>a</p>\n<pre><code>$$x$$ and $y$\n</code></pre>\n</li>\n</ol>",
        ),
        # At the left margin, exactly as before.
        ("```python\ny = $$x$$\n```", '<pre><code class="language-python">y = $$x$$\n</code></pre>'),
        ("Use print:\n```\nx = 1\n\nprint(x)\n```", "<p>Use print:</p>\n<pre><code>x = 1\n\nprint(x)\n</code></pre>"),
        # Code by indentation stays code, backticks and all.
        ("    ```\n    x\n    ```", "<pre><code>```\nx\n```\n</code></pre>"),
        (
            "- a\n\n        ```\n        x\n        ```",
            "<ul>\n<li>\n<p>a</p>\n<pre><code>```\nx\n```\n</code></pre>\n</li>\n</ul>",
        ),
        # In a quote, as GitHub has it.
        (
            "> so\n> ```py\n> q = 1\n> ```",
            '<blockquote>\n<p>so</p>\n<pre><code class="language-py">q = 1\n</code></pre>\n</blockquote>',
        ),
    ],
)
def test_a_fence_in_a_list_item_or_quote_is_a_code_block(source, html):
    """fenced_code finds fences at the left margin only: one indented in an item or quoted was inline code."""
    assert render(source).html == html


@pytest.mark.parametrize(
    ("source", "outline"),
    [
        (
            "1. a\n   - b\n\n     ```sh\n     ls $HOME\n     ```\n   - c\n2. d",
            "<ol><li><p>a</p><ul><li><p>b</p><pre>ls $HOME</pre></li><li><p>c</p></li></ul></li><li><p>d</p></li></ol>",
        ),
        (
            "10. a\n\n    ```\n    x\n    ```\n11. b",
            '<ol start="10"><li><p>a</p><pre>x</pre></li><li><p>b</p></li></ol>',
        ),
        ("- a\n\n  ~~~\n  ```\n  ~~~\n- b", "<ul><li><p>a</p><pre>```</pre></li><li><p>b</p></li></ul>"),
        # Opened on the item's own line, as GitHub reads it: the item is the code block.
        ("1. ```bash\n   pip install torch\n   ```\n2. b", "<ol><li><pre>pip install torch</pre></li><li>b</li></ol>"),
        ("- ```\n  x\n  ```\n  then this\n- b", "<ul><li><pre>x</pre><p>then this</p></li><li><p>b</p></li></ul>"),
        # Unclosed: the line as written, not a code block swallowing the rest of the list.
        ("- ```py\n  x\n- b", "<ul><li>```py x</li><li>b</li></ul>"),
    ],
)
def test_a_fence_in_a_nested_item_keeps_the_lists_going(source, outline):
    assert _outline(render(source).html) == outline


@pytest.mark.parametrize(
    ("source", "outline"),
    [
        ("Steps:\n- a\n- b", "<p>Steps:</p><ul><li>a</li><li>b</li></ul>"),
        ("Steps:\n1. a\n2. b", "<p>Steps:</p><ol><li>a</li><li>b</li></ol>"),
        # Only "1." starts a numbered list under text, as in CommonMark: a year at a line's start stays text.
        ("Founded in\n2019. Then", "<p>Founded in 2019. Then</p>"),
        ("- a\n- b\n1. first\n2. second", "<ul><li>a</li><li>b</li></ul><ol><li>first</li><li>second</li></ol>"),
        ("1. a\n- b", "<ol><li>a</li></ol><ul><li>b</li></ul>"),
        ("## Steps\n- a", "<h2>Steps</h2><ul><li>a</li></ul>"),
        # A line starting "- " inside a formula or a code span going on over lines is TeX or code, not an item.
        ("Loss: $$a\n- b$$ here", "<p>Loss: $$a - b$$ here</p>"),
        ("Loss: \\(a\n- b\\) here", "<p>Loss: $a - b$ here</p>"),
        # under an item's text too, a numbered list starts only from 1
        ("- released in\n2019. Then", "<ul><li>released in 2019. Then</li></ul>"),
        ("Run ``x\n- y`` now", "<p>Run x - y now</p>"),
        ("Run \\`x\n- y", "<p>Run `x</p><ul><li>y</li></ul>"),
        # Lists that were read right before are read as before.
        ("- a\n  - b\n- c", "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"),
        ("- a\n\n  para\n- b", "<ul><li><p>a</p><p>para</p></li><li><p>b</p></li></ul>"),
        ("- a\nlazy\n- b", "<ul><li>a lazy</li><li>b</li></ul>"),
        # A table's rows are rows, with or without their outer pipes; one starting "- " too.
        ("a | b\n--|--\n- x | y", "<table><tr><th>a</th><th>b</th></tr><tr><td>- x</td><td>y</td></tr></table>"),
        (
            "a | b\n:-: | --\n1 | 2\n- x | y",
            "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr><tr><td>- x</td><td>y</td></tr></table>",
        ),
        ("Costs:\n--\n- a", "<h2>Costs:</h2><ul><li>a</li></ul>"),
        # ... only at the start of its block, where Python-Markdown reads a table
        ("Intro text\na | b\n--|--\n- x", "<p>Intro text a | b --|--</p><ul><li>x</li></ul>"),
    ],
)
def test_a_list_straight_under_text_or_another_kind_of_list_starts_there(source, outline):
    """Python-Markdown wanted a blank line before a list: "Steps:" and its items were one paragraph, and numbered
    items under bullets more text of the last bullet."""
    assert _outline(render(source).html) == outline
