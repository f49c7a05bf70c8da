"""Grading of free-recall answers: a pure function of a card and a response.

Layers, first decisive one wins:

1. exact targets: the short answer, its acronym variants and instructor aliases, after normalisation
   (filler such as "I think it's" and the question's own words may surround them); a target the response rules
   out ("not a Job", "a Deployment rather than a Job", "Not DDP, Horovod") earns nothing;
2. the same targets with a tolerated typo per word (never containment: "CronJob" is not "Job");
3. formulas, compared in a canonical form whatever the notation (TeX or plain);
4. key-term coverage of the model answer (instructor key terms when given, else derived ones). A flashcard
   whose short answer names a term (a few words, no verb) stops before this layer: it wants the term; naming
   only the product the term belongs to ("PyTorch" for "PyTorch Distributed Data Parallel") is partly right.

Verdicts from scores: CORRECT when score >= 0.75, PARTIAL when >= 0.40, else INCORRECT, which scores 0.

- exact target, or the formula the question asks for (also clamped to a range, "clamp(round(r/s) + z, qmin,
  qmax)", or its defining side alone, "round(r/s) + z"): 1.0; a target with a tolerated typo: 0.9;
- the right term hedged with another ("Job or Deployment"), a formula missing a term, or another formula of
  the answer than the one asked for: 0.5; a wrong formula on its own, or "there is no difference" to a question
  comparing two things: 0.0;
- a prose answer: scored by its coverage of the model answer's key terms (prose.py).

Verdicts, scores and their thresholds: verdicts.py.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from .formulas import check_expression, check_formulas, find_expressions, find_formulas, wrong_expressions
from .glossary import response_names
from .keyterms import repeats_question
from .mathtext import readable
from .profile import Profile, card_profile
from .prose import coverage_grade
from .targets import TargetMatch, find_target, is_negated, is_term, unqualified
from .texplain import operators
from .textnorm import FILLER, GENERIC_HEADS, fold, is_generic, tokenize
from .verdicts import CORRECT_AT, HEDGE_SCORE, PARTIAL_AT, TYPO_SCORE, Grade, Verdict

__all__ = ["CORRECT_AT", "HEDGE_SCORE", "PARTIAL_AT", "Grade", "GradingCard", "Verdict", "grade"]

logger = logging.getLogger(__name__)

FORMULA_WEIGHT = 2.0
EXPRESSION_WEIGHT = 1.0  # an expression (not an equation) of the answer counts as one ordinary key term
MAX_CHARS = 4000


class Gradable(Protocol):
    question: str
    answer: str
    short_answer: str
    kind: str
    aliases: Sequence[str]
    key_terms: Sequence[str]


@dataclass(frozen=True)
class GradingCard:
    question: str
    answer: str
    short_answer: str = ""
    kind: str = "syllabus"
    aliases: tuple[str, ...] = ()
    key_terms: tuple[str, ...] = ()


_FORMULA_GRADES = {
    "correct": (Verdict.CORRECT, 1.0, "Your formula matches {expected}."),
    "clamped": (Verdict.CORRECT, 1.0, "Your formula matches {expected}, clamped to a range."),
    "other": (Verdict.PARTIAL, HEDGE_SCORE, "{given} is in the answer, but the question asks for {expected}."),
    "close": (Verdict.PARTIAL, HEDGE_SCORE, "Your formula {given} is close to {expected} but not the same."),
    "wrong": (Verdict.INCORRECT, 0.0, "Your formula {given} does not match {expected}."),
}


def grade(card: Gradable, response: str) -> Grade:
    """Grade a free-recall `response` to `card`. Total: never raises, whatever the input."""
    try:
        text = response if isinstance(response, str) else ""
        profile = card_profile(
            str(card.question or ""),
            str(card.answer or ""),
            str(getattr(card, "short_answer", "") or ""),
            str(getattr(card, "kind", "") or ""),
            tuple(str(a) for a in (getattr(card, "aliases", None) or ()) if str(a).strip()),
            tuple(str(k) for k in (getattr(card, "key_terms", None) or ()) if str(k).strip()),
        )
        result = _grade(profile, text[:MAX_CHARS])
        return replace(result, feedback=readable(result.feedback)) if "$" in result.feedback else result
    except Exception:  # the submit path must get a verdict; an instructor can still override it
        logger.exception("grading failed for question %r", getattr(card, "question", "")[:80])
        return Grade(
            Verdict.INCORRECT, 0.0, "This answer could not be graded automatically; an instructor will review it."
        )


def _grade(profile: Profile, text: str) -> Grade:
    if not text.strip():
        return Grade(Verdict.INCORRECT, 0.0, "No answer given.")
    tokens = tokenize(fold(text))
    names = response_names(text, profile.names) if profile.names else {}
    formulas = find_formulas(text, names) if profile.formulas else []
    if not tokens and not formulas:
        return Grade(Verdict.INCORRECT, 0.0, "No recognisable words in this answer.")
    content = [t for t in tokens if t.norm not in FILLER and not is_generic(t.norm)]
    pasted = repeats_question(content, profile.question_stems, profile.question_content)
    asking = text.rstrip().endswith("?")
    match = find_target(tokens, profile.targets, profile.question_norms, asking=asking) if profile.targets else None
    if match is None and profile.targets and (named := unqualified(tokens)):
        match = find_target(named, profile.targets, profile.question_norms, asking=asking)
    # A pasted question may contain the answer ("... run a one-time batch training job?"): no credit for that.
    pasted_answer = match is not None and pasted and all(t.norm in profile.question_norms for t in match.target.tokens)
    # A formula's names with other signs ("θ + η∇L" for "θ − η∇L") are another formula.
    signed = profile.short_signs is None or operators(text) == profile.short_signs
    if match is not None and not pasted_answer and signed:
        return _target_grade(match)
    if pasted:
        return Grade(Verdict.INCORRECT, 0.0, "That repeats the question; say what the answer is.")

    bonus, formula_note = 0.0, ""
    if formulas:
        checked = check_formulas(formulas, profile.formulas, profile.core_formulas, text)
        if checked.outcome in _FORMULA_GRADES:
            return _formula_grade(checked.outcome, checked.given, checked.expected)
        bonus = FORMULA_WEIGHT if checked.outcome == "aside" else 0.0
        formula_note = f"Your formula does not match {checked.expected}." if checked.outcome == "wrong_in_prose" else ""
    elif profile.core_formulas:  # the formula asked for, its left-hand side left out: "round(r/s) + z"
        checked = check_expression(text, profile.formulas, profile.core_formulas, names)
        if checked.outcome in _FORMULA_GRADES:
            return _formula_grade(checked.outcome, checked.given, checked.expected)
    if not bonus and profile.expressions and find_expressions(text) & profile.expressions:
        bonus = EXPRESSION_WEIGHT  # an expression of the answer, in any notation: "(1/N) * sum L_i"
    elif not formulas and profile.expressions and wrong_expressions(text, profile.expressions):
        formula_note = "Your expression does not match the answer's."  # "N * sum L_i": never fully right
    if profile.term_mode and not profile.authored:
        # What the response names, leaving out what it rules out: "not TensorFlow but PyTorch" names PyTorch.
        named = {
            t.norm
            for i, t in enumerate(tokens)
            if t.norm not in FILLER
            and not is_generic(t.norm)
            and t.norm not in profile.question_norms
            and t.norm not in GENERIC_HEADS
            and not is_negated(tokens, i, profile.question_norms)
        }
        if profile.qualifier and named == {profile.qualifier}:
            short = profile.short_answer.rstrip(".!?;:")
            feedback = f"That alone is not specific enough; the answer is {short}."
            return Grade(Verdict.PARTIAL, HEDGE_SCORE, feedback, (), (short,))
        return Grade(
            Verdict.INCORRECT,
            0.0,
            f"The expected answer is {profile.short_answer.rstrip('.!?;:')}.",
            (),
            (profile.short_answer,),
        )
    return coverage_grade(profile, text, tokens, bonus, formula_note)


def _formula_grade(outcome: str, given: str, expected: str) -> Grade:
    verdict, score, message = _FORMULA_GRADES[outcome]
    right = verdict is Verdict.CORRECT
    return Grade(
        verdict, score, message.format(given=given, expected=expected), (expected,) * right, (expected,) * (not right)
    )


def _target_grade(match: TargetMatch) -> Grade:
    shown = match.target.shown
    if match.negated:  # a sentence ("To manage model versioning, ...") is quoted, not pasted mid-sentence
        said = f"{shown}, but {shown} is the answer" if is_term(shown) else f"the expected answer, '{shown}'"
        return Grade(Verdict.INCORRECT, 0.0, f"Your answer rules out {said}.", (), (shown,))
    if match.hedged:
        return Grade(
            Verdict.PARTIAL,
            HEDGE_SCORE,
            f"{shown} is the answer, but you also offered another one; commit to a single answer.",
            (shown,),
        )
    if match.typos:
        typos = ", ".join(f"'{written}'" for written, _ in match.typos)
        return Grade(Verdict.CORRECT, TYPO_SCORE, f"Typo tolerated: {typos}.", (shown,))
    return Grade(Verdict.CORRECT, 1.0, "", (shown,))
