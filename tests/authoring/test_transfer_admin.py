"""The admin's deck export and import: the export action (CSV that opens in Excel, several decks as a zip of one
importable file each) and the import with its dry run, reporting errors and writing nothing.
"""

from __future__ import annotations

import codecs
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.content.models import Card
from tests.authoring.transfer_support import _export
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_admin_export_action_and_import_with_dry_run(client, instructor, deck):
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_deck_changelist"), {"action": "export_json", "_selected_action": [deck.pk]}
    )
    assert response["Content-Disposition"] == 'attachment; filename="serving.json"'
    text = response.content.decode()
    assert text == _export("serving", "json")

    changed = text.replace("A ratio", "A changed ratio")
    upload = SimpleUploadedFile("serving.json", changed.encode(), content_type="application/json")
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    html = page.content.decode()
    assert "Dry run of <bdi>serving.json</bdi>" in html and "0 created, 1 updated, 1 unchanged" in html
    assert Card.objects.get(short_answer="ratio").answer == "A ratio, `a/b`."
    confirm = page.context["confirm"]
    done = client.post(reverse("admin:content_deck_import"), {**confirm.initial, "confirm": "1"}, follow=True)
    assert "Imported serving.json" in done.content.decode()
    assert Card.objects.get(short_answer="ratio").answer == "A changed ratio, `a/b`."
    assert Card.objects.get(short_answer="ratio").current_version.author == instructor


def test_admin_csv_export_opens_in_excel_and_imports_back(client, instructor, deck):
    """A byte-order mark, or Excel reads UTF-8 in the legacy code page ("çelik" as "Ã§elik")."""
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_deck_changelist"), {"action": "export_csv", "_selected_action": [deck.pk]}
    )
    assert response.content.startswith(codecs.BOM_UTF8)
    assert response.content.decode() == _export("serving", "csv")  # the command writes the same bytes
    upload = SimpleUploadedFile("serving.csv", response.content, content_type="text/csv")
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    assert "Nothing to import: the deck already matches this file" in page.content.decode()


def test_admin_export_of_several_decks_is_a_zip_of_one_importable_file_each(client, instructor, deck):
    other = make_deck(title="Other", slug="other")
    make_card(deck=other, question="Other question?", answer="Other answer")
    client.force_login(instructor)
    for kind in ("json", "csv"):
        response = client.post(
            reverse("admin:content_deck_changelist"),
            {"action": f"export_{kind}", "_selected_action": [deck.pk, other.pk]},
        )
        assert response["Content-Type"] == "application/zip"
        assert response["Content-Disposition"] == f'attachment; filename="decks-{kind}.zip"'
        with zipfile.ZipFile(io.BytesIO(response.content)) as bundle:
            assert bundle.namelist() == [f"other.{kind}", f"serving.{kind}"]
            for slug in ("other", "serving"):
                assert bundle.read(f"{slug}.{kind}").decode() == _export(slug, kind)
        upload = SimpleUploadedFile(f"decks-{kind}.zip", response.content, content_type="application/zip")
        page = client.post(reverse("admin:content_deck_import"), {"file": upload})
        html = page.content.decode()
        # The zip imports as it is: each deck checked, both matching the decks they were exported from.
        assert page.status_code == 200 and f"Dry run of <bdi>decks-{kind}.zip</bdi>: 2 decks" in html
        assert html.count("Nothing to import: the deck already matches this file") == 2


def test_admin_import_reports_errors_and_writes_nothing(client, instructor, deck):
    client.force_login(instructor)
    upload = SimpleUploadedFile("bad.json", b'{"format": "mlcourse-deck", "version": 1, "deck": {}, "cards": 3}')
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    assert page.status_code == 422
    assert "cards: must be a list" in page.content.decode() and "Nothing was written" in page.content.decode()
