"""What the grader reads from a card once, before any response: its targets, key terms, formulas, claims,
polarity and roles (Profile). Pure, and cached per card content, so grading a response only reads the response.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .acronyms import spelled_out
from .asides import answer_asides
from .authored import authored_key_terms
from .bindings import Binding, bindings
from .cadence import Cadence, cadences
from .comparatives import Comparison, comparisons, things
from .covary import covariations
from .directions import Claim, claims, conversions, numbers, openings
from .factors import Items, answer_items
from .faults import defining_sentence
from .feedback import verbs
from .formulas import find_expressions, find_formulas
from .glossary import glossary
from .items import Item, closed_items
from .keyterms import KeyTerm, derive_key_terms, part_echoes, question_stems
from .learners import Relation, relations
from .mathnorm import Formula
from .named import Named, asked_names
from .points import genus
from .polarity import Polarity, compares, polarity, scopes, sentence_starts, sentences
from .restrictions import Sentence, listed_sentences
from .roles import Roles, ownership
from .sides import defined_subject
from .storage import asks_store
from .symbols import abbreviated
from .synonyms import groups_of
from .targets import Target, derive_targets, is_term, qualifier
from .texplain import operators
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, plain_from_tex, stem, tokenize
from .vague import baseline

# A fenced block's language ("```python") labels the code for the renderer: no word of the answer.
_FENCE_INFO = re.compile(r"^([ \t]*(?:`{3,}|~{3,}))[^\n`]*$", re.MULTILINE)
NEED_FRACTION = 0.4
NEED_CAP = 4.5
# "What is X and why/when/how ...?", "Compare A and B", "How does A differ from B?"
_TWO_PART = re.compile(
    r"^\s*(?:compare|contrast)\b|\b(?:differ|differs|difference|versus|vs)\b|\band\s+(?:why|when|how|what|which)\b",
    re.IGNORECASE,
)

# "What is X?" alone: it asks what X is, not what it is for ("What is the purpose of X?") nor a second thing.
_DEFINING = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?!the\s+(?:purpose|role|point|goal|benefit|advantage|difference)\b)", re.IGNORECASE
)

# "What is X?", "What is X and why ...?": what X is, answered by its kind at the least (points.genus)
_WHAT_IS = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?!the\s+(?:purpose|role|point|goal|benefit|advantage|difference)\b)",
    re.IGNORECASE,
)


# "Name three techniques ...", "What are the four main components ...?": the answer is a list of items
_LISTING = re.compile(
    r"^\s*(?:name|list|give)\s+(?:two|three|four|five|\d)\b|^\s*what\s+are\s+the\s+(?:two|three|four|five|\d)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Profile:
    short_answer: str
    targets: tuple[Target, ...]
    term_mode: bool  # the short answer names a term: no credit for paraphrase
    qualifier: str  # the product the term belongs to ("pytorch"): naming only it is partly right
    # A short answer in TeX ("$\\theta - \\eta \\nabla L$"): its signs, which its words ("theta eta nabla l") leave out.
    short_signs: tuple[str, ...] | None
    key_terms: tuple[KeyTerm, ...]
    authored: bool
    needed: float
    formulas: tuple[Formula, ...]
    core_formulas: tuple[Formula, ...]  # formulas that are the answer, not illustrations in it
    expressions: frozenset[str]  # canonical forms of the answer's TeX expressions that are not equations
    names: dict[str, str]  # what the answer says its symbols stand for: {"scale": "s", "zeropoint": "z"}
    question_norms: frozenset[str]
    question_stems: frozenset[str]
    question_content: frozenset[str]  # stems of the question's content words, for spotting a pasted question
    known: frozenset[str]
    answer_size: int
    two_part: bool  # the question asks two things ("what is X and why ...", "compare A and B")
    defining: bool  # the question asks only what something is: "What is data parallelism in distributed training?"
    echoes: tuple[frozenset[str], ...]  # per part of the answer, the question's words that only it uses
    answer_words: tuple[tuple[str, bool], ...]  # (norm, after punctuation) of each answer word, for feedback
    verbs: frozenset[str]  # answer words used as verbs, left out of feedback
    claims: tuple[Claim, ...]  # the answer's claims of direction: "reduces the numeric precision"
    covaries: tuple[Claim, ...]  # what moves together: "a higher T produces softer probabilities" (covary.py)
    polarity: Polarity  # which of the answer's words it states negatively ("NOT storing", "without retraining")
    term_stems: frozenset[str]  # the stems of the key terms, and their synonym groups: what a denial may deny
    term_groups: frozenset[int]
    core_sentence: int  # the answer's sentence that says what the question's subject is or does
    contrast: tuple[tuple[Token, ...], ...]  # the answer's sentences, if the question compares things (polarity.py)
    sentences: tuple[tuple[Token, ...], ...]  # the answer's sentences, for "X, not Y" (polarity.corrected)
    conversions: tuple[tuple[frozenset[str], frozenset[str], str], ...]  # "from 32-bit float to lower-bit integers"
    numbers: tuple[tuple[str, str, str, str], ...]  # "BF16 uses 8 exponent bits": (bf16, exponent, 8, ...)
    roles: Roles  # of a comparison: the two things, and which the answer's distinguishing words belong to
    bindings: frozenset[Binding]  # what the answer splits and what it copies: ("copy", "model") (bindings.py)
    learners: tuple[Relation, ...]  # which model learns from which: ("small", "large", ...) (learners.py)
    things: tuple[frozenset[str], ...]  # of a comparison, the two things' names (comparatives.py)
    comparisons: tuple[Comparison, ...]  # the answer's comparatives between them: "DP ... slower" (comparatives.py)
    genus: frozenset[str]  # what the answer says its subject is, if the question asks: "format" (points.py)
    listed: tuple[Sentence, ...] = ()  # the answer's sentences with their commas, for "only X" (restrictions.py)
    listing: bool = False  # the question asks for a number of items: off-target words are judged by item
    baseline: frozenset[str] = frozenset()  # "over grid/random search": what the subject is compared against
    items: tuple[Item, ...] = ()  # the names of a closed list asked for by number: ("model", "registry") (items.py)
    named: Named = ("", frozenset())  # what the question asks to have named ("numeric formats"), and the answer's names
    subject: str = ""  # what a comparison question also asks to define: "pruning" (sides.py)
    factors: Items = ("", ())  # an open list asked for ("What factors ...?"): its noun and items (factors.py)
    store: bool = False  # the question asks what a registry, repository or store is for (storage.py)
    asides: frozenset[str] = frozenset()  # key terms that only qualify the point: "frameworks" (asides.py)
    cadences: tuple[Cadence, ...] = ()  # what the answer does once every N units: "one step after N micro-batches"


@lru_cache(maxsize=512)
def card_profile(
    question: str, answer: str, short_answer: str, kind: str, aliases: tuple[str, ...], authored: tuple[str, ...]
) -> Profile:
    answer = _FENCE_INFO.sub(r"\1", answer)
    # The words the answer spells the question's acronym out with ("Open Neural Network Exchange" for ONNX) name
    # what the question names: in a response as in the answer, they are neither key terms nor off-target words.
    qstems = question_stems(question) | spelled_out(question, answer)
    question_tokens = tokenize(fold(plain_from_tex(question)))
    qnorms = frozenset(t.norm for t in question_tokens) | frozenset(p for t in question_tokens for p in t.parts)
    short = short_answer.strip()
    terms = authored_key_terms(authored, qstems) if authored else ()
    authored = authored if terms else ()  # every one of them only repeats the question: as if none were given
    terms = terms or derive_key_terms(question, answer)
    total = sum(t.weight for t in terms)
    if authored:
        needed = float(len(terms)) if len(terms) <= 4 else max(4.0, 0.75 * len(terms))
    else:
        needed = min(max(NEED_FRACTION * total, 1.0), NEED_CAP)
    formulas = tuple(f for f, _ in find_formulas(answer))
    # The formula is the answer when the answer opens with it or the question asks for one; then only the
    # formulas of the first sentence are what was asked ("Dequantization recovers ..." is an aside).
    asks = answer.lstrip().startswith("$") or bool(qstems & {stem(w) for w in ("formula", "equation", "expression")})
    first_sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", answer.strip(), maxsplit=1)[0]
    core = tuple(f for f, _ in find_formulas(first_sentence)) if asks else ()
    answer_plain = plain_from_tex(answer)
    answer_tokens = tokenize(fold(answer_plain))
    term_stems = frozenset(s for t in terms for alt in t.alts for s in alt)
    known = qstems | frozenset(stem(t.norm) for t in answer_tokens)
    starts = sentence_starts(answer_plain, answer_tokens)
    compared = things(question) if compares(question) else ()
    two_part = bool(_TWO_PART.search(question)) and len(frozenset().union(*(t.sentences for t in terms))) >= 2
    answer_sentences = sentences(answer_plain)
    words = tuple((t.norm, t.boundary) for t in answer_tokens)
    return Profile(
        short_answer=short,
        targets=derive_targets(short, aliases),
        term_mode=kind == "flashcard" and bool(short) and is_term(short),
        qualifier=qualifier(short, qnorms),
        short_signs=operators(short) if "$" in short else None,
        key_terms=terms,
        authored=bool(authored),
        needed=needed,
        formulas=formulas,
        core_formulas=core,
        expressions=find_expressions(answer, tex_only=True) | abbreviated(answer),
        names=glossary(answer) if formulas else {},
        question_norms=qnorms,
        question_stems=qstems,
        question_content=frozenset(
            stem(t.norm) for t in question_tokens if t.norm not in FILLER and not is_generic(t.norm)
        ),
        known=known,
        answer_size=sum(1 for t in answer_tokens if t.norm not in STOPWORDS),
        two_part=two_part,
        defining=bool(_DEFINING.search(question)) and not _TWO_PART.search(question),
        echoes=part_echoes(question, answer) if not authored else (),
        answer_words=words,
        asides=answer_asides(words, terms),
        verbs=verbs(answer_tokens, qnorms),
        claims=claims(answer),
        covaries=covariations(answer),
        polarity=polarity(answer_tokens, scopes(answer_tokens, qnorms, sentences=starts), starts),
        term_stems=term_stems,
        term_groups=frozenset().union(*(groups_of(s) for s in term_stems)),
        core_sentence=defining_sentence(question, openings(answer)),
        contrast=answer_sentences if compares(question) else (),
        sentences=answer_sentences,
        conversions=conversions(answer),
        numbers=numbers(answer),
        roles=ownership(question, answer, qstems),
        bindings=bindings(answer_plain),
        learners=relations(answer_plain),
        things=compared,
        comparisons=comparisons(compared, answer_plain),
        genus=genus(answer_plain) if _WHAT_IS.search(question) else frozenset(),
        listing=bool(_LISTING.search(question)),
        baseline=baseline(question),
        listed=listed_sentences(answer_plain),
        cadences=cadences(answer),
        store=asks_store(question),
        factors=answer_items(question, answer_plain),
        subject=defined_subject(question, compared),
        named=asked_names(question, terms),
        items=closed_items(question, answer),
    )
