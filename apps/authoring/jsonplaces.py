"""Where the parts of a deck's JSON file are: the line of the deck's fields, of each card, of each card's fields
and of each entry of its lists, so that a problem names the line an instructor opens the file at.

Python's json module keeps no positions; this walks the text again, with json's own scanners, once a problem is
to be named (a file that imports is not walked). It is only run on a text that json.loads has read, so the walk
meets no syntax error; with a key given twice it keeps the last, as json.loads does.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()


def _value_end(text: str, at: int) -> int:
    return _DECODER.raw_decode(text, at)[1]


def _members(text: str, at: int) -> Iterator[tuple[str, int, int]]:
    """(key, where the key is, where its value is) of the object at `at`."""
    at = _skip(text, at + 1)
    if text[at] == "}":
        return
    while True:
        key, end = json.decoder.scanstring(text, at + 1)
        value = _skip(text, _skip(text, end) + 1)  # past the colon
        yield key, at, value
        at = _skip(text, _value_end(text, value))
        if text[at] != ",":
            return
        at = _skip(text, at + 1)


def _items(text: str, at: int) -> Iterator[int]:
    """Where each item of the array at `at` is."""
    at = _skip(text, at + 1)
    if text[at] == "]":
        return
    while True:
        yield at
        at = _skip(text, _value_end(text, at))
        if text[at] != ",":
            return
        at = _skip(text, at + 1)


@dataclass
class _Object:
    at: int
    keys: dict[str, int] = field(default_factory=dict)
    entries: dict[str, list[int]] = field(default_factory=dict)  # of the members that are arrays


def _object(text: str, at: int) -> _Object:
    found = _Object(at)
    if text[at] != "{":
        return found
    for key, key_at, value in _members(text, at):
        found.keys[key] = key_at
        found.entries[key] = list(_items(text, value)) if text[value] == "[" else []
    return found


class JsonPlaces:
    """The lines of a deck file's parts (from 1), or None: for a file of one line (minified) a line says nothing."""

    def __init__(self, text: str) -> None:
        self._text = text

    @cached_property
    def _breaks(self) -> list[int]:
        """Where each line ends; none for a file of one line, whatever line break ends it."""
        if "\n" not in self._text.rstrip():
            return []
        return [match.start() for match in re.finditer("\n", self._text)]

    @cached_property
    def _parts(self) -> tuple[_Object | None, list[_Object]]:
        text = self._text
        deck, cards = None, []
        try:
            for key, _, value in _members(text, _skip(text, 0)):
                if key == "deck":
                    deck = _object(text, value)
                elif key == "cards":
                    cards = [_object(text, at) for at in _items(text, value)] if text[value] == "[" else []
        except (RecursionError, ValueError, IndexError):
            # Not met on a text json.loads read (nesting at the edge of the recursion limit, read from deeper in
            # the stack, aside): a problem is then named without its line rather than not at all.
            return None, []
        return deck, cards

    def _line(self, at: int) -> int | None:
        return bisect.bisect_right(self._breaks, at) + 1 if self._breaks else None

    def _of(self, part: _Object | None, name: str | None, entry: int | None) -> int | None:
        if part is None:
            return None
        at = part.keys.get(name, part.at) if name else part.at
        entries = part.entries.get(name, []) if name else []
        if entry is not None and entry < len(entries):
            at = entries[entry]
        return self._line(at)

    def deck(self, name: str | None = None, entry: int | None = None) -> int | None:
        """The line of the deck's field `name` (None: of the deck), of its list entry `entry` (from 0)."""
        return self._of(self._parts[0], name, entry)

    def card(self, index: int, name: str | None = None, entry: int | None = None) -> int | None:
        """The line of the field `name` of the card at `index` (from 0) (None: of the card), or of its entry."""
        cards = self._parts[1]
        return self._of(cards[index] if index < len(cards) else None, name, entry)
