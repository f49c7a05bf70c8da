"""Searching the cards: what matches, in what order, who sees what, and the page with and without htmx."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse

from apps.content import selectors
from apps.content.models import Alias, Card
from apps.content.services import card_save
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
SEARCH = reverse("content:search")


@pytest.fixture
def serving():
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is quantization?", answer="Storing weights in fewer bits, such as INT8.")
    make_card(deck=deck, question="Why batch requests?", answer="Batching raises GPU utilization; quantization aside.")
    make_card(deck=deck, question="What is a CronJob?", answer="A Kubernetes object that runs Jobs on a schedule.")
    return deck


def _titles(response) -> list[str]:
    return [card.question_html for card in response.context["page"]]


def test_a_half_word_finds_the_whole_and_the_question_ranks_before_the_answer(client, serving):
    response = client.get(SEARCH, {"q": "quant"})
    assert response.status_code == 200
    assert _titles(response) == ["<p>What is quantization?</p>", "<p>Why batch requests?</p>"]
    assert "2 cards match “quant”." in response.content.decode()


def test_stemming_a_phrase_and_a_left_out_word(client, serving):
    assert _titles(client.get(SEARCH, {"q": "quantized"})) == [
        "<p>What is quantization?</p>",
        "<p>Why batch requests?</p>",
    ]
    assert _titles(client.get(SEARCH, {"q": '"fewer bits"'})) == ["<p>What is quantization?</p>"]
    html = client.get(SEARCH, {"q": '"bits fewer"'}).content.decode()
    assert "No card matches" in html and "holds some" not in html
    assert _titles(client.get(SEARCH, {"q": "quantization -batching"})) == ["<p>What is quantization?</p>"]


def test_when_no_card_holds_every_word_the_cards_with_some_are_offered_as_such(client, serving):
    html = client.get(SEARCH, {"q": "kubernetes tensorflow"}).content.decode()
    assert "No card holds all of “kubernetes tensorflow”; 1 card holds some of it." in html
    assert "What is a CronJob?" in html
    html = client.get(SEARCH, {"q": "kubernetes tensorflow", "deck": serving.slug}).content.decode()
    assert "No card in Serving holds all of “kubernetes tensorflow”; 1 card holds some of it." in html
    html = client.get(SEARCH, {"q": "tensorflow"}).content.decode()
    assert "No card matches “tensorflow”." in html and "<ol" not in html


def test_the_matching_words_of_the_answer_are_marked_and_the_rest_escaped(client):
    make_card(question="Which tag?", answer="Write `<script>alert(1)</script>` in a template to inject a script.")
    html = client.get(SEARCH, {"q": "script"}).content.decode()
    assert "<script>alert" not in html
    assert (
        "Write &lt;<mark>script</mark>&gt;alert(1)&lt;/script&gt; in a template to inject a <mark>script</mark>" in html
    )


def test_the_excerpt_is_offered_only_when_the_answer_matches(client, serving):
    html = client.get(SEARCH, {"q": "cronjob"}).content.decode()
    assert "What is a CronJob?" in html and "Where the answer matches" not in html
    assert "Where the answer matches" in client.get(SEARCH, {"q": "schedule"}).content.decode()


def test_students_never_find_drafts_or_archived_cards_and_authors_find_drafts(client, student):
    draft = make_deck(title="Draft deck", published=False)
    make_card(deck=draft, question="What is a tensor?", answer="An array")
    make_card(question="Old tensor question?", answer="Gone", archived=True)
    client.force_login(student)
    assert _titles(client.get(SEARCH, {"q": "tensor"})) == []
    client.force_login(make_instructor("dana"))
    html = client.get(SEARCH, {"q": "tensor"}).content.decode()
    assert "What is a tensor?" in html and "Draft" in html and "Old tensor" not in html


def test_an_edited_card_is_found_by_its_new_words_at_once(client, serving):
    card = serving.cards.get(question="What is a CronJob?")
    card.answer = card.short_answer = "A scheduled batch workload in a cluster."
    card_save(card=card)
    assert _titles(client.get(SEARCH, {"q": "scheduled workload"})) == ["<p>What is a CronJob?</p>"]
    assert _titles(client.get(SEARCH, {"q": "kubernetes"})) == []


def test_a_long_query_is_refused_with_a_message_and_punctuation_alone_finds_nothing(client, serving):
    response = client.get(SEARCH, {"q": "x" * 201})
    html = response.content.decode()
    assert response.status_code == 200 and response.context["page"] is None
    assert "A search holds at most 200 characters; this one has 201." in html and 'aria-invalid="true"' in html
    assert html.count("A search holds at most 200") == 1 and 'aria-describedby="search-help id_q_error"' in html
    # As the results follow the typing, the message comes with them: typing past the limit no longer just empties
    # the results without a word.
    live = client.get(SEARCH, {"q": "x" * 201}, headers={"HX-Request": "true"}).content.decode()
    assert (
        '<span class="field-error" id="id_q_error">A search holds at most 200 characters; this one has 201.</span>'
        in live
    )
    assert 'id="search-count" role="status"' in live
    for query in ("(((", "&|<->", "!"):
        response = client.get(SEARCH, {"q": query})
        assert response.status_code == 200 and _titles(response) == [], query
    # tsquery's own syntax is read as words, never as an error: "a" is a whole word, not every word beginning with a.
    response = client.get(SEARCH, {"q": "a:* & cronjob!"})
    assert response.status_code == 200 and _titles(response) == ["<p>What is a CronJob?</p>"]


def test_results_come_twenty_a_page_in_two_queries_whatever_their_number(client, django_assert_num_queries):
    deck = make_deck(title="Many")
    for n in range(45):
        make_card(deck=deck, question=f"Gradient question {n}?", answer="Gradients")
    card_save(card=deck.cards.first(), aliases=["Gradients alone"])
    with django_assert_num_queries(2):  # the count, the page
        response = client.get(SEARCH, {"q": "gradient", "page": 3})
    html = response.content.decode()
    assert len(response.context["page"]) == 5 and '<ol class="search-results" start="41">' in html
    assert "Page 3 of 3" in html and "?q=gradient&amp;page=2" in html


def test_htmx_gets_the_results_and_the_count_alone_and_the_page_varies_on_it(client, serving, htmx):
    response = client.get(SEARCH, {"q": "quant"}, **htmx)
    html = response.content.decode()
    assert "<html" not in html and "<h1>" not in html
    assert 'id="search-count" role="status"' in html and 'data-hx-swap-oob="innerHTML"' in html
    assert '<div id="results">' in html and "What is quantization?" in html
    assert "HX-Request" in response["Vary"]
    # The URL typing pushes gets its own title (htmx sets it), for the history list and a screen reader.
    assert "<title>quant · Search · mlcourse</title>" in html
    assert client.get(SEARCH, {"q": "quant"}).content.decode().count("<title>") == 1  # the page keeps its one


def test_every_page_but_the_search_page_has_the_search_box_in_its_header(client, serving):
    assert (
        'role="search" aria-label="Every deck" method="get" action="/search/" class="site-search"'
        in client.get("/").content.decode()
    )
    html = client.get(SEARCH).content.decode()
    assert 'class="site-search"' not in html
    assert 'id="id_q"' in html and "autofocus" in html and 'id="search-count"' in html


def test_a_search_is_answered_from_the_two_word_indexes_not_by_reading_every_card(serving):
    with connection.cursor() as cursor:
        # Left only the bitmap scans, which need an index whose expression is the one searched (so few rows would
        # be read whole, and a full scan of another index would stand in).
        cursor.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
        plan = selectors.card_search(query="quant").explain()
    assert re.search(r"Index Scan on card_search\s", plan) and re.search(r"Index Scan on card_search_words\s", plan)


def test_a_deck_page_searches_that_deck_only_and_offers_every_deck_after(client, serving):
    other = make_deck(title="Training")
    make_card(deck=other, question="What is quantization-aware training?", answer="Training with fake quantization")
    deck_page = client.get(serving.get_absolute_url()).content.decode()
    assert f'<input type="hidden" name="deck" value="{serving.slug}">' in deck_page and "Search this deck" in deck_page
    response = client.get(SEARCH, {"q": "quantization", "deck": serving.slug})
    html = response.content.decode()
    assert _titles(response) == ["<p>What is quantization?</p>", "<p>Why batch requests?</p>"]
    assert "2 cards match “quantization” in Serving." in html
    assert 'href="/search/?q=quantization">search every deck</a>' in html
    assert f'in <a href="{serving.get_absolute_url()}">this deck</a> only' in html  # a way back to it
    assert f'<input type="hidden" name="deck" value="{serving.slug}">' in html  # the next query stays in the deck
    assert len(_titles(client.get(SEARCH, {"q": "quantization"}))) == 3


def test_a_deck_students_may_not_see_cannot_be_searched_by_its_slug(client, student):
    draft = make_deck(title="Draft", published=False)
    make_card(deck=draft, question="What is a tensor?", answer="An array")
    client.force_login(student)
    assert client.get(SEARCH, {"q": "tensor", "deck": draft.slug}).status_code == 404
    assert client.get(SEARCH, {"q": "tensor", "deck": "no-such-deck"}).status_code == 404


def test_a_deck_that_is_no_slug_is_not_found_rather_than_an_error(client, serving):
    # A NUL byte, which PostgreSQL refuses in any text, was a 500.
    for slug in ("\x00", f"{serving.slug}\x00", "a b", "../"):
        assert client.get(SEARCH, {"q": "quantization", "deck": slug}).status_code == 404


def test_a_deck_pages_two_search_landmarks_have_names_a_screen_reader_tells_apart(client, serving):
    html = client.get(serving.get_absolute_url()).content.decode()
    landmarks = re.findall(r'<form role="search"( aria-label="[^"]+")?', html)
    assert landmarks == [' aria-label="Every deck"', ' aria-label="This deck"']


def test_each_excerpts_toggle_says_which_result_it_opens_to_a_screen_reader(client):
    deck = make_deck(title="Many")
    for n in range(22):
        make_card(deck=deck, question=f"Question {n}?", answer="Gradients flow backwards")
    html = client.get(SEARCH, {"q": "gradients", "page": 2}).content.decode()
    assert '<summary>Where the answer matches<span class="visually-hidden"> (result 21)</span></summary>' in html
    assert "(result 22)" in html


def test_the_slash_key_belongs_to_a_decks_own_search_box_when_it_has_one(client, serving):
    html = client.get(serving.get_absolute_url()).content.decode()
    assert re.findall(r'<input type="search" name="q" id="([^"]+)"[^>]*aria-keyshortcuts="/"', html) == [
        "deck-search-q"
    ]
    empty = make_deck(title="Empty")
    html = client.get(empty.get_absolute_url()).content.decode()
    assert re.findall(r'<input type="search" name="q" id="([^"]+)"[^>]*aria-keyshortcuts="/"', html) == [
        "site-search-q"
    ]


def test_a_cards_accepted_answers_and_explanation_find_it_too(client, serving):
    card = serving.cards.get(question="What is a CronJob?")
    card.explanation = "Unlike a *Deployment*, it runs to completion and stops."
    card_save(card=card, aliases=["Scheduled job", "K8s cron"])
    found = client.get(SEARCH, {"q": "k8s"})
    assert _titles(found) == ["<p>What is a CronJob?</p>"]
    # Found by an accepted answer alone, the result says which, behind the same toggle as the answer's words.
    assert re.search(
        r"<summary>Where the answer matches.*?</summary>\s*"
        r"<p>Accepted answer: Scheduled job · <mark>K8s</mark> cron</p>",
        found.content.decode(),
        re.S,
    )
    assert _titles(client.get(SEARCH, {"q": "schedul"})) == ["<p>What is a CronJob?</p>"]
    html = client.get(SEARCH, {"q": "deployment"}).content.decode()
    assert _titles(client.get(SEARCH, {"q": "deployment"})) == ["<p>What is a CronJob?</p>"]
    assert "Unlike a <mark>Deployment</mark>, it runs to completion" in html
    # A word in the question still ranks first, before the same word in another card's accepted answer.
    card_save(card=serving.cards.get(question="What is quantization?"), aliases=["Batch of bits"])
    assert _titles(client.get(SEARCH, {"q": "batch"})) == ["<p>Why batch requests?</p>", "<p>What is quantization?</p>"]


def test_a_word_left_out_leaves_out_a_card_holding_it_though_an_accepted_answer_matches(client, serving):
    card_save(card=serving.cards.get(question="Why batch requests?"), aliases=["Quantization trick"])
    assert _titles(client.get(SEARCH, {"q": "quantization -batching"})) == ["<p>What is quantization?</p>"]
    assert _titles(client.get(SEARCH, {"q": 'trick -"raises GPU"'})) == []
    assert _titles(client.get(SEARCH, {"q": "trick -kubernetes"})) == ["<p>Why batch requests?</p>"]


def test_accepted_answers_of_archived_cards_and_draft_decks_find_nothing_for_students(client, serving):
    archived = serving.cards.get(question="What is a CronJob?")
    card_save(card=archived, aliases=["Periodic task"])
    archived.archived = True
    archived.save()
    draft = make_deck(title="Draft", published=False)
    card_save(
        card=make_card(deck=draft, question="What is a DaemonSet?", answer="A pod per node."), aliases=["Periodic pod"]
    )
    assert _titles(client.get(SEARCH, {"q": "periodic"})) == []


def test_a_query_whose_words_are_split_between_an_accepted_answer_and_the_card_finds_it_at_once(client, serving):
    card_save(card=serving.cards.get(question="What is a CronJob?"), aliases=["K8s cron"])
    response = client.get(SEARCH, {"q": "k8s schedule"})
    assert _titles(response) == ["<p>What is a CronJob?</p>"]
    assert "holds some" not in response.content.decode()  # found as all the words, not by widening


def test_accepted_answers_find_their_card_however_they_are_written_or_removed(client, serving):
    card = serving.cards.get(question="What is a CronJob?")
    Alias.objects.bulk_create([Alias(card=card, text="Periodic job")])
    assert _titles(client.get(SEARCH, {"q": "periodic"})) == ["<p>What is a CronJob?</p>"]
    Alias.objects.filter(card=card).update(text="Recurring job")
    assert _titles(client.get(SEARCH, {"q": "periodic"})) == []
    assert _titles(client.get(SEARCH, {"q": "recurring"})) == ["<p>What is a CronJob?</p>"]
    # A copy of the card read before its aliases changed, saved after, does not bring the old ones back.
    stale = Card.objects.get(pk=card.pk)
    Alias.objects.filter(card=card).delete()
    stale.question = "What is a Kubernetes CronJob?"
    stale.save()
    assert _titles(client.get(SEARCH, {"q": "recurring"})) == []
    assert _titles(client.get(SEARCH, {"q": "kubernetes cronjob"})) == ["<p>What is a Kubernetes CronJob?</p>"]
