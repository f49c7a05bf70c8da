"""Files that are plainly no deck file, told by their first bytes. Read as text, each was refused at a byte of its
first line with advice to save it as UTF-8, which says nothing to someone who uploaded a backup or an archive."""

from __future__ import annotations

from dataclasses import dataclass

ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")
WORKBOOK_ENDINGS = (".xlsx", ".xlsm", ".xls", ".ods", ".numbers")
SAVE_AS_CSV = "save it as CSV UTF-8 (in Excel: File › Save As › CSV UTF-8 (Comma delimited)) and import that"


@dataclass(frozen=True)
class FileKind:
    what: str  # "a .zip archive", for "deck.zip is a .zip archive"
    advice: str = ""  # what to do instead, where that does not depend on who reads the file


ZIP = FileKind("a .zip archive")


def file_kind(raw: bytes, *, name: str) -> FileKind | None:
    """What the file is when it is no deck file (.json or .csv text) at all; None when it may be one."""
    if name.lower().endswith(WORKBOOK_ENDINGS):
        return FileKind("a spreadsheet workbook", advice=SAVE_AS_CSV)
    if raw.startswith(ZIP_SIGNATURES):
        return ZIP
    if raw.startswith(b"PGDMP"):
        return FileKind("a PostgreSQL backup (pg_dump's format, which restore_db restores)")
    if raw.startswith(b"\x1f\x8b"):
        return FileKind("a compressed (gzip) file")
    # Text holds no NUL byte, except UTF-16's, whose byte-order mark utf8_text names.
    if b"\x00" in raw[:8192] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return FileKind("not a text file")
    return None
