"""Plain text of rendered card HTML: formulas read as a line of text, never TeX source or KaTeX's layout boxes."""

from __future__ import annotations

import pytest

from apps.content.plaintext import plain_text
from apps.content.rendering import render
from apps.content.templatetags.content_tags import card_title


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("Plain *question*?", "Plain question?"),
        (
            r"Evaluate `torch.cuda.amp` with inline $\sigma(x)=\frac{1}{1+e^{-x}}$"
            r" and $$\mathbf{W}_q x^2 \cdot \sqrt{d_k}$$",
            "Evaluate torch.cuda.amp with inline σ(x)=1/(1+e^(−x)) and W_q x^2⋅√(d_k)",
        ),
        (r"Why $\text{softmax}(QK^\top)$?", "Why softmax (Q K^⊤)?"),
        ("Two\n\nparagraphs\n\n- and\n- a [link](https://example.org)", "Two paragraphs and a link"),
        ("$$\n\\sum_{i=1}^{N} \\hat{y}_i \\log p_i\n$$\n\nthen text", "∑_(i=1)^N ŷ_i log p_i then text"),
        (r"$\begin{pmatrix}1&2\\3&4\end{pmatrix}$ costs $5 and $6 & <more>", "(1 2; 3 4) costs $5 and $6 & <more>"),
        (r"$\frac{\partial L}{\partial w}$ and $10^{-3}$", "(∂L)/(∂w) and 10^(−3)"),
    ],
)
def test_formulas_read_as_text_without_tex_source_or_markup(markdown, text):
    assert plain_text(render(markdown).html) == text


def test_a_formula_katex_refuses_reads_as_its_source_with_the_message_as_the_page_shows_it():
    text = plain_text(render(r"Bad $\frac{1}$ here").html)
    assert text.startswith(r"Bad \frac{1} KaTeX parse error") and text.endswith("here")


def test_footnotes_are_left_out_of_the_plain_text_and_the_title():
    html = render("Why $x^2$[^1]?\n\n[^1]: A note with $y$.").html
    assert plain_text(html) == "Why x^2?"
    title = card_title(html)
    assert "footnote" not in title and "fnref" not in title and "A note" not in title and "<math" in title
