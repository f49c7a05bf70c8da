"""Deck export and import as JSON or CSV: lossless, keyed on the deck slug and each card's uid (the deck's source,
the seed file it was loaded from, is written for the reader but not imported: services.deck_import).

Parsing is text in, validated dict out, and every error names where it is: `line 40, card #4, field question`
in JSON (cards counted from 1; the line when the file has more than one), `row 5, field question` in CSV. It
reports all of a file's problems at once (problems.py); only a file that is not an export at all (not JSON, no
header, too many cards) is refused with its one problem. It reads no table; its one query asks PostgreSQL how
it lowercases the aliases, since the database, not Python, decides which of them clash (casing.db_lower).
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from apps.common.textfiles import NotUTF8Error, utf8_text
from apps.content.answers import normal_text, right_answers
from apps.content.limits import MAX_MARKDOWN
from apps.content.slugs import slug_problem
from apps.quiz.authored import question_echoes

from .casing import case_clashes
from .cells import (
    CSV_BOOLEAN_WORDING,
    LONG_NUMBER,
    csv_boolean,
    guard,
    list_cell,
    one_of,
    position_field,
    string_list,
    text_field,
    uid_field,
    unguard,
)
from .clashes import questions_repeated
from .jsonplaces import JsonPlaces
from .problems import Found, TransferError, Where, echo_problem, place

FORMAT = "mlcourse-deck"
FORMAT_VERSION = 1
DECK_FIELDS = ("slug", "title", "description", "source")
CARD_TEXT_FIELDS = ("question", "answer", "short_answer", "explanation")
CARD_LIST_FIELDS = ("aliases", "distractors", "key_terms")
CSV_COLUMNS = (
    "record", *DECK_FIELDS, "uid", "position", "kind", *CARD_TEXT_FIELDS, "archived", *CARD_LIST_FIELDS,
)  # fmt: skip
# What a CSV written by hand must have; a column left out is empty in every row (archived: false), as a JSON field
# left out is.
CSV_REQUIRED = ("record", "slug", "title", "position", "kind", "question", "answer")
KINDS = ("flashcard", "syllabus")
LIMITS = {
    "slug": 200, "title": 200, "source": 255, "short_answer": 300, "aliases": 300, "key_terms": 200,
    **dict.fromkeys(("description", "question", "answer", "explanation", "distractors"), MAX_MARKDOWN),
}  # fmt: skip
# The check and the import each take 2-10 ms a card (more with maths to typeset): a larger deck would
# keep a request open past the usual 30-60 s proxy timeouts.
MAX_CARDS = 2_000


def _too_many(count: int) -> str:
    return f"a deck file holds at most {MAX_CARDS:,} cards; this one has {count:,}"


# --- writing -----------------------------------------------------------------------------


def to_json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def to_csv(data: dict) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerow({"record": "deck", **{name: guard(value) for name, value in data["deck"].items()}})
    for card in data["cards"]:
        row = {"record": "card", "uid": card["uid"], "position": card["position"], "kind": card["kind"]}
        row.update({name: guard(card[name]) for name in CARD_TEXT_FIELDS})
        row["archived"] = "true" if card["archived"] else "false"
        row.update({name: list_cell(card[name]) for name in CARD_LIST_FIELDS})
        writer.writerow(row)
    return out.getvalue()


# --- reading -----------------------------------------------------------------------------


def _card(raw: Any, *, where: Where, at: int, found: Found, from_csv: bool = False) -> dict | None:
    """The card with each field checked and every problem noted in `found`: a field with a problem is None.
    None for a card that is not an object. `from_csv`: the card is a CSV row (its lists are cells of text)."""
    if not isinstance(raw, dict):
        found.add(at, where(None), "must be an object")
        return None
    checks: dict[str, Callable[[], Any]] = {
        "uid": partial(uid_field, raw.get("uid", ""), where("uid")),
        "position": partial(position_field, raw.get("position"), where("position")),
        "kind": partial(one_of, raw.get("kind"), where("kind"), choices=KINDS, wording="flashcard or syllabus"),
        "archived": partial(
            one_of,
            raw.get("archived", False),
            where("archived"),
            choices=(True, False),
            wording=CSV_BOOLEAN_WORDING if from_csv else "true or false",
        ),
    }
    for name in CARD_TEXT_FIELDS:
        required = name in {"question", "answer"}
        checks[name] = partial(text_field, raw.get(name), where(name), required=required, limit=LIMITS.get(name))
    for name in CARD_LIST_FIELDS:
        # Accepted answers are unique per card regardless of case: _check asks the database, all cards at once.
        checks[name] = partial(string_list, raw.get(name, []), where(name), limit=LIMITS.get(name), csv_cell=from_csv)
    if not from_csv:  # a CSV's header is checked whole
        _unknown(raw, CARD_FIELDS, where=where, at=at, found=found)
    return {name: found.check(at, check) for name, check in checks.items()}


CARD_FIELDS = ("uid", "position", "kind", *CARD_TEXT_FIELDS, "archived", *CARD_LIST_FIELDS)


def _unknown(raw: dict, fields: tuple[str, ...], *, where: Where, at: int, found: Found) -> None:
    """A field the format does not have, named: a misspelt "distractor" would otherwise import nothing of it."""
    for name in raw:
        if name not in fields:
            close = difflib.get_close_matches(str(name), fields, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"a {'card' if at else 'deck'} has {', '.join(fields)}"
            found.add(at, where(str(name) or '""'), f"is not a field of this format; {hint}")  # "": named too


# A deck or a card as read: its place in the file (for the order of problems), where its fields are, its fields.
Read = tuple[int, Where, dict]


def _check(deck: Read | None, cards: list[Read], *, found: Found) -> dict:
    """The deck checked (None: its absence is noted already), then what only the cards together show (a uid,
    position or question twice, aliases the database counts as one) among the fields that passed their own checks.
    Raises TransferError with every problem in `found`, those of the single cards too."""
    clean_deck = {}
    if deck is not None:
        at, where, raw = deck
        for name in DECK_FIELDS:
            required = name in {"slug", "title"}
            text = partial(text_field, raw.get(name), where(name), required=required, limit=LIMITS.get(name))
            clean_deck[name] = found.check(at, text)
        slug = clean_deck["slug"]
        if slug is not None and (problem := slug_problem(slug)):
            found.add(at, where("slug"), problem)
    # The first card with each uid and position, named in the problem of any later one.
    first_uid: dict[str, str] = {}
    first_position: dict[int, str] = {}
    for at, where, card in cards:
        uid, position = card["uid"], card["position"]
        if uid and uid in first_uid:
            found.add(at, where("uid"), f"appears twice in the file (also {first_uid[uid]})")
        if position is not None and position in first_position:
            found.add(at, where("position"), f"{position} is used by another card too ({first_position[position]})")
        if uid:
            first_uid.setdefault(uid, where(None))
        if position is not None:
            first_position.setdefault(position, where(None))
    for at, problem in questions_repeated(cards):
        found.add(at, problem.where, problem.message)
    # Accepted answers are unique per card regardless of case, as PostgreSQL's lower() has it (a constraint), and
    # so are distractors, as the card form has them (multiple choice would drop all but one). One query for both.
    lists = [
        (at, where, name, card[name]) for name in ("aliases", "distractors") for at, where, card in cards
        if card[name] is not None
    ]  # fmt: skip
    for index, first, second in case_clashes([texts for *_, texts in lists]):
        at, where, name, _ = lists[index]
        what = "answer to the database" if name == "aliases" else "distractor"
        found.add(
            at, where(name), f"“{first}” and “{second}” are the same {what} (letter case does not count); keep one"
        )
    for at, where, card in cards:
        _right_distractors(card, at=at, where=where, found=found)
        for term in card["key_terms"] or ():
            echoes = question_echoes(term, card["question"] or "")
            if echoes:
                found.add(at, where("key_terms"), echo_problem(echoes))
    found.raise_any()
    # Where each part is, for the problems found later (a formula KaTeX refuses), named as these are. A file
    # without a deck does not get here (its problem is raised above).
    places = {"deck": deck[1], "cards": [where for _, where, _ in cards]}
    return {"deck": clean_deck, "cards": [card for _, _, card in cards], "places": places}


def _right_distractors(card: dict, *, at: int, where: Where, found: Found) -> None:
    """A distractor that is the card's answer or an accepted answer is refused, as the card form refuses it."""
    right = right_answers(
        answer=card["answer"] or "", short_answer=card["short_answer"] or "", aliases=card["aliases"] or ()
    )
    for text in card["distractors"] or ():
        if normal_text(text) in right:
            found.add(
                at, where("distractors"), f"“{text}” is a right answer of this card, so it cannot be a distractor"
            )


def parse_json(text: str) -> dict:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TransferError(f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise TransferError("line 1", "not an export: the JSON is nested too deeply") from None
    except ValueError:  # a number past sys.get_int_max_str_digits(), as Python reads numbers
        digits = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        line = text.count("\n", 0, digits.start()) + 1 if digits else 1
        raise TransferError(f"line {line}", f"not valid JSON: {LONG_NUMBER}") from None
    # Past these, the file is not one to check card by card: one problem says so.
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise TransferError("format", f"this is not an {FORMAT} export")
    if raw.get("version") != FORMAT_VERSION:
        raise TransferError("version", f"unsupported version {raw.get('version')!r}; expected {FORMAT_VERSION}")
    if not isinstance(raw.get("cards"), list):
        raise TransferError("cards", "must be a list")
    if len(raw["cards"]) > MAX_CARDS:
        raise TransferError("cards", _too_many(len(raw["cards"])))
    found = Found()
    places = JsonPlaces(text)  # walked only when a problem is named
    cards = []
    for index, item in enumerate(raw["cards"]):
        where = _json_where(places, index)
        card = _card(item, where=where, at=index + 1, found=found)
        if card is not None:
            cards.append((index + 1, where, card))
    # The deck comes before the cards in an export, so its problems are listed first.
    deck = raw.get("deck")
    if isinstance(deck, dict):
        _unknown(deck, DECK_FIELDS, where=_json_where(places, None), at=0, found=found)
        return _check((0, _json_where(places, None), deck), cards, found=found)
    found.add(0, "deck", "must be an object")
    return _check(None, cards, found=found)


def _json_where(places: JsonPlaces, index: int | None) -> Where:
    """Where a field of the deck (index None) or of the card at `index` is: "line 14, card #2, field question",
    cards counted from 1 (the file's first card, index 0, is card #1)."""

    def where(field: str | None, entry: int | None = None) -> str:
        if index is None:
            name, line = place("deck", field, entry), places.deck(field, entry)
        else:
            name, line = place(f"card #{index + 1}", field, entry), places.card(index, field, entry)
        return f"line {line}, {name}" if line else name

    return where


def _csv_where(line: int) -> Where:
    """Where a field of the row numbered `line` is (as a spreadsheet numbers it): "row 3, field answer"."""

    def where(field: str | None, entry: int | None = None) -> str:
        return place(f"row {line}", field, entry)

    return where


def parse_csv(text: str) -> dict:
    # strict: a quote left open is an error at its line, not a cell swallowing the rest of the file.
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff")), strict=True)
    try:
        header = next(reader, [])
    except csv.Error as exc:  # e.g. a header cell beyond csv.field_size_limit()
        raise TransferError("line 1", f"not valid CSV: {exc}") from None
    missing = [c for c in CSV_REQUIRED if c not in header]
    if missing:
        hint = ""
        if len(header) == 1 and (separator := next((c for c in ";\t|" if c in header[0]), None)):
            # Spreadsheets in many locales save "CSV" with semicolons; the whole header is then one column.
            hint = f" (the columns seem to be separated by {separator!r}; save the file with commas)"
        raise TransferError("row 1", f"the header lacks the columns {', '.join(missing)}{hint}")
    # With columns optional, a misspelt one ("distractor") would be left out without a word.
    unknown = [c for c in header if c.strip() and c not in CSV_COLUMNS]
    if unknown:
        raise TransferError(
            "row 1",
            f"the header has columns a deck file does not have: {', '.join(map(repr, unknown))}; "
            f"the columns are {', '.join(CSV_COLUMNS)}",
        )
    rows: list[tuple[int, dict]] = []
    number, start = 1, reader.line_num + 1
    try:
        # Read whole first, so a file with too many cards is refused before any of them is checked. Rows are
        # numbered as a spreadsheet shows them (the header is row 1, a blank line is a row too), whatever line
        # breaks their cells hold.
        for cells in reader:
            number, start = number + 1, reader.line_num + 1
            if cells:
                row = dict.fromkeys(CSV_COLUMNS)
                row.update((name, cells[i] if i < len(cells) else None) for i, name in enumerate(header))
                rows.append((number, row))
    except csv.Error as exc:
        # A bad character is on the last line read; a quote never closed read to the end, from where it opened.
        line = start if "end of data" in str(exc) else reader.line_num
        raise TransferError(f"line {line}", f"not valid CSV: {exc}") from None
    card_lines = [line for line, row in rows if row["record"] == "card"]
    if len(card_lines) > MAX_CARDS:
        raise TransferError(f"row {card_lines[MAX_CARDS]}", _too_many(len(card_lines)))
    found = Found()
    deck: Read | None = None
    cards: list[Read] = []
    for line, row in rows:
        where = _csv_where(line)
        if row["record"] == "deck":
            if deck is not None:
                found.add(line, where("record"), "a second deck row; a file holds one deck")
                continue
            deck = (line, where, {name: unguard(row[name] or "") for name in DECK_FIELDS})
        elif row["record"] == "card":
            raw = {**row, "archived": csv_boolean(row["archived"]) if "archived" in header else False}
            raw.update({name: unguard(row[name] or "") for name in CARD_TEXT_FIELDS})
            card = _card(raw, where=where, at=line, found=found, from_csv=True)
            if card is not None:
                cards.append((line, where, card))
        else:
            found.add(line, where("record"), "must be deck or card")
    if deck is None:
        found.add(0, "row 2", "the file has no deck row")
    return _check(deck, cards, found=found)


def decode(raw: bytes, *, name: str) -> str:
    """A file's bytes as text, with or without a byte-order mark. A file that is not UTF-8 (a spreadsheet's CSV in
    its legacy code page) raises TransferError at the line of its first such byte, saying how to save it."""
    try:
        return utf8_text(raw, name=name)
    except NotUTF8Error as exc:
        raise TransferError(f"line {exc.line}", exc.message) from None


def parse(text: str, *, name: str) -> dict:
    """Reads an export, choosing the format by file name (or content, for a name without .json/.csv).

    Raises TransferError with every problem of the file (up to MAX_PROBLEMS), not only the first.
    """
    lowered = name.lower()
    if lowered.endswith(".json") or (not lowered.endswith(".csv") and text.lstrip().startswith("{")):
        return parse_json(text)
    return parse_csv(text)
