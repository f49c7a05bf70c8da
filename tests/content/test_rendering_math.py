"""Golden cases for the Markdown + KaTeX + nh3 renderer, its maths: formulas typeset as HTML and MathML and kept
out of Markdown's emphasis, display blocks, invalid TeX shown as a visible error and listed, what find_math counts
as maths (dollars and LaTeX delimiters, not code or money), maths that cannot smuggle markup, and MathML as it
requires. No database: it is a pure function.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from apps.content.rendering import find_math, formula_excerpt, render
from tests.content.rendering_support import AFFINE, SOFTMAX, _text


def test_affine_quantization_formula_is_typeset_as_html_and_mathml():
    html = render(AFFINE).html
    assert html.count('class="katex"') == 6
    assert '<span class="katex-html" aria-hidden="true">' in html
    assert "<math" in html and "<mfrac><mi>r</mi><mi>s</mi></mfrac>" in html
    assert (
        '<annotation encoding="application/x-tex">q = \\text{round}\\left(\\frac{r}{s}\\right) + z</annotation>' in html
    )
    assert "$" not in html
    assert "where" in _text(html) and "zero-point" in _text(html)


def test_distillation_softmax_keeps_subscripts_out_of_markdown_emphasis():
    html = render(SOFTMAX).html
    assert "<em>" not in html
    assert "<msub><mi>z</mi><mi>i</mi></msub>" in html
    assert "<mi>exp</mi>" in html and "∑" in html
    assert "$" not in html


def test_display_math_block_is_its_own_block():
    html = render("Before\n\n$$\n\\sum_{i=1}^{N} L_i * w\n$$\n\nAfter").html
    assert html.startswith('<p>Before</p>\n<div class="math-display"><span class="katex-display">')
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert html.endswith("<p>After</p>")
    assert "<p></p>" not in html


def test_inline_display_math_inside_a_paragraph():
    html = render("so $$N \\times B$$ in total").html
    assert html.startswith('<p>so <span class="katex-display">')
    assert html.endswith(" in total</p>")


def test_katex_svg_survives_sanitising_with_its_case_sensitive_attributes():
    html = render(r"$\sqrt{x}$").html
    assert re.search(r'<svg [^>]*viewBox="0 0 400000 1080"[^>]*preserveAspectRatio="xMinYMin slice"', html)
    assert "<path d=" in html


@pytest.mark.parametrize("tex", [r"\frac{1}{", r"\begin{matrix} a", r"x^{", r"\undefinedmacro{x}", r"\left( x"])
def test_invalid_tex_renders_a_visible_error_not_an_exception(tex):
    html = render(f"Before ${tex}$ after").html
    error = re.search(r'<span class="katex-error" title="([^"]+)"><code>(.*?)</code>', html)
    assert error, html
    assert error[1].startswith("KaTeX parse error")
    assert "katex-error-message" in html
    assert "Before" in html and "after" in html


def test_render_lists_the_formulas_katex_rejects_with_katex_message_in_document_order():
    """Forms and the deck import refuse TeX with these errors, so each formula is typeset once, not to check then
    to render. In document order: display blocks are collected before inline maths, yet the block here comes last;
    code spans are not maths."""
    text = "Fine $x^2$, broken $\\frac{1}{$ and `$\\oops{$` in code\n\n$$\\sqrt{$$\n\nthen \\[\\sqrt[{\\]"
    rendered = render(text)
    # As written, delimiters and all: an error quotes "\[...\]" as the author typed it, not as "$...$".
    assert [formula for formula, _ in rendered.errors] == [r"$\frac{1}{$", r"$$\sqrt{$$", r"\[\sqrt[{\]"]
    assert all(message.startswith("KaTeX parse error") for _, message in rendered.errors)
    assert rendered.html.count('class="katex-error"') == 3
    assert render(AFFINE).errors == ()


def test_find_math_ignores_code_and_money():
    assert find_math("`$a$` costs $5 and $6; real $b$ and $$c$$") == [("b", False), ("c", True)]


@pytest.mark.parametrize(
    "source",
    [
        r"$\href{javascript:alert(1)}{click}$",
        r"$\url{javascript:alert(1)}$",
        r"$\htmlClass{x}{y}$",
        r"$\text{<script>alert(1)</script>}$",
        r"$\text{<img src=x onerror=alert(1)>}$",
    ],
)
def test_math_cannot_smuggle_markup(source):
    html = render(source).html
    assert not re.search(r"href=[\"']?javascript:", html, re.I)
    assert "<script" not in html and "<img" not in html
    assert not re.search(r"<[^>]+\son\w+=", html)


def test_thousands_of_brackets_are_text_so_the_link_pattern_cannot_go_quadratic():
    html = render("[" * 20000 + " and [a link](https://example.com)").html
    assert html.count("[") == 20001 and "<a " not in html
    assert "<a " in render("[" * 10 + " and [a link](https://example.com)").html


@pytest.mark.parametrize(
    ("source", "formulas"),
    [
        ("$a$$b$", [("a", False), ("b", False)]),  # as Pandoc reads it: the leftmost "$" opens
        ("$a$$b$ and $$c$$", [("a", False), ("b", False), ("c", True)]),
        ("$$x$$ and $$y$$", [("x", True), ("y", True)]),  # a line with two display formulas is not one
        ("$$a$$b$$", [("a", True)]),
        ("$x$ costs $5 and $$y$$", [("x", False), ("y", True)]),
    ],
)
def test_adjacent_dollars_pair_from_the_left(source, formulas):
    assert find_math(source) == formulas
    rendered = render(source)
    assert rendered.html.count('class="katex"') == len(formulas) and rendered.errors == ()


def test_latex_delimiters_are_math_display_and_inline():
    """ML notes copied from LaTeX write \\(…\\) and \\[…\\]; Markdown alone would eat the backslashes."""
    source = r"Loss \(\ell(y_i, \hat y_i)\) summed: \[ L = \sum_i \ell_i \] over the batch."
    assert find_math(source) == [(r"\ell(y_i, \hat y_i)", False), (r"L = \sum_i \ell_i", True)]
    html = render(source).html
    assert html.count('class="katex"') == 2 and html.count('class="katex-display"') == 1
    assert "<msub><mi>y</mi><mi>i</mi></msub>" in html
    assert "\\" not in _text(html) and "[" not in _text(html)


def test_latex_display_math_block_is_its_own_block():
    html = render("Before\n\n\\[\n\\sum_{i=1}^{N} L_i * w\n\\]\n\nAfter").html
    assert html.startswith('<p>Before</p>\n<div class="math-display"><span class="katex-display">')
    assert html.endswith("<p>After</p>") and "<p></p>" not in html


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"An escaped backslash: \\[x\\] and \\(y\\)", r"<p>An escaped backslash: \[x\] and \(y\)</p>"),
        (r"An unclosed \[ or \( is a bracket", "<p>An unclosed [ or ( is a bracket</p>"),
        (r"`\[x\]` in code", r"<p><code>\[x\]</code> in code</p>"),
    ],
)
def test_latex_delimiters_that_are_not_math(source, expected):
    assert render(source).html == expected


def test_past_the_bracket_limit_brackets_stay_as_typed():
    # Past MAX_LINK_BRACKETS links are off; escaping each "[" would open math at "\]" and show "\[" in code.
    html = render("[" * 600 + r" a \] b `c[0]`").html
    assert html == "<p>" + "[" * 600 + " a ] b <code>c[0]</code></p>"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Run `echo\n$$x$$\ndone` now", "<p>Run <code>echo\n$$x$$\ndone</code> now</p>"),
        ("``a ` b\n\\[x\\]\n``", "<p><code>a ` b\n\\[x\\]</code></p>"),
    ],
)
def test_a_code_span_over_lines_keeps_a_display_math_line_literal(source, expected):
    assert render(source).html == expected
    assert find_math(source) == []


def test_a_display_math_line_after_a_closed_code_span_or_a_blank_line_is_math():
    assert find_math("a `b` c\n$$x$$\nd") == [("x", True)]
    assert find_math("an unclosed `b\n\n$$x$$\n\nc`") == [("x", True)]


@pytest.mark.parametrize(
    ("tex", "quoted"),
    [
        ("\\frac{1}{", "\\frac{1}{"),
        ("x+" * 60, "x+" * 40 + "… (40 more characters)"),
    ],
)
def test_an_error_quotes_a_long_formula_by_its_start(tex, quoted):
    """A 5,000-character formula was quoted whole, a hundred lines of it before the reason."""
    assert formula_excerpt(tex) == quoted


@pytest.mark.parametrize("tex", ["r_{\\max}", "x^{\\min}", "a_{\\sin}^{\\cos}", "\\log_{\\max} y"])
def test_an_operator_name_in_a_script_is_one_child_of_it_as_mathml_requires(tex):
    """KaTeX wrote "r_{\\max}" as <msub><mi>r</mi><mi>max</mi><mo>&#x2061;</mo></msub>: three children where MathML
    allows two, which the HTML validator refused (in a seed distractor) and a screen reader may misread."""
    html = render(f"${tex}$").html
    math = ElementTree.fromstring(  # noqa: S314 - our own renderer's output
        html[html.index("<math") : html.index("</math>") + len("</math>")]
    )
    scripts = [node for node in math.iter() if node.tag.split("}")[-1] in {"msub", "msup", "msubsup"}]
    assert scripts
    for node in scripts:
        assert len(node) == (3 if node.tag.endswith("msubsup") else 2), ElementTree.tostring(node, encoding="unicode")
