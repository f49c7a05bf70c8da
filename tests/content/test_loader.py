"""The seed parsers (pure) and the load_content command (against PostgreSQL)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.content.loader import LoaderError, distractors_path, parse_file, parse_text
from apps.content.models import MAX_MARKDOWN, Card, Deck, Distractor
from apps.content.rendering import find_math

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
FLASHCARDS = FIXTURES / "technology-digital-tools-flashcards.txt"
SYLLABUS = FIXTURES / "deep-learning-frameworks-production-syllabus.txt"


def _seed_copy(tmp_path: Path, text: str, *, edit=lambda text: text) -> Path:
    """The flashcard seed as `text` in tmp_path, beside its distractors sidecar (with `edit` applied to it)."""
    copy = tmp_path / FLASHCARDS.name
    copy.write_text(text)
    distractors_path(copy).write_text(edit(distractors_path(FLASHCARDS).read_text()))
    return copy


def _load(*files, **options) -> str:
    from io import StringIO

    out = StringIO()
    call_command("load_content", *map(str, files), stdout=out, stderr=out, **options)
    return out.getvalue()


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


LONG = "a" * 25_312


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


# A fence or a display formula may hold blank lines: they are part of its block, not the end of it.
FENCED_ANSWER = (
    "Deck\n\nHow do you show x?\n\nAnswer: Use print:\n```\nx = 1\n\nprint(x)\n```\n\nprint writes to stdout.\n"
)


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


# --- the command -----------------------------------------------------------------------


@pytest.mark.django_db
def test_load_content_loads_both_seeds_by_default():
    output = _load()
    assert "37 created, 0 updated, 0 unchanged" in output
    assert Deck.objects.count() == 2
    assert Card.objects.filter(kind="flashcard").count() == 7
    assert Card.objects.filter(kind="syllabus").count() == 30
    affine = Card.objects.get(question__startswith="Give the standard affine quantization formula")
    assert 'class="katex"' in affine.answer_html and "<math" in affine.answer_html
    assert "$" not in affine.answer_html
    deck = Deck.objects.get(slug="technology-digital-tools-flashcards")
    assert deck.source == "technology-digital-tools-flashcards.txt"
    assert list(deck.cards.values_list("position", flat=True)) == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.django_db
def test_second_load_reports_everything_unchanged_and_writes_nothing(typeset):
    _load()
    # Each formula of each card text and seed distractor typeset once: checking the TeX and storing the HTML share
    # the work.
    texts = [getattr(card, name) for card in Card.objects.all() for name in Card.RENDERED_FIELDS]
    texts += Distractor.objects.values_list("text", flat=True)
    assert len(typeset) == sum(len(find_math(text)) for text in texts) > 0
    typeset.clear()
    with CaptureQueriesContext(connection) as queries:
        output = _load()
    assert "0 created, 0 updated, 37 unchanged" in output
    writes = [q["sql"] for q in queries if q["sql"].split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}]
    assert writes == []
    assert typeset == []  # nothing to write, nothing typeset


@pytest.mark.django_db
def test_changed_answer_updates_the_card_in_place(tmp_path):
    _load()
    copy = _seed_copy(tmp_path, FLASHCARDS.read_text().replace("Answer: Job\n", "Answer: Kubernetes Job\n"))
    card = Card.objects.get(short_answer="Job")
    output = _load(copy)
    assert "0 created, 1 updated, 6 unchanged" in output
    card.refresh_from_db()
    assert (card.answer, card.short_answer) == ("Kubernetes Job", "Kubernetes Job")
    assert "Kubernetes Job" in card.answer_html


@pytest.mark.django_db
def test_reworded_question_keeps_the_card_id(tmp_path):
    _load()
    card = Card.objects.get(short_answer="Job")

    def reword(text: str) -> str:
        return text.replace("run a one-time batch training job?", "run a one-off training job?")

    copy = _seed_copy(tmp_path, reword(FLASHCARDS.read_text()), edit=reword)
    output = _load(copy)
    assert "0 created, 1 updated, 6 unchanged" in output
    assert Card.objects.get(pk=card.pk).question.endswith("run a one-off training job?")


@pytest.mark.django_db
def test_reordered_cards_keep_their_ids_and_take_new_positions(tmp_path):
    _load()
    text = FLASHCARDS.read_text()
    title, *blocks = text.split("\n\n")
    cards = [blocks[i : i + 3] for i in range(0, len(blocks), 3)]
    cards[0], cards[1] = cards[1], cards[0]
    copy = _seed_copy(tmp_path, "\n\n".join([title, *(b for card in cards for b in card)]))
    ids = dict(Card.objects.filter(deck__slug=copy.stem).values_list("short_answer", "pk"))
    output = _load(copy)
    assert "0 created, 2 updated, 5 unchanged" in output
    now = dict(Card.objects.filter(deck__slug=copy.stem).values_list("short_answer", "pk"))
    assert now == ids
    assert Card.objects.get(pk=ids["To manage model versioning, staging, and production transitions"]).position == 1


@pytest.mark.django_db
def test_malformed_file_fails_naming_file_and_line_and_writes_nothing(tmp_path):
    shutil.copy(SYLLABUS, tmp_path / SYLLABUS.name)
    bad = tmp_path / "broken.txt"
    bad.write_text("Broken deck\n\nWhat is X?\n\nAnswer: x\n\nAnswer: y\n")
    with pytest.raises(CommandError) as excinfo:
        _load(tmp_path / SYLLABUS.name, bad)
    assert f"{bad}:7: an 'Answer:' block with no question" in str(excinfo.value)
    assert "Nothing was written" in str(excinfo.value)
    assert Deck.objects.count() == 0 and Card.objects.count() == 0


@pytest.mark.parametrize(
    ("text", "line", "where"),
    [
        (
            "Maths\n\nWhat is one half?\n\nAnswer: $\\frac{1}{2}$\n\nWhat is $x$?\n\nAnswer: $\\frac{1}{$\n",
            9,
            "the answer of the question 'What is $x$?'",
        ),
        (
            "Maths\n\nWhat is one half?\n\nAnswer: $\\frac{1}{2}$\n\nIt is $\\frac{1}{$ written out.\n",
            7,
            "the explanation of the question 'What is one half?'",
        ),
        (
            "Maths\n\nWhat is one half?\n\nAnswer: x\n\nWhy\nnot?\n\nWhat is\n$\\frac{1}{$?\n\nAnswer: y\n",
            10,
            "the question 'What is $\\\\frac{1}{$?'",
        ),
        (
            "Maths\n\nWhat is X?\n\nX.\n\nWhat is Y?\n\nY is\n$\\frac{1}{$\n",
            9,
            "the answer of the question 'What is Y?'",
        ),
    ],
)
@pytest.mark.django_db
def test_a_formula_katex_rejects_fails_naming_the_line_of_its_text_and_writes_nothing(tmp_path, text, line, where):
    bad = tmp_path / "maths.txt"
    bad.write_text(text)
    with pytest.raises(CommandError) as excinfo:
        _load(SYLLABUS, bad)
    message = str(excinfo.value)
    assert f"{bad}:{line}: {where}: KaTeX cannot typeset $\\frac{{1}}{{$:" in message
    assert "Nothing was written" in message
    assert Deck.objects.count() == 0 and Card.objects.count() == 0


@pytest.mark.django_db
def test_a_code_block_with_a_blank_line_is_stored_whole(tmp_path):
    seed = tmp_path / "fence.txt"
    seed.write_text(FENCED_ANSWER.removesuffix("\nprint writes to stdout.\n"))  # no explanation: the cut was silent
    assert "1 created" in _load(seed)
    card = Card.objects.get(deck__slug="fence")
    assert "<pre><code>x = 1\n\nprint(x)\n</code></pre>" in card.answer_html
    assert card.explanation == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"Deck\n\nWhat is X?\n\nAnswer: x\x00\n", "holds a NUL character (\\x00), which the database cannot store"),
        (f"Deck\n\nWhat is X?\n\nAnswer: {LONG}\n".encode(), "the answer is 25,312 characters long; at most 20,000\n"),
    ],
    ids=["nul", "too-long"],
)
def test_what_the_database_cannot_store_fails_naming_file_and_line_and_writes_nothing(tmp_path, content, message):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    with pytest.raises(CommandError) as excinfo:
        _load(SYLLABUS, bad)
    assert str(excinfo.value).startswith(f"{bad}:5: {message}")
    assert "Nothing was written" in str(excinfo.value)
    assert Deck.objects.count() == 0 and Card.objects.count() == 0


@pytest.mark.django_db
def test_a_title_another_deck_has_fails_naming_the_title_line_and_writes_nothing(tmp_path):
    Deck.objects.create(title="Transformers", slug="transformers")
    mine = tmp_path / "mine.txt"
    mine.write_text("\n  transformers \n\nWhat is attention?\n\nA weighted sum of values.\n")
    with pytest.raises(CommandError, match=r"mine.txt:2: another deck \(transformers\) is titled 'Transformers'"):
        _load(mine)
    assert list(Deck.objects.values_list("slug", flat=True)) == ["transformers"] and not Card.objects.exists()
    Deck.objects.create(title="İstatistik", slug="statistics")  # one title to the database's LOWER, as to students
    (tmp_path / "stats.txt").write_text("istatistik\n\nWhat is a mean?\n\nA sum divided by a count.\n")
    with pytest.raises(CommandError, match=r"stats.txt:1: another deck \(statistics\)"):
        _load(tmp_path / "stats.txt")
    # A seed loaded before keeps its own title, and may change its letter case.
    _load(FLASHCARDS)
    _load(_seed_copy(tmp_path, FLASHCARDS.read_text().replace("Technology & Digital", "technology & digital", 1)))
    assert Deck.objects.get(source=FLASHCARDS.name).title == "technology & digital Tools Flashcards"


@pytest.mark.django_db
def test_empty_file_fails_naming_the_file(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(CommandError, match=r"empty.txt:1: the file is empty"):
        _load(empty)


@pytest.mark.django_db
def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match=r"nope.txt: cannot be read"):  # no line: the file itself
        _load(tmp_path / "nope.txt")


@pytest.mark.django_db
def test_dry_run_reports_and_writes_nothing():
    output = _load(dry_run=True)
    assert "dry run, nothing written: 37 created, 0 updated, 0 unchanged" in output
    assert Card.objects.count() == 0 and Deck.objects.count() == 0


@pytest.mark.django_db
def test_rerender_content_restores_stored_html():
    _load()
    affine = Card.objects.get(question__startswith="Give the standard affine")
    distractor = Distractor.objects.create(card=affine, text="$q = r / s$")
    Card.objects.update(answer_html="stale")
    Distractor.objects.update(text_html="stale")
    from io import StringIO

    out = StringIO()
    call_command("rerender_content", stdout=out)
    assert "149 changed" in out.getvalue()  # 37 cards, the seeds' 21 + 90 distractors and this one
    affine.refresh_from_db()
    distractor.refresh_from_db()
    assert 'class="katex"' in affine.answer_html and 'class="katex"' in distractor.text_html
    out = StringIO()
    call_command("rerender_content", stdout=out)
    assert ": 0 changed" in out.getvalue()


@pytest.mark.django_db
def test_load_never_silently_overwrites_a_card_edited_in_the_admin(tmp_path, instructor):
    from apps.content.services import card_save

    _load()
    card = Card.objects.get(short_answer="Job")
    card.answer = card.short_answer = "Job (batch/v1)"
    card_save(card=card, author=instructor, note="Edited in the admin")
    assert "0 created, 0 updated, 37 unchanged" in _load()  # the seed did not change: the edit simply stands

    copy = _seed_copy(tmp_path, FLASHCARDS.read_text().replace("Answer: Job\n", "Answer: Kubernetes Job\n"))
    output = _load(copy)
    assert "conflict: technology-digital-tools-flashcards #4" in output
    assert "0 created, 0 updated, 6 unchanged, 1 conflicts (kept as edited; use --overwrite)" in output
    card.refresh_from_db()
    assert card.answer == "Job (batch/v1)"

    output = _load(copy, overwrite=True)
    assert "0 created, 1 updated, 6 unchanged" in output
    card.refresh_from_db()
    assert card.answer == "Kubernetes Job"
    assert [v.note for v in card.versions.order_by("number")] == [
        "Loaded from technology-digital-tools-flashcards.txt",
        "Edited in the admin",
        "Loaded from technology-digital-tools-flashcards.txt",
    ]


@pytest.mark.django_db(transaction=True)
def test_a_load_waits_for_an_admin_edit_being_saved_and_keeps_it(tmp_path, instructor):
    from apps.content.services import card_save
    from tests.locks import waited_for

    _load()
    card = Card.objects.get(short_answer="Job")
    copy = _seed_copy(tmp_path, FLASHCARDS.read_text().replace("Answer: Job\n", "Answer: Kubernetes Job\n"))

    def admin_edit():  # saved, not yet committed, when the load starts
        card.answer = card.short_answer = "Job (batch/v1)"
        card_save(card=card, author=instructor, note="Edited in the admin")

    outputs = []
    assert waited_for(admin_edit, lambda: outputs.append(_load(copy)))
    assert "conflict: technology-digital-tools-flashcards #4" in outputs[0]
    card.refresh_from_db()
    assert card.answer == "Job (batch/v1)"


NEW_FIRST_CARD = (
    "Which tool tracks data versions beside git?\n\nAnswer: DVC\n\n"
    "DVC stores pointers in git and the data elsewhere.\n\n"
)


@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.django_db
def test_a_kept_conflict_still_moves_aside_for_a_card_inserted_before_it(tmp_path, instructor, dry_run):
    from apps.content.services import card_save

    _load()
    card = Card.objects.get(short_answer="Job")
    card.answer = card.short_answer = "Job (batch/v1)"
    card_save(card=card, author=instructor, note="Edited in the admin")
    title, rest = FLASHCARDS.read_text().split("\n\n", 1)
    copy = _seed_copy(
        tmp_path, f"{title}\n\n{NEW_FIRST_CARD}{rest}".replace("Answer: Job\n", "Answer: Kubernetes Job\n")
    )

    output = _load(copy, dry_run=dry_run)

    assert "1 created, 6 updated, 0 unchanged, 1 conflicts" in output
    card.refresh_from_db()
    assert card.answer == "Job (batch/v1)"
    in_deck = Card.objects.filter(deck__slug=copy.stem).order_by("position")
    positions = list(in_deck.values_list("short_answer", flat=True))
    if dry_run:
        assert len(positions) == 7 and positions[3] == "Job (batch/v1)"
    else:
        assert positions[0] == "DVC" and positions[4] == "Job (batch/v1)" and len(positions) == 8


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
