from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from django.contrib.postgres.aggregates import StringAgg
from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Concat, Lower, Replace
from django.shortcuts import get_object_or_404

from .answers import normal_text
from .models import SEARCH_CONFIG, Card, CardVersion, Deck, StyleRule
from .rendering import style_compact, style_parts

# Around a match in a search result's excerpt: control characters no card's plain text holds, so that the excerpt
# can be escaped whole and only these become <mark> (see the `excerpt_marks` filter).
MATCH_START, MATCH_END = "\x02", "\x03"
# Only searches read them: pages showing many cards leave them in the database.
SEARCH_FIELDS = ("search", "search_words")
# PostgreSQL's headline drops whatever looks like an HTML tag, "<script>" in a code span too: it is given "<" as this.
LESS_THAN = "\x01"
_WORD = re.compile(r"[^\W_]+")
# What makes a query more than words: a phrase in quotes, "or", a word excluded with "-".
_OPERATORS = re.compile(r'"|(?:^|\s)-\w|\bor\b', re.IGNORECASE)


def deck_list(*, drafts: bool = False) -> QuerySet[Deck]:
    """The decks students see; `drafts` adds the unpublished ones (for those who author decks)."""
    decks = Deck.objects.all() if drafts else Deck.objects.filter(published=True)
    return decks.annotate(
        card_count=Count("cards", filter=Q(cards__archived=False)),
        flashcard_count=Count("cards", filter=Q(cards__kind=Card.Kind.FLASHCARD, cards__archived=False)),
    ).order_by("title")


def deck_titled(*, title: str, other_than: int | None = None) -> Deck | None:
    """The deck holding `title` in any letter case, other than the one of id `other_than`: students choose a deck
    by its title, and two decks of one title cannot be told apart in the list, a history or an assignment."""
    # LOWER in the database, as the deck_title_unique constraint compares: Python's casefold() and iexact's UPPER
    # disagree with it on some letters ("İ").
    normal = Lower(Value(" ".join(title.split())))
    return Deck.objects.exclude(pk=other_than).alias(low=Lower("title")).filter(low=normal).first()


def card_versions_since(*, card: Card, version_id: int) -> list[CardVersion]:
    """The card's versions saved after its version of id `version_id` (every one, for 0 or another card's), oldest
    first, with their authors."""
    number = CardVersion.objects.filter(pk=version_id, card=card).values_list("number", flat=True).first() or 0
    return list(CardVersion.objects.filter(card=card, number__gt=number).select_related("author").order_by("number"))


def cards_asking(*, deck: Deck, questions: Iterable[str], other_than: Iterable[int] = ()) -> list[Card]:
    """The cards of `deck`, archived ones too, that ask any of `questions`, but for those of id in `other_than`; in
    deck order. A deck asks each question once: the card form, a revert, an import and the seed loader all refuse
    a second card asking one of these (students would meet it twice, and an import could not tell which card a row
    without a uid updates)."""
    wanted = {normal_text(question) for question in questions}
    if deck.pk is None or not wanted:
        return []
    # Compared in Python, as normal_text has it (NFKC, casefold, spacing): the database's LOWER differs on some
    # letters ("ß"). A deck holds at most a few thousand questions, read once.
    cards = deck.cards.exclude(pk__in=list(other_than)).only("pk", "deck", "position", "question", "archived")
    return [card for card in cards.order_by("position") if normal_text(card.question) in wanted]


def deck_get(*, slug: str, drafts: bool = False) -> Deck:
    return get_object_or_404(deck_list(drafts=drafts), slug=slug)


def sees_drafts(user) -> bool:
    """Whoever may change decks (in the admin, so staff) sees the unpublished ones too. A student is not staff:
    their pages ask no permission query."""
    return user.is_staff and user.has_perm("content.change_deck")


def deck_cards(*, deck: Deck) -> QuerySet[Card]:
    return deck.cards.filter(archived=False).defer(*SEARCH_FIELDS).order_by("position")


def card_get(*, slug: str, pk: int, drafts: bool = False) -> Card:
    """The card with its deck and the ids of its neighbours, in one query.

    The neighbours are the nearest cards that are not archived, so browsing a deck never lands on one. An
    archived card itself is still found by its URL: answers in students' quiz history link to it (its page
    says it is archived).
    """
    siblings = Card.objects.filter(deck=OuterRef("deck"), archived=False)
    previous_id = siblings.filter(position__lt=OuterRef("position")).order_by("-position").values("pk")[:1]
    next_id = siblings.filter(position__gt=OuterRef("position")).order_by("position").values("pk")[:1]
    cards = Card.objects if drafts else Card.objects.filter(deck__published=True)
    return get_object_or_404(
        cards.select_related("deck").annotate(previous_id=Subquery(previous_id), next_id=Subquery(next_id)),
        deck__slug=slug,
        pk=pk,
    )


def card_search(
    *, query: str, drafts: bool = False, any_word: bool = False, deck: Deck | None = None
) -> QuerySet[Card]:
    """The cards matching `query` (in `deck`, or every deck), best first: in the question, before the short answer
    or an accepted answer, before the answer, before the explanation.

    The query reads as a search box does (quotes for a phrase, "or", "-word"), words stemmed ("quantized" finds
    quantization). Without quotes, "or" or "-", each word also finds the words it begins ("quant", "checkpointin"),
    as a student types half a term. With `any_word`, a card needs only one of the words (or their beginnings).
    """
    words = _WORD.findall(query)
    if any_word:
        beginnings = _beginnings(words, " | ", "simple")
        found, rank = Q(search_words=beginnings), SearchRank(F("search_words"), beginnings)
    else:
        stems = SearchQuery(query, search_type="websearch", config=SEARCH_CONFIG)
        found, rank = Q(search=stems), SearchRank(F("search"), stems)
        if words and not _OPERATORS.search(query):
            beginnings = _beginnings(words, " & ", "simple")
            found |= Q(search_words=beginnings)
            rank += SearchRank(F("search_words"), beginnings)
    # Marks the answer's words that a typed word, or its stem, begins: whichever way the card was found.
    marked = _beginnings(words, " | ", "simple") | _beginnings(words, " | ", SEARCH_CONFIG)
    cards = Card.objects.filter(archived=False) if drafts else Card.objects.filter(archived=False, deck__published=True)
    if deck is not None:
        cards = cards.filter(deck=deck)
    return (
        cards.filter(found)
        .select_related("deck")
        .only("pk", "position", "kind", "question_html", "deck__slug", "deck__title", "deck__published")
        .annotate(
            rank=rank,
            excerpt=_excerpt(Concat("answer_text", Value(" "), "explanation_text", output_field=TextField()), marked),
            # A card found by an accepted answer alone says which, beside the answer's excerpt.
            alias_excerpt=_excerpt(Replace("alias_text", Value("\n"), Value(" · ")), marked),
        )
        .order_by("-rank", "deck__title", "position")
    )


def _excerpt(text, marked: SearchQuery) -> SearchHeadline:
    return SearchHeadline(
        Replace(text, Value("<"), Value(LESS_THAN)),
        marked,
        config="simple",
        start_sel=MATCH_START,
        stop_sel=MATCH_END,
        max_words=28,
        min_words=12,
        max_fragments=2,
        fragment_delimiter=" … ",
    )


def _beginnings(words: list[str], operator: str, config: str) -> SearchQuery:
    """Each word as a prefix, in tsquery syntax: safe, since a word is letters and digits only. A word of one or two
    letters is matched whole: as a prefix, "a" would find every word beginning with it."""
    terms = (f"{word}:*" if len(word) > 2 else word for word in words)
    return SearchQuery(operator.join(terms), search_type="raw", config=config)


def search_can_widen(*, query: str) -> bool:
    """Whether a query that found nothing may be tried again with any of its words: plain words, several of them
    (a phrase or an excluded word says what the student wants)."""
    return len(_WORD.findall(query)) > 1 and not _OPERATORS.search(query)


_RULES_CHECK = "plain-katex-properties"


def style_rules_version() -> str:
    """Names the current set of rules, from their names alone (each is a hash of its declarations).

    Not a count or a highest id: a database restored from a backup reuses ids, and a version that once
    named other rules would be served from a year-long browser cache.
    """
    names = StyleRule.objects.aggregate(names=StringAgg("name", delimiter=",", order_by="name"))["names"] or ""
    # Prefixed with the check style_rules_css applies: a stricter one serves other rules under the same names, and
    # browsers keep a versioned stylesheet for a year.
    return hashlib.sha256(f"{_RULES_CHECK}:{names}".encode()).hexdigest()[:16]


def style_rules_css() -> str:
    """Every stored rule that passes the renderer's check today: one stored before it was strict is left out."""
    rules = StyleRule.objects.order_by("pk").values_list("name", "declarations")
    return "\n".join(f".{name}{{{css}}}" for name, css in rules if style_parts(style_compact(css)))
