"""Restrictions: a response saying a thing has "only X" where the answer gives it X among others. Pure, stdlib only.

"The full .keras model keeps just the weights" against "Saving the full model stores architecture, weights,
optimizer state, and training config": the restriction leaves out what the answer lists beside the weights, so it
says the opposite of the answer. The answer's sentence the response speaks of is the one sharing most of its other
words ("full", "keras", "model"); when that sentence restricts X itself ("Saving only weights stores parameter
values"), or lists nothing beside it, or the response names what it lists beside it, the restriction agrees.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .synonyms import groups_of
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, stem, stems_related, tokenize

_RESTRICTORS = frozenset({"only", "just", "solely", "merely", "exclusively"})
_DETERMINERS = frozenset({"a", "an", "the", "its", "their", "his", "her", "our", "your"})
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def _content(token: Token) -> bool:
    norm = token.norm
    return not (norm in STOPWORDS or norm in FILLER or is_generic(norm) or len(norm) < 3)


def _same(a: str, b: str) -> bool:
    return stems_related(a, b) or bool(groups_of(a) & groups_of(b))


def _restricted(sentence: tuple[Token, ...], i: int) -> bool:
    return any(t.norm in _RESTRICTORS for t in sentence[max(0, i - 2) : i])


Sentence = tuple[tuple[Token, ...], frozenset[int]]  # its words, and the positions of those after a comma


def listed_sentences(answer: str) -> tuple[Sentence, ...]:
    """The answer's sentences, each with where a comma separates two words (a list: "architecture, weights")."""
    out = []
    for sentence in _SENTENCE_END.split(fold(answer)):
        tokens: list[Token] = []
        commas = set()
        for piece in sentence.split(","):
            words = tokenize(piece)
            if tokens and words:
                commas.add(len(tokens))
            tokens += words
        out.append((tuple(tokens), frozenset(commas)))
    return tuple(out)


def _beside(sentence: Sentence, i: int) -> list[str]:
    """Stems of the content words listed beside the word at `i` ("architecture, weights, optimizer state")."""
    tokens, commas = sentence
    out = []
    before = i - 1 if i in commas else i - 2 if i > 1 and tokens[i - 1].norm == "and" else -1
    after = i + 1 if i + 1 in commas else i + 2 if i + 1 < len(tokens) and tokens[i + 1].norm == "and" else -1
    for j in (before, after):
        if 0 <= j < len(tokens) and _content(tokens[j]):
            out.append(stem(tokens[j].norm))
    return out


def restrictions(text: str, sentences: tuple[Sentence, ...], names_term: Callable[[str], bool]) -> tuple[str, ...]:
    """The response's restrictions that leave out what the answer lists beside the restricted word, as written."""
    out = []
    for said in _SENTENCE_END.split(fold(text)[:4000]):
        tokens = tokenize(said)
        for r, token in enumerate(tokens):
            if token.norm not in _RESTRICTORS or (r and tokens[r - 1].norm == "not"):
                continue
            k = r + 1
            while k < len(tokens) and tokens[k].norm in _DETERMINERS:
                k += 1
            if k >= len(tokens) or not _content(tokens[k]) or not names_term(stem(tokens[k].norm)):
                continue
            word = stem(tokens[k].norm)
            others = {stem(w) for n, t in enumerate(tokens) if n != k and _content(t) for w in (t.norm, *t.parts)}
            others -= {word, *STOPWORDS}
            found = _sentence(sentences, word, others)
            if found is None:
                continue
            sentence, i = found
            if _restricted(sentence[0], i):
                continue
            listed = [s for s in _beside(sentence, i) if names_term(s) and not any(_same(s, o) for o in others)]
            if listed:
                out.append(" ".join(t.surface for t in tokens[r : k + 1]))
    return tuple(out)


def _sentence(sentences: tuple[Sentence, ...], word: str, others: set[str]) -> tuple[Sentence, int] | None:
    """The answer's sentence using `word` that shares most of the response's other words (at least one, two when
    the answer restricts the word somewhere), and where in it the word is. On a tie, one restricting the word
    itself wins: the response may echo its "only X"."""
    best, best_rank, echoed = None, (0, False), False
    for sentence in sentences:
        tokens = sentence[0]
        spots = [i for i, t in enumerate(tokens) if stems_related(stem(t.norm), word)]
        if not spots:
            continue
        overlap = len(others & {stem(t.norm) for t in tokens if _content(t)})
        rank = (overlap, any(_restricted(tokens, i) for i in spots))
        echoed = echoed or rank[1]
        if overlap and rank > best_rank:
            best, best_rank = (sentence, spots[0]), rank
    # Where the answer says "only X" itself, one shared word ("architecture") does not tell which thing is meant.
    return best if best_rank[0] >= 1 + echoed else None
