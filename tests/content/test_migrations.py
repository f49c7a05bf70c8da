"""Content migrations run on a database that already holds content."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from apps.content import selectors

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


BEFORE_LINE_FEEDS = [("content", "0007_deck_published")]
LINE_FEEDS = [("content", "0008_line_feeds")]


@pytest.mark.django_db(transaction=True)
def test_texts_and_versions_saved_with_cr_lf_are_stored_with_line_feeds():
    """Saved from the admin before its forms stored line feeds: the texts, the deck's description, distractors and
    the versions' snapshots, so that exports and version diffs read them as every later save stores them."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_LINE_FEEDS)
    try:
        old = executor.loader.project_state(BEFORE_LINE_FEEDS).apps
        deck = old.get_model("content", "Deck").objects.create(title="D", slug="d", description="One\r\ntwo")
        card = old.get_model("content", "Card").objects.create(
            deck=deck, position=1, kind="syllabus", question="Q?", answer="A\r\n\r\nB\rC", explanation="Plain"
        )
        old.get_model("content", "Distractor").objects.create(card=card, text="X\r\nY")
        data = {"answer": "A\r\n\r\nB", "distractors": ["X\r\nY"], "question": "$\\right)$"}
        version = old.get_model("content", "CardVersion").objects.create(card=card, number=1, data=data)
        MigrationExecutor(connection).migrate(LINE_FEEDS)
        new = MigrationExecutor(connection).loader.project_state(LINE_FEEDS).apps
        card = new.get_model("content", "Card").objects.get(pk=card.pk)
        assert (card.answer, card.explanation) == ("A\n\nB\nC", "Plain")
        assert new.get_model("content", "Deck").objects.get(pk=deck.pk).description == "One\ntwo"
        assert new.get_model("content", "Distractor").objects.get(card=card).text == "X\nY"
        stored = new.get_model("content", "CardVersion").objects.get(pk=version.pk).data
        assert stored == {"answer": "A\n\nB", "distractors": ["X\nY"], "question": "$\\right)$"}  # TeX untouched
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_SEARCH = [("content", "0008_line_feeds")]
SEARCH = [("content", "0009_card_search")]


@pytest.mark.django_db(transaction=True)
def test_cards_saved_before_search_existed_are_found_by_their_answers_and_explanations_formulas_read_as_text():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_SEARCH)
    try:
        old = executor.loader.project_state(BEFORE_SEARCH).apps
        deck = old.get_model("content", "Deck").objects.create(title="D", slug="d")
        html = '<p>Dequantize with <span class="katex"><math><mi>r</mi><mo>=</mo><mi>s</mi></math></span> again</p>'
        card = old.get_model("content", "Card").objects.create(
            deck=deck, position=1, kind="syllabus", question="Q?", answer="Dequantize with $r=s$ again",
            question_html="<p>Q?</p>", question_text="Q?", answer_html=html,
            explanation="Unlike *rounding* once", explanation_html="<p>Unlike <em>rounding</em> once</p>",
        )  # fmt: skip
        MigrationExecutor(connection).migrate(SEARCH)
        new = MigrationExecutor(connection).loader.project_state(SEARCH).apps
        assert new.get_model("content", "Card").objects.get(pk=card.pk).answer_text == "Dequantize with r=s again"
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())  # the search reads the explanation from 0010 on
        assert [found.pk for found in selectors.card_search(query="dequantized")] == [card.pk]
        assert [found.pk for found in selectors.card_search(query="rounded")] == [card.pk]
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_ALIAS_TEXT = [("content", "0010_search_explanations_aliases")]


@pytest.mark.django_db(transaction=True)
def test_accepted_answers_written_before_they_joined_the_cards_search_find_their_cards_after():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_ALIAS_TEXT)
    try:
        old = executor.loader.project_state(BEFORE_ALIAS_TEXT).apps
        deck = old.get_model("content", "Deck").objects.create(title="D", slug="d")
        card = old.get_model("content", "Card").objects.create(
            deck=deck, position=1, kind="flashcard", question="Q?", answer="A", question_html="<p>Q?</p>",
            question_text="Q?", answer_html="<p>A</p>", answer_text="A",
        )  # fmt: skip
        old.get_model("content", "Alias").objects.create(card=card, text="Distributed data parallel")
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert [found.pk for found in selectors.card_search(query="distributed parallel")] == [card.pk]
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_TITLES = [("content", "0012_deck_slug_message")]
TITLES = [("content", "0013_deck_title_unique")]


@pytest.mark.django_db(transaction=True)
def test_decks_that_shared_a_title_are_renamed_apart_and_no_later_deck_can_share_one():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_TITLES)
    try:
        old = executor.loader.project_state(BEFORE_TITLES).apps.get_model("content", "Deck")
        # "İstatistik" and "istatistik" are one to PostgreSQL's LOWER, as the constraint compares, not to casefold().
        titles = ["Intro", "intro ", "INTRO", "Intro (2)", "Model  serving", "İstatistik", "istatistik"]
        decks = [old.objects.create(title=title, slug=f"d{n}") for n, title in enumerate(titles)]
        MigrationExecutor(connection).migrate(TITLES)
        new = MigrationExecutor(connection).loader.project_state(TITLES).apps.get_model("content", "Deck")
        renamed = [new.objects.get(pk=deck.pk).title for deck in decks]
        # The oldest keeps its title; a deck already titled "Intro (2)" keeps that one too.
        assert renamed == [
            "Intro",
            "intro (3)",
            "INTRO (4)",
            "Intro (2)",
            "Model serving",
            "İstatistik",
            "istatistik (2)",
        ]
        with pytest.raises(IntegrityError), transaction.atomic():
            new.objects.create(title="model SERVING", slug="late")
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_SLUGS = [("content", "0013_deck_title_unique")]
SLUGS = [("content", "0014_deck_slug_valid")]


@pytest.mark.django_db(transaction=True)
def test_slugs_the_import_would_refuse_take_the_slug_it_accepts_and_no_later_deck_can_have_one():
    """The admin took "QA_Upper_Slug" before slugs had to follow the import's rule: its export did not import."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_SLUGS)
    try:
        old = executor.loader.project_state(BEFORE_SLUGS).apps.get_model("content", "Deck")
        slugs = ["QA_Upper_Slug", "qa_upper_slug", "rl-basics", "Model Serving", "-x-", "---"]
        decks = [old.objects.create(title=f"Deck {n}", slug=slug) for n, slug in enumerate(slugs)]
        MigrationExecutor(connection).migrate(SLUGS)
        new = MigrationExecutor(connection).loader.project_state(SLUGS).apps.get_model("content", "Deck")
        fixed = [new.objects.get(pk=deck.pk).slug for deck in decks]
        # A deck whose slug passed keeps it; another takes its slugified form, after it one a deck has already.
        assert fixed == ["qa_upper_slug-2", "qa_upper_slug", "rl-basics", "model-serving", "x", "deck"]
        for slug in ("QA_Upper_Slug", "rl basics", "rl--basics", "rl-", "_rl"):
            with pytest.raises(IntegrityError, match="deck_slug_valid"), transaction.atomic():
                new.objects.create(title=f"Late {slug}", slug=slug)
    finally:
        MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
