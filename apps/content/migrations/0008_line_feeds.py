"""Texts saved from the admin before its forms stored line feeds hold a textarea's CR LF: stored as line feeds now,
as every save stores them, so their exports and versions read the same as the rest. Markdown read both alike, so
no HTML changes."""

from django.db import migrations
from django.db.models import TextField
from django.db.models.functions import Cast

# Every column holding a Markdown source; the rendered HTML is unchanged (Markdown normalises line breaks itself).
COLUMNS = {
    "content_card": ("question", "answer", "short_answer", "explanation"),
    "content_distractor": ("text",),
    "content_deck": ("description",),
}


def _lines(value):
    if isinstance(value, str):
        return value.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(value, list):
        return [_lines(item) for item in value]
    if isinstance(value, dict):
        return {key: _lines(item) for key, item in value.items()}
    return value


def line_feeds(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for table, columns in COLUMNS.items():
            for column in columns:
                cursor.execute(
                    f"UPDATE {table} SET {column} = regexp_replace({column}, E'\\r\\n?', E'\\n', 'g') "  # noqa: S608
                    f"WHERE strpos({column}, E'\\r') > 0"
                )
    CardVersion = apps.get_model("content", "CardVersion")
    # JSON writes a carriage return as \r: only versions whose text holds that are read (TeX's \right too, unchanged).
    held = CardVersion.objects.annotate(text=Cast("data", TextField())).filter(text__contains="\\r")
    for version in held.iterator():
        data = _lines(version.data)
        if data != version.data:
            CardVersion.objects.filter(pk=version.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [("content", "0007_deck_published")]

    operations = [migrations.RunPython(line_feeds, migrations.RunPython.noop)]
