"""Corrective contrasts: "X instead of Y", "X rather than Y", "X, not Y". Pure, stdlib only.

A response that sets the answer's result against what it replaces ("an average instead of a sum", where the answer
sums the gradients and divides to get the mean) states the point of the answer in a few words that key-term
coverage values little: both are short, common words. Such a contrast agrees with the answer when the answer's
sentence that answers the question (the one with most of the question's words) says X and not Y, and both name
key terms of the answer; it then counts as one more key term (prose.py). In a counterfactual sentence
("otherwise it's a sum rather than the mean") X and Y trade places: it tells what goes wrong without the answer.
A contrast the other way round earns nothing here; whether it is wrong is left to the denials (polarity.py).

A denied sameness ("features at training time not matching those at inference", "aren't the same") says there is a
difference: where the answer names one ("discrepancies") and not the sameness word itself, it is read as "mismatch".
There, a sameness stated plainly ("offline and online features always match") says the opposite of the answer,
unless it is what should be, or is made to be ("must match", "ensures the same features"): the remedy, not a claim.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .paraphrase import SUM, overshoots
from .synonyms import groups_of
from .targets import NEGATORS
from .textnorm import FILLER, STOPWORDS, Token, canon, fold, is_generic, stem, stems_related, tokenize

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")  # a colon or semicolon goes on with the sentence
_PAIRS = {("instead", "of"), ("rather", "than")}
_AFTER_NOT = frozenset({"but", "and"})  # "..., but not Y", "... and not Y"
_COUNTERFACTUAL = frozenset({"otherwise", "without"})
_SAMENESS = frozenset(
    {"same", "identical", "equal", "match", "matches", "matched", "matching", "consistent", "agree", "agrees"}
    | {"align", "aligned", "aligns"}
)
# Before a sameness, these make it a goal or a remedy ("should be the same", "ensures they match"), not a claim.
_REMEDY = frozenset(
    {"should", "must", "need", "needs", "ensure", "ensures", "ensuring", "guarantee", "guarantees", "keep", "keeps"}
    | {"make", "makes", "making", "so", "to", "want", "wants", "enforce", "enforces", "if", "unless", "until"}
)
_DENIAL_REACH = 3  # words between a negator and the sameness it denies: "don't quite match", "aren't the same"


def _vacuous(token: Token, question_norms: frozenset[str]) -> bool:
    norm = token.norm
    return norm in STOPWORDS or norm in FILLER or norm in question_norms or is_generic(norm) or len(norm) < 3


def core_said(question_norms: frozenset[str], answer_sentences: tuple[tuple[Token, ...], ...]) -> frozenset[str]:
    """Stems of the answer's sentence with most of the question's words, the question's own left out."""
    question = {stem(n) for n in question_norms} - STOPWORDS
    scored = [(len(question & _stems(sentence)), -number) for number, sentence in enumerate(answer_sentences)]
    if not scored or max(scored)[0] == 0:
        return frozenset()
    core = answer_sentences[-max(scored)[1]]
    return frozenset(s for s in _stems(core) - STOPWORDS if not any(stems_related(s, q) for q in question))


def _stems(tokens: tuple[Token, ...]) -> set[str]:
    return {stem(t.norm) for t in tokens} | {stem(p) for t in tokens for p in t.parts if len(p) > 2}


def _named(word_stem: str, said: frozenset[str]) -> bool:
    return any(stems_related(word_stem, s) or groups_of(word_stem) & groups_of(s) for s in said)


def _pairs(tokens: list[Token], question_norms: frozenset[str]) -> list[tuple[str, str]]:
    """(X, Y) stems of each contrast in a sentence: X the last content word before the cue in its clause, Y the
    last of the first run of content words after it ("sum" of "rather than a sum of gradients")."""
    out = []
    for i, token in enumerate(tokens):
        pair = (token.norm, tokens[i + 1].norm) if i + 1 < len(tokens) else ("", "")
        if pair in _PAIRS:
            after = i + 2
        elif token.norm == "not" and i > 0 and (token.boundary or tokens[i - 1].norm in _AFTER_NOT):
            after = i + 1
        else:
            continue
        x = ""
        for j in range(i - 1, -1, -1):
            if not _vacuous(tokens[j], question_norms) and tokens[j].norm not in _AFTER_NOT:
                x = stem(tokens[j].norm)
                break
            if tokens[j].boundary:
                break
        y = _named_after(tokens, after, question_norms)
        if x and y:
            counterfactual = any(t.norm in _COUNTERFACTUAL for t in tokens[:i]) or (
                any(t.norm == "if" for t in tokens[:i]) and any(t.norm in NEGATORS for t in tokens[:i])
            )
            out.append((y, x) if counterfactual else (x, y))
    # "N times too large compared with one big batch": what it should be rather than a sum (paraphrase.py)
    out += [(y, SUM) for after in overshoots(tokens) if (y := _named_after(tokens, after, question_norms))]
    return out


def _named_after(tokens: list[Token], after: int, question_norms: frozenset[str]) -> str:
    """The stem of the last of the first run of content words from `after` ("sum" of "a sum of gradients")."""
    y, k = "", after
    while k < len(tokens) and _vacuous(tokens[k], question_norms) and not tokens[k].boundary:
        k += 1
    while k < len(tokens) and not _vacuous(tokens[k], question_norms) and (k == after or not tokens[k].boundary):
        y, k = stem(tokens[k].norm), k + 1
    return y


def agreeing(
    text: str,
    question_norms: frozenset[str],
    said: frozenset[str],
    names_term: Callable[[str], bool],
) -> tuple[str, ...]:
    """The response's contrasts that agree with the answer (see the module), each as "X instead of Y" in stems."""
    if not said:
        return ()
    out = []
    for sentence in _SENTENCE_END.split(fold(text)[:4000]):
        for x, y in _pairs(tokenize(sentence), question_norms):
            if names_term(x) and names_term(y) and _named(x, said) and not _named(y, said):
                out.append(f"{x} instead of {y}")
    return tuple(out)


def restated(tokens: list[Token], names_term: Callable[[str], bool], own_word: Callable[[str], bool]) -> list[Token]:
    """`tokens` with each denied sameness read as "mismatch" (see the module), when the answer names a difference
    (`names_term`) and not the sameness word itself (`own_word`: "replicas aren't identical" denies a key term)."""
    if not names_term(stem(canon("mismatch"))):
        return tokens
    out = list(tokens)
    for i, token in enumerate(tokens):
        if token.norm not in _SAMENESS or own_word(stem(token.norm)):
            continue
        for j in range(i - 1, max(-1, i - 1 - _DENIAL_REACH), -1):
            if tokens[j].norm in NEGATORS:
                out[i] = Token("mismatch", token.surface, (), token.boundary, False)
                break
            if tokens[j + 1].boundary:
                break
    return out


def sameness_claims(
    tokens: list[Token], names_term: Callable[[str], bool], own_word: Callable[[str], bool]
) -> tuple[str, ...]:
    """Clauses stating plainly a sameness where the answer names a difference (see the module), as written from
    the clause's start to the sameness word."""
    if not names_term(stem(canon("mismatch"))):
        return ()
    out = []
    start = 0
    for i, token in enumerate(tokens):
        if token.boundary:
            start = i
        if token.norm not in _SAMENESS or own_word(stem(token.norm)):
            continue
        before = [t.norm for t in tokens[start:i]]
        if set(before) & (NEGATORS | _REMEDY):
            continue
        out.append(" ".join(t.surface for t in tokens[start : i + 1]))
    return tuple(out)
