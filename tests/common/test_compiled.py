"""apps.common.compiled.CompiledQuery: a queryset's SQL compiled once, run with each call's arguments."""

from __future__ import annotations

import pytest
from django.db.models import Count, F, Model, Q

from apps.common.compiled import CompiledQuery, PlaceholderError
from apps.content.models import Card
from apps.content.services import card_save
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def fields_of(instance: Model) -> dict:
    return {name: value for name, value in vars(instance).items() if not name.startswith("_")}


def _cards(deck_id: int, position: int):
    cards = Card.objects.select_related("deck").annotate(n_aliases=Count("aliases"), twice=F("position") * 2)
    return cards.filter(deck_id=deck_id, position__gte=position).order_by("position")


@pytest.fixture
def decks():
    first, second = make_deck(title="First"), make_deck(title="Second", published=False)
    for n in range(3):
        card = make_card(deck=first, question=f"What is ${n}^2$?", answer=f"`{n * n}`")
        card_save(card=card, aliases=[f"alias {i}" for i in range(n)])
    make_card(deck=second, question="Alone?")
    return first, second


def test_rows_are_the_querysets_own_fields_related_objects_and_annotations(decks, django_assert_num_queries):
    first, second = decks
    compiled = CompiledQuery(_cards, deck_id=30001, position=30002)
    for deck, position in [(first, 1), (first, 2), (second, 1), (second, 5)]:
        expected = list(_cards(deck.pk, position))
        with django_assert_num_queries(1):
            got = compiled(deck_id=deck.pk, position=position)
        assert [fields_of(card) for card in got] == [fields_of(card) for card in expected]
        # The deck came with the row (select_related), converted as the ORM converts it: no query for it.
        with django_assert_num_queries(0):
            assert [fields_of(card.deck) for card in got] == [fields_of(card.deck) for card in expected]
        assert all(not card._state.adding for card in got)
    assert [card.n_aliases for card in compiled(deck_id=first.pk, position=1)] == [0, 1, 2]
    assert compiled.first(deck_id=second.pk, position=5) is None


def test_an_instance_saves_as_one_the_orm_loaded():
    card = make_card(question="Before?")
    compiled = CompiledQuery(lambda pk: Card.objects.filter(pk=pk), pk=30001)
    loaded = compiled.first(pk=card.pk)
    loaded.question = "After?"
    loaded.save(update_fields=["question"])
    card.refresh_from_db()
    assert card.question == "After?"


@pytest.mark.parametrize("value", ["1", None, 1.0, True])
def test_an_argument_of_another_type_is_refused(value):
    compiled = CompiledQuery(lambda pk: Card.objects.filter(pk=pk), pk=30001)
    with pytest.raises(PlaceholderError, match="pk="):
        compiled(pk=value)


def test_a_missing_or_unknown_argument_is_refused():
    compiled = CompiledQuery(lambda pk: Card.objects.filter(pk=pk), pk=30001)
    with pytest.raises(PlaceholderError, match="arguments"):
        compiled(id=1)


@pytest.mark.parametrize(
    ("build", "placeholder", "message"),
    [
        # A LIKE pattern: the parameter is "30001%", not the argument.
        (lambda text: Card.objects.filter(question__startswith=text), "30001", "not among the query's parameters"),
        # A constant equal to the placeholder would be replaced too.
        (lambda pk: Card.objects.filter(Q(pk=pk) | Q(position=30001)), 30001, "equals a placeholder"),
        # The SQL itself depends on the value.
        (lambda pk: Card.objects.filter(pk=pk) if pk > 30000 else Card.objects.filter(position=pk), 30001, "changes"),
    ],
)
def test_a_query_whose_sql_is_not_its_placeholders_is_refused(build, placeholder, message):
    name = build.__code__.co_varnames[0]
    compiled = CompiledQuery(build, **{name: placeholder})
    with pytest.raises(PlaceholderError, match=message):
        compiled(**{name: placeholder})


def test_placeholders_must_be_distinct_ints_or_strings():
    with pytest.raises(PlaceholderError, match="same value"):
        CompiledQuery(lambda a, b: Card.objects.filter(pk=a, deck_id=b), a=30001, b=30001)
    with pytest.raises(PlaceholderError, match="neither"):
        CompiledQuery(lambda a: Card.objects.filter(pk=a), a=None)


def test_prefetching_and_values_do_not_compile():
    with pytest.raises(PlaceholderError, match="plain queryset"):
        CompiledQuery(lambda pk: Card.objects.prefetch_related("aliases").filter(pk=pk), pk=30001)(pk=1)
    with pytest.raises(PlaceholderError, match="plain queryset"):
        CompiledQuery(lambda pk: Card.objects.filter(pk=pk).values("pk"), pk=30001)(pk=1)


def test_a_placeholder_out_of_its_fields_range_is_named():
    with pytest.raises(PlaceholderError, match="out of its field's range"):
        CompiledQuery(lambda position: Card.objects.filter(position=position), position=-1)(position=1)


def test_an_argument_beyond_its_columns_range_finds_nothing(decks):
    # The ORM writes no SQL for such a value; the compiled SQL must not fail on it either (an address's number).
    compiled = CompiledQuery(_cards, deck_id=30001, position=30002)
    assert compiled(deck_id=2**70, position=1) == []
    assert compiled(deck_id=decks[0].pk, position=2**40) == []
