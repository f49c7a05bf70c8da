"""Golden tests: formulas and expressions graded whatever the notation (TeX or plain), and their canonical forms."""

from __future__ import annotations

import pytest

from apps.quiz.grading import grade
from apps.quiz.mathnorm import parse_formula
from tests.quiz.golden import AFFINE, CORRECT, DIVIDE_LOSS, INCORRECT, PARTIAL, card, check


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r/s) + z",
        "q=round(r / s)+z",
        r"$q = \text{round}\left(\frac{r}{s}\right) + z$",
        r"$$q = \mathrm{round}\left( \frac{r}{s} \right) + z$$",
        "q = z + round(r/s)",
        "round(r/s) + z = q",
        "The formula is q = round(r / s) + z, where s is the scale and z the zero-point.",
    ],
)
def test_formulas_match_whatever_the_notation(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)
    assert "q = round(r/s) + z" in result.feedback


@pytest.mark.parametrize(
    ("response", "verdict", "low", "high"),
    [
        ("q = r*s + z", INCORRECT, 0.0, 0.0),
        ("q = round(s/r) + z", INCORRECT, 0.0, 0.0),
        ("$q = r \\cdot s + z$", INCORRECT, 0.0, 0.0),
        ("q = round(r/s)", PARTIAL, 0.5, 0.5),
        ("r ≈ s(q − z)", PARTIAL, 0.5, 0.5),
        ("r = s(q - z)", PARTIAL, 0.5, 0.5),
        ("Divide the real value by the scale, round it, then add the zero-point.", CORRECT, 0.75, 1.0),
    ],
)
def test_wrong_partial_and_verbal_formulas(response, verdict, low, high):
    check(grade(card(AFFINE), response), verdict, low, high)


def test_tex_and_plain_notation_share_one_canonical_form():
    forms = [
        r"p_i = \frac{\exp(z_i/T)}{\sum_j \exp(z_j/T)}",
        "p_i = exp(z_i / T) / sum_j exp(z_j / T)",
        r"p_{i}=\frac{\exp\left(z_{i}/T\right)}{\sum_{j}\exp(z_{j}/T)}",
    ]
    assert len({parse_formula(f).canonical for f in forms}) == 1
    assert parse_formula(r"T^{2}").canonical == parse_formula("T^2").canonical
    assert parse_formula(r"r \approx s\,(q - z)").canonical == parse_formula("r ≈ s·(q − z)").canonical


def test_tex_notation_is_not_a_word_but_operators_are():
    from apps.quiz.textnorm import fold, tokenize

    assert [t.norm for t in tokenize(fold(r"$\frac{1}{N} \sum L_i$"))] == ["1", "n", "sum", "li"]
    assert [t.norm for t in tokenize(fold(r"\left( \text{round} \right)"))] == ["round"]
    assert fold("no notation here") == "no notation here"


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r / s + z)",
        "q = round(z + r/s)",
        r"$q = \mathrm{round}\left(\frac{r}{s} + z\right)$",
    ],
)
def test_rounding_commutes_with_an_integer_offset(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r/s + 0.5) + z",  # not an integer offset
        "q = round((r + z)/s)",  # the offset is scaled
        "q = round(r/(s + z))",
        "q = round(s/r + z)",
    ],
)
def test_moving_other_terms_into_the_rounding_is_not_the_formula(response):
    assert grade(card(AFFINE), response).verdict is not CORRECT


def test_formula_canonical_forms_for_offsets_and_unit_factors():
    assert parse_formula("y = floor(x + 1)").canonical == parse_formula("y = floor(x) + 1").canonical
    assert parse_formula("q = round(r/s - z)").canonical == parse_formula("q = round(r/s) - z").canonical
    assert parse_formula("y = round(a + b)").canonical != parse_formula("y = round(a) + b").canonical
    assert parse_formula("y = 1/n * x").canonical == parse_formula("y = x/n").canonical
    assert parse_formula("y = 1 * x").canonical == parse_formula("y = x").canonical


def test_expressions_of_the_answer_match_in_any_notation():
    from apps.quiz.formulas import find_expressions

    tex = find_expressions(r"the mean ($\frac{1}{N}\sum L_i$) of $N$ losses", tex_only=True)
    assert tex == find_expressions("(1/N) * sum L_i") == find_expressions("sum(L_i) / N")
    assert find_expressions("forward/backward on CPU/GPU") == frozenset()
    assert find_expressions("$N$ steps") == frozenset()
    assert find_expressions("q = round(r/s) + z") == frozenset()  # an equation, handled as a formula


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("So the gradient is averaged instead of summed: (1/N) * sum L_i", CORRECT),
        # the answer's result against what it replaces makes its point (contrasts.py) ...
        ("So the gradient is averaged instead of summed.", CORRECT),
        # ... but an expression over the answer's names that is not the answer's is never fully right
        ("So the gradient is averaged instead of summed: N * sum L_i", PARTIAL),
        ("the mean gradient: N * sum L_i", PARTIAL),
        ("To make training faster.", INCORRECT),
    ],
)
def test_an_expression_of_the_answer_counts_as_a_key_term(response, verdict):
    assert grade(card(DIVIDE_LOSS), response).verdict is verdict


def test_a_right_expression_in_a_wrong_statement_is_not_enough():
    temperature = card("In knowledge distillation, what is the role")
    assert grade(temperature, "It divides the learning rate by T^2").verdict is INCORRECT


@pytest.mark.parametrize("fragment", ["\\frac{1}{T", "softer \\frac{x}", "\\sqrt{"])
def test_a_stray_tex_fragment_does_not_stop_the_grader(fragment):
    answer = (
        "Temperature softens the probability distribution; a higher T gives softer probabilities that reveal "
        "similarities between classes and a richer gradient signal for the student"
    )
    temperature = card("In knowledge distillation, what is the role")
    clean = grade(temperature, answer)
    result = grade(temperature, f"{answer} {fragment}")
    assert "could not be graded" not in result.feedback
    assert result.verdict is clean.verdict is CORRECT


@pytest.mark.parametrize(
    "response",
    [
        "q = ⌊r/s⌉ + z",
        r"q = \lfloor r/s \rceil + z",
        r"$q = \left\lfloor \frac{r}{s} \right\rceil + z$",
        "The formula is q = ⌊r/s⌉ + z where s is the scale.",
    ],
)
def test_rounding_brackets_are_rounding(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)
    assert "q = round(r/s) + z" in result.feedback


def test_floor_and_ceiling_brackets_are_floor_and_ceil():
    assert parse_formula("y = ⌊x⌋").canonical == parse_formula("y = floor(x)").canonical
    assert parse_formula(r"y = \lceil x \rceil").canonical == parse_formula("y = ceil(x)").canonical
    assert parse_formula("y = ⌊x") is None


@pytest.mark.parametrize(
    ("response", "misquote"),
    [
        ("q = ⌊r/s⌋ + z", "q = r/s + z"),  # floor, not round: said so, never with the brackets dropped
        ("q = |r/s| + z", "q = r/s + z"),  # bars the grader does not read: no formula is quoted at all
        ("q = ⌊r/s + z", "q = r/s + z"),
    ],
)
def test_feedback_never_quotes_a_formula_with_symbols_dropped(response, misquote):
    result = grade(card(AFFINE), response)
    assert result.verdict is not CORRECT
    assert misquote not in result.feedback


@pytest.mark.parametrize(
    "response",
    [
        r"$\frac{1}{N}\sum_i L_i$",
        r"$\frac{1}{N}\sum_{i=1}^{N} L_i$",
        r"$\frac{\sum_i L_i}{N}$",
        "(1/N) * sum L_i",
        "(1/N) * sum_i L_i",
        "sum(L_i) / N",
        "Σ L_i / N",
        "∑_{i=1}^N L_i / N",
    ],
)
def test_a_sum_grades_alike_in_every_notation_with_or_without_its_index(response):
    from apps.quiz.formulas import find_expressions

    assert find_expressions(response) == find_expressions("(1/N) * sum L_i")
    reference = grade(card(DIVIDE_LOSS), "(1/N) * sum L_i")
    result = grade(card(DIVIDE_LOSS), response)
    assert (result.verdict, result.score) == (reference.verdict, reference.score)
    assert "the formula" in result.matched


def test_the_index_of_a_sum_is_a_dummy_but_the_summand_is_not():
    assert parse_formula(r"y = \sum_j x_j").canonical == parse_formula("y = sum x_j").canonical
    assert parse_formula(r"y = \sum_j x_j").canonical != parse_formula(r"y = \sum_j w_j").canonical
    assert parse_formula(r"y = \prod_{i=1}^{n} x_i").canonical == parse_formula("y = ∏ x_i").canonical


TEX_CLAMP = r"$q = \mathrm{clamp}\left(\left\lfloor \frac{r}{s} \right\rceil + z, q_{min}, q_{max}\right)$"


@pytest.mark.parametrize(
    ("response", "verdict", "low", "high"),
    [
        # the standard clamping to the integer range around the right formula is a more complete answer
        ("q = clamp(round(r/s)+z, qmin, qmax)", CORRECT, 1.0, 1.0),
        ("q = clip(round(r/s) + z, q_min, q_max)", CORRECT, 1.0, 1.0),
        ("q = min(max(round(r/s) + z, qmin), qmax)", CORRECT, 1.0, 1.0),
        (TEX_CLAMP, CORRECT, 1.0, 1.0),
        # clamping does not mend a wrong formula inside it
        ("q = clamp(round(r/s), qmin, qmax)", PARTIAL, 0.5, 0.5),
        ("q = clamp(round(r*s)+z, qmin, qmax)", INCORRECT, 0.0, 0.0),
        # the formula asked for without its left-hand side
        ("round(r/s)+z", CORRECT, 1.0, 1.0),
        ("z + round(r/s)", CORRECT, 1.0, 1.0),
        (r"$\text{round}\left(\frac{r}{s}\right) + z$", CORRECT, 1.0, 1.0),
        ("clamp(round(r/s)+z, qmin, qmax)", CORRECT, 1.0, 1.0),
        ("s(q - z)", PARTIAL, 0.5, 0.5),  # the dequantization side: another formula of the answer
        # the right idea short of the integer: the rounding left out is close, not the answer
        ("r/s + z", PARTIAL, 0.5, 0.5),
        ("q = r/s + z", PARTIAL, 0.5, 0.5),
        ("q = x/s + z", PARTIAL, 0.5, 0.5),  # the real value called x, as "q = round(x/s) + z" may: it was 0
        ("q = clamp(r/s + z, qmin, qmax)", PARTIAL, 0.5, 0.5),
        ("q = x/y + z", INCORRECT, 0.0, 0.0),  # two letters renamed could stand for anything
        ("r*s + z", INCORRECT, 0.0, 0.39),
        ("q", INCORRECT, 0.0, 0.0),
    ],
)
def test_clamped_formulas_and_formulas_without_their_left_hand_side(response, verdict, low, high):
    result = grade(card(AFFINE), response)
    check(result, verdict, low, high)
    if verdict is CORRECT:
        assert "q = round(r/s) + z" in result.feedback
