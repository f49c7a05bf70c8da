"""Content migrations run on a database that already holds content."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_LIMITS = [("content", "0004_card_question_text")]
LIMITS = [("content", "0005_markdown_length")]


@pytest.mark.django_db(transaction=True)
def test_the_length_limits_name_each_text_too_long_instead_of_failing_on_a_constraint():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_LIMITS)
    try:
        old = executor.loader.project_state(BEFORE_LIMITS).apps
        deck = old.get_model("content", "Deck").objects.create(title="D", slug="d")
        card = old.get_model("content", "Card").objects.create(
            deck=deck, position=1, kind="syllabus", question="Q?", answer="a" * 25_000, question_html="<p>Q?</p>"
        )
        executor = MigrationExecutor(connection)
        with pytest.raises(CommandError, match=rf"card {card.pk}, answer: 25,000 characters"):
            executor.migrate(LIMITS)
        old.get_model("content", "Card").objects.filter(pk=card.pk).update(answer="Short now.")
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
