"""The deck import's forms: the upload (a deck file, or a .zip of them) and the confirmation of a checked one."""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from django import forms
from django.core.exceptions import ValidationError

from .filekinds import ZIP, file_kind
from .problems import TransferError
from .transfer import decode

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_DECKS = 50  # the deck files of one .zip, each checked and imported within the one request
IMPORT_TAKES = (
    "the import takes a .json or .csv file as the deck list's export or export_deck writes it, or a .zip of them"
)


class ImportForm(forms.Form):
    file = forms.FileField(label="Export file (.json, .csv, or a .zip of them)")

    def clean_file(self) -> list[tuple[str, str]]:
        """The file's name and text; for a .zip (the export of several decks), each deck file's in it."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise ValidationError(f"The file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB.")
        content = upload.read()
        kind = file_kind(content, name=upload.name)
        if kind is ZIP:
            return _zip_members(upload.name, content)
        if kind is not None:
            raise ValidationError(f"{upload.name} is {kind.what}, not a deck file: {kind.advice or IMPORT_TAKES}.")
        try:
            return [(upload.name, decode(content, name=upload.name))]
        except TransferError as exc:
            raise ValidationError(f"{upload.name}, {exc}") from None


def _zip_members(name: str, content: bytes) -> list[tuple[str, str]]:
    try:
        bundle = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile:
        raise ValidationError(f"{name} is not a .zip archive that can be read.") from None
    # Folders and the files archivers add beside the decks (macOS's __MACOSX/, "._" and dot files) are not decks.
    members = [
        info
        for info in bundle.infolist()
        if not info.is_dir()
        and not info.filename.startswith("__MACOSX/")
        and not PurePosixPath(info.filename).name.startswith(".")
        and info.filename.lower().endswith((".json", ".csv"))
    ]
    if not members:
        raise ValidationError(f"{name} holds no .json or .csv deck file.")
    if len(members) > MAX_IMPORT_DECKS:
        raise ValidationError(f"{name} holds {len(members)} deck files; import at most {MAX_IMPORT_DECKS} at once.")
    # What each file says it unzips to, checked before anything is unzipped (and zipfile reads no more than that).
    if sum(info.file_size for info in members) > MAX_IMPORT_BYTES:
        raise ValidationError(f"{name} unzips to more than {MAX_IMPORT_BYTES // (1024 * 1024)} MB.")
    files = []
    for info in members:
        try:
            files.append((info.filename, decode(bundle.read(info), name=info.filename)))
        except TransferError as exc:
            raise ValidationError(f"{name}, {info.filename}, {exc}") from None
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError):  # corrupt, or compressed or encrypted oddly
            raise ValidationError(f"{name}: {info.filename} cannot be unzipped.") from None
    return files


class ImportConfirmForm(forms.Form):
    """Names the checked upload, which waits on the server: the file itself is not sent twice."""

    key = forms.RegexField(regex=r"\A[0-9a-f]{64}\Z", widget=forms.HiddenInput)
