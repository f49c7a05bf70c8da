"""Answers that say less than their words suggest. Pure, stdlib only.

A topic answer ("some answer about gradients", "something to do with scaling", "it's related to memory") names
what the answer is about without saying anything of it: the word it echoes is the subject matter, not a point,
so it earns nothing.

A direction alone ("It is 4 times larger.") says which way something moves, not what moves: "larger" is a
synonym of the answer's "increase" or "maximize", but it makes no point of the answer by itself. The answer's own
direction word ("smaller" where the answer says "smaller models") still may.

A means the answer does not name, with the answer's purpose after it ("Increasing the learning rate to imitate a
larger batch" where the answer divides the loss to match a large batch), offers another way to the end: the purpose
only restates what the question wants, and the response's own claim, its means, is off target.

A response to "How does A improve over B?" that speaks of B ("It tries every combination on a grid" for
Bayesian optimization over grid search) describes the baseline, not A: a word or two of it earning a term of the
answer make no point. Said as the comparison ("fewer trials than grid search"), it does.

A string of the answer's words with nothing joining them ("targets classes softer produces gradient distribution
reveal Temperature richer"), seven or more without an article, a preposition, a conjunction or a verb such as "is",
no punctuation to make it a list, and in an order the answer does not follow (two in five of them going back in it,
as shuffled words do), says nothing of how they relate. Partly right at most, however many terms it names (prose.py
caps it). A telegraphic sentence ("Pruning removes individual weights producing smaller sparse models") goes on in
the answer's order, and keeps its credit.

Where the answer is a formula the question asks for, naming the formula's parts ("zero point and scale") says
what it is made of, not what it is: partly right at most (prose.py caps it).
"""

from __future__ import annotations

import re
from itertools import pairwise

from .textnorm import DETERMINERS, STOPWORDS, Token, fold, stem, stems_related, tokenize

TOPIC_WORDS = 4  # words after "something about": more is a statement, however it opens
_TOPIC = re.compile(
    r"^\W*(?:(?:i\s+think|i\s+guess|maybe|probably|perhaps|basically)\s*,?\s+)?"
    r"(?:(?:it|this|that)\s*(?:'s|is|has|was)\s+(?:got\s+)?)?"
    r"(?:(?:something|some\s+\w+|stuff|things?)\s+(?:about|regarding|concerning|related\s+to|to\s+do\s+with)"
    r"|(?:has\s+)?(?:something\s+)?to\s+do\s+with|related\s+to|relating\s+to|along\s+the\s+lines\s+of)\s+"
    rf"((?:[\w'-]+\W*){{1,{TOPIC_WORDS}}})$",
    re.IGNORECASE,
)
STRUNG_WORDS = 7
STRUNG_PAIRS = 4  # neighbouring words found in the answer, to judge their order by
STRUNG_DISORDER = 0.4  # the share of them going back in the answer: about half, for shuffled words
_JOINING_WORDS = """
    a an the of to in on at by for with from into onto over under about as is are was were be been being am do does
    did has have had having it its this that these those which who what when where why how than so and or but if then
    not no nor via per between across among within without through during before after because since while whereas
    instead rather each every all both can could should would will may might must they them their you your we our i
"""
_JOINING = frozenset(_JOINING_WORDS.split())
# Comparatives that only say which way ("larger", "fewer"); a verb ("it reduces") says what the subject does.
_COMPARATIVES = ("larger", "bigger", "higher", "greater", "wider", "more", "smaller", "fewer", "less", "lower")
DIRECTION_STEMS = frozenset(stem(word) for word in (*_COMPARATIVES, "narrower"))


# Words that say how a formula's parts combine: "divide the real value by the scale, round it, add the zero-point".
_OPERATIONS = re.compile(
    r"\b(?:divid\w*|multipl\w*|times|add\w*|plus|subtract\w*|minus|over|round\w*|sum\w*|product|ratio|"
    r"quotient|offset|shift\w*|clamp\w*|clip\w*|floor|ceil\w*|square\w*|root|exp\w*|log\w*|average|mean|per)\b",
    re.IGNORECASE,
)


def parts_only(formulas: tuple, text: str) -> bool:
    """Where the answer is a formula (`formulas`: those asked for), the response names no operation: the formula's
    parts without how they combine ("zero point and scale")."""
    return bool(formulas) and not _OPERATIONS.search(text)


def topic_only(text: str) -> bool:
    """The response only names a topic: "some answer about gradients", "it has to do with memory"."""
    return bool(_TOPIC.match(text.strip()))


def direction_only(
    tokens: list[Token], content: frozenset[str], used: frozenset[str], answer_stems: frozenset[str]
) -> bool:
    """Every word of the response's own that earns a term is a comparative said of nothing ("it is larger",
    "4 times larger than before"), earning a term through a synonym ("larger" for "increase"). Said of something
    ("bigger batches", "less memory") it names what moves; the answer's own word ("smaller") is a point."""
    earning = content & used
    if not earning or not earning <= DIRECTION_STEMS:
        return False
    if any(stems_related(word, own) for word in earning for own in answer_stems):
        return False
    following = zip(tokens, [*tokens[1:], None], strict=True)
    return all(
        after is None or after.boundary or after.norm == "than"
        for token, after in following
        if stem(token.norm) in earning
    )


MEANS_WORDS = 2  # the response's own content words before the purpose: one may be a verb of the question's


# "How does A improve hyperparameter search over grid/random search?": what follows names the baseline.
_BASELINE = re.compile(
    r"\b(?:over|upon|versus|vs\.?|compared\s+(?:to|with)|instead\s+of|rather\s+than)\s+([^?]+)", re.I
)
_AGAINST = frozenset({"than", "unlike", "over", "versus", "vs", "instead", "rather", "compared", "beyond", "beats"})


def baseline(question: str) -> frozenset[str]:
    """The stems of what the question compares its subject against, less the words they share ("grid", "random"
    of "improve hyperparameter search over grid/random search")."""
    match = _BASELINE.search(question)
    if not match:
        return frozenset()
    before = {stem(t.norm) for t in tokenize(fold(question[: match.start()]))}
    return frozenset(
        s for t in tokenize(fold(match.group(1))) if t.norm not in STOPWORDS and (s := stem(t.norm)) not in before
    )


def describes_baseline(tokens: list[Token], names: frozenset[str]) -> bool:
    """The response names the baseline (`names`, see `baseline`) other than as what it is compared with."""
    return any(
        stem(t.norm) in names and not any(u.norm in _AGAINST for u in tokens[max(0, i - 4) : i])
        for i, t in enumerate(tokens)
    )


def _purpose(tokens: list[Token], i: int) -> bool:
    """Whether the word at `i` opens a purpose: "so", or "to" followed by its verb, not by a thing ("linked to their
    data")."""
    follows = tokens[i + 1].norm if i + 1 < len(tokens) else ""
    return tokens[i].norm == "so" or (tokens[i].norm == "to" and bool(follows) and follows not in DETERMINERS)


def other_means(tokens: list[Token], used: frozenset[str], own: frozenset[str]) -> bool:
    """The response opens with a means (a gerund) none of whose own words (`own`: content stems, not the
    question's) earns a term, then gives a purpose that does: "Increasing the learning rate to imitate a larger
    batch"."""
    cut = next((i for i in range(1, len(tokens)) if _purpose(tokens, i)), None)
    # A means is an action, said as one: "Increasing ...", "Using ...", not "It is a central place to ...".
    if cut is None or not tokens[0].norm.endswith("ing"):
        return False
    lead = {stem(t.norm) for t in tokens[:cut]} & own
    rest = {stem(t.norm) for t in tokens[cut:]} & used
    return len(lead) >= MEANS_WORDS and not lead & used and bool(rest)


def strung(tokens: list[Token], answer_words: tuple[tuple[str, bool], ...]) -> bool:
    """The response is the answer's words strung together, out of its order, with nothing joining them (see the
    module). `answer_words`: the answer's words in order (Profile.answer_words)."""
    if len(tokens) < STRUNG_WORDS or any(t.boundary for t in tokens[1:]) or any(t.norm in _JOINING for t in tokens):
        return False
    first: dict[str, int] = {}
    for position, (norm, _) in enumerate(answer_words):
        first.setdefault(stem(norm), position)
    order = [first[word] for t in tokens if (word := stem(t.norm)) in first]
    pairs = list(pairwise(order))
    return len(pairs) >= STRUNG_PAIRS and sum(b < a for a, b in pairs) >= STRUNG_DISORDER * len(pairs)
