"""Card search: the answer as plain text beside the question's, and search vectors PostgreSQL keeps from them (stemmed
English words, and the words as written for the beginnings of words), indexed."""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import migrations, models

from apps.content.plaintext import plain_text


def fill(apps, schema_editor):
    Card = apps.get_model("content", "Card")
    cards = list(Card.objects.only("id", "answer_html"))
    for card in cards:
        card.answer_text = plain_text(card.answer_html)
    Card.objects.bulk_update(cards, ["answer_text"], batch_size=500)


def vector(config):
    return (
        SearchVector("question_text", weight="A", config=config)
        + SearchVector("short_answer", weight="B", config=config)
        + SearchVector("answer_text", weight="C", config=config)
    )


class Migration(migrations.Migration):
    dependencies = [("content", "0008_line_feeds")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="answer_text",
            field=models.TextField(
                blank=True,
                editable=False,
                help_text="The rendered answer as plain text, formulas read as text (search).",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
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
    ]
