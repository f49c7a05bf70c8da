"""Deck export and import as JSON or CSV: lossless, keyed on the deck slug and each card's uid.

Parsing is text in, validated dict out, and every error names where it is: `cards[3].question` in JSON,
`row 5, field question` in CSV. It reads no table; its one query asks PostgreSQL how it lowercases the aliases,
since the database, not Python, decides which of them clash (see db_lower).
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.utils.text import slugify

FORMAT = "mlcourse-deck"
FORMAT_VERSION = 1
DECK_FIELDS = ("slug", "title", "description", "source")
CARD_TEXT_FIELDS = ("question", "answer", "short_answer", "explanation")
CARD_LIST_FIELDS = ("aliases", "distractors", "key_terms")
CSV_COLUMNS = (
    "record", *DECK_FIELDS, "uid", "position", "kind", *CARD_TEXT_FIELDS, "archived", *CARD_LIST_FIELDS,
)  # fmt: skip
KINDS = ("flashcard", "syllabus")
LIMITS = {"slug": 200, "title": 200, "source": 255, "short_answer": 300, "aliases": 300, "key_terms": 200}
MAX_POSITION = 2**31 - 1  # Card.position is a PostgreSQL integer
# The check and the import each take 2-10 ms a card (more with maths to typeset): a larger deck would
# keep a request open past the usual 30-60 s proxy timeouts.
MAX_CARDS = 2_000


class TransferError(ValueError):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


def _too_many(count: int) -> str:
    return f"a deck file holds at most {MAX_CARDS:,} cards; this one has {count:,}"


# --- letter case as the database sees it ---------------------------------------------------


def db_lower(texts: Sequence[str]) -> list[str]:
    """Each text as PostgreSQL's lower() has it, in one query.

    The alias constraint (UniqueConstraint(Lower("text"), "card")) compares with PostgreSQL's lower(), which
    differs from str.lower(): 'İ'.lower() is 'i' + a combining dot in Python, plain 'i' in PostgreSQL. Alias.text
    has the database's default collation, and so do these texts. They must hold no NUL (checked before).
    """
    if not texts:
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT lower(t) FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i", [list(texts)])
        return [row[0] for row in cursor.fetchall()]


def case_clashes(groups: Sequence[Sequence[str]]) -> list[tuple[int, str, str]]:
    """For each group the database would refuse, (its index, the first text, the later one it clashes with).

    Two texts clash when PostgreSQL's lower() makes them equal. One query for all the groups.
    """
    lowered = iter(db_lower([text for group in groups for text in group]))
    clashes = []
    for index, group in enumerate(groups):
        seen: dict[str, str] = {}
        clash = None
        for text in group:
            key = next(lowered)
            if clash is None and key in seen:
                clash = (index, seen[key], text)
            seen.setdefault(key, text)
        if clash is not None:
            clashes.append(clash)
    return clashes


# --- writing -----------------------------------------------------------------------------


def to_json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# A spreadsheet runs a cell that starts like a formula. Such text cells get a leading apostrophe on
# export, and so does one that already starts with an apostrophe, so import can take exactly one off.
_GUARDED = ("=", "+", "-", "@", "\t", "\r", "'")


def _guard(text: str) -> str:
    return "'" + text if text.startswith(_GUARDED) else text


def _unguard(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def to_csv(data: dict) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerow({"record": "deck", **{name: _guard(value) for name, value in data["deck"].items()}})
    for card in data["cards"]:
        row = {"record": "card", "uid": card["uid"], "position": card["position"], "kind": card["kind"]}
        row.update({name: _guard(card[name]) for name in CARD_TEXT_FIELDS})
        row["archived"] = "true" if card["archived"] else "false"
        row.update({name: json.dumps(card[name], ensure_ascii=False) for name in CARD_LIST_FIELDS})
        writer.writerow(row)
    return out.getvalue()


# --- reading -----------------------------------------------------------------------------


# JSON's \ud800 escapes make a lone surrogate, which no UTF-8 text (nor the database) can hold.
_SURROGATE = "contains a lone surrogate (such as \\ud800), which is not a character the database can store"


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(value: Any, where: str, *, required: bool, limit: int | None = None) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise TransferError(where, "must be text")
    if required and not value.strip():
        raise TransferError(where, "is required")
    if limit and len(value) > limit:
        raise TransferError(where, f"is longer than {limit} characters")
    if "\x00" in value:
        raise TransferError(where, "contains a NUL character, which the database cannot store")
    if not _is_utf8(value):
        raise TransferError(where, _SURROGATE)
    return value


def _strings(value: Any, where: str, limit: int | None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise TransferError(where, "must be a list of non-empty texts")
    for item in value:
        if limit and len(item) > limit:
            raise TransferError(where, f"has an entry longer than {limit} characters")
        if "\x00" in item:
            raise TransferError(where, "has an entry with a NUL character, which the database cannot store")
        if not _is_utf8(item):
            raise TransferError(where, f"has an entry that {_SURROGATE}")
    return value


def _card(raw: Any, where: Any) -> dict:
    if not isinstance(raw, dict):
        raise TransferError(where(None), "must be an object")
    try:
        uid = str(uuid.UUID(str(raw.get("uid", ""))))
    except ValueError:
        raise TransferError(where("uid"), "must be a UUID") from None
    position = raw.get("position")
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if isinstance(position, str) and position.isdecimal():
        position = int(position)
    if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= MAX_POSITION:
        raise TransferError(where("position"), f"must be a whole number from 1 to {MAX_POSITION}")
    if raw.get("kind") not in KINDS:
        raise TransferError(where("kind"), "must be flashcard or syllabus")
    archived = raw.get("archived", False)
    if archived not in (True, False):
        raise TransferError(where("archived"), "must be true or false")
    card = {"uid": uid, "position": position, "kind": raw["kind"], "archived": archived}
    for name in CARD_TEXT_FIELDS:
        card[name] = _text(raw.get(name), where(name), required=name in {"question", "answer"}, limit=LIMITS.get(name))
    for name in CARD_LIST_FIELDS:
        # Accepted answers are unique per card regardless of case: _check asks the database, all cards at once.
        card[name] = _strings(raw.get(name, []), where(name), LIMITS.get(name))
    return card


def _check(deck: Any, cards: list[dict], deck_where: Any) -> dict:
    if not isinstance(deck, dict):
        raise TransferError(deck_where(None), "must be an object")
    clean_deck = {
        name: _text(deck.get(name), deck_where(name), required=name in {"slug", "title"}, limit=LIMITS.get(name))
        for name in DECK_FIELDS
    }
    if slugify(clean_deck["slug"]) != clean_deck["slug"]:
        raise TransferError(deck_where("slug"), "may contain only lowercase letters, digits and hyphens")
    seen_uids, seen_positions = set(), set()
    for card in cards:
        if card["uid"] in seen_uids:
            raise TransferError(card["_where"]("uid"), "appears twice in the file")
        if card["position"] in seen_positions:
            raise TransferError(card["_where"]("position"), f"{card['position']} is used by another card too")
        seen_uids.add(card["uid"])
        seen_positions.add(card["position"])
    # Accepted answers are unique per card regardless of case, as PostgreSQL's lower() has it (a constraint).
    clashes = case_clashes([card["aliases"] for card in cards])
    if clashes:
        index, first, second = clashes[0]
        raise TransferError(
            cards[index]["_where"]("aliases"),
            f"“{first}” and “{second}” are the same answer to the database (letter case does not count); keep one",
        )
    cards = [{k: v for k, v in card.items() if k != "_where"} for card in cards]
    return {"deck": clean_deck, "cards": cards}


def parse_json(text: str) -> dict:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TransferError(f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise TransferError("line 1", "not an export: the JSON is nested too deeply") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise TransferError("format", f"this is not an {FORMAT} export")
    if raw.get("version") != FORMAT_VERSION:
        raise TransferError("version", f"unsupported version {raw.get('version')!r}; expected {FORMAT_VERSION}")
    if not isinstance(raw.get("cards"), list):
        raise TransferError("cards", "must be a list")
    if len(raw["cards"]) > MAX_CARDS:
        raise TransferError("cards", _too_many(len(raw["cards"])))
    cards = []
    for index, item in enumerate(raw["cards"]):

        def where(field, index=index):
            return f"cards[{index}]" + (f".{field}" if field else "")

        cards.append({**_card(item, where), "_where": where})
    return _check(raw.get("deck"), cards, lambda field: "deck" + (f".{field}" if field else ""))


def parse_csv(text: str) -> dict:
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
    try:
        header = reader.fieldnames or []
    except csv.Error as exc:  # e.g. a header cell beyond csv.field_size_limit()
        raise TransferError("row 1", f"not valid CSV: {exc}") from None
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        hint = ""
        if len(header) == 1 and (separator := next((c for c in ";\t|" if c in header[0]), None)):
            # Spreadsheets in many locales save "CSV" with semicolons; the whole header is then one column.
            hint = f" (the columns seem to be separated by {separator!r}; save the file with commas)"
        raise TransferError("row 1", f"the header lacks the columns {', '.join(missing)}{hint}")
    try:
        # Read whole first, so a file with too many cards is refused before any of them is checked.
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise TransferError(f"row {reader.line_num}", f"not valid CSV: {exc}") from None
    card_lines = [line for line, row in rows if row["record"] == "card"]
    if len(card_lines) > MAX_CARDS:
        raise TransferError(f"row {card_lines[MAX_CARDS]}", _too_many(len(card_lines)))
    deck, cards = None, []
    for line, row in rows:

        def where(field, line=line):
            return f"row {line}" + (f", field {field}" if field else "")

        if row["record"] == "deck":
            if deck is not None:
                raise TransferError(where("record"), "a second deck row; a file holds one deck")
            deck, deck_where = {name: _unguard(row[name] or "") for name in DECK_FIELDS}, where
        elif row["record"] == "card":
            raw = {**row, "archived": {"true": True, "false": False}.get(row["archived"], row["archived"])}
            raw.update({name: _unguard(row[name] or "") for name in CARD_TEXT_FIELDS})
            for name in CARD_LIST_FIELDS:
                try:
                    raw[name] = json.loads(row[name] or "[]")
                except (json.JSONDecodeError, RecursionError):
                    raise TransferError(where(name), 'must be a JSON list such as ["a", "b"]') from None
            cards.append({**_card(raw, where), "_where": where})
        else:
            raise TransferError(where("record"), "must be deck or card")
    if deck is None:
        raise TransferError("row 2", "the file has no deck row")
    return _check(deck, cards, deck_where)


def parse(text: str, *, name: str) -> dict:
    """Reads an export, choosing the format by file name (or content, for a name without .json/.csv)."""
    lowered = name.lower()
    if lowered.endswith(".json") or (not lowered.endswith(".csv") and text.lstrip().startswith("{")):
        return parse_json(text)
    return parse_csv(text)
