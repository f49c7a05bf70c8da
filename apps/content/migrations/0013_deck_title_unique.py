from django.db import migrations, models
from django.db.models.functions import Lower


def titles_apart(apps, schema_editor):
    """Decks that shared a title (in any letter case or spacing) before titles had to differ: the oldest keeps it,
    each later one is renamed "<title> (2)", "(3)"… so that the constraint can hold and students tell them apart."""
    Deck = apps.get_model("content", "Deck")
    decks = [(deck.pk, deck.title, " ".join(deck.title.split())) for deck in Deck.objects.order_by("pk")]
    keeper = {}
    for pk, _stored, title in decks:
        keeper.setdefault(title.casefold(), pk)
    taken = set(keeper)
    for pk, stored, title in decks:
        new, n = title, 1
        while keeper[title.casefold()] != pk and new.casefold() in taken:
            n += 1
            new = f"{title[: 195 - len(str(n))]} ({n})"
        taken.add(new.casefold())
        if new != stored:
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
