"""Polarity: the words a text states negatively, so that a response saying the opposite of the model answer
earns nothing for the answer's words. Pure, stdlib only.

A text is cut into clauses (at punctuation and at clause words: "but", "so", "and", "which" ...). In a clause:

- a negator ("not", "no", "never", "without", "doesn't", "too large to" ...) denies the rest of the clause,
  through "or"/"nor": "does not enable interoperability", "no throughput trade-off", "never grouped"; "not
  only", "not sure" and the tag "isn't it" deny nothing ("rather than", "instead of" contrast, and are left be);
- when nothing but the question's words and filler follows a negated copula, the clause before it is denied: "X
  is not the advantage", "X isn't true";
- a clause of retractors alone ("No.", "Definitely not.", "Wrong.") denies the clause before it: "X? No.";
- "prevents", "stops", "blocks", "avoids" deny the rest of the clause weakly, as does a negator in a clause of reason,
  purpose or condition ("so gradients don't underflow", "because it doesn't fit", the rest of a sentence opening
  "Otherwise" or "Without X,"), or "can't"/"cannot" (a limit, often the problem the answer solves): a weak
  denial only contradicts what the answer states as gained;
- "enables", "allows", "provides", "improves" mark the rest of the clause, through "and"/"or", as gained.

The model answer is read the same way. A response's denial contradicts the answer when its head (see
`against`) names a key term the answer never states negatively: gradient checkpointing works by "NOT storing all
activations", BF16 "needs no loss scaling", PTQ is "without retraining", and a response saying so agrees. Nor
does it when the answer states the term as a problem, cost or limit ("avoids overflow", "within limited memory",
"far fewer trials"): "no overflow", "without needing much memory", "doesn't waste trials" agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import takewhile

from .contrasts import core_said
from .synonyms import groups_of
from .targets import CLAUSE_WORDS, NEGATORS, NOT_NEGATING, PRONOUNS, RETRACTION_WORDS, RETRACTORS
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, stem, stems_related, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DENY = NEGATORS | _words("without lack lacks lacking lacked unable")
PREVENT = _words(
    """
    prevent prevents prevented preventing stop stops stopped stopping block blocks blocked blocking hinder hinders
    hindered hindering break breaks breaking forbid forbids preclude precludes avoid avoids avoided avoiding
    eliminate eliminates eliminated eliminating
    """
)
# Words that make what follows them a problem, a cost or a limit ("avoids overflow", "within limited memory", "at
# the cost of lower precision", "need special hardware for speedup", "in far fewer trials"): a response denying
# such a word ("no overflow", "without needing much memory", "doesn't waste trials") says what the answer says,
# unless the denial denies the limit itself ("does not reduce memory", "doesn't avoid overflow").
MITIGATE = PREVENT | _words(
    """
    reduce reduces reduced reducing lower lowers lowered lowering less fewer minimize minimizes minimized
    minimizing limit limits limited limiting cost costs expense need needs needed require requires required
    lose loses losing lost save saves saved saving cut cuts shrink shrinks
    """
)
_MITIGATED_SPAN = 5  # words after such a word that it qualifies
# "save" spares a resource ("saves memory") or stores a thing ("saving only weights stores parameter values"): only
# the first makes what follows a cost, so "save" mitigates only when a resource comes next.
_SAVE = _words("save saves saved saving")
_RESOURCES = _words(
    """
    memory ram vram space storage disk time compute computation bandwidth energy power money cost costs effort
    resources trials flops cycles
    """
)
# "the same way", "identical": a denial with one of these denies that two things agree, not the words before it
SAMENESS = _words("same identical equal equally alike consistent consistently uniform")
GAIN = _words(
    """
    enable enables enabled enabling allow allows allowed allowing provide provides provided providing improve
    improves improved improving support supports supported supporting ensure ensures ensured ensuring offer offers
    offered offering
    """
)
_STOPS = CLAUSE_WORDS | _words("instead rather thus hence therefore whereas otherwise unless until as who")
# Clauses that state a reason, purpose or condition rather than the claim itself: "so gradients don't underflow",
# "because it doesn't fit in one GPU's memory" say of a problem what a right answer says of it.
_SUBORDINATE = _words("so because since if when whenever unless until otherwise as which that who where while")
_AND = _words("and or")
_OR = _words("or nor")
_CONDITIONAL = _words("without otherwise if unless else")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_ABILITY = _words("cannot cant unable")
_COPULAS = _words("is are was were be been being do does did has have had will would can could should may might must")
_CONTRACTED = _words("isnt arent wasnt werent doesnt dont didnt cant wont hasnt havent hadnt")
# What may follow "X is not" for the denial to be of X itself: "X is not the advantage", "X isn't true".
_VACUOUS = _words(
    """
    true right correct case point answer idea goal reason benefit purpose main key really actually necessarily
    anywhere anymore whatsoever ever
    needed required relevant important what all problem issue thing need needs needing require requires requiring
    """
)


@dataclass(frozen=True)
class Scope:
    kind: str  # "deny", "prevent" or "gain"
    cue: int  # position of the word that opens it
    positions: tuple[int, ...]
    main: bool = True  # in a main clause, not one of reason, purpose or condition
    sure: bool = True  # of a denial said against the answer: it denies the answer's own word, not a synonym


def clause_spans(tokens: list[Token]) -> list[tuple[int, int]]:
    out, start = [], 0
    for i, token in enumerate(tokens):
        if i > start and (token.boundary or token.norm in _STOPS):
            out.append((start, i))
            start = i
    if tokens:
        out.append((start, len(tokens)))
    return out


def _vacuous(token: Token, question_norms: frozenset[str]) -> bool:
    norm = token.norm
    return norm in STOPWORDS or norm in FILLER or norm in _VACUOUS or norm in question_norms or is_generic(norm)


def _retraction(tokens: list[Token], start: int, end: int) -> bool:
    norms = [t.norm for t in tokens[start:end]]
    spots = [i for i, norm in enumerate(norms) if norm in RETRACTORS]
    return (
        bool(spots)
        and all(norm in RETRACTION_WORDS or norm in FILLER for norm in norms)
        and not any(norms[i + 1] in NOT_NEGATING for i in spots if i + 1 < len(norms))
    )


_COMPARING = re.compile(r"^\s*(?:compare|contrast)\b|\b(?:differ|differs|difference|versus|vs)\b", re.IGNORECASE)


def compares(question: str) -> bool:
    """The question compares two things ("How does BF16 differ from FP16?"): see `contrasted`."""
    return bool(_COMPARING.search(question))


def sentences(text: str) -> tuple[tuple[Token, ...], ...]:
    return tuple(tuple(tokenize(sentence)) for sentence in _SENTENCE_END.split(fold(text)))


def sentence_starts(text: str, tokens: list[Token]) -> frozenset[int]:
    """Positions in `tokens` (of `text`, folded) where a sentence begins; none when they cannot be aligned."""
    starts, count = set(), 0
    for sentence in _SENTENCE_END.split(fold(text)):
        starts.add(count)
        count += len(tokenize(sentence))
    return frozenset(starts) if count == len(tokens) else frozenset({0})


def scopes(
    tokens: list[Token],
    question_norms: frozenset[str] = frozenset(),
    *,
    asking: bool = False,
    sentences: frozenset[int] = frozenset({0}),
) -> list[Scope]:
    """The denied, prevented and gained stretches of a tokenized text (`sentences`: where sentences begin)."""
    out: list[Scope] = []
    clauses = clause_spans(tokens)
    hypothetical = False
    for number, (start, end) in enumerate(clauses):
        if number and _retraction(tokens, start, end) and not (asking and end == len(tokens)):
            previous = clauses[number - 1]
            out.append(Scope("deny", start, tuple(range(*previous))))
            continue
        if start in sentences:  # "Otherwise, it's a sum, not the mean": the rest of the sentence is what is not so
            hypothetical = tokens[start].norm in _CONDITIONAL
        main = tokens[start].norm not in _SUBORDINATE and not hypothetical
        for i in range(start, end):
            norm, after = tokens[i].norm, tokens[i + 1].norm if i + 1 < end else ""
            if norm == "to" and i > start and "too" in (t.norm for t in tokens[max(start, i - 3) : i]):
                out.append(Scope("deny", i, tuple(range(i + 1, end)), main))  # "too large to fit"
                break
            if norm in DENY:
                if after in NOT_NEGATING or (norm.endswith("nt") and after in PRONOUNS):
                    continue
                last = end
                while last < len(tokens) and tokens[last].norm in _OR and not tokens[last].boundary:
                    last += 1  # "does not optimize ingestion or preprocessing": neither is
                    while last < len(tokens) and not (tokens[last].boundary or tokens[last].norm in _STOPS):
                        last += 1
                rest = range(i + 1, last)
                copula = norm in _CONTRACTED or (i > start and tokens[i - 1].norm in _COPULAS)
                if copula and all(_vacuous(tokens[j], question_norms) for j in rest):
                    before = i if norm in _CONTRACTED else i - 1
                    out.append(Scope("deny", i, tuple(range(start, before)), main))
                else:  # "can't represent tiny gradients" tells a limit, often the problem the answer solves
                    out.append(Scope("deny", i, tuple(rest), main and norm not in _ABILITY))
                break  # the rest of the clause is denied; a second negator there does not undo it
            if norm in PREVENT or norm in GAIN:
                last = end
                while last < len(tokens) and tokens[last].norm in _AND and not tokens[last].boundary:
                    last += 1  # "improve GPU utilization and throughput": what is gained is a list
                    while last < len(tokens) and not (tokens[last].boundary or tokens[last].norm in _STOPS):
                        last += 1
                out.append(Scope("prevent" if norm in PREVENT else "gain", i, tuple(range(i + 1, last)), main))
                break
    return [s for s in out if s.positions]


def _stems(tokens: Sequence[Token], positions: Iterable[int]) -> set[str]:
    out = set()
    for i in positions:
        out.add(stem(tokens[i].norm))
        out.update(stem(p) for p in tokens[i].parts if len(p) > 2)
    return out


@dataclass(frozen=True)
class Polarity:
    """How a text states its words: only inside a denial, only outside one, or gained."""

    denied: frozenset[str]  # stems that occur only inside denials of main clauses
    weakly_denied: frozenset[str]  # only inside denials of subordinate clauses or after "prevents", "stops" ...
    negative: frozenset[str]  # stems that occur inside a denial at least once
    gained: frozenset[str]  # stems that occur after "enables", "improves" ... and are not denied
    mitigated: frozenset[str] = frozenset()  # stems stated as a problem, cost or limit: "avoids overflow"


def _mitigated(tokens: list[Token], sentences: frozenset[int]) -> set[int]:
    """Positions of the words a clause states as a problem, cost or limit (see MITIGATE). A slash or comma does
    not end the span ("need special hardware/libraries for speedup"); a clause word or a new sentence does."""
    out: set[int] = set()
    for i, token in enumerate(tokens):
        if token.norm in MITIGATE:
            following = next((t.norm for t in tokens[i + 1 :] if t.norm not in STOPWORDS), "")
            if token.norm in _SAVE and following not in _RESOURCES:
                continue
            for j in range(i + 1, min(len(tokens), i + 1 + _MITIGATED_SPAN)):
                if j in sentences or tokens[j].norm in _STOPS:
                    break
                out.add(j)
    return out


def polarity(tokens: list[Token], found: list[Scope], sentences: frozenset[int] = frozenset({0})) -> Polarity:
    deny = {i for s in found if s.kind == "deny" and s.main for i in s.positions}
    weak = {i for s in found if s.kind == "prevent" or (s.kind == "deny" and not s.main) for i in s.positions}
    weak -= deny
    gain = {i for s in found if s.kind == "gain" for i in s.positions} - deny - weak
    plain = _stems(tokens, set(range(len(tokens))) - deny - weak)
    negative = _stems(tokens, deny | {i for s in found if s.kind == "deny" for i in s.positions})
    return Polarity(
        frozenset(_stems(tokens, deny) - plain - _stems(tokens, weak)),
        frozenset(_stems(tokens, weak) - plain),
        frozenset(negative),
        frozenset(_stems(tokens, gain)),
        frozenset(_stems(tokens, _mitigated(tokens, sentences)) - STOPWORDS),
    )


def _holds(stems: frozenset[str], word_stem: str) -> bool:
    return word_stem in stems or (len(word_stem) >= 5 and any(stems_related(word_stem, s) for s in stems))


def blocked(alts: tuple[tuple[str, ...], ...], answer: Polarity, response: Polarity) -> frozenset[str]:
    """Response stems that may not earn a key term (given by its alternatives' stems), because the response
    denies what the answer affirms: all its denied stems when the answer never states the term negatively,
    and its weakly denied ones too (prevented, or denied in a clause of reason or purpose) when the answer
    states the term as something gained: "so there is no throughput gain" denies what "improves throughput"
    affirms, "so gradients don't underflow" agrees with "gradients can underflow to zero"."""
    stems = [s for alt in alts for s in alt]
    if any(_holds(answer.negative, s) for s in stems):
        return frozenset()
    if any(_holds(answer.gained, s) for s in stems):
        return response.denied | response.weakly_denied
    return response.denied


def against(
    found: list[Scope],
    tokens: list[Token],
    answer: Polarity,
    names_term: Callable[[str], bool],
    question_norms: frozenset[str] = frozenset(),
    own_word: Callable[[str], bool] | None = None,
) -> list[Scope]:
    """The denials of a response that say the opposite of the answer: those whose head (the first word that is
    not filler, a generic verb or the question's, or the last of a run of such words: "lock-in" of "no framework
    lock-in", "step" of "without an optimizer step") names a key term the answer never states negatively. "does
    not enable interoperability" denies a term; "doesn't match those computed online" denies a word the answer
    does not use, and "does not retrain the model" what the answer denies too ("without retraining").

    When unsure, a denial is no contradiction: a denial of sameness ("not computed the same way") has that word
    for head; one of what the answer states as a problem, cost or limit ("no overflow" where the answer "avoids
    overflow", "without needing the memory" where it works "within limited memory") agrees, unless it denies the
    limit itself ("does not reduce memory"). A head that names a key term only by a synonym (`own_word` false)
    may mean something else ("it isn't split", of the model, where the answer splits the batch into shards): such
    a denial is not `sure`, its words earn nothing but it is no fault (faults.py)."""
    out = []
    for scope in found:
        if scope.kind == "gain":
            continue
        words = [not _vacuous(tokens[i], question_norms) for i in scope.positions]
        if not any(words):
            continue
        first = words.index(True)
        run = list(takewhile(bool, words[first:]))
        head = first + len(run) - 1
        norms = [tokens[i].norm for i in scope.positions]
        head = next((k for k, norm in enumerate(norms) if norm in SAMENESS), head)
        head_stem = stem(norms[head])
        if not names_term(head_stem) or _holds(answer.negative, head_stem):
            continue
        if _holds(answer.mitigated, head_stem) and not any(norm in MITIGATE for norm in norms[:head]):
            continue
        out.append(replace(scope, sure=own_word is None or own_word(head_stem)))
    return out


def contrasted(
    found: list[Scope],
    tokens: list[Token],
    question_norms: frozenset[str],
    answer_sentences: tuple[tuple[Token, ...], ...],
) -> list[Scope]:
    """For a question comparing two things: denials of what the answer affirms of another of them made weak.
    "grid search is exhaustive; random search ... is not exhaustive" contrasts; "BF16 does not have 8 exponent
    bits" denies. A denial is of another thing when its clause (back to punctuation) names one of the question's
    words that no answer sentence affirming the denied words names."""
    out = []
    for scope in found:
        start = scope.cue
        while start > 0 and not tokens[start].boundary:
            start -= 1
        named = {t.norm for t in tokens[start : scope.cue] if t.norm in question_norms and t.norm not in STOPWORDS}
        denied = _stems(tokens, scope.positions) - STOPWORDS
        affirming = [s for s in answer_sentences if denied & _stems(s, range(len(s)))]
        other = bool(named) and bool(affirming) and all(named - {t.norm for t in s} for s in affirming)
        out.append(replace(scope, main=False) if scope.kind == "deny" and other else scope)
    return out


def _names(stems: set[str], words: set[str]) -> bool:
    return any(
        any(stems_related(a, b) for b in words) or bool(groups_of(a) & groups_of(b)) for a in stems for b in words
    )


def corrected(
    found: list[Scope],
    tokens: list[Token],
    question_norms: frozenset[str],
    answer_sentences: tuple[tuple[Token, ...], ...],
) -> list[Scope]:
    """A corrective contrast, "X, not Y" ("the average over the effective batch, not the sum"), made weak when it
    agrees with the answer: the answer's sentence that answers the question (the one with most of its words)
    affirms a word of X and no word of Y (the question's own words left out: "accumulated" is no "sum"). "It is
    the sum, not the average" is left a denial where that sentence gives the mean; so is a contrast the answer
    cannot settle. The weak denial costs nothing: the student contrasts the result with the alternative."""
    said = core_said(question_norms, answer_sentences)
    if not said:
        return found
    out = []
    for scope in found:
        cue = scope.cue
        opens = cue > 0 and (tokens[cue].boundary or tokens[cue - 1].norm in _words("but and"))
        start = max(cue - 1, 0)
        while start > 0 and not tokens[start].boundary:
            start -= 1
        x = {stem(t.norm) for t in tokens[start:cue] if not _vacuous(t, question_norms)}
        # the word denied, not its qualifiers: "sum" of "not the sum of the micro-batch gradients"
        y = {stem(tokens[i].norm) for i in scope.positions if not _vacuous(tokens[i], question_norms)}
        y = {next(stem(tokens[i].norm) for i in scope.positions if stem(tokens[i].norm) in y)} if y else y
        agrees = opens and scope.kind == "deny" and tokens[cue].norm == "not" and x and y
        if agrees and _names(x, said) and not _names(y, said):
            scope = replace(scope, main=False, sure=False)
        out.append(scope)
    return out


def response_scopes(text: str, tokens: list[Token], question_norms: frozenset[str]) -> list[Scope]:
    """The denied, prevented and gained stretches of a response (`text`, tokenized): see `scopes`."""
    return scopes(tokens, question_norms, asking=text.rstrip().endswith("?"), sentences=sentence_starts(text, tokens))


def denials_of(
    found: list[Scope],
    tokens: list[Token],
    question_norms: frozenset[str],
    answer: Polarity,
    names_term: Callable[[str], bool],
    contrast: tuple[tuple[Token, ...], ...] = (),
    own_word: Callable[[str], bool] | None = None,
    answer_sentences: tuple[tuple[Token, ...], ...] = (),
) -> list[Scope]:
    """The denials among a response's scopes (`found`, see `response_scopes`) that say the opposite of the answer
    (see `against`); `contrast`: the answer's sentences, when the question compares two things (see `contrasted`)."""
    found = contrasted(found, tokens, question_norms, contrast) if contrast else found
    found = corrected(found, tokens, question_norms, answer_sentences) if answer_sentences else found
    return against(found, tokens, answer, names_term, question_norms, own_word)
