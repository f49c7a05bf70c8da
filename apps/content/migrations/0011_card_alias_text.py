"""Card search reads a card's accepted answers (aliases) in the card's own search vectors, from a column the database
keeps: a query whose words are split between an alias and the card's text then finds it, and "-word" excludes it."""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import migrations, models

TRIGGERS = r"""
CREATE FUNCTION content_card_alias_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Whatever a save writes here (a copy read before an alias changed), the aliases decide.
    NEW.alias_text := coalesce(
        (SELECT string_agg(text, E'\n' ORDER BY id) FROM content_alias WHERE card_id = NEW.id), ''
    );
    RETURN NEW;
END $$;
CREATE TRIGGER content_card_alias_text BEFORE INSERT OR UPDATE ON content_card
    FOR EACH ROW EXECUTE FUNCTION content_card_alias_text();

-- Once per statement, so a bulk insert of a deck's aliases touches each card once.
CREATE FUNCTION content_alias_touch_cards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE content_card SET alias_text = '' WHERE id IN (SELECT card_id FROM new_rows);
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE content_card SET alias_text = '' WHERE id IN (SELECT card_id FROM old_rows);
    ELSE
        UPDATE content_card SET alias_text = ''
        WHERE id IN (SELECT card_id FROM new_rows UNION SELECT card_id FROM old_rows);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER content_alias_inserted AFTER INSERT ON content_alias REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION content_alias_touch_cards();
CREATE TRIGGER content_alias_updated AFTER UPDATE ON content_alias REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION content_alias_touch_cards();
CREATE TRIGGER content_alias_deleted AFTER DELETE ON content_alias REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION content_alias_touch_cards();

UPDATE content_card SET alias_text = '' WHERE id IN (SELECT card_id FROM content_alias);
"""

DROP_TRIGGERS = """
DROP TRIGGER content_alias_deleted ON content_alias;
DROP TRIGGER content_alias_updated ON content_alias;
DROP TRIGGER content_alias_inserted ON content_alias;
DROP FUNCTION content_alias_touch_cards();
DROP TRIGGER content_card_alias_text ON content_card;
DROP FUNCTION content_card_alias_text();
"""


def vector(config):
    return (
        SearchVector("question_text", weight="A", config=config)
        + SearchVector("short_answer", weight="B", config=config)
        + SearchVector("alias_text", weight="B", config=config)
        + SearchVector("answer_text", weight="C", config=config)
        + SearchVector("explanation_text", weight="D", config=config)
    )


class Migration(migrations.Migration):
    dependencies = [("content", "0010_search_explanations_aliases")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="alias_text",
            field=models.TextField(
                blank=True, default="", editable=False, help_text="The accepted answers, a line each (search)."
            ),
        ),
        migrations.RunSQL(TRIGGERS, DROP_TRIGGERS),
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
        migrations.RemoveIndex(model_name="alias", name="alias_search"),
        migrations.RemoveField(model_name="alias", name="search"),
    ]
