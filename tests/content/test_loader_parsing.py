"""The seed parsers (pure): flashcard and syllabus files, line endings and BOM, malformed or invalid text named
by its line, texts over the database's limit, blank lines inside fences and formulas; and the format a file is
read in, told by its name or title, with files that mix the formats refused at the line that gives them away.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.management import CommandError

from apps.content.loader import LoaderError, parse_file, parse_text
from apps.content.models import MAX_MARKDOWN, Card, Deck
from tests.content.loader_support import FENCED_ANSWER, FLASHCARDS, LONG, SYLLABUS, _load

# --- parsing ---------------------------------------------------------------------------


def test_flashcard_file_parses_question_answer_and_explanation():
    deck = parse_file(FLASHCARDS)
    assert deck.title == "Technology & Digital Tools Flashcards"
    assert deck.slug == "technology-digital-tools-flashcards"
    assert deck.kind == "flashcard"
    assert len(deck.cards) == 7
    job = deck.cards[3]
    assert job.question.startswith("When using Kubernetes for ML workload orchestration")
    assert job.answer == "Job"
    assert job.short_answer == "Job"
    assert job.explanation.startswith("A Kubernetes Job creates one or more pods")
    assert (job.line, job.answer_line, job.explanation_line) == (21, 23, 25)
    last = deck.cards[-1]
    assert last.answer.startswith("It uses FP16 or BF16")
    assert last.explanation.endswith("on modern GPUs.")


def test_syllabus_file_parses_alternating_blocks_including_imperative_questions():
    deck = parse_file(SYLLABUS)
    assert deck.kind == "syllabus"
    assert len(deck.cards) == 30
    questions = [card.question for card in deck.cards]
    assert "Compare PyTorch's DataParallel (DP) and DistributedDataParallel (DDP)." in questions
    assert "Give the standard affine quantization formula mapping a real value to an integer." in questions
    assert any(q.startswith("Contrast post-training") for q in questions)
    assert any(q.startswith("Name three common techniques") for q in questions)
    affine = next(card for card in deck.cards if card.question.startswith("Give the standard affine"))
    assert affine.answer.startswith(r"$q = \text{round}\left(\frac{r}{s}\right) + z$")
    assert all(card.short_answer == "" and card.explanation == "" for card in deck.cards)


def test_the_seeds_give_37_cards():
    cards = parse_file(FLASHCARDS).cards + parse_file(SYLLABUS).cards
    assert (len(cards), sum(c.kind == "flashcard" for c in cards), sum(c.kind == "syllabus" for c in cards)) == (
        37,
        7,
        30,
    )


def test_windows_line_endings_and_bom_parse_the_same():
    text = FLASHCARDS.read_text()
    crlf = "\ufeff" + text.replace("\n", "\r\n")
    parsed = parse_file(FLASHCARDS)
    assert parse_text(crlf, path="x", slug="x").cards == [replace(card, distractors=()) for card in parsed.cards]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "the file is empty"),
        ("\n" + "T" * 201 + "\n\nWhat?\n\nAnswer: x\n", 2, "the title is 201 characters long; at most 200"),
        ("\n\n   \n", 1, "the file is empty"),
        ("Title only\n", 1, "no questions"),
        ("Deck\n\nAnswer: Job\n\nWhy.\n", 3, "'Answer:' block with no question"),
        ("Deck\n\nQ1?\n\nAnswer: A1\n\nAnswer: A2\n", 7, "'Answer:' block with no question"),
        ("Deck\n\nQ1?\n\nAnswer: A1\n\nWhy.\n\nQ2?\n", 9, "has no 'Answer:' block"),
        ("Deck\n\nQ1?\n\nAnswer:   \n", 5, "'Answer:' line is empty"),
        ("Deck\n\nWhat is X?\n\nX is a thing.\n\nWhat is Y?\n", 7, "has no answer after it"),
        ("Deck\n\nWhat is X?\n\nX is a thing.\n\nIt also does more.\n\nWhat is Y?\n\nY.\n", 7, "expected a question"),
        ("Deck\n\nWhat is X?\n\nX.\n\nwhat is x?\n\nAgain.\n", 7, "same question already appears at line 3"),
        ("Answer: first\n\nQ?\n", 1, "expected a title line"),
        # a code fence or display formula never closed, named where it opens
        ("Deck\n\nQ?\n\nAnswer: Use print:\n```\nx = 1\n\nprint(x)\n", 6, "the code fence opened here is never closed"),
        ("Deck\n\nQ?\n\nAnswer: x\n\nWhy:\n~~~\ncode\n```\n", 8, "the code fence opened here is never closed"),
        ("Deck\n\nWhat is X?\n\n$$\na\n\nb\n\nWhat is Y?\n\nY.\n", 5, "the display formula ($$) opened here is never"),
    ],
)
def test_malformed_text_names_the_line(text, line, message):
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path="fixtures/bad.txt", slug="bad")
    assert excinfo.value.line == line
    assert message in excinfo.value.message
    assert str(excinfo.value).startswith(f"fixtures/bad.txt:{line}: ")


def test_invalid_utf8_names_the_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Deck\n\nWhat is \xff?\n\nAnswer: x\n")
    with pytest.raises(LoaderError, match=r"bad.txt:3: the byte 0xFF .*is not UTF-8 text.*save it as UTF-8"):
        parse_file(bad)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Deck\n\nWhat is X?\n\nAnswer: x\x00y\n", 5),
        ("De\x00ck\r\n\r\nWhat is X?\r\n\r\nAnswer: x\r\n", 1),
        ("Deck\r\rWhat is X?\r\rAnswer: x\r\rWhy\x00\r", 7),
    ],
)
def test_a_nul_character_names_its_line(text, line):
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path="fixtures/bad.txt", slug="bad")
    assert str(excinfo.value).startswith(f"fixtures/bad.txt:{line}: holds a NUL character")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (f"Deck\n\nWhat is X?\n\nAnswer: {LONG}\n\nWhy.\n", 5, "the answer is 25,312 characters long"),
        (f"Deck\n\n{LONG}?\n\nAnswer: x\n", 3, "the question is 25,313 characters long"),
        (f"Deck\n\nWhat is X?\n\nAnswer: x\n\n{LONG}\n", 7, "the explanation is 25,312 characters long"),
        (f"Deck\n\nWhat is X?\n\nX.\n\nWhat is Y?\n\nY\n{LONG}\n", 9, "the answer is 25,314 characters long"),
    ],
)
def test_a_text_longer_than_the_database_holds_names_its_line(text, line, message):
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path="fixtures/bad.txt", slug="bad")
    assert str(excinfo.value) == f"fixtures/bad.txt:{line}: {message}; at most 20,000"


def test_a_text_of_exactly_the_limit_parses():
    card = parse_text(f"Deck\n\nWhat is X?\n\nAnswer:  {'a' * MAX_MARKDOWN}\n", path="x.txt", slug="x").cards[0]
    assert len(card.answer) == MAX_MARKDOWN


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (FENCED_ANSWER, "Use print:\n```\nx = 1\n\nprint(x)\n```"),
        # The answer's text starts after "Answer:", so a fence or formula may open on that line.
        (FENCED_ANSWER.replace("Use print:\n```", "```"), "```\nx = 1\n\nprint(x)\n```"),
        (FENCED_ANSWER.replace("Use print:\n```", "$$").replace("\n```\n", "\n$$\n"), "$$\nx = 1\n\nprint(x)\n$$"),
    ],
)
def test_a_blank_line_inside_a_code_fence_does_not_cut_the_answer(text, answer):
    card = parse_text(text, path="fence.txt", slug="fence").cards[0]
    assert card.answer == answer
    assert card.explanation == "print writes to stdout."


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        # A tilde fence, with an info string, and a "```" inside it that does not close it.
        (
            "Deck\n\nWhat is X?\n\n~~~python\n```\n\nx = 1\n~~~\n\nWhat is Y?\n\nY.\n",
            "~~~python\n```\n\nx = 1\n~~~",
        ),
        # A display formula over several lines.
        (
            "Deck\n\nWhat is X?\n\nX is\n$$\na\n\n+ b\n$$\n\nWhat is Y?\n\nY.\n",
            "X is\n$$\na\n\n+ b\n$$",
        ),
        # A formula opened and closed on one line leaves nothing open, text after it too (as the renderer reads it).
        ("Deck\n\nWhat is X?\n\n$$x$$\n\nWhat is Y?\n\nY.\n", "$$x$$"),
        ("Deck\n\nWhat is X?\n\n$$\\sigma(x)$$ squashes x.\n\nWhat is Y?\n\nY.\n", "$$\\sigma(x)$$ squashes x."),
        # "$$ … $$" inside a fence is code, not a formula.
        ("Deck\n\nWhat is X?\n\n```\n$$\n\n```\n\nWhat is Y?\n\nY.\n", "```\n$$\n\n```"),
    ],
)
def test_a_blank_line_inside_a_syllabus_fence_or_formula_does_not_cut_the_answer(text, answer):
    deck = parse_text(text, path="fence.txt", slug="fence")
    assert [card.answer for card in deck.cards] == [answer, "Y."]
    assert deck.cards[1].line == text.split("\n").index("What is Y?") + 1


# --- the format a file is read in --------------------------------------------------------------------


def test_a_file_named_as_flashcards_without_answer_lines_is_refused_not_loaded_as_a_syllabus(tmp_path, db):
    """It was read as a syllabus, "explanation only" becoming the answer of "Q1 with no answer line?"."""
    seed = tmp_path / "my3-flashcards.txt"
    seed.write_text("My3 Flashcards\n\nQ1 with no answer line?\n\nexplanation only\n")
    with pytest.raises(CommandError) as excinfo:
        _load(seed)
    assert str(excinfo.value) == (
        f"{seed}:3: the question 'Q1 with no answer line?' has no 'Answer:' block after it; this is a flashcard "
        "file (its file name and title say flashcards), so each question needs an 'Answer: …' line after it\n"
        "Nothing was written."
    )
    assert not Deck.objects.exists() and not Card.objects.exists()


@pytest.mark.parametrize(
    ("name", "title", "says"),
    [
        ("notes-flashcards.txt", "Notes", "its file name says flashcards"),
        ("notes.txt", "Notes: flashcards", "its title says flashcards"),
        ("Flashcard set.txt", "Flashcard set", "its file name and title say flashcards"),
    ],
)
def test_a_flashcard_file_is_told_by_its_name_or_its_title(name, title, says):
    text = f"{title}\n\nWhat is X?\n\nAnswer: X\n\nWhat is Y?\n\nY is the answer.\n"
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path=f"fixtures/{name}", slug="notes")
    # "What is Y?" was read as the first card's explanation: the question named is still the one without an answer
    assert excinfo.value.line == 7 and excinfo.value.message.startswith("the question 'What is Y?' has no 'Answer:'")
    assert f"this is a flashcard file ({says})" in excinfo.value.message
    parsed = parse_text(text.replace("Y is the answer.", "Answer: Y"), path=f"fixtures/{name}", slug="notes")
    assert [(card.kind, card.answer) for card in parsed.cards] == [("flashcard", "X"), ("flashcard", "Y")]


def test_a_file_that_mixes_the_formats_names_the_question_without_its_answer_line_and_why():
    """Named neither way: its 'Answer:' lines make it flashcards, and the syllabus pair among them is named."""
    text = "Notes\n\nWhat is X?\n\nAnswer: X\n\nWhy X.\n\nWhat is Y?\n\nAnswer: Y\n\nWhat is Z?\n\nZ is the answer.\n"
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path="fixtures/notes.txt", slug="notes")
    assert str(excinfo.value) == (
        "fixtures/notes.txt:13: the question 'What is Z?' has no 'Answer:' block after it; this is a flashcard file "
        "(it has 'Answer:' lines (the first at line 5), as flashcards do), so each question needs an 'Answer: …' "
        "line after it"
    )


def test_an_answer_line_in_a_file_named_as_a_syllabus_is_refused_at_its_line():
    text = "Course Syllabus\n\nWhat is X?\n\nX is a thing.\n\nWhat is Y?\n\nAnswer: Y\n"
    with pytest.raises(LoaderError) as excinfo:
        parse_text(text, path="fixtures/course-syllabus.txt", slug="course-syllabus")
    assert excinfo.value.line == 9
    assert excinfo.value.message.startswith(
        "an 'Answer:' line in a syllabus file (its file name and title say syllabus): a syllabus alternates"
    )


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("notes.txt", "Notes\n\nWhat is X?\n\nX is a thing.\n", "syllabus"),  # named neither way: as before
        ("notes.txt", "Notes\n\nWhat is X?\n\nAnswer: X\n", "flashcard"),
        ("course-syllabus.txt", "Course Syllabus\n\nWhat is X?\n\nX is a thing.\n", "syllabus"),
        # both words: the name and title decide nothing, the format does
        ("flashcards-and-syllabus.txt", "Both\n\nWhat is X?\n\nX is a thing.\n", "syllabus"),
    ],
)
def test_files_that_follow_their_format_load_as_before(name, text, kind):
    assert parse_text(text, path=f"fixtures/{name}", slug="x").kind == kind
