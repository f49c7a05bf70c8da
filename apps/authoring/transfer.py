"""Deck export and import as JSON or CSV: lossless, keyed on the deck slug and each card's uid.

Parsing is pure (text in, validated dict out) and every error names where it is:
`cards[3].question` in JSON, `row 5, field question` in CSV.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import Any

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


class TransferError(ValueError):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


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
    return value


def _strings(value: Any, where: str, limit: int | None, *, unique: bool = False) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise TransferError(where, "must be a list of non-empty texts")
    for item in value:
        if limit and len(item) > limit:
            raise TransferError(where, f"has an entry longer than {limit} characters")
        if "\x00" in item:
            raise TransferError(where, "has an entry with a NUL character, which the database cannot store")
    if unique and len({item.lower() for item in value}) < len(value):
        raise TransferError(where, "lists the same text twice (letter case does not count)")
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
        # Accepted answers are unique per card regardless of case (a database constraint).
        card[name] = _strings(raw.get(name, []), where(name), LIMITS.get(name), unique=name == "aliases")
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
    for index, card in enumerate(cards):
        if card["uid"] in seen_uids:
            raise TransferError(card["_where"]("uid"), "appears twice in the file")
        if card["position"] in seen_positions:
            raise TransferError(card["_where"]("position"), f"{card['position']} is used by another card too")
        seen_uids.add(card["uid"])
        seen_positions.add(card["position"])
        cards[index] = {k: v for k, v in card.items() if k != "_where"}
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
        raise TransferError("row 1", f"the header lacks the columns {', '.join(missing)}")
    deck, cards = None, []
    try:
        for row in reader:
            line = reader.line_num

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
                    except json.JSONDecodeError:
                        raise TransferError(where(name), 'must be a JSON list such as ["a", "b"]') from None
                cards.append({**_card(raw, where), "_where": where})
            else:
                raise TransferError(where("record"), "must be deck or card")
    except csv.Error as exc:
        raise TransferError(f"row {reader.line_num}", f"not valid CSV: {exc}") from None
    if deck is None:
        raise TransferError("row 2", "the file has no deck row")
    return _check(deck, cards, deck_where)


def parse(text: str, *, name: str) -> dict:
    """Reads an export, choosing the format by file name (or content, for a name without .json/.csv)."""
    lowered = name.lower()
    if lowered.endswith(".json") or (not lowered.endswith(".csv") and text.lstrip().startswith("{")):
        return parse_json(text)
    return parse_csv(text)
