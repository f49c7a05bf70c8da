"""When two texts are the same answer: the one rule the loader, the deck import and the card form share."""

from __future__ import annotations

import pytest

from apps.content.answers import normal_text, right_answers


@pytest.mark.parametrize(
    ("first", "second"),
    [("A sum", "a  SUM"), ("Job\n", " job"), ("ﬁne-tuning", "fine-tuning"), ("ＦＰ１６", "FP16")],
)
def test_case_spacing_and_compatibility_forms_do_not_count(first, second):
    assert normal_text(first) == normal_text(second)


def test_different_words_stay_different():
    assert normal_text("CronJob") != normal_text("Job")


def test_right_answers_are_the_answer_the_short_answer_and_the_aliases():
    right = right_answers(answer="Kubernetes Job", short_answer="Job", aliases=["a k8s Job", ""])
    assert right == {"kubernetes job", "job", "a k8s job"}
