"""What a response says wrong, besides what it leaves out, and what that costs. Pure.

- A versioned name standing in for one the answer needs (FP32 or "64-bit" for FP16) halves the score.
- A false statement of the answer's own matter is a fault: a claim of direction the other way ("increase
  precision" where quantization reduces it; directions.py), a denial of a key term the answer affirms ("does not
  enable interoperability"; polarity.py), a conversion the other way round ("from 8-bit integers to 32-bit
  floats", "int8 -> fp32"), a number the answer gives a name otherwise (BF16 with "5 exponent bits"), or, in a
  comparison, a clause giving one thing's attributes to the other ("GPUs are ASICs ...", roles.py). Each
  multiplies the score by REVERSED, or by REVERSED_CORE when it reverses a claim of the sentence that says what
  the question's subject is or does ("Loss scaling multiplies the loss ..."). One fault caps the verdict below
  CORRECT; two, or denials weighing as much as all the response got right, cap it below PARTIAL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .directions import Claim
from .keyterms import Coverage, KeyTerm
from .polarity import Scope, clause_spans
from .synonyms import groups_of, spellings
from .textnorm import STOPWORDS, Token, fold, stem, stems_related, tokenize

REVERSED = 0.6
REVERSED_CORE = 0.45
CLASH = 0.5
# "What is loss scaling in FP16 ...?", "How does BF16 differ ...?": the subject of the answer's defining sentence.
_SUBJECT = re.compile(
    r"^\s*(?:what|how|why|when)\s+(?:is|are|does|do|was|were)\s+(?:an?\s+|the\s+)?([^?,()]+?)"
    r"(?=\s+(?:in|and|differ|differs|work|works|of|for|with|do|does|mean|refer|from|used|needed|help|affect)\b|"
    r"\s*[?,(]|$)",
    re.IGNORECASE,
)


def defining_sentence(question: str, openings: tuple[tuple[str, ...], ...]) -> int:
    """The first sentence of the answer (given by the first words of each) that opens with the question's
    subject; the first sentence when the question names none, -1 when no sentence opens with it."""
    match = _SUBJECT.match(fold(question))
    subject = {stem(t.norm) for t in tokenize(match.group(1))} - STOPWORDS if match else set()
    if not subject:
        return 0
    for number, opening in enumerate(openings):
        if subject & {stem(norm) for norm in opening}:
            return number
    return -1


def names_term(term_stems: frozenset[str], term_groups: frozenset[int], word_stem: str) -> bool:
    """A word for a key term of the answer: the same stem, a related one, or a synonym (of `term_groups`)."""
    return any(stems_related(word_stem, s) for s in term_stems) or bool(groups_of(word_stem) & term_groups)


def denied(tokens: list[Token], denials: list[Scope], result: Coverage) -> list[str]:
    """The denials that deny a key term the answer affirms, each as written from the negator to the term. One
    that denies only a synonym of it (not `sure`, see polarity.against) counts only beside one that is sure: it
    may mean something else, but next to a plain contradiction it is likely one too."""
    out = []
    sure = any(s.sure and any(stem(tokens[i].norm) in result.against for i in s.positions) for s in denials)
    for scope in (s for s in denials if s.sure or sure):
        hits = [i for i in scope.positions if stem(tokens[i].norm) in result.against]
        if hits:
            first, last = min(scope.cue, *hits), max(scope.cue, *hits)
            out.append(" ".join(t.surface for t in tokens[first : last + 1]))
    return out


# A clause opening with these says what the thing is not, or does instead: "instead of storing all activations".
_CONTRASTING = frozenset({"instead", "rather", "whereas", "unlike", "than"})
# Quantifiers an answer's denial may turn on: "NOT storing all activations" leaves "stores a few" right.
_WHOLE = frozenset({"all", "every", "each", "entire", "whole", "everything"})
# A clause with these speaks of a part, not all: "stores only a few checkpoints".
_RESTRICTING = frozenset({"only", "some", "few", "subset", "selected", "certain", "part", "partial"})
# A clause with these tells the problem the answer solves, not what the thing does: "storing all activations
# uses too much memory", "normally you would store them all".
_PROBLEM = frozenset(
    {"too", "would", "normally", "usually", "otherwise", "naive", "naively", "expensive", "costly", "wasteful"}
)


def affirmed(
    tokens: list[Token], found: list[Scope], answer_denied: frozenset[str], names_own: Callable[[str], bool]
) -> list[str]:
    """Clauses of a response that state plainly a key term the answer states only negatively ("it stores all
    activations" where checkpointing works by "NOT storing all intermediate activations"), each as written from
    the clause's start to the term (five words at least, so the quantifier shows).

    Left be: a clause denying, preventing or contrasting it ("instead of storing all"), telling it as the problem
    ("uses too much memory"), or restricting it ("only at checkpoints"). Where the answer's denial has a
    quantifier ("all"), the clause needs one too, and where it names what is denied ("activations"), that too:
    "checkpoints are stored for all layers" is not "stores all activations"."""
    if not answer_denied:
        return []
    quantified = bool(answer_denied & _WHOLE)
    hedged = {i for scope in found if scope.kind != "gain" for i in (scope.cue, *scope.positions)}
    out = []
    for start, end in clause_spans(tokens):
        norms = {tokens[i].norm for i in range(start, end)}
        if tokens[start].norm in _CONTRASTING or norms & (_PROBLEM | _RESTRICTING):
            continue
        if quantified and not norms & _WHOLE:
            continue
        stems = [stem(tokens[i].norm) for i in range(start, end)]
        for i in range(start, end):
            word_stem = stems[i - start]
            topic = i == start and tokens[i].norm.endswith("ing")  # "Storing all of them is ...": a subject
            if i in hedged or topic or word_stem not in answer_denied or not names_own(word_stem):
                continue
            objects = answer_denied - _WHOLE - {word_stem}
            if objects and not objects.intersection(stems):
                continue
            out.append(" ".join(t.surface for t in tokens[start : min(end, max(i + 1, start + 5))]))
            break
    return out


# Number formats are one kind whatever their letters: INT8 stands in for FP16 as FP32 does, where the answer names
# no INT format (its INT8 is stood in for by INT4 alone).
_FORMATS = {"bf": "fp", "int": "fp", "uint": "fp", "tf": "fp", "float": "fp", "bfloat": "fp"}


def _families(norm: str) -> tuple[str, str]:
    """A versioned name's family ("fp" of FP16, "bit" of "16-bit") and kind; ("", "") for another word."""
    family = re.sub(r"\d+", "", norm)
    return ("", "") if family == norm or len(family) < 2 else (family, _FORMATS.get(family, family))


def clashes(
    key_terms: tuple[KeyTerm, ...], known: frozenset[str], tokens: list[Token], result: Coverage
) -> list[tuple[str, str]]:
    """Versioned names the answer does not use, standing in for ones it needs: FP32 for FP16, INT4 for INT8."""
    missing = set(result.missing)
    wanted: dict[str, list[str]] = {}
    for term in key_terms:
        for norm in (term.alts[0][0], *spellings(term.alts[0][0])) if term.exact else ():
            for name in filter(None, dict.fromkeys(_families(norm))):
                if term.label not in wanted.get(name, ()):
                    wanted.setdefault(name, []).append(term.label)
    out = []
    for token in tokens:
        family, kind = _families(token.norm)
        if not family or stem(token.norm) in result.used:  # earned credit: "8-bit" for INT8 is no stand-in for "32-bit"
            continue
        lacking = [n for n in wanted.get(family) or wanted.get(kind, ()) if n in missing]
        # "float16" spells FP16, which the answer has: no stand-in for its FP32.
        if lacking and token.norm not in known and not known.intersection(spellings(token.norm)):
            out.append((token.surface, lacking[0]))
    return out


@dataclass(frozen=True)
class Faults:
    count: int
    factor: float  # the score is multiplied by it
    serious: bool  # two faults, or denials weighing as much as all the response got right: below PARTIAL
    note: str


def weigh(
    reversed_: tuple[tuple[Claim, Claim], ...],
    core: int,
    denials: list[str],
    swaps: tuple[str, ...],
    misnumbers: tuple[str, ...],  # each a sentence: "The answer gives BF16 8 exponent bits, not 5."
    result: Coverage,
) -> Faults:
    count = len(reversed_) + len(denials) + len(swaps) + len(misnumbers)
    if not count:
        return Faults(0, 1.0, False, "")
    factor = REVERSED ** (count - len(reversed_))
    for _, meant in reversed_:
        factor *= REVERSED_CORE if meant.sentence == core else REVERSED
    serious = count >= 2 or bool(denials and result.contradicted_weight >= result.matched_weight)
    if reversed_:
        claim, meant = reversed_[0]
        note = f"'{claim.phrase}' says the opposite of the answer ('{meant.phrase}')."
    elif denials or swaps:
        note = f"'{(denials or swaps)[0]}' says the opposite of the answer."
    else:
        note = misnumbers[0]
    return Faults(count, factor, serious, note)
