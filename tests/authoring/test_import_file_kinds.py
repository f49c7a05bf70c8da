"""Files that are no deck file at all (the admin's .zip given to import_deck, a database backup, a workbook): each is
named for what it is, with what to import instead, not refused at a byte of its first line as if mis-encoded."""

from __future__ import annotations

import io
import re
import zipfile
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from apps.content.models import Card, Deck
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

# The first bytes of a `make backup` file (pg_dump's custom format), as far as its first byte that is not UTF-8.
PG_DUMP = b"PGDMP\x01\x0e\x00\x04\x08\x01\x01\x00\x00\x00\x00\x07\x00\x00\x00\xb8\x01\x00\x00"


def _several_decks_exported(client) -> bytes:
    """What the deck list's export of two decks downloads."""
    serving, other = make_deck(title="Serving", slug="serving"), make_deck(title="Other", slug="other")
    make_card(deck=serving, question="What is batching?", answer="Grouping requests")
    make_card(deck=other, question="Other question?", answer="Other answer")
    response = client.post(
        reverse("admin:content_deck_changelist"), {"action": "export_json", "_selected_action": [serving.pk, other.pk]}
    )
    assert response["Content-Type"] == "application/zip"
    return response.content


def _command_refusal(tmp_path, name: str, raw: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(CommandError) as refused:
        call_command("import_deck", str(path))
    return str(refused.value)


def _form_errors(page) -> list[str]:
    return [
        unescape(error) for error in re.findall(r'<ul class="errorlist"[^>]*><li>(.*?)</li>', page.content.decode())
    ]


def test_import_deck_given_the_admins_zip_says_to_unzip_it_or_import_it_in_the_admin(client, instructor, tmp_path):
    client.force_login(instructor)
    archive = _several_decks_exported(client)
    Card.objects.filter(question="What is batching?").update(answer="Edited since the export")

    message = _command_refusal(tmp_path, "decks-json.zip", archive)

    assert message == (
        f"{tmp_path / 'decks-json.zip'} is a .zip archive, as the admin's export of several decks is: import_deck "
        "reads one deck file, .json or .csv. Unzip it and import each file, or import the .zip as it is in the admin "
        "(the deck list's “Import a deck”). Nothing was written."
    )
    assert "UTF-8" not in message and "byte" not in message
    assert Card.objects.get(question="What is batching?").answer == "Edited since the export"
    # Unzipped, as the message says, each file imports.
    with zipfile.ZipFile(io.BytesIO(archive)) as bundle:
        (tmp_path / "serving.json").write_bytes(bundle.read("serving.json"))
    call_command("import_deck", str(tmp_path / "serving.json"), stdout=io.StringIO())
    assert Card.objects.get(question="What is batching?").answer == "Grouping requests"


@pytest.mark.parametrize(
    ("name", "raw", "said"),
    [
        ("mlcourse.dump", PG_DUMP, "is a PostgreSQL backup (pg_dump's format, which restore_db restores)"),
        ("deck.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", "is not a text file"),
        ("deck.json.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00", "is a compressed (gzip) file"),
    ],
)
def test_import_deck_names_a_file_that_is_no_deck_file_and_what_it_reads(tmp_path, name, raw, said):
    message = _command_refusal(tmp_path, name, raw)
    assert message == (
        f"{tmp_path / name} {said}, not a deck file: import_deck reads a .json or .csv file as export_deck or the "
        "admin's export writes it. Nothing was written."
    )


def test_a_backup_uploaded_to_the_admins_import_is_named_with_the_files_it_takes(client, instructor):
    client.force_login(instructor)
    upload = SimpleUploadedFile("mlcourse-2026-12-05.dump", PG_DUMP, content_type="application/octet-stream")

    page = client.post(reverse("admin:content_deck_import"), {"file": upload})

    assert page.status_code == 422
    assert _form_errors(page) == [
        "mlcourse-2026-12-05.dump is a PostgreSQL backup (pg_dump's format, which restore_db restores), not a deck "
        "file: the import takes a .json or .csv file as the deck list's export or export_deck writes it, or a .zip "
        "of them."
    ]
    assert 'type="file"' in page.content.decode()  # the upload form, to choose another file
    assert not Deck.objects.exists()


def test_a_workbook_uploaded_to_the_admins_import_is_told_to_be_saved_as_csv(client, instructor):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as workbook:  # what an .xlsx is: a zip of XML parts
        workbook.writestr("[Content_Types].xml", "<Types/>")
        workbook.writestr("xl/workbook.xml", "<workbook/>")
    client.force_login(instructor)
    upload = SimpleUploadedFile("serving.xlsx", buffer.getvalue(), content_type="application/vnd.ms-excel")

    page = client.post(reverse("admin:content_deck_import"), {"file": upload})

    assert page.status_code == 422
    assert _form_errors(page) == [
        "serving.xlsx is a spreadsheet workbook, not a deck file: save it as CSV UTF-8 (in Excel: File › Save As › "
        "CSV UTF-8 (Comma delimited)) and import that."
    ]
