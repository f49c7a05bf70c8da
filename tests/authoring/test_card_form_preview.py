"""The card form's live preview in the admin: every field rendered as students see it, texts over their limit
and distractors as typed, sanitised like the stored HTML, new maths typeset without storing any style rules, only
the styles the renderer writes served, KaTeX being down said in place, and the preview taking POST only.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.content.models import StyleRule
from apps.content.rendering import render
from apps.content.services import card_save
from tests.authoring.card_form import _form_data
from tests.factories import make_card

pytestmark = pytest.mark.django_db

XSS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[x](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    "<svg onload=alert(1)>",
    '<iframe src="https://evil.example"></iframe>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    "<body onload=alert(1)>",
]


def test_preview_renders_every_field_as_students_see_them(client, instructor, htmx):
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_preview"),
        {
            "question": "What is $\\frac{a}{b}$?",
            "answer": "It is `code` and $$x^2$$",
            "short_answer": "$a/b$",
            "explanation": "*Because*",
        },
        **htmx,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<mfrac><mi>a</mi><mi>b</mi></mfrac>" in html
    # the short answer too, typeset as the quiz shows it among the options
    assert "Short answer, the right multiple-choice option" in html and '<mi mathvariant="normal">/</mi>' in html
    assert "<code>code</code>" in html and 'class="katex-display"' in html
    assert "<em>Because</em>" in html


def test_a_text_over_its_limit_is_said_in_the_preview_not_only_on_saving(client, instructor, htmx):
    client.force_login(instructor)
    answer = "word " * 4_001  # 20,005 characters
    html = client.post(
        reverse("admin:content_card_preview"), {"question": "Q?", "answer": answer, "short_answer": "x" * 301}, **htmx
    ).content.decode()
    assert "Answer: 20,005 characters, over the limit of 20,000; saving will refuse it." in html
    assert "Short answer: 301 characters, over the limit of 300" in html and "Question:" not in html


def test_preview_shows_the_distractors_being_typed_and_leaves_out_deleted_ones(client, instructor, htmx):
    client.force_login(instructor)
    data = {
        "question": "Q?", "answer": "A", "short_answer": "A", "explanation": "",
        "distractors-0-text": "A *product*", "distractors-1-text": "$a-b$", "distractors-1-DELETE": "on",
        "distractors-2-text": "  ", "distractors-3-text": "A sum",
    }  # fmt: skip
    html = client.post(reverse("admin:content_card_preview"), data, **htmx).content.decode()
    options = html.split("Distractors, the wrong options", 1)[1].split("</ul>", 1)[0]
    assert options.count("<li") == 2 and "<em>product</em>" in options and "A sum" in options
    assert "katex" not in options  # the deleted one


def test_preview_typesets_only_the_distractors_it_shows(client, instructor, htmx, typeset):
    """The preview runs whenever typing pauses: distractors past the ones it shows are not typeset for nothing."""
    client.force_login(instructor)
    data = {"question": "Q?", "answer": "A", "short_answer": "A", "explanation": ""}
    data.update({f"distractors-{n}-text": f"$y_{{{n}}}$" for n in range(25)})
    html = client.post(reverse("admin:content_card_preview"), data, **htmx).content.decode()
    options = html.split("Distractors, the wrong options", 1)[1].split("</ul>", 1)[0]
    assert options.count("<li") == 20
    assert sorted(typeset) == sorted(f"y_{{{n}}}" for n in range(20))


def test_the_distractors_field_updates_the_preview_as_the_author_types(client, instructor):
    card = make_card(answer="Fine")
    card_save(card=card, distractors=["Ratio $\\frac{1}{2}$"])
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    preview = html.split('id="card-preview"', 1)[1]
    assert "Distractors, the wrong options" in preview and "<mfrac>" in preview  # the stored ones, on opening
    assert re.search(r'<textarea name="distractors-0-text"[^>]*data-hx-post="/admin/content/card/preview/"', html)
    assert "#card_form [name^=distractors-]" in html  # a question's edit sends the distractors along


def test_the_live_preview_with_katex_down_says_so_in_place_and_leaves_the_form(client, instructor, htmx, katex_down):
    """The site's 503 page, swapped in over the whole page, would throw away the card being edited."""
    client.force_login(instructor)
    data = {"question": "What is $\\frac{a}{b}$?", "answer": "A ratio", "explanation": ""}
    response = client.post(reverse("admin:content_card_preview"), data, **htmx)
    assert response.status_code == 200 and "HX-Retarget" not in response
    assert "No preview: the maths renderer (KaTeX) is not available right now." in response.content.decode()


@pytest.mark.parametrize("payload", XSS)
@pytest.mark.parametrize("field", ["question", "answer", "explanation"])
def test_preview_is_sanitised_like_the_stored_html(client, instructor, field, payload):
    client.force_login(instructor)
    html = client.post(reverse("admin:content_card_preview"), {field: f"Hi {payload}"}).content.decode()
    lowered = html.lower()
    assert "<script" not in lowered and "<iframe" not in lowered and "<svg onload" not in lowered
    assert "javascript:" not in lowered and "onerror=" not in lowered and "onload=" not in lowered
    card = make_card(**{field: f"Hi {payload}"} if field != "explanation" else {"explanation": f"Hi {payload}"})
    stored = getattr(card, f"{field}_html")
    assert stored in html  # the preview is the stored rendering, not an approximation of it


# Maths no stored card uses: its KaTeX layout needs style rules nobody has stored yet.
NEW_MATH = r"Is $\sqrt[7]{q_{17}} \over \overbrace{z + w}^{9}$ or $$\int_{0}^{\infty} e^{-t^{3}}\,dt$$ new?"


def _css_of(client, html: str) -> str:
    links = [unescape(url) for url in re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)]
    urls = [url for url in links if url.startswith(reverse("admin:content_card_preview_styles"))]
    assert urls and all(len(url) < 2100 for url in urls)  # within any server's request-line limit
    responses = [client.get(url) for url in urls]
    assert all(r.status_code == 200 and r["Content-Type"].startswith("text/css") for r in responses)
    return "\n".join(r.content.decode() for r in responses)


def _assert_styled(client, html: str) -> None:
    """Every class standing in for a KaTeX inline style has its rule in a stylesheet the page links."""
    css = _css_of(client, html)
    expected = render(NEW_MATH).styles
    assert expected and set(expected) <= set(re.findall(r"\bs[0-9a-f]{10}\b", html))
    for name, declarations in expected.items():
        assert f".{name}{{{declarations}}}" in css


def test_previewing_new_maths_stores_nothing_and_still_typesets_it(client, instructor, htmx):
    client.force_login(instructor)
    before = set(StyleRule.objects.values_list("name", flat=True))
    assert not set(render(NEW_MATH).styles) <= before  # the draft needs rules that are not stored
    response = client.post(reverse("admin:content_card_preview"), {"answer": NEW_MATH, "question": "Q?"}, **htmx)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<span class="katex">' in html and "<mroot>" in html and 'class="katex-display"' in html
    assert " style=" not in html and "<style" not in html  # the CSP allows neither
    assert set(StyleRule.objects.values_list("name", flat=True)) == before
    _assert_styled(client, html)


def test_the_preview_button_without_javascript_stores_no_styles_either(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    before = StyleRule.objects.count()
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), {**_form_data(card, answer=NEW_MATH), "_preview": "1"}
    )
    html = response.content.decode()
    assert "Preview only: nothing was saved" in html
    # Nothing is wrong with the card: the page reads as a preview, not as a failed save.
    assert "Please correct the error" not in html and "<title>Error:" not in html
    assert StyleRule.objects.count() == before
    _assert_styled(client, html)


def test_the_preview_button_still_reports_real_errors(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    data = {**_form_data(card, answer="Broken $\\frac{1}{$"), "_preview": "1"}
    html = client.post(reverse("admin:content_card_change", args=[card.pk]), data).content.decode()
    assert "Please correct the error" in html and "KaTeX cannot typeset" in html


@pytest.mark.parametrize(
    "junk",
    [
        "color:red;}body{display:none",
        "background-image:url(https://evil.example/x)",
        "color:expression(alert(1))",
        "top:1em !important",
        'color:"red"',
        "position:fixed",
        "nonsense",
    ],
)
def test_preview_styles_serve_only_what_the_renderer_writes(client, instructor, junk):
    client.force_login(instructor)
    response = client.get(reverse("admin:content_card_preview_styles"), {"r": ["height:1em", junk]})
    assert response.status_code == 400
    ok = client.get(reverse("admin:content_card_preview_styles"), {"r": ["height:1em;vertical-align:-0.2em"]})
    assert ok.content.decode().endswith("{height:1em !important;vertical-align:-0.2em !important}")


def test_preview_requires_post(client, instructor):
    client.force_login(instructor)
    assert client.get(reverse("admin:content_card_preview")).status_code == 405
