import django.utils.text
from django.db import migrations, models

import apps.content.slugs


def slugs_fixed(apps, schema_editor):
    """Decks saved in the admin before slugs had to pass the import's rule ("QA_Upper_Slug") exported to files that
    did not import. Each takes the slug the import would accept ("qa_upper_slug"), "-2", "-3"… after it when another
    deck has that one, so that the constraint can hold; its pages move with it."""
    Deck = apps.get_model("content", "Deck")
    taken = set(Deck.objects.values_list("slug", flat=True))
    for pk, slug in Deck.objects.order_by("pk").values_list("pk", "slug"):
        fixed = django.utils.text.slugify(slug)[:200].strip("-_") or "deck"
        if fixed == slug:
            continue
        n, new = 1, fixed
        while new in taken:
            n += 1
            new = f"{fixed[: 199 - len(str(n))].strip('-_')}-{n}"
        taken.add(new)
        Deck.objects.filter(pk=pk).update(slug=new)


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0013_deck_title_unique"),
    ]

    operations = [
        migrations.RunPython(slugs_fixed, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="deck",
            name="slug",
            field=models.SlugField(
                error_messages={"unique": "A deck with this slug already exists: choose another."},
                max_length=200,
                unique=True,
                validators=[apps.content.slugs.validate_deck_slug],
            ),
        ),
        migrations.AddConstraint(
            model_name="deck",
            constraint=models.CheckConstraint(
                condition=models.Q(("slug__regex", "^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$"))
                & ~models.Q(slug__contains="--"),
                name="deck_slug_valid",
                violation_error_message="A slug may contain only lowercase letters, digits, hyphens and underscores, "
                "beginning and ending with a letter or digit.",
            ),
        ),
    ]
