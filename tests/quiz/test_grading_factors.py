"""Golden tests: "N times", "8 times" is the multiplication sign written out, notation like "N x": it is no
off-target word of the response, so a correct answer that quantifies its point is not marked down for it."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import DIVIDE_LOSS, card

PLAIN = "Otherwise you get a sum rather than the mean, which is far too large."


@pytest.mark.parametrize(
    "response",
    [
        "Otherwise you get a sum rather than the mean, which is N times too large.",
        "Otherwise you get a sum rather than the mean, 8 times too large.",
    ],
)
def test_a_factor_written_in_words_counts_as_notation(response):
    result = grade(card(DIVIDE_LOSS), response)
    assert result.verdict is Verdict.CORRECT, result
    assert result.score == grade(card(DIVIDE_LOSS), PLAIN).score


def test_times_after_an_ordinary_word_is_still_a_word_of_the_response():
    # "at times" is no factor: an off-target word like any other
    at_times = grade(card(DIVIDE_LOSS), "Otherwise you get a sum rather than the mean, at times too large.")
    assert at_times.score < grade(card(DIVIDE_LOSS), PLAIN).score
