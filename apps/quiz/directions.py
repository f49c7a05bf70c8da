"""Claims of direction in an answer ("reduces the precision", "higher accuracy") and responses that reverse them.

A claim is a direction word (reduce/lower/fewer/less ... or increase/raise/higher/more ...) followed by the noun
it governs: a run of at most three content words in the same clause, whose last word is the head. A response
reverses the answer when it puts the opposite direction word on the same head ("increase precision" where the
answer "reduces the numeric precision"), said of the same thing: when both sentences open with a name (BF16, PTQ)
it must be the same one, and when both compare ("than FP16") it must be with the same one, so "FP16 has more
precision than BF16" does not reverse "BF16 ... lower precision than FP16". A negated direction word ("does not
reduce") and a head the answer moves both ways are left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .synonyms import groups_of, spellings
from .targets import is_negated
from .textnorm import DETERMINERS, STOPWORDS, Token, fold, stem, stems_related, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DOWN = _words(
    """
    reduce reduces reduced reducing lower lowers lowered lowering decrease decreases decreased decreasing shrink
    shrinks shrinking shrank minimize minimise minimizes minimises minimizing minimising lessen lessens smaller
    fewer less narrower divide divides divided dividing
    """
)
UP = _words(
    """
    increase increases increased increasing raise raises raised raising boost boosts boosted boosting maximize
    maximise maximizes maximises maximizing maximising higher larger bigger more greater wider multiply multiplies
    multiplied multiplying improve improves improved improving add adds added adding extra additional
    """
)
# Direction nouns said after the noun they govern: "accuracy drop", "memory reduction", "speed gain".
_AFTER = {
    **dict.fromkeys(("drop", "drops", "degradation", "reduction", "reductions", "decrease"), -1),
    **dict.fromkeys(("gain", "gains", "boost", "increase"), 1),
}
# "saves memory" lowers it, where "saves the model" keeps it: only of what a computation spends.
_SAVE = _words("save saves saved saving")
_SPENT = _words("memory compute computation computations time cost costs bandwidth space storage energy latency")
# "at the cost of memory", "at the expense of compute": more of it.
_PRICE = _words("cost expense")
# Nouns that only measure the noun before them: "memory use", "memory footprint", "GPU utilization".
_MEASURES = _words("use usage consumption footprint requirement requirements cost costs overhead")
_PRONOUNS = _words("it this that they these those")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
HEAD_WORDS = 3  # a longer run reads as a clause ("wider dynamic range avoids overflow"), not a noun


@dataclass(frozen=True)
class Claim:
    sense: int  # -1: reduces, lower, fewer; +1: increases, higher, more
    head: str  # the noun the direction word governs, normalised
    than: str  # what it is compared with ("than FP16"), or ""
    subject: str  # the name the sentence opens with (BF16, PTQ), or ""
    phrase: str  # as written, from the direction word to the head
    words: tuple[str, ...] = ()  # the direction word and the head, normalised
    sentence: int = 0  # which sentence of the text makes it
    opening: tuple[str, ...] = ()  # the first words of that sentence, normalised


def _sense(norm: str) -> int:
    return -1 if norm in DOWN else 1 if norm in UP else 0


@lru_cache(maxsize=1024)
def claims(text: str) -> tuple[Claim, ...]:
    out: list[Claim] = []
    subject = ""
    for number, sentence in enumerate(_SENTENCE_END.split(fold(text)[:4000])):
        tokens = tokenize(sentence)
        lead = tuple(t.norm for t in tokens[:3])
        opening = [t for t in tokens[:3] if t.technical]
        if opening:
            subject = opening[0].norm
        elif not (tokens and tokens[0].norm in _PRONOUNS):  # "It is more precise" is still about the last name
            subject = ""
        for i, token in enumerate(tokens):
            sense, start = _sense(token.norm), i + 1
            if not sense and token.norm in _PRICE and i + 1 < len(tokens) and tokens[i + 1].norm == "of":
                sense, start = 1, i + 2
            saving = not sense and token.norm in _SAVE
            sense = -1 if saving else sense
            after = _AFTER.get(token.norm, 0)  # "a small accuracy drop": the noun before it is the head
            if after and i and not token.boundary and tokens[i - 1].norm not in STOPWORDS | DOWN | UP:
                head = tokens[i - 1]
                phrase = f"{head.surface} {token.surface}"
                out.append(Claim(after, head.norm, "", subject, phrase, (token.norm, head.norm), number, lead))
            if not sense or is_negated(tokens, i, frozenset()):
                continue
            j = start
            while j < len(tokens) and not tokens[j].boundary and tokens[j].norm in DETERMINERS:
                j += 1
            run = []
            while (
                j < len(tokens)
                and not tokens[j].boundary
                and tokens[j].norm not in STOPWORDS
                and not _sense(tokens[j].norm)
            ):
                run.append(tokens[j])
                j += 1
            while len(run) > 1 and run[-1].norm in _MEASURES:  # "memory use" is a claim about memory
                run.pop()
            if not run or len(run) > HEAD_WORDS or (saving and run[-1].norm not in _SPENT):
                continue
            than = ""
            if j + 1 < len(tokens) and tokens[j].norm == "than" and not tokens[j].boundary:
                than = tokens[j + 1].norm if not tokens[j + 1].boundary else ""
            phrase = " ".join(t.surface for t in tokens[i:j])
            words = (token.norm, run[-1].norm)
            out.append(Claim(sense, run[-1].norm, than, subject, phrase, words, number, lead))
            if (also := _coordinated(tokens, j)) is not None:  # "improve GPU utilization and throughput"
                words = (token.norm, also.norm)
                out.append(Claim(sense, also.norm, "", subject, f"{token.surface} {also.surface}", words, number, lead))
    return tuple(out)


def _coordinated(tokens: list[Token], j: int) -> Token | None:
    """The head of a second object joined by "and" at `j`, as the first is, to the same verb: "throughput" of
    "improve GPU utilization and throughput". Not when a verb of direction follows it ("reduces memory and compute
    increases"): that is a clause of its own."""
    if j >= len(tokens) or tokens[j].norm != "and" or tokens[j].boundary:
        return None
    k = j + 1
    while k < len(tokens) and not tokens[k].boundary and tokens[k].norm not in STOPWORDS and not _sense(tokens[k].norm):
        k += 1
    if k == j + 1 or k - j - 1 > HEAD_WORDS or (k < len(tokens) and _sense(tokens[k].norm)):
        return None
    return tokens[k - 1]


@lru_cache(maxsize=1024)
def openings(text: str) -> tuple[tuple[str, ...], ...]:
    """The first words of each sentence, normalised, as `claims` numbers the sentences."""
    return tuple(tuple(t.norm for t in tokenize(sentence)[:3]) for sentence in _SENTENCE_END.split(fold(text)[:4000]))


def _same_head(a: str, b: str) -> bool:
    """The same noun, inflected or derived: "precision"/"precise", "models"/"model"."""
    if stems_related(stem(a), stem(b)):
        return True
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return common >= max(5, min(len(a), len(b)) - 2)


def _about_the_same(claim: Claim, other: Claim) -> bool:
    if claim.subject and other.subject and claim.subject != other.subject:
        return False
    return not (claim.than and other.than and claim.than != other.than) and _same_head(claim.head, other.head)


def compare(answer_claims: tuple[Claim, ...], response: str) -> tuple[tuple[Claim, Claim], ...]:
    """The response's claims that reverse one of the answer's, each with the answer's claim."""
    out = []
    for claim in claims(response):
        related = [a for a in answer_claims if _about_the_same(claim, a)]
        if related and all(a.sense == -claim.sense for a in related):
            out.append((claim, related[0]))
    return tuple(out)


# Conversions ("from 32-bit float to lower-bit integers") and numbers said of a name ("BF16 uses 8 exponent
# bits"): a response that converts the other way round, or gives a name another's number, says the opposite.
_ASIDE = re.compile(r"\([^()]*\)")
_BIT = frozenset({"bit", "bits"})
RUN_WORDS = 3


def _names(run: list[Token]) -> frozenset[str]:
    """What a short phrase names, with its one-word spellings: "32-bit float" also names FP32; a versioned name
    also names its family ("int" of INT8, so INT8 is one of "lower-bit integers")."""
    out = set()
    for token in run:
        word_stem = stem(token.norm)
        if word_stem not in _BIT:
            out.update((word_stem, *spellings(word_stem)))
            family = re.sub(r"\d+", "", word_stem)
            if family != word_stem and len(family) >= 2 and family.isalpha() and family not in _BIT:
                out.add(family)
    return frozenset(out)


def _versioned(run: list[Token]) -> bool:
    """The phrase names a number format: INT8, FP32, "32-bit", "8-bit integers"."""
    return any(any(c.isdigit() for c in t.norm) and any(c.isalpha() for c in t.norm) for t in run)


def _phrase(tokens: list[Token], j: int) -> tuple[list[Token], int]:
    run = []
    while j < len(tokens) and not tokens[j].boundary and len(run) < RUN_WORDS and tokens[j].norm not in STOPWORDS:
        run.append(tokens[j])
        j += 1
    return run, j


_ARROW = re.compile(r"\s*(?:->|=>|\u2192)\s*")


@lru_cache(maxsize=1024)
def conversions(text: str, loose: bool = False) -> tuple[tuple[frozenset[str], frozenset[str], str], ...]:
    """Each "from A to B" of the text: (what A names, what B names, as written). `loose` (for a response) also
    reads "A to B", "A into B" and "A -> B" between number formats: "converting int8 weights to fp32"."""
    out = []
    tokens = tokenize(_ARROW.sub(" to ", fold(text)[:4000]))
    for i, token in enumerate(tokens):
        if token.norm == "from":
            source, j = _phrase(tokens, i + 1)
            if not source or j >= len(tokens) or tokens[j].norm not in ("to", "into") or tokens[j].boundary:
                continue
            target, k = _phrase(tokens, j + 1)
            if target:
                out.append((_names(source), _names(target), " ".join(t.surface for t in tokens[i:k])))
        elif loose and token.norm in ("to", "into") and not token.boundary and i and tokens[i - 1].norm != "from":
            start = i
            while start > 0 and i - start < RUN_WORDS and tokens[start - 1].norm not in STOPWORDS:
                start -= 1
                if tokens[start].boundary:
                    break
            source, (target, k) = tokens[start:i], _phrase(tokens, i + 1)
            if any(t.norm == "from" for t in tokens[max(0, start - 4) : start]):
                continue  # "from FP32 weights to INT8" is read above
            if source and target and _versioned(source) and _versioned(target):
                out.append((_names(source), _names(target), " ".join(t.surface for t in tokens[start:k])))
    return tuple(out)


def swapped(answer: tuple[tuple[frozenset[str], frozenset[str], str], ...], response: str) -> tuple[str, ...]:
    """The response's conversions that go the other way than one of the answer's: "from 8-bit integers to
    32-bit floats" where the answer goes "from 32-bit float to lower-bit integers"."""
    return tuple(
        phrase
        for source, target, phrase in conversions(response, loose=True)
        if any(source & b and target & a and not source & a for a, b, _ in answer)
    )


def _number(token: Token) -> str:
    if token.norm.isdigit():
        return token.norm
    return token.parts[0] if len(token.parts) == 2 and token.parts[0].isdigit() and token.parts[1] in _BIT else ""


def _same_name(a: str, b: str) -> bool:
    return a == b or bool(groups_of(a) & groups_of(b))


@lru_cache(maxsize=1024)
def numbers(text: str) -> tuple[tuple[str, str, str, str], ...]:
    """(name, noun, value, as written) for each number said of a name: "BF16 uses 8 exponent bits" gives
    ("bf16", "exponent", "8", ...); the name is the last one written before the number in its sentence, asides in
    parentheses left out."""
    out = []
    for sentence in _SENTENCE_END.split(_ASIDE.sub(" ", fold(text)[:4000])):
        tokens = tokenize(sentence)
        name = ""
        for i, token in enumerate(tokens):
            value = _number(token)
            if not value:
                if token.technical and not token.parts and any(c.isalpha() for c in token.norm):
                    name = token.norm
                continue
            j = i + 1
            while j < min(len(tokens), i + 4) and not tokens[j].boundary and tokens[j].norm in STOPWORDS | _BIT:
                j += 1
            if name and j < len(tokens) and not tokens[j].boundary and j <= i + 3 and not _number(tokens[j]):
                end = j + 2 if j + 1 < len(tokens) and tokens[j + 1].norm in _BIT else j + 1  # "8 exponent bits"
                out.append((name, stem(tokens[j].norm), value, " ".join(t.surface for t in tokens[i:end])))
    return tuple(out)


def misnumbered(answer: tuple[tuple[str, str, str, str], ...], response: str) -> tuple[str, ...]:
    """The response's numbers that the answer gives to the same name and noun otherwise, each told in a
    sentence: "BF16 has 5 exponent bits" where the answer gives BF16 8 (and FP16 5)."""
    out = []
    for name, noun, value, _ in numbers(response):
        said = [(v, p, n) for n, o, v, p in answer if _same_name(n, name) and o == noun]
        if said and value not in {v for v, _, _ in said}:
            out.append(f"The answer gives {said[0][2].upper()} {said[0][1]}, not {value}.")
    return tuple(out)
