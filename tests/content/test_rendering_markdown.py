"""Golden cases for the Markdown + KaTeX + nh3 renderer, its Markdown and sanitising: the golden sanitising
cases, deterministic output, inline styles made classes with only plain colours kept, tables, links, images,
footnotes, and angle brackets that name no HTML element. No database: it is a pure function.
"""

from __future__ import annotations

import re

import pytest

from apps.content.rendering import find_math, render, style_class
from tests.content.rendering_support import AFFINE, _text


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("", ""),
        ("Plain *emphasis* and **strong**.", "<p>Plain <em>emphasis</em> and <strong>strong</strong>.</p>"),
        ("Use `torch.compile` here.", "<p>Use <code>torch.compile</code> here.</p>"),
        ("`$HOME` and `$x$`", "<p><code>$HOME</code> and <code>$x$</code></p>"),
        ("```\ncost = $5 + $x$\n```", "<pre><code>cost = $5 + $x$\n</code></pre>"),
        ("It costs $5 and $6 a month.", "<p>It costs $5 and $6 a month.</p>"),
        (r"An escaped \$x\$ stays text.", "<p>An escaped $x$ stays text.</p>"),
        ("- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"),
        ("1) first; 2) second", "<p>1) first; 2) second</p>"),
        ("<script>alert(1)</script>Hi", "<p>Hi</p>"),
        ('<img src="x" onerror="alert(1)">', "<p></p>"),
        ('<a href="#" onclick="alert(1)">x</a>', '<p><a href="#" rel="noopener noreferrer nofollow">x</a></p>'),
        ("[click](javascript:alert(1))", '<p><a rel="noopener noreferrer nofollow">click</a></p>'),
        ('<a href="JaVaScRiPt:alert(1)">x</a>', '<p><a rel="noopener noreferrer nofollow">x</a></p>'),
        ("<iframe src=//evil></iframe>ok", "<p>ok</p>"),
        (
            '<span style="position:fixed;top:0;color:red">x</span>',  # an author positions nothing
            f'<p><span class="{style_class("color:red !important")}">x</span></p>',
        ),
        ("<style>body{display:none}</style>ok", "<p>ok</p>"),
        ("<!-- hidden -->shown", "<p>shown</p>"),
    ],
)
def test_markdown_and_sanitising_golden(source, expected):
    assert render(source).html == expected


def test_rendering_is_deterministic():
    assert render(AFFINE).html == render(AFFINE).html


def test_inline_styles_become_classes_with_their_rules():
    rendered = render(AFFINE)
    assert " style=" not in rendered.html
    assert rendered.styles
    for name, css in rendered.styles.items():
        assert f"{name}" in rendered.html
        assert name == style_class(css)
        assert all(part.endswith("!important") for part in css.split(";"))
    assert "height:" in " ".join(rendered.styles.values())


def test_a_style_cannot_smuggle_a_rule():
    rendered = render('<span style="color:red}body{display:none">x</span>')
    assert "body" not in " ".join(rendered.styles.values())
    assert "{" not in " ".join(rendered.styles.values())


@pytest.mark.parametrize(
    "style",
    [
        # nh3 reads each as one declaration, a colour whose quoted string holds the semicolons; split naively, the
        # pieces between the quotes became a rule that covered every page showing the text.
        """color:a<"b;position:fixed;top:0;left:0;z-index:99999;width:100vw;height:100vh;c\"""",
        "color:a&lt;'b;position:fixed;inset:0;z-index:99999;c'",
        'color:"x\\";position:fixed;c"',
        "color:red;width:calc(100vw)",  # a value with a function
    ],
)
def test_an_authors_style_keeps_nothing_but_plain_colours(style):
    quote = "'" if '"' in style else '"'
    rendered = render(f"<span style={quote}{style}{quote}>covering</span> text")
    assert set(rendered.styles.values()) <= {"color:red !important"}
    assert "<span>covering</span>" in rendered.html or rendered.styles


def test_an_authors_html_keeps_only_colours_and_no_class_but_markdowns():
    """A class of the site's (.skip-link is absolutely placed) with KaTeX's properties covered every page."""
    rendered = render(
        '<span class="skip-link" style="top:0;width:100vw;height:100vh;background-color:white">covering</span> '
        'and <code class="language-python">x</code>, $\\frac{a}{b}$'
    )
    assert "covering</span>" in rendered.html and "skip-link" not in rendered.html
    assert '<code class="language-python">' in rendered.html
    assert list(rendered.styles.values()).count("background-color:white !important") == 1  # a colour is the author's
    assert "100vw" not in " ".join(rendered.styles.values())
    assert 'class="katex"' in rendered.html and rendered.styles  # KaTeX's own classes and styles are its own


def test_math_in_a_table_cell_keeps_its_pipes():
    source = "| name | value |\n|---|---|\n| norm | $|x|$ |\n| code | `a|b` |\n| escaped | $\\|v\\|$ |\n| cost | $5 |"
    rendered = render(source)
    rows = re.findall(r"<tr>\n(.*?)\n</tr>", rendered.html, re.S)
    cells = [re.findall(r"<t[dh]>(.*?)</t[dh]>", row, re.S) for row in rows]
    assert [len(row) for row in cells] == [2, 2, 2, 2, 2]
    assert cells[1][0] == "norm"
    assert '<annotation encoding="application/x-tex">|x|</annotation>' in cells[1][1]
    assert '<mi mathvariant="normal">∣</mi><mi>x</mi><mi mathvariant="normal">∣</mi>' in cells[1][1]
    assert cells[2] == ["code", "<code>a|b</code>"]
    assert '<annotation encoding="application/x-tex">\\|v\\|</annotation>' in cells[3][1]
    assert cells[4] == ["cost", "$5"]
    assert rendered.errors == ()


_REL = 'rel="noopener noreferrer nofollow"'


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("[docs](http://example.com/$foo$bar)", f'<p><a href="http://example.com/$foo$bar" {_REL}>docs</a></p>'),
        ('[d](https://e.com "title $x$")', f'<p><a href="https://e.com" title="title $x$" {_REL}>d</a></p>'),
        ("[d](<https://e.com/$a b$>)", f'<p><a href="https://e.com/$a b$" {_REL}>d</a></p>'),
        ("<https://e.com/$a$b>", f'<p><a href="https://e.com/$a$b" {_REL}>https://e.com/$a$b</a></p>'),
        (r'<abbr title="mean $\mu$">μ</abbr>', r'<p><abbr title="mean $\mu$">μ</abbr></p>'),
        (r'<abbr title="a>b $x$ and \(y\)">m</abbr>', r'<p><abbr title="a&gt;b $x$ and \(y\)">m</abbr></p>'),
        ('<font title="$x$">dropped tag, kept text</font>', "<p>dropped tag, kept text</p>"),
    ],
)
def test_math_in_a_url_title_or_attribute_stays_literal(source, expected):
    assert render(source).html == expected
    assert find_math(source) == []


def test_math_in_link_text_is_typeset_while_its_url_keeps_the_dollars():
    html = render("[$x$ docs](https://e.com/$y$) and $z$").html
    assert html.startswith(f'<p><a href="https://e.com/$y$" {_REL}><span class="katex">')
    assert find_math("[$x$ docs](https://e.com/$y$) and $z$") == [("x", False), ("z", False)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("![diagram](http://example.com/a.png)", '<p><span class="image-alt">[image: diagram]</span></p>'),
        (
            "![](a.png) and ![a & <b>](b.png)",
            '<p><span class="image-alt">[image]</span> and <span class="image-alt">[image: a &amp; &lt;b&gt;]</span>'
            "</p>",
        ),
        ("![by ref][r]\n\n[r]: http://e.com/a.png", '<p><span class="image-alt">[image: by ref]</span></p>'),
        (
            "[![logo](l.png)](https://e.com)",
            f'<p><a href="https://e.com" {_REL}><span class="image-alt">[image: logo]</span></a></p>',
        ),
    ],
)
def test_an_image_shows_its_alt_text_not_nothing(source, expected):
    # The sanitiser drops <img> (no external images); the reader still learns an image was there.
    assert render(source).html == expected


def test_math_in_image_alt_text_is_typeset():
    html = render("![$x^2$ against epochs](plot.png)").html
    assert html.startswith('<p><span class="image-alt">[image: <span class="katex">')
    assert _text(html).startswith("[image: ") and _text(html).endswith(" against epochs]")
    assert find_math("![$x^2$ against epochs](plot.png)") == [("x^2", False)]


FOOTNOTES = (
    "Distillation[^hinton] uses soft targets[^t] at $T > 1$[^hinton].\n\n[^hinton]: Hinton et al., 2015.\n[^t]: $p_i$."
)


def test_footnotes_link_both_ways_with_ids_of_their_own():
    rendered = render(FOOTNOTES)
    html = rendered.html
    refs = re.findall(r'<sup id="fnref(\d*)-([0-9a-f]{10})-(\d)"><a class="footnote-ref" href="#fn-\2-\3"', html)
    assert [(again, number) for again, _, number in refs] == [("", "1"), ("", "2"), ("2", "1")]
    digest = refs[0][1]
    assert f'<li id="fn-{digest}-1">\n<p>Hinton et al., 2015.&nbsp;<a class="footnote-backref" ' in html
    assert f'href="#fnref-{digest}-1"' in html and f'href="#fnref2-{digest}-1"' in html
    assert f'<li id="fn-{digest}-2">\n<p><span class="katex">' in html
    assert html.index("<mi>T</mi>") < html.index('<div class="footnote">\n<hr>\n<ol>') < html.index("<mi>p</mi>")
    assert find_math(FOOTNOTES) == [("T > 1", False), ("p_i", False)] and rendered.errors == ()
    assert 'href="Hinton' not in html and 'href="$p_i$"' not in html  # no longer reference links
    assert render(FOOTNOTES).html == html


def test_footnote_ids_differ_between_fields_and_no_other_id_survives():
    # A question and its answer share a page: the same "[^1]" must not give the same id twice.
    question, answer = render("Why[^1]?\n\n[^1]: Asked.").html, render("Because[^1].\n\n[^1]: Answered.").html
    ids = [set(re.findall(r' id="([^"]+)"', html)) for html in (question, answer)]
    assert len(ids[0]) == len(ids[1]) == 2 and not ids[0] & ids[1]
    html = render('<sup id="main">a</sup> <span id="fn-0123456789-1">b</span> <li id="x">c</li>').html
    assert " id=" not in html


def test_a_footnote_without_its_definition_stays_text():
    assert render("See[^1] and [^2]: not a definition mid-line.").html == (
        "<p>See[^1] and [^2]: not a definition mid-line.</p>"
    )


def test_table_column_alignment_is_kept_as_a_class():
    """The tables extension's inline style is dropped by the sanitiser, and align= is obsolete HTML."""
    html = render("| term | value |\n|:-----|------:|\n| $x$ | 2 |").html
    assert '<th class="align-left">term</th>' in html and '<td class="align-right">2</td>' in html
    assert "align=" not in html and "style=" not in html


@pytest.mark.parametrize(
    ("source", "html"),
    [
        # Angle brackets around what is no HTML element are text: they were taken for a tag, and dropped.
        ("Run train.py --bs <batch_size> here", "<p>Run train.py --bs &lt;batch_size&gt; here</p>"),
        ("Use List<Tensor> here", "<p>Use List&lt;Tensor&gt; here</p>"),
        # An element's own tags still work, or are sanitised away.
        ("x<sup>2</sup> and <kbd>Ctrl</kbd>", "<p>x<sup>2</sup> and <kbd>Ctrl</kbd></p>"),
        ("a <script>alert(1)</script>b", "<p>a b</p>"),
    ],
)
def test_angle_brackets_that_name_no_html_element_are_text(source, html):
    assert render(source).html == html
