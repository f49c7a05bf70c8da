"""The card form in the admin: live preview, TeX validation, sanitising, versions on save, the grader box."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.content.models import Card, StyleRule
from apps.content.rendering import render
from apps.content.services import card_save
from tests.factories import make_card, make_deck

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


def _form_data(card: Card, **changes) -> dict:
    data = {
        "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        **{f"{prefix}-{k}": v for prefix in ("aliases", "distractors", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
    }  # fmt: skip
    data.update(changes)
    return data


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


def test_invalid_tex_blocks_the_save_and_names_the_formula(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), _form_data(card, answer="Broken $\\frac{1}{$ here")
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "KaTeX cannot typeset $\\frac{1}{$" in html and "KaTeX parse error" in html
    card.refresh_from_db()
    assert card.answer == "Fine"


def test_a_refused_formula_is_quoted_with_the_delimiters_the_author_wrote(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    data = _form_data(card, answer="Broken:\n\n\\[\\sqrt[{\\]\n\nand \\(\\frac{1}{\\)")
    html = unescape(client.post(reverse("admin:content_card_change", args=[card.pk]), data).content.decode())
    assert "KaTeX cannot typeset \\[\\sqrt[{\\]:" in html and "KaTeX cannot typeset \\(\\frac{1}{\\):" in html
    assert "$\\sqrt" not in html


def test_a_formula_over_the_limit_is_refused_with_its_start_quoted_not_all_of_it(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    data = _form_data(card, answer="$" + "x+" * 2_600 + "x$")
    html = client.post(reverse("admin:content_card_change", args=[card.pk]), data).content.decode()
    error = html.split('<ul class="errorlist', 1)[1].split("</ul>", 1)[0]
    assert "the formula is 5,201 characters long; at most 5,000" in error
    # Quoted as written, from its opening "$".
    assert "$" + "x+" * 39 + "x… (5,123 more characters)" in error and "x+" * 41 not in error


def test_saving_in_the_admin_typesets_each_formula_once(client, instructor, typeset):
    """The form checks the TeX by rendering, and the card stores that render: nothing is typeset twice."""
    card = make_card(answer="Fine")
    client.force_login(instructor)
    typeset.clear()
    data = _form_data(card, answer="Ratio $\\frac{1}{2}$ of $x^2$", explanation="So $x^2$ again.")
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert sorted(typeset) == sorted(["\\frac{1}{2}", "x^2", "x^2"])
    card.refresh_from_db()
    assert card.answer_html.count('class="katex"') == 2


def test_the_preview_button_saves_nothing(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), {**_form_data(card, answer="New $x^2$"), "_preview": "1"}
    )
    html = response.content.decode()
    assert "Preview only: nothing was saved" in html
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html  # the preview panel shows the unsaved text
    card.refresh_from_db()
    assert card.answer == "Old" and card.versions.count() == 1


def test_saving_records_a_version_with_author_and_inlines(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    data = _form_data(card, answer="New", **{"aliases-TOTAL_FORMS": 1, "aliases-0-text": "Newer"})
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    version = card.versions.order_by("-number").first()
    assert (version.number, version.author, version.note) == (2, instructor, "Edited in the admin")
    assert version.data["answer"] == "New" and version.data["aliases"] == ["Newer"]
    card.refresh_from_db()
    assert card.current_version == version


def test_try_the_grader_uses_the_real_grader(client, instructor, htmx):
    card = make_card(
        question="Which strategy replicates the whole model on every GPU?",
        answer="Data parallelism",
        short_answer="Data parallelism",
    )
    client.force_login(instructor)
    url = reverse("admin:content_card_try_grader", args=[card.pk])
    html = client.post(url, {"response": "data paralelism"}, **htmx).content.decode()
    assert "Correct" in html and "Typo tolerated" in html
    html = client.post(url, {"response": "model parallelism"}, **htmx).content.decode()
    assert "Incorrect" in html
    html = client.post(url, {"response": "data parallelism or model parallelism"}, **htmx).content.decode()
    assert "<strong>Partly correct</strong>" in html  # as the student's pages name it
    page = client.post(url, {"response": "Data parallelism"})
    assert page.status_code == 200 and "Back to the card" in page.content.decode()
    refused = client.post(url, {"response": ""}, **htmx)
    assert refused.status_code == 422
    assert '<ul class="errorlist" id="grader-response-error"><li>This field is required.' in refused.content.decode()
    card_page = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert 'aria-describedby="grader-response-error"' in card_page  # the box is described by that error


def test_card_page_shows_preview_grader_and_versions(client, instructor):
    card = make_card(answer="$x^2$")
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert 'id="card-preview"' in html and "<msup>" in html
    assert "Try the grader" in html and "Version 1" in html
    assert 'data-hx-trigger="input changed delay:400ms"' in html


def _aliases(*texts: str) -> dict:
    return {"aliases-TOTAL_FORMS": len(texts), **{f"aliases-{i}-text": text for i, text in enumerate(texts)}}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Job", "job"),
        ("job", "job"),
        # str.lower() makes "İ" an "i" and a combining dot; PostgreSQL's lower(), which the constraint
        # uses, a plain "i". Checked with the first, this reached the database and failed there (a 500).
        ("İstanbul", "istanbul"),
        ("istanbul", "İSTANBUL"),
    ],
)
def test_aliases_the_database_counts_as_one_are_a_form_error(client, instructor, first, second):
    card = make_card(answer="Old")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), _form_data(card, answer="New", **_aliases(first, second))
    )
    html = unescape(response.content.decode())
    assert response.status_code in (200, 422)
    assert f"“{first}” and “{second}” are the same answer: letter case does not count." in html
    card.refresh_from_db()
    assert card.answer == "Old" and not card.aliases.exists() and card.versions.count() == 1


def test_an_alias_clashing_with_one_the_form_did_not_show_is_a_form_error(client, instructor):
    card = card_save(card=make_card(), aliases=["İstanbul"])
    client.force_login(instructor)
    # The stored alias is not among the forms posted, so it stays; the new one would clash with it.
    data = _form_data(card, **_aliases("istanbul"))
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    assert response.status_code in (200, 422)
    assert "“istanbul” and “İstanbul” are the same answer" in unescape(response.content.decode())
    assert list(card.aliases.values_list("text", flat=True)) == ["İstanbul"]


def test_aliases_only_python_would_count_as_one_are_saved(client, instructor):
    # "İ" and "i" + combining dot are one text to str.lower(), two to PostgreSQL's lower(): the database decides.
    card = make_card()
    client.force_login(instructor)
    data = _form_data(card, **_aliases("İzmir", "i\u0307zmir"))
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert sorted(card.aliases.values_list("text", flat=True)) == sorted(["İzmir", "i\u0307zmir"])


@pytest.mark.parametrize(
    ("renamed", "expected"), [(("Task", "Job"), ["Task", "Job"]), (("task", "Other"), ["task", "Other"])]
)
def test_stored_aliases_can_swap_or_take_each_others_text(client, instructor, renamed, expected):
    client.force_login(instructor)
    # Saved row by row, the first rename used to clash with the second row's old text (a 500).
    card = card_save(card=make_card(), aliases=["Job", "Task"])
    stored = list(card.aliases.order_by("pk"))
    data = _form_data(card, **{"aliases-TOTAL_FORMS": 2, "aliases-INITIAL_FORMS": 2})
    for index, (alias, text) in enumerate(zip(stored, renamed, strict=True)):
        data.update({f"aliases-{index}-id": alias.pk, f"aliases-{index}-card": card.pk, f"aliases-{index}-text": text})
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert list(card.aliases.order_by("pk").values_list("text", flat=True)) == expected


def _distractors(*texts: str) -> dict:
    return {
        "distractors-TOTAL_FORMS": len(texts),
        **{f"distractors-{i}-text": text for i, text in enumerate(texts)},
        **{f"distractors-{i}-position": i for i in range(len(texts))},
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (_distractors("a pod", "A Pod"), "“a pod” and “A Pod” are the same distractor"),
        (_distractors("a  JOB"), "“a  JOB” is a right answer of this card"),
        ({**_distractors("Batch job"), **_aliases("batch job")}, "“Batch job” is a right answer of this card"),
    ],
)
def test_a_distractor_that_is_right_or_twice_is_a_form_error(client, instructor, extra, message):
    card = make_card(question="Which resource runs once?", answer="A Job", short_answer="A Job")
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **extra))
    assert message in unescape(response.content.decode())
    assert not card.distractors.exists() and not card.aliases.exists()


def test_a_distractor_that_is_a_saved_accepted_answer_is_a_form_error(client, instructor):
    card = card_save(card=make_card(answer="A Job", short_answer="A Job"), aliases=["Batch job"])
    client.force_login(instructor)
    data = _form_data(card, **_distractors("batch JOB"))  # the saved alias is not among the forms sent
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    assert "“batch JOB” is a right answer of this card" in unescape(response.content.decode())
    assert not card.distractors.exists()


def test_key_terms_lose_empty_synonyms_and_need_one(client, instructor):
    card = make_card()
    client.force_login(instructor)
    url = reverse("admin:content_card_change", args=[card.pk])
    terms = {"key_terms-TOTAL_FORMS": 1, "key_terms-0-term": "|||"}
    response = client.post(url, _form_data(card, **terms))
    assert "Give the term, and any synonyms after it, separated by |." in unescape(response.content.decode())
    assert not card.key_terms.exists()
    terms["key_terms-0-term"] = " all-reduce | | allreduce |"
    assert client.post(url, _form_data(card, **terms)).status_code == 302
    assert list(card.key_terms.values_list("term", flat=True)) == ["all-reduce|allreduce"]


def test_a_key_term_that_only_repeats_the_question_is_refused_with_a_reason(client, instructor):
    card = make_card(question="Which resource runs a one-time batch training job?", answer="A Job")
    client.force_login(instructor)
    url = reverse("admin:content_card_change", args=[card.pk])
    terms = {"key_terms-TOTAL_FORMS": 1, "key_terms-0-term": "one-off|Batch training"}
    html = unescape(client.post(url, _form_data(card, **terms)).content.decode())
    assert (
        "“Batch training” only repeats words of the question: a student who copies the question would earn it." in html
    )
    assert not card.key_terms.exists()
    # Checked against the question as sent: a reworded question frees the term.
    reworded = _form_data(card, question="Which resource runs a one-time job?", **terms)
    assert client.post(url, reworded).status_code == 302
    assert list(card.key_terms.values_list("term", flat=True)) == ["one-off|Batch training"]


@pytest.mark.parametrize("position", [0, -1])
def test_position_zero_is_a_form_error_in_words(client, instructor, position):
    card = make_card()
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, position=position))
    html = unescape(response.content.decode())
    assert "Positions start at 1." in html and "is violated" not in html
    assert "greater than or equal to 0" not in html  # -1 used to be told 0 would do


def test_an_empty_position_puts_the_card_at_the_end_of_its_deck(client, instructor):
    deck = make_deck()
    for _ in range(3):
        make_card(deck=deck)
    moving = make_card()  # in another deck, at its position 1
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[moving.pk]), _form_data(moving, deck=deck.pk, position="")
    )
    assert response.status_code == 302
    moving.refresh_from_db()
    assert (moving.deck_id, moving.position) == (deck.pk, 4)


def test_a_taken_position_names_the_card_holding_it_and_the_next_free_one(client, instructor):
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is dynamic batching?")
    make_card(deck=deck)
    moving = make_card()
    client.force_login(instructor)
    data = _form_data(moving, deck=deck.pk, position=1)
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "Position 1 of Serving is taken by “What is dynamic batching?”. The next free one is 3" in html
    assert "already exists" not in html  # not Django's "Card with this Deck and Position already exists."
    make_card(deck=deck, position=7)  # positions 1, 2 and 7: 3 is free before the end
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "The next free one is 3, or leave it empty to add the card at the end." in html
    data = _form_data(moving, deck=deck.pk, position=7)
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "The next free one is 8," in html


def test_a_save_while_katex_is_down_says_try_again_and_keeps_what_was_typed(client, instructor, katex_down):
    long_explanation = "Because of the scale. " * 500  # 11,000 characters: the retry form keeps it whole
    card = make_card(answer="Fine", explanation=long_explanation)
    client.force_login(instructor)
    data = _form_data(card, answer="Ratio $\\frac{1}{2}$, typed with care")
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    html = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "cannot reach its maths renderer (KaTeX) right now" in html
    assert 'value="Ratio $\\frac{1}{2}$, typed with care"' in html  # one click sends it again
    assert f'name="explanation" value="{long_explanation}"' in html  # a retry without it would save it blank
    card.refresh_from_db()
    assert card.answer == "Fine"


def test_line_breaks_typed_in_the_admin_are_stored_as_line_feeds(client, instructor):
    """A browser sends a textarea's line breaks as CR LF. Stored as sent, the card's export read back from a
    spreadsheet (which writes LF) was "changed", and made a version whose diff showed nothing."""
    card = make_card(answer="Old")
    client.force_login(instructor)
    typed = {"answer": "Use DDP:\r\n\r\n```python\r\nDDP(model)\r\n```", "explanation": "One\r\ntwo"}
    data = _form_data(card, **typed, **_distractors("Use DP:\r\nit is faster"))
    url = reverse("admin:content_card_change", args=[card.pk])
    assert client.post(url, data).status_code == 302
    card.refresh_from_db()
    assert card.answer == "Use DDP:\n\n```python\nDDP(model)\n```" and card.explanation == "One\ntwo"
    assert list(card.distractors.values_list("text", flat=True)) == ["Use DP:\nit is faster"]
    # The same text sent again, as the browser sends it, is no new version.
    versions = card.versions.count()
    assert client.post(url, _form_data(card, **typed)).status_code == 302
    assert card.versions.count() == versions


def test_a_new_distractor_row_comes_after_the_cards_last_distractor(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    card_save(card=card, distractors=["Deployment", "DaemonSet", "StatefulSet"])
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    extra = re.search(r'<input[^>]*name="distractors-3-position"[^>]*>', html).group(0)
    assert 'value="3"' in extra  # not 0, which sorted it before the card's second and third


def test_distractor_rows_added_in_one_save_get_distinct_positions_in_the_order_typed(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    card_save(card=card, distractors=["Deployment", "DaemonSet", "StatefulSet"])
    client.force_login(instructor)
    # Three rows added at once (the admin's "Add another"), each with the position the form offered: 3.
    rows = {
        "distractors-TOTAL_FORMS": 3,
        **{f"distractors-{i}-text": text for i, text in enumerate(["CronJob", "ReplicaSet", "Pod"])},
        **{f"distractors-{i}-position": 3 for i in range(3)},
    }
    assert (
        client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **rows)).status_code == 302
    )
    stored = list(card.distractors.order_by("position").values_list("text", "position"))
    assert stored == [
        ("Deployment", 0),
        ("DaemonSet", 1),
        ("StatefulSet", 2),
        ("CronJob", 3),
        ("ReplicaSet", 4),
        ("Pod", 5),
    ]


def test_positions_an_author_typed_apart_are_kept(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    client.force_login(instructor)
    rows = {**_distractors("CronJob", "Pod"), "distractors-0-position": 7, "distractors-1-position": 2}
    assert (
        client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **rows)).status_code == 302
    )
    assert list(card.distractors.values_list("text", "position")) == [("Pod", 2), ("CronJob", 7)]


def test_distractors_of_a_new_card_are_numbered_from_zero(client, instructor):
    deck = make_deck()
    client.force_login(instructor)
    data = {
        "deck": deck.pk, "position": "", "kind": "flashcard", "question": "Which object runs a batch job?",
        "answer": "Job", "short_answer": "Job", "explanation": "",
        **{f"{prefix}-{k}": v for prefix in ("aliases", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
        "distractors-INITIAL_FORMS": 0, "distractors-MIN_NUM_FORMS": 0, "distractors-MAX_NUM_FORMS": 1000,
        "distractors-TOTAL_FORMS": 3,
        **{f"distractors-{i}-text": text for i, text in enumerate(["CronJob", "Pod", "Service"])},
        **{f"distractors-{i}-position": 0 for i in range(3)},
    }  # fmt: skip
    response = client.post(reverse("admin:content_card_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    card = Card.objects.get(question="Which object runs a batch job?")
    assert list(card.distractors.values_list("text", "position")) == [("CronJob", 0), ("Pod", 1), ("Service", 2)]
