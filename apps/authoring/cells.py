"""One field of a deck file, read or written: the checks every text, list, uid, position and choice goes
through (each error names the field's place), and the CSV cell forms spreadsheets read and write. Pure."""

from __future__ import annotations

import json
import re
import sys
import uuid
from collections.abc import Sequence
from typing import Any

from apps.common.textfiles import one_line_break

from .problems import TransferError

MAX_POSITION = 2**31 - 1  # Card.position is a PostgreSQL integer


# A spreadsheet runs a cell that starts like a formula, and turns one that reads as a number, date, time,
# percentage or boolean into that ("1/2" a date, "0.50" 0.5, "1e3" 1000), saving it back changed. Such text cells
# get a leading apostrophe on export (shown in the sheet, kept when it saves), and so does one that already starts
# with an apostrophe, so import can take exactly one off.
_GUARDED = ("=", "+", "-", "@", "\t", "\r", "'")
_VALUE_LIKE = re.compile(r"\A\s*[$€£]?[\d.,:/%eE -]*\d[\d.,:/%eE -]*\s*\Z|\A\s*(?:true|false)\s*\Z", re.IGNORECASE)


def guard(text: str) -> str:
    return "'" + text if text.startswith(_GUARDED) or _VALUE_LIKE.match(text) else text


def unguard(text: str) -> str:
    return text[1:] if text.startswith("'") else text


# A line break in a cell, as spreadsheets write one (Alt+Enter in Excel) and as a hand-written file may.
_CELL_LINE = re.compile(r"\r\n|\r|\n")
# A cell a spreadsheet would read as a number, date, time, percentage or boolean, and write back changed
# ("1/2" as a date, "0.50" as 0.5): each of these holds a digit, but for the booleans.
_COERCED = re.compile(r"\d|\A(?:true|false)\Z", re.IGNORECASE)


def list_cell(items: list[str]) -> str:
    """A list as a CSV cell: one item a line, as a multi-line cell in a spreadsheet, which reads and edits as a
    list there. The JSON list (["a", "b"]) when that would not read back the same: an item with a line break or
    with spaces around it, a first item starting with "[", or a single item a spreadsheet would take for a
    number, date or boolean (two or more lines are text to it)."""
    plain = all(item == item.strip() and not _CELL_LINE.search(item) for item in items) and not (
        items and items[0].startswith("[")
    )
    if plain and not (len(items) == 1 and _COERCED.search(items[0])):
        return guard("\n".join(items))
    return json.dumps(items, ensure_ascii=False)


# JSON's \ud800 escapes make a lone surrogate, which no UTF-8 text (nor the database) can hold.
_SURROGATE = "contains a lone surrogate (such as \\ud800), which is not a character the database can store"


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text_field(value: Any, where: str, *, required: bool, limit: int | None = None) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise TransferError(where, "must be text")
    value = one_line_break(value)
    if required and not value.strip():
        raise TransferError(where, "is required")
    if limit and len(value) > limit:
        raise TransferError(where, f"is {len(value):,} characters long; at most {limit:,}")
    if "\x00" in value:
        raise TransferError(where, "contains a NUL character, which the database cannot store")
    if not _is_utf8(value):
        raise TransferError(where, _SURROGATE)
    return value


_LIST_FORMS = 'write the list as ["a", "b"], or one item a line without brackets'
LONG_NUMBER = f"a number in it has more than {sys.get_int_max_str_digits():,} digits"


def csv_list(cell: str | None, where: str) -> Any:
    """A list cell's items: the JSON list when the cell starts with "[", else one item a line (blank lines and
    spaces around each item aside). An empty cell is an empty list. A key term's "|" separates synonyms of one
    term, so it splits nothing here."""
    cell = unguard(cell or "")
    if not cell.lstrip().startswith("["):
        return [item for line in _CELL_LINE.split(cell) if (item := line.strip())]
    try:
        return json.loads(cell)
    except json.JSONDecodeError as exc:
        problem = f"{exc.msg}, at character {exc.pos + 1}"
    except RecursionError:
        problem = "nested too deeply"
    except ValueError:  # json reads numbers as Python does, and refuses one past sys.get_int_max_str_digits()
        problem = LONG_NUMBER
    raise TransferError(where, f'starts with "[" but is not valid JSON ({problem}); {_LIST_FORMS}')


def string_list(value: Any, where: str, *, limit: int | None, csv_cell: bool) -> list[str]:
    if csv_cell:
        value = csv_list(value, where)
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise TransferError(where, "must be a list of non-empty texts")
    value = [one_line_break(item) for item in value]
    for item in value:
        if limit and len(item) > limit:
            raise TransferError(where, f"has an entry longer than {limit} characters")
        if "\x00" in item:
            raise TransferError(where, "has an entry with a NUL character, which the database cannot store")
        if not _is_utf8(item):
            raise TransferError(where, f"has an entry that {_SURROGATE}")
    return value


def uid_field(value: Any, where: str) -> str:
    if value is None or value == "":
        return ""  # a card written by hand: deck_import matches it by its question
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise TransferError(where, "must be a UUID") from None


def position_field(value: Any, where: str) -> int:
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if isinstance(value, str) and value.isdecimal():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_POSITION:
        raise TransferError(where, f"{missing(value)}must be a whole number from 1 to {MAX_POSITION}")
    return value


def missing(value: Any) -> str:
    # A hand-written file leaves fields out: "is missing" says what to do, "must be ..." alone reads as malformed.
    return "is missing: it " if value is None or value == "" else ""


def one_of(value: Any, where: str, *, choices: Sequence[Any], wording: str) -> Any:
    if value not in choices:
        raise TransferError(where, f"{missing(value)}must be {wording}")
    return value


# What spreadsheets write for a checkbox or a typed boolean (Excel: TRUE/FALSE, LibreOffice: 1/0 or TRUE/FALSE),
# and what people type, in any letter case.
CSV_BOOLEANS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
CSV_BOOLEAN_WORDING = "true or false (TRUE/FALSE, 1/0 and yes/no in any letter case are read too)"


def csv_boolean(cell: str | None) -> Any:
    """True or False for a spreadsheet's way of writing it; anything else as it is, for _one_of to refuse."""
    if cell is None:
        return None
    return CSV_BOOLEANS.get(cell.strip().casefold(), cell)
