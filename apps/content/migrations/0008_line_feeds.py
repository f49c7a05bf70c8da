"""Texts saved from the admin before its forms stored line feeds hold a textarea's CR LF: stored as line feeds now,
as every save stores them, so their exports and versions read the same as the rest. Markdown read both alike, so
no HTML changes."""

from django.db import migrations
from django.db.models import F, TextField, Value
from django.db.models.functions import Cast, Replace

# Every field holding a Markdown source; the rendered HTML is unchanged (Markdown normalises line breaks itself).
FIELDS = {
    "Card": ("question", "answer", "short_answer", "explanation"),
    "Distractor": ("text",),
    "Deck": ("description",),
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
    for model, fields in FIELDS.items():
        rows = apps.get_model("content", model).objects
        for name in fields:
            as_feeds = Replace(Replace(F(name), Value("\r\n"), Value("\n")), Value("\r"), Value("\n"))
            rows.filter(**{f"{name}__contains": "\r"}).update(**{name: as_feeds})
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
