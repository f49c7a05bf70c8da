"""Golden tests: an acronym in parentheses right after the words it stands for is the thing's name (weighed as a
key term, not as an aside); other parentheses stay asides."""

from __future__ import annotations

import pytest

from apps.quiz.acronyms import names_before


@pytest.mark.parametrize(
    ("before", "aside", "named"),
    [
        ("TPUs are Google's application-specific integrated circuits ", "ASICs", True),
        ("large systolic-array matrix-multiply units ", "MXUs", True),
        ("an out of memory error ", "OOM", True),
        ("many processors ", "GPU", False),  # an example of the thing, not its name
        ("integrated circuits ", "e.g. TPUs", False),
        ("integrated circuits ", "fast", False),
        ("", "ASIC", False),
    ],
)
def test_an_acronym_names_the_words_before_it(before, aside, named):
    assert names_before(before, aside) is named
