"""Cohort migrations run on a database that already holds answers and their totals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apps.cohorts import services as cohorts
from apps.cohorts.models import Cohort, CohortResponseStat
from apps.content.models import Distractor
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.models import SessionItem
from tests.cohorts.choices import choose
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

BEFORE_SAMPLE_HTML = [("cohorts", "0003_cohort_stats")]

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


def test_the_wrong_options_counted_before_get_the_html_their_students_were_shown():
    deck = make_deck()
    card = make_card(deck=deck, question="Which norm?", answer="The max norm")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Norm {i}")
    option = r"$\lVert x \rVert_1$ of `x`"
    card_save(card=card, distractors=[option])
    shown = Distractor.objects.get(card=card).text_html
    cohort = cohorts.cohort_create(name="First", instructor=make_instructor("carol"))
    outsider, ann = make_user("outsider"), make_user("ann")
    # An earlier answer with the same text by someone outside the cohort, shown (say) before a KaTeX upgrade.
    earlier = choose(outsider, deck=deck, card=card, text=option)
    item = SessionItem.objects.get(pk=earlier.item_id)
    item.options[earlier.chosen_option]["html"] = "<p>typeset otherwise</p>"
    item.save(update_fields=["options"])
    cohorts.cohort_join(student=ann, code=cohort.join_code)
    choose(ann, deck=deck, card=card, text=option)
    session = quiz.session_start(user=ann, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(
        user=ann, session_id=session.pk, position=1, submission=quiz.Submission(response="no <b>idea</b>")
    )
    # Counted once, its answers gone since (as when an account is deleted): nothing to read the HTML from.
    CohortResponseStat.objects.create(
        cohort=cohort, card=card, mode="choice", response_key="gone <b>", count=0, sample="Gone <b>"
    )

    _migrate(BEFORE_SAMPLE_HTML)
    try:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        stats = {(s.mode, s.sample): s.sample_html for s in CohortResponseStat.objects.filter(cohort=cohort)}
        assert stats == {
            ("choice", option): shown,  # the cohort's own student's, not the outsider's earlier one
            ("recall", "no <b>idea</b>"): "",
            ("choice", "Gone <b>"): "Gone &lt;b&gt;",
        }
        assert 'class="katex"' in shown
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_OWNER = [("cohorts", "0004_response_sample_html")]


def test_existing_cohorts_are_owned_by_their_first_instructor_added():
    _migrate(BEFORE_OWNER)
    try:
        old = MigrationExecutor(connection).loader.project_state(BEFORE_OWNER).apps.get_model("cohorts", "Cohort")
        dave, carol = make_instructor("dave"), make_instructor("carol")
        taught = old.objects.create(name="Taught", join_code="AAAA2222")
        taught.instructors.add(dave.pk)  # dave first, then carol: dave stands for its creator
        taught.instructors.add(carol.pk)
        untaught = old.objects.create(name="Nobody left", join_code="BBBB3333")
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        owners = dict(Cohort.objects.values_list("name", "owner__username"))
        assert owners == {"Taught": "dave", "Nobody left": None}
        assert untaught.pk in Cohort.objects.filter(owner__isnull=True).values_list("pk", flat=True)
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
