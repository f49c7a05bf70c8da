"""Instructor key terms (a KeyTerm row: "all-reduce|allreduce", a concept and its synonyms), read for the grader;
and the synonyms that only repeat the question, which the grader ignores and the forms refuse."""

from __future__ import annotations

from functools import lru_cache

from .keyterms import KeyTerm, in_question, is_exact_only, question_stems
from .textnorm import STOPWORDS, Token, fold, stem, tokenize


def _alternative(alt: str) -> list[Token]:
    tokens = tokenize(fold(alt))
    return [t for t in tokens if t.norm not in STOPWORDS] or tokens


def echoes_question(alt: str, qstems: frozenset[str]) -> bool:
    """A key term, or one of its synonyms, made only of the question's words: repeating the question would earn
    it ("batch" on "... to run a one-time batch training job?")."""
    content = _alternative(alt)
    return bool(content) and all(in_question(stem(t.norm), qstems) for t in content)


def question_echoes(term: str, question: str) -> list[str]:
    """The synonyms of an instructor's key term (`a|b`) that only repeat `question`'s words, as written."""
    qstems = question_stems(question)
    return [alt.strip() for alt in term.split("|") if alt.strip() and echoes_question(alt, qstems)]


@lru_cache(maxsize=512)
def authored_key_terms(entries: tuple[str, ...], qstems: frozenset[str] = frozenset()) -> tuple[KeyTerm, ...]:
    """Instructor key terms: each entry is one concept, its `|`-separated synonyms are alternatives. A synonym
    that only repeats the question (`qstems`) is left out, as the derived terms leave out the question's words:
    the admin refuses one, but a card saved before that check may hold one."""
    terms = []
    for entry in entries:
        alts, exact, label = [], False, ""
        for alt in (a.strip() for a in str(entry).split("|")):
            content = _alternative(alt)
            if content and not echoes_question(alt, qstems):
                alts.append(tuple(stem(t.norm) for t in content))
                exact = exact or (len(content) == 1 and is_exact_only(content[0]))
                label = label or alt
        if alts:
            terms.append(KeyTerm(label, tuple(alts), 1.0, exact and len(alts) == 1))
    return tuple(terms)
