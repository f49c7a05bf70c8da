"""Rendered fields kept beside their sources: the question's plain text is stored with its HTML ("render once")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from apps.content.models import Card
from apps.content.services import card_save
from tests.factories import make_card
from tests.manage import database_url, manage

pytestmark = pytest.mark.django_db

SIGMOID = r"What does $\sigma(x) = \frac{1}{1+e^{-x}}$ return?"


def test_a_saved_card_keeps_its_question_as_plain_text_with_formulas_read_as_text():
    card = make_card(question=SIGMOID)
    assert Card.objects.get(pk=card.pk).question_text == "What does σ(x)=1/(1+e^(−x)) return?"


def test_a_save_of_the_question_alone_updates_its_plain_text_and_another_save_leaves_it():
    card = make_card(question=SIGMOID)
    card.question = "What is $x^2$ for $x = 3$?"
    card.save(update_fields=["question"])
    assert Card.objects.get(pk=card.pk).question_text == "What is x^2 for x=3?"
    Card.objects.filter(pk=card.pk).update(question_text="stale")
    card.save(update_fields=["position"])
    assert Card.objects.get(pk=card.pk).question_text == "stale"  # no KaTeX, no parsing for other columns


def test_rerender_content_restores_the_plain_text():
    card = make_card(question=SIGMOID)
    Card.objects.filter(pk=card.pk).update(question_text="stale")
    call_command("rerender_content", stdout=StringIO())
    assert Card.objects.get(pk=card.pk).question_text == "What does σ(x)=1/(1+e^(−x)) return?"


@pytest.mark.parametrize("command", ["load_content", "rerender_content"])
def test_the_content_commands_say_katex_is_missing_and_change_nothing(command, katex_down):
    make_card(question="Stays as it is?")
    with pytest.raises(CommandError, match=r"KaTeX is not available: .*\nNothing was (written|changed)\."):
        call_command(command, stdout=StringIO())
    assert list(Card.objects.values_list("question", flat=True)) == ["Stays as it is?"]


def test_maths_that_now_fails_keeps_its_stored_html_and_is_named():
    """Content saved before a rule (\\href in maths, now refused) stays as students saw it, for its author to fix."""
    card = make_card(question="What is $x$?", answer="See $\\href{https://example.com}{x}$ here.")
    good = "<p>See the link here.</p>"
    Card.objects.filter(pk=card.pk).update(answer_html=good)
    out, err = StringIO(), StringIO()
    with pytest.raises(
        CommandError, match=r": 0 changed, 1 field kept as it was \(named above\): fix the maths in the admin"
    ):
        call_command("rerender_content", stdout=out, stderr=err)
    assert f"kept as it was: Card {card.pk}, answer: KaTeX" in err.getvalue()
    assert Card.objects.get(pk=card.pk).answer_html == good


@pytest.mark.django_db(transaction=True)
def test_rerender_content_exits_with_status_1_when_it_kept_a_field_so_cron_notices():
    card = make_card(question="What is $x$?", answer="See $\\href{https://example.com}{x}$ here.")
    Card.objects.filter(pk=card.pk).update(answer_html="<p>See the link here.</p>", question_html="stale")
    kept = manage("rerender_content", DEBUG="1", DATABASE_URL=database_url())
    assert kept.returncode == 1
    assert f"kept as it was: Card {card.pk}, answer" in kept.stderr and "1 field kept as it was" in kept.stderr
    assert Card.objects.get(pk=card.pk).question_html != "stale"  # the rest is re-rendered all the same
    Card.objects.filter(pk=card.pk).update(answer="Now fixed.")
    fixed = manage("rerender_content", DEBUG="1", DATABASE_URL=database_url())
    assert fixed.returncode == 0, fixed.stderr


def test_rerender_content_typesets_each_text_once_though_versions_repeat_it(typeset, instructor):
    card = make_card(question="What is $\\sigma(x)$?", answer="A squashing $f(x)$.")
    card.explanation = "Edited, so there are two versions."
    card_save(card=card, author=instructor)
    assert card.versions.count() == 2
    typeset.clear()
    call_command("rerender_content", stdout=StringIO())
    assert sorted(typeset) == ["\\sigma(x)", "f(x)"]  # not once more for each version holding them
