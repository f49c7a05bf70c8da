"""Golden tests: TeX quoted in a grader's note is written as a reader reads it (mathtext.readable), and a math
short answer is matched symbol for symbol and sign for sign, typed in Unicode or TeX (textnorm's Greek names,
mathnorm.operators)."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict, grade
from apps.quiz.mathtext import readable


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (r"The expected answer is $\theta - \eta \nabla L$.", "The expected answer is θ − η∇L."),
        (r"$q = \text{round}\left(\frac{r}{s}\right) + z$", "q = round(r/s) + z"),
        (r"$\hat{m}_t = \frac{m_t}{1-\beta_1^t}$", "m̂_t = m_t/(1 − β_1^t)"),
        (r"$$p_i = \frac{e^{z_i/T}}{\sum_j e^{z_j/T}}$$", "p_i = (e^(z_i/T))/(Σ_j e^(z_j/T))"),
        (r"$N \times b$ and $\sqrt{x^2}$", "N × b and √(x^2)"),
        (r"$\Omega(n) \leq \Delta$, $\mathcal{L}$", "Ω(n) ≤ Δ, L"),
        ("No formula, $5 only.", "No formula, $5 only."),
        ("Prices: $0.30 an hour, or $1 a day.", "Prices: $0.30 an hour, or $1 a day."),  # no formula between them
    ],
)
def test_tex_in_a_note_is_written_in_unicode(text, shown):
    assert readable(text) == shown


SGD = GradingCard(
    "What is the SGD update of the parameters?", r"$\theta - \eta \nabla L$", r"$\theta - \eta \nabla L$", "flashcard"
)


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        (r"\theta - \eta \nabla L", Verdict.CORRECT),
        ("θ − η∇L", Verdict.CORRECT),  # typed with the symbols the card shows
        ("theta - eta * nabla L", Verdict.CORRECT),
        ("It's θ - η∇L", Verdict.CORRECT),
        ("L", Verdict.INCORRECT),  # the answer's symbols were dropped, leaving "L" as the whole answer
        (r"\alpha - \beta L", Verdict.INCORRECT),
        # its names with other signs, or none: graded correct once the names alone were matched
        ("θ + η∇L", Verdict.INCORRECT),  # gradient ascent
        ("θ * η∇L", Verdict.INCORRECT),
        ("theta eta nabla L", Verdict.INCORRECT),
    ],
)
def test_a_math_short_answer_is_matched_symbol_for_symbol(response, verdict):
    assert grade(SGD, response).verdict is verdict


def test_the_note_quotes_a_math_answer_as_it_reads_not_as_tex():
    assert grade(SGD, "rms prop").feedback == "The expected answer is θ − η∇L."
