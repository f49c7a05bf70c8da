"""Key terms of a model answer, and how well a response covers them. Pure: stdlib + rapidfuzz."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial

from .acronyms import names_before, spelled_out
from .paraphrase import FACTOR, SUM, by_pieces, compound_pieces, neighbours, redone, sized_factors
from .synonyms import VOCABULARY, groups_of, groups_of_pair, several_named
from .textnorm import (
    FILLER,
    QUANTITY,
    STOPWORDS,
    Token,
    fold,
    is_generic,
    is_weak,
    plain_from_tex,
    stem,
    stems_related,
    tokenize,
)
from .typos import is_typo

SYNONYM_CREDIT = 0.75
TYPO_CREDIT = 0.85
HEAD_CREDIT = 0.5
_NUMBER = re.compile(r"[\d.]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'$])")
_PAREN = re.compile(r"\(([^()]*)\)")
# Where a sentence turns to another part of the answer: a reason, a condition, a contrast ("splits the layers
# across devices because the model is too large to fit in one device's memory").
_PART = re.compile(r"\s+(?=(?:because|since|so|when|whenever|while|whereas)\b)", re.IGNORECASE)
_EXAMPLE = re.compile(r"^\s*(?:e\.?g\.?|for example|for instance|such as|i\.?e\.?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class KeyTerm:
    label: str
    alts: tuple[tuple[str, ...], ...]  # each alternative: stems that must all appear
    weight: float
    exact: bool = False  # acronyms and words with digits: no typo or prefix tolerance
    head: str = ""  # stem of the last piece of a compound ("batch" of "mini-batch"): weaker evidence
    sentences: frozenset[int] = frozenset()  # parts of the model answer that use the term: sentences, and their
    # clauses of reason, condition or contrast
    word: str = ""  # the word as written, unstemmed: typos are judged on whole words
    pieces: tuple[str, ...] = ()  # stems of a two-piece compound: "large", "batch" of "large-batch" (paraphrase.py)


@lru_cache(maxsize=8192)
def is_exact_only(token: Token) -> bool:
    return any(c.isdigit() for c in token.norm) or (token.technical and not token.parts)


@lru_cache(maxsize=1024)
def question_stems(question: str) -> frozenset[str]:
    out: set[str] = set()
    for token in tokenize(fold(plain_from_tex(question))):
        out.add(stem(token.norm))
        out.update(stem(p) for p in token.parts if len(p) > 2)
    return frozenset(out)


@lru_cache(maxsize=16384)
def in_question(word_stem: str, qstems: frozenset[str]) -> bool:
    return word_stem in qstems or (len(word_stem) >= 5 and any(stems_related(word_stem, q) for q in qstems))


def repeats_question(content: list[Token], qstems: frozenset[str], question_content: frozenset[str]) -> bool:
    """Most of the question (`question_content`: its content stems) pasted back, with hardly a word of its own."""
    stems = {stem(t.norm) for t in content}
    if len(stems) < 3:
        return False
    own = [s for s in stems if not in_question(s, qstems)]
    shared = len(stems & question_content)
    return len(own) <= max(1, len(stems) // 6) and shared >= 0.6 * max(len(question_content), 1)


def _specificity(word: str) -> float:
    """Longer words are rarer and carry more of an answer (Zipf); a cheap stand-in for IDF."""
    return 0.8 if len(word) <= 4 else 0.9 if len(word) <= 6 else 1.0 if len(word) <= 9 else 1.05


def _chunks(sentence: str) -> list[tuple[str, float]]:
    """The sentence split into (text, weight factor): asides in parentheses count less, examples least."""
    out, last = [], 0
    for match in _PAREN.finditer(sentence):
        out.append((sentence[last : match.start()], 1.0))
        aside = match.group(1)
        named = names_before(sentence[: match.start()], aside)  # "integrated circuits (ASICs)": a name
        out.append((aside, 1.0 if named else 0.5 if _EXAMPLE.match(aside) else 0.6))
        last = match.end()
    out.append((sentence[last:], 1.0))
    return out


def _parts(answer: str) -> list[tuple[int, str]]:
    """The parts of an answer, each with the number of its sentence: its sentences, and their clauses of reason,
    condition or contrast."""
    sentences = _SENTENCE_END.split(fold(plain_from_tex(answer)))
    return [(position, part) for position, sentence in enumerate(sentences) for part in _PART.split(sentence)]


@lru_cache(maxsize=512)
def part_echoes(question: str, answer: str) -> tuple[frozenset[str], ...]:
    """For each part of the answer after the first, the question's words that it alone uses: a response using
    them speaks of that part, though they earn no key term ("effective batch size" of "The effective batch size
    is N x micro-batch size" for "how does it produce a larger effective batch size?")."""
    qstems = question_stems(question)
    words = [
        {stem(t.norm) for t in tokenize(text) if t.norm not in STOPWORDS and not is_generic(t.norm)} & qstems
        for _, text in _parts(answer)
    ]
    return tuple(
        frozenset() if number == 0 else frozenset(own - set().union(*words[:number], *words[number + 1 :]))
        for number, own in enumerate(words)
    )


@lru_cache(maxsize=512)
def derive_key_terms(question: str, answer: str) -> tuple[KeyTerm, ...]:
    """Content words and technical tokens of the answer that the question does not already give away."""
    qstems = question_stems(question) | spelled_out(question, answer)
    found: dict[str, list] = {}  # stem -> [label, weight, count, exact, head, sentences, word, pieces]
    either: list[tuple[str, str]] = []
    for number, (position, part) in enumerate(_parts(answer)):
        for text, factor in _chunks(part):
            tokens = tokenize(text)
            either += _alternatives(tokens)
            for token in tokens:
                norm = token.norm
                if norm in STOPWORDS or is_generic(norm) or len(norm) < 2 or _NUMBER.fullmatch(norm):
                    continue
                word_stem = stem(norm)
                if in_question(word_stem, qstems):
                    continue
                if token.parts and all(p in STOPWORDS or in_question(stem(p), qstems) for p in token.parts):
                    continue
                base = 1.3 if token.technical else 0.5 if is_weak(norm) else _specificity(norm)
                weight = base * factor * (1.0 if position == 0 else 0.75)
                entry = found.get(word_stem) or next(
                    (found[k] for k in found if len(word_stem) >= 5 and stems_related(k, word_stem)), None
                )
                if entry is None:
                    label = token.surface if token.surface.isupper() or token.technical else token.surface.lower()
                    head = stem(token.parts[-1]) if token.parts and len(token.parts[-1]) >= 4 else ""
                    head = "" if in_question(head, qstems) else head
                    pieces = compound_pieces(token)
                    found[word_stem] = [label, weight, 1, is_exact_only(token), head, {number}, norm, pieces]
                else:
                    entry[1], entry[2] = max(entry[1], weight), entry[2] + 1
                    entry[5].add(number)
    terms = {
        s: KeyTerm(
            label, ((s,),), round(min(1.6, weight * (1.2 if count > 1 else 1.0)), 3), exact, head, frozenset(at), *rest
        )
        for s, (label, weight, count, exact, head, at, *rest) in found.items()
    }
    # "FP16 or BF16 or FP8": a chain of alternatives is one term.
    group = {s: s for s in terms}
    for first, second in either:
        if first in group and second in group:
            group[_root(group, second)] = _root(group, first)
    members: dict[str, list[KeyTerm]] = {}
    for word_stem, term in terms.items():
        members.setdefault(_root(group, word_stem), []).append(term)
    return tuple(_either(group_terms) for group_terms in members.values())


def _root(group: dict[str, str], word_stem: str) -> str:
    while group[word_stem] != word_stem:
        word_stem = group[word_stem]
    return word_stem


def _either(terms: list[KeyTerm]) -> KeyTerm:
    if len(terms) == 1:
        return terms[0]
    return KeyTerm(
        " or ".join(term.label for term in terms), tuple(alt for term in terms for alt in term.alts),
        max(term.weight for term in terms), all(term.exact for term in terms), "",
        frozenset().union(*(term.sentences for term in terms)),
    )  # fmt: skip


def _alternatives(tokens: list[Token]) -> list[tuple[str, str]]:
    """Stems of two technical terms the answer offers as alternatives, "FP16 or BF16": a response naming
    either names the term (it was marked as missing the other)."""
    return [
        (stem(a.norm), stem(b.norm))
        for a, word, b in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if word.norm == "or" and a.technical and b.technical and not word.boundary and not b.boundary
    ]


@dataclass
class ResponseIndex:
    stems: dict[str, tuple[str, ...]]  # a stem present, or joined from neighbours -> the response stems behind it
    by_prefix: dict[str, list[str]]
    groups: dict[int, list[tuple[str, ...]]]  # synonym group evoked -> the response stems that evoke it
    unknown: tuple[str, ...]  # words that may be typos (not in any vocabulary we know)
    spelled: dict[str, str]  # stem -> the word as written, for judging typos on whole words
    content: frozenset[str]  # content stems, for the precision check
    length: int  # content words, repeats included
    pairs: tuple[tuple[str, str], ...] = ()  # neighbouring stems, no punctuation between, neither the question's


def index_response(tokens: list[Token], known: frozenset[str], qstems: frozenset[str]) -> ResponseIndex:
    stems: dict[str, tuple[str, ...]] = {}
    groups: dict[int, list[tuple[str, ...]]] = {}
    plain = [stem(t.norm) for t in tokens]
    for i, token in enumerate(tokens):
        own = plain[i]
        stems.setdefault(own, (own,))
        for part in token.parts:
            if len(part) > 2:
                stems.setdefault(stem(part), (own,))
        for width in (2, 3):
            window = tokens[i : i + width]
            if len(window) == width and not any(t.boundary for t in window[1:]):
                stems.setdefault(stem("".join(t.norm for t in window)), tuple(plain[i : i + width]))
        # Echoing the question's words is no evidence, not even through a synonym.
        if in_question(own, qstems):
            continue
        for group in groups_of(own):
            groups.setdefault(group, []).append((own,))
        if i + 1 < len(tokens) and not tokens[i + 1].boundary:
            for group in groups_of_pair(own, plain[i + 1]):  # "32 bit": both words are spent on it
                groups.setdefault(group, []).append((own, plain[i + 1]))
    for kind, names in several_named(tokens, lambda name: in_question(name, qstems)).items():
        stems.setdefault(kind, names)  # "train in PyTorch, run in TensorFlow": frameworks
    answers = {s for s in known if s not in STOPWORDS and not in_question(s, qstems)}
    for factor in sized_factors(tokens, plain, answers.__contains__):  # "N times too large compared with X": a sum
        stems.setdefault(SUM, factor)
    for word, *said in redone(tokens, plain, lambda s: s in answers or bool(groups_of(s))):  # "define it again"
        if not in_question(said[0], qstems):
            stems.setdefault(word, tuple(said))
            for group in groups_of(word):
                groups.setdefault(group, []).append(tuple(said))
    by_prefix: dict[str, list[str]] = {}
    for word_stem in stems:
        by_prefix.setdefault(word_stem[:5], []).append(word_stem)
    vocabulary = known | VOCABULARY
    unknown = tuple(
        s
        for s in dict.fromkeys(plain)
        if len(s) >= 4 and s not in vocabulary and s not in FILLER and not any(c.isdigit() for c in s)
    )
    content = [
        s
        for i, (s, t) in enumerate(zip(plain, tokens, strict=True))
        if t.norm not in FILLER
        and not is_generic(t.norm)
        and len(t.norm) > 2
        and not _NUMBER.fullmatch(t.norm)
        and not (t.norm == "times" and i and FACTOR.fullmatch(tokens[i - 1].norm))  # "N times": a sign
    ]
    spelled = {s: t.norm for s, t in zip(plain, tokens, strict=True)}
    return ResponseIndex(
        stems,
        by_prefix,
        groups,
        unknown,
        spelled,
        frozenset(s for s in content if not in_question(s, qstems)),
        len(content),
        neighbours(tokens, plain, partial(in_question, qstems=qstems)),
    )


def _match_stem(
    word_stem: str,
    exact: bool,
    index: ResponseIndex,
    free: set[str],
    loose: bool,
    word: str = "",
    compound: bool = False,
) -> tuple[float, tuple[str, ...]]:
    """Credit for one stem and the response stems that earn it (all the words of a joined compound, so
    "systolic array" spends both); `loose` allows synonyms and typos, of the whole of a `compound` term only."""
    if not loose:
        hit = index.stems.get(word_stem)
        if hit is not None and hit[0] in free:
            return 1.0, hit
        if not exact and len(word_stem) >= 5:
            for candidate in index.by_prefix.get(word_stem[:5], ()):
                if stems_related(candidate, word_stem) and index.stems[candidate][0] in free:
                    return 1.0, index.stems[candidate]
        return 0.0, ()
    for group in groups_of(word_stem, compound=compound):
        for candidate in index.groups.get(group, ()):
            if all(c in free for c in candidate):
                return SYNONYM_CREDIT, candidate
    if not exact:
        for candidate in index.unknown:
            # Stems, or whole words: the stemmer may cut one spelling and not the other ("interoperabilty").
            written = index.spelled.get(candidate, candidate)
            if candidate in free and (is_typo(candidate, word_stem) or (word and is_typo(written, word))):
                return TYPO_CREDIT, (candidate,)
    return 0.0, ()


def match_term(term: KeyTerm, index: ResponseIndex, free: set[str], loose: bool) -> tuple[float, tuple[str, ...]]:
    """Credit in [0, 1] for one key term, and the response stems that earned it."""
    best: tuple[float, tuple[str, ...]] = (0.0, ())
    for alt in term.alts:
        if len(alt) == 1:
            results = [_match_stem(alt[0], term.exact, index, free, loose, term.word, compound=bool(term.pieces))]
        else:  # a phrase: each of its words may be matched exactly or through a synonym
            results = [_match_stem(s, term.exact, index, free, False) for s in alt]
            results = [
                r if r[0] else _match_stem(s, term.exact, index, free, True) for s, r in zip(alt, results, strict=True)
            ]
        if not results or any(r[0] == 0 for r in results):
            continue
        credit = min(r[0] for r in results)
        if credit > best[0]:
            best = (credit, tuple(dict.fromkeys(s for r in results for s in r[1])))
    # "big batch" for "large-batch": a piece said as written is better evidence than the lone head word "batch"
    if not loose and best[0] == 0.0 and (said := by_pieces(term.pieces, index.pairs, index.groups, free)):
        best = (SYNONYM_CREDIT, said)
    if loose and best[0] == 0.0 and term.head and term.head in index.stems and index.stems[term.head][0] in free:
        best = (HEAD_CREDIT, index.stems[term.head][:1])
    return best


@dataclass(frozen=True)
class Coverage:
    ratio: float  # matched weight / weight needed for full marks (may exceed 1)
    matched: tuple[str, ...]
    missing: tuple[str, ...]
    precision: float  # share of the response's content words that earned credit
    used: frozenset[str] = frozenset()  # response stems that earned credit
    sentences: frozenset[int] = frozenset()  # sentences of the model answer that credited terms belong to alone
    contradicted: tuple[str, ...] = ()  # key terms the response names only to deny them
    against: frozenset[str] = frozenset()  # response stems that deny a key term
    contradicted_weight: float = 0.0
    matched_weight: float = 0.0


def coverage(
    terms: tuple[KeyTerm, ...], index: ResponseIndex, needed: float, blocked: tuple[frozenset[str], ...] = ()
) -> Coverage:
    """Each response word earns credit for one key term at most; exact evidence is assigned first. `blocked`
    (one set per term) holds the response stems that may not earn that term: the response denies what the
    answer affirms (see polarity.py); a term they alone would have earned is contradicted."""
    free = {origin for origins in index.stems.values() for origin in origins} | set(index.unknown)
    ordered = sorted(zip(terms, blocked or ((frozenset(),) * len(terms)), strict=True), key=lambda t: -t[0].weight)
    credits: dict[int, float] = {}
    used: set[str] = set()
    for loose in (False, True):
        for position, (term, off) in enumerate(ordered):
            if position in credits:
                continue
            credit, stems_used = match_term(term, index, free - off if off else free, loose)
            if credit > 0:
                credits[position] = term.weight * credit
                free.difference_update(stems_used)
                used.update(stems_used)
    contradicted: dict[int, float] = {}
    against: set[str] = set()
    for loose in (False, True):
        for position, (term, off) in enumerate(ordered):
            if position in credits or position in contradicted or not off:
                continue
            credit, stems_used = match_term(term, index, (free & off) - against, loose)
            if credit > 0:
                contradicted[position] = term.weight * credit
                against.update(stems_used)
    ordered = [term for term, _ in ordered]
    matched = tuple(t.label for i, t in enumerate(ordered) if i in credits)
    missing = tuple(t.label for i, t in enumerate(ordered) if i not in credits)
    precision = len(index.content & used) / len(index.content) if index.content else 1.0
    got = sum(credits.values())
    # A term used in several sentences says nothing about which part of the answer was given, nor does a word of
    # quantity ("a single GPU" for "splits a single model's layers").
    alone = [
        t.sentences
        for i, t in enumerate(ordered)
        if i in credits and len(t.sentences) == 1 and t.word.casefold() not in QUANTITY
    ]
    sentences = frozenset().union(*alone)
    return Coverage(
        got / needed if needed > 0 else 0.0,
        matched,
        missing,
        precision,
        frozenset(used),
        sentences,
        tuple(t.label for i, t in enumerate(ordered) if i in contradicted),
        frozenset(against),
        sum(contradicted.values()),
        sum(t.weight for i, t in enumerate(ordered) if i in credits),
    )
