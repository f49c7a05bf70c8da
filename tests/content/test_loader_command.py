"""The load_content command against PostgreSQL: loading the seeds, reloading without writes, changes kept in
place with card ids, failures that name file and line and write nothing, dry runs, re-rendering, and cards
edited in the admin never silently overwritten (nor lost to a load running at the same moment).
"""

from __future__ import annotations

import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.content.loader import distractors_path
from apps.content.models import Card, Deck, Distractor
from apps.content.rendering import find_math
from tests.content.loader_support import FENCED_ANSWER, FLASHCARDS, LONG, SYLLABUS, _load, _seed_copy

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
def test_a_seed_file_whose_slug_is_cut_at_a_hyphen_loads_into_a_deck_that_exports_to_a_file_that_imports(tmp_path):
    """The slug, its name cut to 200 characters, ended with the hyphen at the cut: the import refuses such a slug.
    (A ligature is three letters in a slug: "ﬃ" is "ffi".)"""
    seed = tmp_path / f"{'ﬃ' * 66}a-b.txt"
    seed.write_text("Long names\n\nWhat is a slug?\n\nA deck's address.\n")
    _load(seed)
    deck = Deck.objects.get()
    assert deck.slug == "ffi" * 66 + "a"
    call_command("export_deck", deck.slug, "-o", str(tmp_path / "deck.json"))
    out = StringIO()
    call_command("import_deck", str(tmp_path / "deck.json"), stdout=out)
    assert "existing deck: 0 created, 0 updated, 1 unchanged" in out.getvalue()


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


@pytest.mark.django_db
def test_a_seed_file_with_a_long_name_loads_with_its_name_cut_in_the_version_note(tmp_path):
    long_named = tmp_path / ("technology-digital-tools-" + "x" * 200 + ".txt")
    _seed_copy(tmp_path, FLASHCARDS.read_text()).rename(long_named)
    (tmp_path / "technology-digital-tools-flashcards.distractors.csv").rename(distractors_path(long_named))
    assert "7 created" in _load(long_named)
    note = Card.objects.get(short_answer="Job").versions.get().note
    assert note.startswith("Loaded from technology-digital-tools-xxx") and note.endswith("\u2026")
    assert len(note) == 200
