"""Card search also reads a card's explanation (as plain text, weighted last) and its accepted answers (aliases)."""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import migrations, models

from apps.content.plaintext import plain_text


def fill(apps, schema_editor):
    Card = apps.get_model("content", "Card")
    cards = list(Card.objects.exclude(explanation_html="").only("id", "explanation_html"))
    for card in cards:
        card.explanation_text = plain_text(card.explanation_html)
    Card.objects.bulk_update(cards, ["explanation_text"], batch_size=500)


def vector(config):
    return (
        SearchVector("question_text", weight="A", config=config)
        + SearchVector("short_answer", weight="B", config=config)
        + SearchVector("answer_text", weight="C", config=config)
        + SearchVector("explanation_text", weight="D", config=config)
    )


class Migration(migrations.Migration):
    dependencies = [("content", "0009_card_search")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="explanation_text",
            field=models.TextField(
                blank=True,
                editable=False,
                help_text="The rendered explanation as plain text, formulas read as text (search).",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        # PostgreSQL cannot change a generated column's expression: the columns are made again.
        migrations.RemoveIndex(model_name="card", name="card_search"),
        migrations.RemoveIndex(model_name="card", name="card_search_words"),
        migrations.RemoveField(model_name="card", name="search"),
        migrations.RemoveField(model_name="card", name="search_words"),
        migrations.AddField(
            model_name="card",
            name="search",
            field=models.GeneratedField(
                db_persist=True, expression=vector("english"), output_field=SearchVectorField()
            ),
        ),
        migrations.AddField(
            model_name="card",
            name="search_words",
            field=models.GeneratedField(db_persist=True, expression=vector("simple"), output_field=SearchVectorField()),
        ),
        migrations.AddIndex(model_name="card", index=GinIndex(fields=["search"], name="card_search")),
        migrations.AddIndex(model_name="card", index=GinIndex(fields=["search_words"], name="card_search_words")),
        migrations.AddField(
            model_name="alias",
            name="search",
            field=models.GeneratedField(
                db_persist=True,
                expression=SearchVector("text", config="english") + SearchVector("text", config="simple"),
                output_field=SearchVectorField(),
            ),
        ),
        migrations.AddIndex(model_name="alias", index=GinIndex(fields=["search"], name="alias_search")),
    ]
