"""How the items tab, the charts and the student drill-down show cards and answers: questions and wrong options typeset
as the student saw them and read as text in the CSV, discrimination from too few students, labelled charts with
their numbers, a cohort without answers, the drill-down's responses and pages, and long options offered whole.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from apps.cohorts import deadlines, services
from apps.cohorts.models import Membership
from apps.content.models import Distractor
from apps.content.plaintext import plain_text
from apps.content.services import card_save
from apps.quiz import services as quiz
from tests.cohorts import handmade
from tests.cohorts.choices import choose
from tests.cohorts.views_support import _cohort, _csv_rows, _table_rows, _text
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


TEX_QUESTION = (
    r"Evaluate `torch.cuda.amp` with inline $\sigma(x)=\frac{1}{1+e^{-x}}$ and display"
    "\n\n$$\n\\mathbf{W}_q x^2 \\cdot \\sqrt{d_k}\n$$\n\nas in [the docs](https://pytorch.org/docs). Why?"
)


TEX_PLAIN = "Evaluate torch.cuda.amp with inline σ(x)=1/(1+e^(−x)) and display W_q x^2⋅√(d_k) as in the docs. Why?"


def _card_cell(html: str, card_id: int) -> str:
    """The row header of the card's row: its title link and where it is."""
    link = reverse("admin:content_card_change", args=[card_id])
    cells = re.findall(r'<th scope="row">(.*?)</th>', html, re.S)
    return next(cell for cell in cells if f'href="{link}"' in cell)


def _shown(cell: str) -> str:
    """What the eye reads in a cell: its text without the MathML a formula carries for screen readers."""
    return _text(re.sub(r'<span class="katex-mathml">.*?</math></span>', "", cell, flags=re.S))


def test_a_card_is_named_by_its_typeset_question_on_the_items_tab_and_the_drill_down_and_as_text_in_the_csv(
    client, hand
):
    """Not its Markdown and TeX source cut mid-formula ("… $\\sigma(x)=…$$\\m…"), as the QA review found."""
    ops = hand.assignments.get(deck__title="Ops").deck
    card = make_card(deck=ops, question=TEX_QUESTION, answer="Mixed precision")
    s1 = Membership.objects.get(cohort=hand, student__username="s1").student
    handmade.answer(s1, card, 1.0, response="mixed precision")
    items = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    drill = client.get(reverse("cohorts:student", args=[hand.pk, s1.pk])).content.decode()
    for html, where in ((items, "Ops #5"), (drill, "Ops · v1 · free recall")):
        cell = _card_cell(html, card.pk)
        # The formulas typeset (KaTeX), the code as code, and none of the source's $ or TeX commands in sight.
        assert cell.count('<span class="katex">') == 2 and "<code>torch.cuda.amp</code>" in cell
        assert "$" not in cell and "\\sigma" not in _shown(cell) and "\\frac" not in _shown(cell)
        shown = _shown(cell)
        assert shown.startswith("Evaluate torch.cuda.amp with inline σ ( x ) =") and "as in the docs. Why?" in shown
        # One link: the card's own links are unwrapped to their text, as a link cannot hold another.
        assert cell.count("<a ") == 1 and re.match(r'<a class="card-title" href="[^"]+">', cell)
        assert shown.endswith(where)
    rows = csv.DictReader(io.StringIO(client.get(reverse("cohorts:export_items", args=[hand.pk])).content.decode()))
    questions = [row["question"] for row in rows]
    assert TEX_PLAIN in questions and "Q1?" in questions
    assert not any("$" in q or "<" in q or "\\" in q for q in questions)


MATH_OPTION = r"The $\lVert x \rVert_1$ norm of `x`"


def _wrong_cell(html: str, card_id: int) -> str:
    """The "Common wrong answers" cell (the last) of the card's row, as HTML."""
    link = reverse("admin:content_card_change", args=[card_id])
    row = next(row for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", html, re.S) if f'href="{link}"' in row)
    return re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)[-1]


def test_a_wrong_option_picked_is_typeset_as_the_student_saw_it_even_after_an_edit_and_read_as_text_in_the_csv(
    client, instructor, student, django_assert_num_queries
):
    """Not its Markdown and TeX source ("$\\lVert x \\rVert_1$", backticks), as the page used to list it."""
    deck = make_deck(title="Norms")
    card = make_card(deck=deck, question="Which norm is the largest absolute value?", answer="The max norm")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Norm {i}")
    card_save(card=card, distractors=[MATH_OPTION])
    seen = Distractor.objects.get(card=card).text_html
    cohort = services.cohort_create(name="Norms", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    choose(student, deck=deck, card=card, text=MATH_OPTION)
    # The instructor rewrites the distractor since: the statistics still show what the student was shown.
    card_save(card=card, distractors=[r"The $\lVert x \rVert_2$ norm"])
    client.force_login(instructor)
    with django_assert_num_queries(8):  # as for any cohort (test_pages_and_exports_use_a_constant_number_of_queries)
        html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    cell = _wrong_cell(html, card.pk)
    assert seen in cell and cell.count('<span class="katex">') == 1 and "<code>x</code>" in cell
    assert "$" not in cell and "`" not in cell and "rVert_2" not in cell
    assert "\\lVert" not in _shown(cell) and _shown(cell).endswith("norm of x × 1")
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[cohort.pk])))
    picked = next(row for row in rows if row["question"] == "Which norm is the largest absolute value?")
    assert picked["wrong_options_picked"] == f"{plain_text(seen)} (1)" == "The ∥x∥_1 norm of x (1)"


def test_discrimination_from_too_few_students_is_a_dash_that_says_so(client, hand):
    """Three students: a figure such as "-1.00 weak" would be noise, so neither the page nor the CSV gives one."""
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    page = {row[0]: row for row in _table_rows(html, "data items")}
    assert page["Q1? Ops #1"][3] == "— too few students" and "weak" not in page["Q1? Ops #1"][3]
    assert re.search(r'<span title="Too few students: shown once 5 have answered it">—', html)
    assert "shown once 5 students have answered it" in _text(html)
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[hand.pk])))
    assert {row["discrimination"] for row in rows} == {""}


def test_charts_are_labelled_images_with_their_numbers_in_a_table(client, hand):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "charts"}).content.decode()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    tables = re.findall(r'<details class="chart-data">(.*?)</details>', html, re.S)
    assert len(svgs) == len(tables) == 2
    charts = {}
    for markup, table in zip(svgs, tables, strict=True):
        svg = ET.fromstring(markup)  # noqa: S314 - our own page
        assert svg.get("role") == "img"
        # Its accessible name and description are its own <title> and <desc>, which are not empty.
        title, desc = svg.find("title"), svg.find("desc")
        assert svg.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
        assert title.text.strip() and desc.text.strip()
        # The same numbers as a table (in a <details>, for screen readers and for anyone who wants them).
        rows = _table_rows(table, "data")
        bars = [rect.find("title").text for rect in svg.iter("rect")]
        assert [f"{label}: {value}" for label, value in rows] == bars
        assert _text(re.search(r"<summary>(.*?)</summary>", table).group(1)) == f"{title.text} as a table"
        charts[title.text] = (desc.text, {label: int(value) for label, value in rows})
    activity_desc, per_day = charts["Answers per day, last 30 days"]
    assert len(per_day) == 30 and sum(per_day.values()) == 9  # the removed student and the outsider do not count
    assert activity_desc.startswith("9 answers in the last 30 days; the busiest day was") and "with 7." in activity_desc
    accuracy_desc, bands = charts["Distribution of student accuracy"]
    assert [bands[f"{10 * i}–{10 * (i + 1)} %"] for i in range(10)] == [0, 0, 1, 0, 0, 1, 1, 0, 0, 0]
    assert accuracy_desc == "Students with answers, by accuracy band: 3; without answers yet: 0."


def test_a_cohort_without_answers_says_so_instead_of_drawing_empty_charts(client, instructor, student):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "charts"}).content.decode()
    assert "No answers yet: the charts fill in as the cohort's students answer its decks." in html
    assert "<svg" not in html


def test_student_drill_down_lists_answers(client, instructor):
    cohort = _cohort(instructor, students=3, cards=3)
    student = Membership.objects.get(cohort=cohort, student__username="student002").student
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert "student002" in html and "Progress per deck" in html
    assert html.count("<time") >= 6
    assert "Answers (6)" in html


def test_student_drill_down_past_the_last_page_shows_the_last_page(client, hand):
    s3 = Membership.objects.get(cohort=hand, student__username="s3").student
    html = client.get(reverse("cohorts:student", args=[hand.pk, s3.pk]), {"page": "7"}).content.decode()
    assert len(_table_rows(html, "data answers stack-on-phone")) == 4 and "Answers (4)" in html


def test_student_drill_down_shows_each_response_with_its_verdict_and_override(client, hand):
    s3 = Membership.objects.get(cohort=hand, student__username="s3").student
    html = client.get(reverse("cohorts:student", args=[hand.pk, s3.pk])).content.decode()
    answers = {(row[1].split(" ")[0], row[2]): row for row in _table_rows(html, "data answers stack-on-phone")}
    assert len(answers) == 4 and "Answers (4)" in html
    # When, card, response, the grader's verdict and score, the student's override, time.
    assert answers["Q2?", "cronjob."][3:5] == ["Incorrect 0 %", "—"]
    assert answers["Q3?", "Job"][3:5] == ["Correct 100 %", "Incorrect"]  # graded right, overridden by the student
    assert answers["Q1?", "x"][3] == "Correct 100 %"
    assert answers["Q1?", "A Pod"][3] == "Incorrect 0 %" and "multiple choice" in answers["Q1?", "A Pod"][1]
    assert "Accuracy under 50 %" in _text(html) and "accuracy 25 %" in _text(html)


LONG_OPTION = "Because it regularizes: dividing each micro-batch loss by $N$ acts like a smaller learning rate. " * 2


def test_a_long_wrong_option_or_answer_offers_its_whole_text_and_a_short_one_does_not(client, instructor, student):
    deck = make_deck(title="Accumulation")
    card = make_card(deck=deck, question="Why divide the loss by N?", answer="To average the gradients")
    short = make_card(deck=deck, question="What is summed?", answer="Gradients")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Thing {i}")
    card_save(card=card, distractors=[LONG_OPTION])
    card_save(card=short, distractors=["Weights"])
    cohort = services.cohort_create(name="Steps", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    choose(student, deck=deck, card=card, text=LONG_OPTION)
    choose(student, deck=deck, card=short, text="Weights")
    typed = "the optimizer takes one step per micro-batch, so the loss must be smaller for each one of them"
    session = quiz.session_start(user=student, deck=deck, size=6, mode="recall", order="random")
    item = session.items.get(card=card)
    quiz.answer_submit(
        user=student, session_id=session.pk, position=item.position, submission=quiz.Submission(response=typed)
    )
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    long_cell, short_cell = _wrong_cell(html, card.pk), _wrong_cell(html, short.pk)
    # The option stays clamped (app.css) with its count after it; "Show all" follows, and lifts the clamp.
    option = re.search(r'<li><div class="wrong-option prose">(.*?)</div> × 1(.*?)</li>', long_cell, re.S)
    assert option and "regularizes" in option.group(1)
    assert re.fullmatch(
        r'<details class="wrong-full"><summary><span class="if-closed">Show all</span>.*</summary></details>',
        option.group(2),
    )
    assert "wrong-full" not in short_cell and "Weights</p></div> × 1</li>" in short_cell
    # A typed answer is cut at 60 characters; its whole text is in its title and behind "Show all".
    answer = re.search(
        r"<li><span title=\"([^\"]*)\">“<bdi>([^”]*)</bdi>”</span> × 1"
        r"<details class=\"wrong-full\">(.*?)</details></li>",
        long_cell,
    )
    assert answer and answer.group(1) == typed and answer.group(2).endswith("…") and len(answer.group(2)) == 60
    assert f"“<bdi>{typed}</bdi>”" in answer.group(3)
