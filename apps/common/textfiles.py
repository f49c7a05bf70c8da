"""Reading uploaded or named text files as UTF-8, with or without a byte-order mark, and saying where one is not.

Spreadsheets save "CSV" in the machine's legacy code page unless told otherwise (older Excel on Windows:
Windows-1252, where an en dash is the byte 0x96): such a file is refused at the line of its first byte that is
not UTF-8, with how to save it instead, not with Python's codec error.
"""

from __future__ import annotations

import re

_LINE_BREAK = re.compile(rb"\r\n?|\n")


def one_line_break(text: str) -> str:
    """Every line break as a line feed: a browser sends a textarea's as CR LF, and a file may hold either. Stored
    one way, a text that differs only in its line breaks reads as unchanged, and makes no new version."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class NotUTF8Error(ValueError):
    """The file is not UTF-8 text: `line` is where its first offending byte is (from 1), `message` what to do."""

    def __init__(self, *, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


def utf8_text(raw: bytes, *, name: str) -> str:
    """`raw` decoded as UTF-8 without its byte-order mark, if it has one; NotUTF8Error if it is not UTF-8.

    `name` (the file's) chooses the advice: a .csv is to be saved as "CSV UTF-8", as Excel calls it."""
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = len(_LINE_BREAK.findall(raw, 0, exc.start)) + 1
        byte = raw[exc.start]
        try:
            legacy = f" (“{bytes([byte]).decode('cp1252')}” in Windows-1252)" if byte >= 0x80 else ""
        except UnicodeDecodeError:
            legacy = ""
        if name.lower().endswith(".csv"):
            advice = "save it as CSV UTF-8 (in Excel: File › Save As › CSV UTF-8 (Comma delimited))"
        else:
            advice = "save it as UTF-8"
        message = f"the byte 0x{byte:02X}{legacy} is not UTF-8 text: the file is in another encoding; {advice}"
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16's byte-order mark, not a "ÿ" typed on line 1
            message = f"the file is UTF-16 text (as Excel's “Unicode Text” saves it), not UTF-8; {advice}"
        raise NotUTF8Error(line=line, message=message) from None
