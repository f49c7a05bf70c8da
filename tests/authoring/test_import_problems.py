"""A deck file that would not import lists every problem at once, each naming where it is (a CSV row, a card's
index and field), so one upload is enough to see what to fix; and nothing is written."""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from html import unescape
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.authoring.models import ImportHold
from apps.authoring.problems import MAX_PROBLEMS
from apps.authoring.transfer import CSV_COLUMNS, to_json
from apps.content.models import Card, CardVersion, Deck
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

BAD = "$\\frac{1}{$"


def _card(position: int, **fields) -> dict:
    return {
        "uid": str(uuid.UUID(int=position)), "position": position, "kind": "flashcard",
        "question": f"Question {position}?", "answer": f"Answer {position}", "short_answer": "", "explanation": "",
        "archived": False, "aliases": [], "distractors": [], "key_terms": [], **fields,
    }  # fmt: skip


def _json(cards: list[dict], *, slug: str = "imported") -> str:
    deck = {"slug": slug, "title": "Imported", "description": "", "source": ""}
    return json.dumps({"format": "mlcourse-deck", "version": 1, "deck": deck, "cards": cards})


def _csv(cards: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerow({"record": "deck", "slug": "imported", "title": "Imported", "description": "", "source": ""})
    for card in cards:
        lists = {name: card[name] if isinstance(card[name], str) else json.dumps(card[name]) for name in
                 ("aliases", "distractors", "key_terms")}  # fmt: skip
        writer.writerow({"record": "card", **card, "archived": str(card["archived"]).lower(), **lists})
    return out.getvalue()


def _upload(client, content: str, name: str):
    upload = SimpleUploadedFile(name, content.encode())
    return client.post(reverse("admin:content_deck_import"), {"file": upload})


def _refusal(page) -> tuple[str, list[str], str]:
    """The error box as the instructor reads it: its headline, the problems listed, and what follows them."""
    assert page.status_code == 422
    box = re.search(r'<div class="errornote import-problems" role="alert">(.*?)</div>', page.content.decode(), re.S)
    paragraphs = [unescape(text) for text in re.findall(r"<p>(.*?)</p>", box.group(1), re.S)]
    items = [unescape(item) for item in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)]
    return paragraphs[0], items, " ".join(paragraphs[1:])


def _nothing_written() -> bool:
    return not Deck.objects.exists() and not Card.objects.exists() and not ImportHold.objects.exists()


def test_a_json_file_with_errors_in_two_cards_names_both(client, instructor):
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 6)]
    cards[1]["question"] = ""
    cards[4].update(kind="essay", position=1)
    headline, problems, after = _refusal(_upload(client, _json(cards), "deck.json"))
    assert headline == "deck.json would not import: 3 problems."
    assert problems == [
        "card #2, field question: is required",
        "card #5, field kind: must be flashcard or syllabus",
        "card #5, field position: 1 is used by another card too (card #1)",
    ]
    assert after == "Nothing was written."
    assert _nothing_written()


def test_a_csv_file_with_three_bad_lines_names_each_line(client, instructor):
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 7)]
    cards[1]["kind"] = "essay"  # row 4: header, deck row, then the cards
    cards[2]["aliases"] = '["fraction", ratio]'  # row 5: not a JSON list, though it starts as one
    cards[4]["position"] = "first"  # row 7
    headline, problems, after = _refusal(_upload(client, _csv(cards), "deck.csv"))
    assert headline == "deck.csv would not import: 3 problems."
    assert problems == [
        "row 4, field kind: must be flashcard or syllabus",
        'row 5, field aliases: starts with "[" but is not valid JSON (Expecting value, at character 14); '
        'write the list as ["a", "b"], or one item a line without brackets',
        "row 7, field position: must be a whole number from 1 to 2147483647",
    ]
    assert after == "Nothing was written."
    assert _nothing_written()


def test_a_key_term_that_only_repeats_the_question_is_named(client, instructor):
    client.force_login(instructor)
    cards = [_card(1, key_terms=["answer", "question|questions"])]
    _, problems, _ = _refusal(_upload(client, _json(cards), "deck.json"))
    assert problems == [
        "card #1, field key_terms: “question”, “questions” only repeat words of the question: a student who copies the "
        "question would earn them. Use words that only the answer has."
    ]


def test_every_problem_of_one_card_is_listed_not_only_its_first(client, instructor):
    client.force_login(instructor)
    cards = [_card(1, uid="nope", question="", aliases="fraction", archived="maybe")]
    _, problems, _ = _refusal(_upload(client, _json(cards), "deck.json"))
    assert problems == [
        "card #1, field uid: must be a UUID",
        "card #1, field archived: must be true or false",
        "card #1, field question: is required",
        "card #1, field aliases: must be a list of non-empty texts",
    ]


def test_problems_across_cards_are_all_listed_with_those_of_single_cards_in_file_order(client, instructor):
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 7)]
    cards[0]["aliases"] = ["Job", "job"]
    cards[2]["uid"] = cards[1]["uid"]
    cards[3]["answer"] = ""
    cards[4]["aliases"] = ["İstanbul", "istanbul"]
    cards[5].update(uid=cards[1]["uid"], position=4)
    upload = json.loads(_json(cards))
    upload["deck"]["slug"] = "Not A Slug"
    headline, problems, _ = _refusal(_upload(client, json.dumps(upload), "deck.json"))
    same = "are the same answer to the database (letter case does not count); keep one"
    assert problems == [
        "deck, field slug: may contain only lowercase letters, digits, hyphens and underscores, beginning and ending "
        "with a letter or digit: “not-a-slug” would do",
        f"card #1, field aliases: “Job” and “job” {same}",
        "card #3, field uid: appears twice in the file (also card #2)",
        "card #4, field answer: is required",
        f"card #5, field aliases: “İstanbul” and “istanbul” {same}",
        "card #6, field uid: appears twice in the file (also card #2)",
        "card #6, field position: 4 is used by another card too (card #4)",
    ]
    assert headline == "deck.json would not import: 7 problems."
    assert _nothing_written()


def test_bad_tex_in_several_cards_is_all_listed_and_an_existing_deck_is_left_as_it_was(client, instructor):
    deck = make_deck(slug="imported", title="Imported")
    kept = make_card(deck=deck, position=1, question="Kept", answer="As it was")
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 5)]
    cards[0]["answer"] = f"One {BAD} and another $\\sqrt{{$"
    cards[2]["distractors"] = ["Fine $x$", BAD]
    cards[3]["explanation"] = BAD
    headline, problems, _ = _refusal(_upload(client, _json(cards), "deck.json"))
    assert headline == "deck.json would not import: 4 problems."
    assert [problem.split(": KaTeX parse error")[0] for problem in problems] == [
        f"card #1, field answer: {BAD}",
        "card #1, field answer: $\\sqrt{$",
        f"card #3, field distractors, entry #2: {BAD}",
        f"card #4, field explanation: {BAD}",
    ]
    assert list(Card.objects.values_list("pk", "position", "answer")) == [(kept.pk, 1, "As it was")]
    assert CardVersion.objects.count() == 1 and not ImportHold.objects.exists()


def test_past_the_cap_the_page_lists_the_first_problems_and_counts_the_rest(client, instructor):
    client.force_login(instructor)
    assert MAX_PROBLEMS == 50
    cards = [_card(n, question="") for n in range(1, 61)]
    headline, problems, after = _refusal(_upload(client, _json(cards), "deck.json"))
    assert headline == "deck.json would not import: 60 problems."
    assert len(problems) == 50
    assert (
        problems[0] == "card #1, field question: is required"
        and problems[-1] == "card #50, field question: is required"
    )
    assert after == "And 10 more problems, not listed: fix these, then check the file again. Nothing was written."
    assert _nothing_written()


def _command(tmp_path, content: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError) as excinfo:
        call_command("import_deck", str(path), stdout=StringIO())
    return str(excinfo.value)


def test_import_deck_prints_every_problem_one_a_line(tmp_path, db):
    cards = [_card(n, question="") for n in range(1, 53)]
    cards[1]["kind"] = "essay"
    lines = _command(tmp_path, _json(cards), "deck.json").splitlines()
    assert lines[0] == f"{tmp_path / 'deck.json'} would not import (53 problems):"
    assert lines[1:4] == [
        "  card #1, field question: is required",
        "  card #2, field kind: must be flashcard or syllabus",
        "  card #2, field question: is required",
    ]
    assert len(lines) == 1 + MAX_PROBLEMS + 2
    assert lines[-2:] == ["  and 3 more", "Nothing was written."]
    assert not Deck.objects.exists()


def test_import_deck_without_node_is_one_line_saying_what_to_install(tmp_path, db, katex_down):
    # The system check no longer stops the command first (a warning only): the renderer's traceback came out.
    message = _command(tmp_path, _json([_card(1, question="What is $x$?")]), "deck.json")
    assert "\n" not in message
    assert message.startswith("KaTeX is not available (Node.js ('/nonexistent/node', NODE_BINARY) is not on PATH")
    assert message.endswith("install Node.js and run `npm ci`, or set NODE_BINARY. Nothing was written.")
    assert not Deck.objects.exists()


def test_cards_of_other_decks_are_all_named(tmp_path, db):
    other = make_deck(slug="other", title="Other")
    first, second = (make_card(deck=other, position=n) for n in (1, 2))
    cards = [_card(1, uid=str(first.uid)), _card(2), _card(3, uid=str(second.uid))]
    message = _command(tmp_path, _json(cards), "deck.json")
    assert f"  card #1, field uid: {first.uid} is a card of the deck 'other', not 'imported'\n" in message
    assert f"  card #3, field uid: {second.uid} is a card of the deck 'other', not 'imported'\n" in message
    assert not Deck.objects.filter(slug="imported").exists() and Card.objects.count() == 2


def test_a_new_deck_titled_as_another_is_refused_naming_it(tmp_path, db):
    """Two decks of one title could not be told apart by students; a deck imported again may change the letter case
    of its own."""
    make_deck(slug="serving", title="imported")
    message = _command(tmp_path, _json([_card(1)]), "deck.json")
    assert (
        "deck, field title: a deck is titled 'imported' already (its slug: serving): give this one another title"
        in message
    )
    assert not Deck.objects.filter(slug="imported").exists()
    Deck.objects.filter(slug="serving").update(slug="imported")
    call_command("import_deck", str(tmp_path / "deck.json"), stdout=StringIO())
    assert Deck.objects.get(slug="imported").title == "Imported" and Card.objects.count() == 1


# --- JSON files: cards counted from 1, at their line ------------------------------------------------


def _pretty(cards: list[dict], **deck) -> str:
    """A deck file as export_deck writes it: indented, one field a line, so each problem has a line of its own."""
    fields = {"slug": "imported", "title": "Imported", "description": "", "source": "", **deck}
    return to_json({"format": "mlcourse-deck", "version": 1, "deck": fields, "cards": cards})


def _line_of(text: str, string: str, *, after: str = "") -> int:
    """The line (from 1) of the first JSON string `string` (a key, an entry) after the first `after`."""
    return text[: text.index(f'"{string}"', text.index(after))].count("\n") + 1


def test_json_problems_count_cards_from_1_and_name_the_line_of_the_field(client, instructor):
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 5)]
    cards[1]["question"] = ""
    del cards[2]["kind"]  # a missing field: the line of its card
    cards[3].update(position=1, distractors=["Fine", BAD])
    text = _pretty(cards, slug="Not A Slug")
    _, problems, _ = _refusal(_upload(client, text, "deck.json"))
    card_lines = [_line_of(text, card["uid"]) - 1 for card in cards]  # each card's "{"
    assert problems == [
        f"line {_line_of(text, 'slug')}, deck, field slug: may contain only lowercase letters, digits, hyphens and "
        "underscores, beginning and ending with a letter or digit: “not-a-slug” would do",
        f"line {_line_of(text, 'question', after=cards[1]['uid'])}, card #2, field question: is required",
        f"line {card_lines[2]}, card #3, field kind: is missing: it must be flashcard or syllabus",
        f"line {_line_of(text, 'position', after=cards[3]['uid'])}, card #4, field position: 1 is used by another "
        f"card too (line {card_lines[0]}, card #1)",
    ]
    # The TeX is checked once the file has no other problem; a distractor is named by its entry, from 1, and line.
    cards[1]["question"], cards[2]["kind"], cards[3]["position"] = "Question 2?", "flashcard", 4
    text = _pretty(cards)
    _, problems, _ = _refusal(_upload(client, text, "deck.json"))
    entry_line = _line_of(text, BAD.replace("\\", "\\\\"), after=cards[3]["uid"])
    assert [problem.split(": KaTeX")[0] for problem in problems] == [
        f"line {entry_line}, card #4, field distractors, entry #2: {BAD}"
    ]
    assert _nothing_written()


def test_import_deck_names_the_line_of_a_json_problem(tmp_path, db):
    cards = [_card(1), _card(2, answer="")]
    text = _pretty(cards)
    message = _command(tmp_path, text, "deck.json")
    assert f"  line {_line_of(text, 'answer', after=cards[1]['uid'])}, card #2, field answer: is required\n" in message


def test_a_misspelt_field_is_named_with_the_one_meant_not_silently_dropped(tmp_path, db):
    """A card's "distractor" for "distractors" would have imported it with none, and the dry run said nothing."""
    cards = [_card(1), _card(2)]
    cards[1]["distractor"] = cards[1].pop("distractors")
    text = _pretty(cards, titel="Typo")
    message = _command(tmp_path, text, "deck.json")
    line = _line_of(text, "distractor", after=cards[1]["uid"])
    assert (
        f"  line {line}, card #2, field distractor: is not a field of this format; did you mean 'distractors'?\n"
        in (message)
    )
    assert "deck, field titel: is not a field of this format; did you mean 'title'?" in message
    message = _command(tmp_path, _json([{**_card(1), "": 1}]), "deck.json")
    assert 'card #1, field "": is not a field of this format' in message
    assert not Deck.objects.exists()


def test_lines_are_found_past_texts_that_look_like_json(tmp_path, db):
    """Brackets, braces, quotes and a "cards" key inside texts do not mislead the walk that finds the lines."""
    tricky = 'A "quoted" {brace}, [bracket] and "cards": [{"uid": 1}], \\ too'
    cards = [_card(1, question=tricky, explanation=tricky, aliases=[tricky]), _card(2, kind="essay")]
    text = _pretty(cards, description=tricky)
    message = _command(tmp_path, text, "deck.json")
    assert f"  line {_line_of(text, 'kind', after=cards[1]['uid'])}, card #2, field kind: must be" in message


def test_a_json_file_on_one_line_names_cards_without_a_line(tmp_path, db):
    """A minified file is all line 1: the card and field say where."""
    for ending in ("", "\n", "\r\n"):  # as saved by an editor that ends each file with a line break
        message = _command(tmp_path, _json([_card(1), _card(2, answer="")]) + ending, "deck.json")
        assert "\n  card #2, field answer: is required\n" in message
