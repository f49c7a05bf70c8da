"""The public content pages, their versioned stylesheet and /healthz, with their query counts."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.urls import reverse

from apps.common import views as common_views
from apps.content import selectors, styles
from tests.factories import make_card, make_deck

AFFINE_QUESTION = "Give the standard affine quantization formula mapping a real value to an integer."


@pytest.mark.django_db
def test_home_lists_every_deck_with_its_card_count_in_one_query(client, seeded, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Deep Learning Frameworks and Production Syllabus" in html
    assert "Technology &amp; Digital Tools Flashcards" in html
    assert "30 cards" in html and "7 cards" in html


@pytest.mark.django_db
def test_home_query_count_does_not_grow_with_decks(client, django_assert_num_queries):
    for _ in range(5):
        make_card(deck=make_deck())
    with django_assert_num_queries(1):
        client.get("/")


@pytest.mark.django_db
def test_deck_page_shows_typeset_math_in_two_queries(client, seeded, django_assert_num_queries):
    url = reverse("content:deck", args=["deep-learning-frameworks-production-syllabus"])
    with django_assert_num_queries(2):
        response = client.get(url)
    html = response.content.decode()
    assert AFFINE_QUESTION in html
    assert '<span class="katex">' in html and "<mfrac><mi>r</mi><mi>s</mi></mfrac>" in html
    assert "$q =" not in html
    assert html.count('<details class="card-answer">') == 30


@pytest.mark.django_db
def test_deck_page_can_show_every_answer_without_javascript(client, seeded):
    url = reverse("content:deck", args=["deep-learning-frameworks-production-syllabus"])
    html = client.get(url, {"answers": "shown"}).content.decode()
    assert html.count('<details class="card-answer" open>') == 30
    assert "Hide answers" in html


@pytest.mark.django_db
def test_each_answer_toggle_of_a_deck_page_names_its_card_to_a_screen_reader(client):
    deck = make_deck()
    for _ in range(2):
        make_card(deck=deck)
    html = client.get(deck.get_absolute_url()).content.decode()
    # Read out of context (a list of controls, Tab by Tab) thirty times "Answer, collapsed" says nothing.
    assert '<summary>Answer<span class="visually-hidden"> to card 1</span></summary>' in html
    assert '<summary>Answer<span class="visually-hidden"> to card 2</span></summary>' in html


@pytest.mark.django_db
def test_card_page_shows_one_card_with_neighbours_in_one_query(client, seeded, django_assert_num_queries):
    from apps.content.models import Card

    card = Card.objects.select_related("deck").get(question=AFFINE_QUESTION)
    with django_assert_num_queries(1):
        response = client.get(card.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert AFFINE_QUESTION in html and "zero-point" in html
    previous, following = (
        Card.objects.get(deck=card.deck, position=card.position - 1),
        Card.objects.get(deck=card.deck, position=card.position + 1),
    )
    assert f'rel="prev" href="{previous.get_absolute_url()}"' in html
    assert f'rel="next" href="{following.get_absolute_url()}"' in html


def _pager(html: str) -> tuple[str | None, str | None]:
    previous = re.search(r'rel="prev" href="([^"]+)"', html)
    following = re.search(r'rel="next" href="([^"]+)"', html)
    return (previous[1] if previous else None, following[1] if following else None)


@pytest.mark.django_db
def test_previous_and_next_skip_archived_cards(client, django_assert_num_queries):
    deck = make_deck()
    cards = [make_card(deck=deck, archived=i in {2, 4, 5}) for i in range(1, 7)]
    first, _, third, _, _, sixth = cards
    with django_assert_num_queries(1):
        html = client.get(third.get_absolute_url()).content.decode()
    assert _pager(html) == (first.get_absolute_url(), sixth.get_absolute_url())
    assert _pager(client.get(first.get_absolute_url()).content.decode()) == (None, third.get_absolute_url())
    assert _pager(client.get(sixth.get_absolute_url()).content.decode()) == (third.get_absolute_url(), None)
    # The deck page lists only the cards the pager walks through.
    deck_page = client.get(deck.get_absolute_url()).content.decode()
    assert [c.get_absolute_url() in deck_page for c in cards] == [True, False, True, False, False, True]


@pytest.mark.django_db
def test_an_archived_card_keeps_its_page_with_a_notice(client, student):
    """Answers in a student's quiz history link to their card, so an archived card's URL still works."""
    deck = make_deck()
    first = make_card(deck=deck)
    archived = make_card(deck=deck, question="An old question?", archived=True)
    last = make_card(deck=deck)
    client.force_login(student)
    response = client.get(archived.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200 and "An old question?" in html
    assert "This card is archived: it is no longer asked in quizzes." in html
    assert _pager(html) == (first.get_absolute_url(), last.get_absolute_url())
    assert "archived" not in client.get(first.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_unknown_deck_or_card_is_a_404(client):
    card = make_card()
    other = make_deck()
    assert client.get(reverse("content:deck", args=["no-such-deck"])).status_code == 404
    assert client.get(reverse("content:card", args=[other.slug, card.pk])).status_code == 404
    assert client.get(reverse("content:card", args=[card.deck.slug, card.pk + 1000])).status_code == 404


@pytest.mark.django_db
def test_pages_refuse_post(client):
    card = make_card()
    assert client.post("/").status_code in {403, 405}
    assert client.post(card.get_absolute_url()).status_code in {403, 405}


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "migrations": "ok", "cache": "ok", "static": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_answers_503_while_migrations_are_pending(client, monkeypatch, caplog):
    """A release served before `migrate` answered every page with a 500 while /healthz said ok."""
    monkeypatch.setattr(common_views, "_migrated", [])  # this process has not seen the schema complete yet
    latest = MigrationRecorder.Migration.objects.filter(app="quiz").latest("id")
    latest.delete()  # as if the release's newest migration had not run (the test's transaction puts it back)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["migrations"] == "pending"
    assert "1 migrations not applied; run manage.py migrate" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_when_the_database_is_unreachable(client, caplog):
    original = dict(connection.settings_dict)
    connection.close()
    # A real connection attempt to a port nothing listens on: no mock involved.
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={"connect_timeout": 2})
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"
    assert "healthz: the database does not answer: connection failed" in caplog.text  # the cause, for the operator


STYLESHEET = re.compile(r'<link rel="stylesheet" href="(/styles/content\.css[^"]*)">')


def _stylesheet_link(client) -> str:
    return STYLESHEET.search(client.get("/").content.decode()).group(1)


@pytest.mark.django_db
def test_pages_link_a_versioned_content_stylesheet_that_browsers_keep(client, django_assert_num_queries):
    card = make_card(answer="$\\frac{a}{b}$")
    plain = client.get(reverse("content:styles"))  # this process learns the current version from it
    assert plain["Cache-Control"] == "public, max-age=0, must-revalidate"
    version = selectors.style_rules_version()
    with django_assert_num_queries(1):  # knowing the version costs the page no query
        html = client.get("/").content.decode()
    url = STYLESHEET.search(html).group(1)
    assert url == f"/styles/content.css?v={version}"

    response = client.get(url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    for name in re.findall(r'class="[^"]*\b(s[0-9a-f]{10})\b', card.answer_html):
        assert f".{name}{{" in response.content.decode()

    # A card with other maths adds rules: the URL changes, and the old one is no longer kept for good.
    other = make_card(answer="$$\\sum_{i=1}^{n} \\int_0^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\frac{\\pi}{4}}$$")
    assert selectors.style_rules_version() != version
    assert _stylesheet_link(client) == reverse("content:styles")  # adding rules forgot the version here
    client.get(reverse("content:styles"))
    new_url = _stylesheet_link(client)
    assert new_url == f"/styles/content.css?v={selectors.style_rules_version()}" != url
    css = client.get(new_url).content.decode()
    for name in re.findall(r'class="[^"]*\b(s[0-9a-f]{10})\b', other.answer_html):
        assert f".{name}{{" in css
    stale = client.get(url)
    assert stale.status_code == 200 and "immutable" not in stale["Cache-Control"]
    assert stale.content.decode() == css  # the current rules, a superset of the old ones


@pytest.mark.django_db
def test_a_process_that_has_not_seen_the_version_lately_links_the_plain_stylesheet(client, monkeypatch):
    make_card(answer="$\\frac{a}{b}$")
    client.get(reverse("content:styles"))
    assert "?v=" in _stylesheet_link(client)
    monkeypatch.setattr(styles, "VERSION_TTL", -1.0)
    assert _stylesheet_link(client) == reverse("content:styles")


@pytest.mark.django_db
def test_a_rule_stored_before_the_renderer_checked_styles_strictly_is_not_served(client):
    from apps.content.models import StyleRule

    StyleRule.objects.create(name="sgood", declarations="top:-3em !important")
    StyleRule.objects.create(name="sbad", declarations="position:fixed !important;z-index:99999 !important")
    css = client.get(reverse("content:styles")).content.decode()
    assert ".sgood{top:-3em !important}" in css
    assert "sbad" not in css and "position" not in css


@pytest.mark.django_db
def test_the_stylesheet_version_names_the_rules_not_their_ids(client):
    # A restored backup reuses ids: the same count and highest id must not pass for the same stylesheet.
    from apps.content.models import StyleRule

    StyleRule.objects.create(pk=1, name="sa", declarations="top:0")
    second = StyleRule.objects.create(pk=2, name="sb", declarations="top:1em")
    before = selectors.style_rules_version()
    second.delete()
    StyleRule.objects.create(pk=2, name="sc", declarations="top:2em")
    after = selectors.style_rules_version()
    assert after != before
    immutable = client.get(f"{reverse('content:styles')}?v={after}")
    assert "immutable" in immutable["Cache-Control"] and ".sc{" in immutable.content.decode()
    assert "immutable" not in client.get(f"{reverse('content:styles')}?v={before}")["Cache-Control"]


@pytest.mark.django_db
def test_a_card_page_keeps_its_answer_closed_until_asked(client):
    deck = make_deck()
    first = make_card(deck=deck, question="Which object runs a batch task?", answer="A Job")
    second = make_card(deck=deck, question="Which runs it on a schedule?", answer="A CronJob")
    closed = client.get(first.get_absolute_url()).content.decode()
    assert re.search(r'<details class="card-answer">\s*<summary><span class="if-closed">Show the answer<', closed)
    assert "A Job" in closed  # in the page, for no-JavaScript browsers too: <details> needs no script
    opened = client.get(f"{first.get_absolute_url()}?answers=shown").content.decode()
    assert '<details class="card-answer" open>' in opened
    assert f'href="{second.get_absolute_url()}?answers=shown"' in opened  # the next card opens the same way


@pytest.mark.django_db
def test_saving_maths_whose_rules_are_known_keeps_the_long_cached_stylesheet(client):
    card = make_card(answer="$\\frac{a}{b}$")
    client.get(reverse("content:styles"))  # this process learns the version
    linked = _stylesheet_link(client)
    assert "?v=" in linked
    card.explanation = "Again $\\frac{a}{b}$"
    card.save()  # the same rules: nothing new to fetch, so the browser's copy stays good
    assert _stylesheet_link(client) == linked
