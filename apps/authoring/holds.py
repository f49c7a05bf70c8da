"""An upload checked by a dry run waits server-side (ImportHold) for its author to confirm it, for an hour."""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from .models import ImportHold
from .services import ImportReport, deck_import
from .transfer import parse

# How long a checked upload waits for its confirmation.
IMPORT_HOLD_SECONDS = 60 * 60


@dataclass(frozen=True)
class CheckedImport:
    """A dry run's report, and the key under which its upload waits for the confirmation."""

    key: str
    name: str
    report: ImportReport


class ImportNotHeldError(Exception):
    """No checked upload waits under that key for that user."""

    message = (
        "This upload is no longer waiting to be imported: it was imported already, it was checked more than "
        f"{IMPORT_HOLD_SECONDS // 60} minutes ago, or the confirmation was altered. Upload the file again."
    )

    def __init__(self) -> None:
        super().__init__(self.message)


def import_key(*, name: str, text: str) -> str:
    """The sha256 of the file name and content: what the confirmation names."""
    return hashlib.sha256(name.encode() + b"\0" + text.encode()).hexdigest()


def _holds_expire(*, now) -> None:
    ImportHold.objects.filter(created_at__lt=now - timedelta(seconds=IMPORT_HOLD_SECONDS)).delete()


def deck_import_check(*, name: str, text: str, user: AbstractBaseUser, data: dict | None = None) -> CheckedImport:
    """Dry-runs the upload and keeps it server-side for an hour, so the confirmation need not send it again.

    A deck the admin's import creates is a draft, as a deck added in the admin is: its author reads it through
    before students see it.

    `data` is the text already parsed, when the caller has it. Raises TransferError (and keeps nothing) when the file
    would not import.
    """
    data = parse(text, name=name) if data is None else data
    report = deck_import(data=data, dry_run=True, source=name, publish_new=False)
    key = import_key(name=name, text=text)
    now = timezone.now()
    with transaction.atomic():
        _holds_expire(now=now)
        if not report.changes_anything:
            return CheckedImport(key=key, name=name, report=report)  # nothing to confirm, so nothing kept
        ImportHold.objects.update_or_create(
            user=user,
            key=key,
            defaults={
                "name": name,
                "content": zlib.compress(text.encode()),
                "created_at": now,
                "deck_state": report.deck_state,
            },
        )
    return CheckedImport(key=key, name=name, report=report)


def held_files(*, keys: list[str], user: AbstractBaseUser) -> list[tuple[str, str]]:
    """The name and text of each upload `user` checked under `keys`, to check them again. Raises ImportNotHeldError
    when one is no longer held."""
    _holds_expire(now=timezone.now())
    holds = {hold.key: hold for hold in ImportHold.objects.filter(user=user, key__in=keys)}
    if set(keys) - set(holds):
        raise ImportNotHeldError
    return [(holds[key].name, zlib.decompress(bytes(holds[key].content)).decode()) for key in keys]


def deck_import_confirm(*, key: str, author: AbstractBaseUser) -> tuple[str, ImportReport]:
    """Imports exactly the upload `author` checked under `key`, once, into the deck as its dry run found it. Returns
    its file name and the report.

    Raises ImportNotHeldError when no such upload waits (expired, already imported, or never checked),
    DeckChangedError when the deck changed since the dry run, TransferError when the file no longer imports (the
    database changed since the check); nothing is written then, and the upload still waits.
    """
    _holds_expire(now=timezone.now())
    with transaction.atomic():
        # Locked: a second confirmation (a double click) waits, then finds the hold gone.
        hold = ImportHold.objects.select_for_update().filter(user=author, key=key).first()
        if hold is None:
            raise ImportNotHeldError
        text = zlib.decompress(bytes(hold.content)).decode()
        report = deck_import(
            data=parse(text, name=hold.name),
            author=author,
            source=hold.name,
            publish_new=False,
            expected_state=hold.deck_state,
        )
        hold.delete()
    return hold.name, report
