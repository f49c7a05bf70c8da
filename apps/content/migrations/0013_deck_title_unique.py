from django.db import migrations, models
from django.db.models.functions import Lower


def titles_apart(apps, schema_editor):
    """Decks that shared a title (in any letter case or spacing) before titles had to differ: the oldest keeps it,
    each later one is renamed "<title> (2)", "(3)"… so that the constraint can hold and students tell them apart.
    Letter case is compared by the database's LOWER, as the constraint is (Python's casefold() differs on "İ")."""
    Deck = apps.get_model("content", "Deck")
    for pk, title in Deck.objects.values_list("pk", "title"):
        if " ".join(title.split()) != title:
            Deck.objects.filter(pk=pk).update(title=" ".join(title.split()))
    cursor = schema_editor.connection.cursor()

    def lower(text: str) -> str:
        cursor.execute("SELECT LOWER(%s)", [text])
        return cursor.fetchone()[0]

    decks = list(Deck.objects.annotate(low=Lower("title")).order_by("pk").values_list("pk", "title", "low"))
    keeper = {}
    for pk, _title, low in decks:
        keeper.setdefault(low, pk)
    taken = set(keeper)
    for pk, title, low in decks:
        if keeper[low] == pk:
            continue
        n, new = 1, title
        while lower(new) in taken:
            n += 1
            new = f"{title[: 195 - len(str(n))]} ({n})"
        taken.add(lower(new))
        Deck.objects.filter(pk=pk).update(title=new)


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0012_deck_slug_message"),
    ]

    operations = [
        migrations.RunPython(titles_apart, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="deck",
            constraint=models.UniqueConstraint(
                Lower("title"),
                name="deck_title_unique",
                violation_error_code="unique",
                violation_error_message="Another deck has this title: choose one students can tell apart.",
            ),
        ),
    ]
