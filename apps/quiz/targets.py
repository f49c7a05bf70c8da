"""Short answers and aliases as exact targets, matched with typo tolerance but never by containment."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import takewhile

from .keyterms import is_exact_only
from .textnorm import FILLER, GENERIC_HEADS, GENERIC_VERBS, NEGATORS, STOPWORDS, Token, fold, stem, tokenize
from .typos import is_typo

_PARENTHETICAL = re.compile(r"^(.*?)\s*\(([^()]+)\)\s*(.*)$", re.DOTALL)
_ACRONYM = re.compile(r"[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*|[A-Z]{2,}[0-9]*")
_VERSION = re.compile(r"v\d+(?:(?:alpha|beta)\d*)?(?:\.\d+)*")  # Kubernetes and REST API versions
_HEDGES = frozenset({"or", "nor", "vs", "versus"})


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


NEGATING_PAIRS = frozenset({("rather", "than"), ("instead", "of"), ("other", "than"), ("opposed", "to")})
# After a negator these undo it: "not only a Job", "not sure, a Job", "isn't it a Job?".
NOT_NEGATING = frozenset({"only", "just", "sure", "certain", "doubt"})
PRONOUNS = frozenset({"it", "that", "this", "they", "you", "we", "there"})
# Words that start another clause: "not a Deployment but a Job".
CLAUSE_WORDS = _words("but and or so because since while whereas though although yet then which that if when where")
NEGATION_WINDOW = 4  # filler words allowed between a negator and the term: "I don't think it's a Job"
# A clause of these alone, right after the term, takes it back: "Job? No.", "Job. Definitely not."
RETRACTORS = NEGATORS | _words("nope nah wrong incorrect")
RETRACTION_WORDS = RETRACTORS | PRONOUNS | _words("is was really definitely actually wait hmm oops sorry")
_ARTICLES = frozenset({"a", "an", "the"})
_JOINERS = frozenset({"of", "and", "or", "for", "in", "on", "to"})


@dataclass(frozen=True)
class Target:
    shown: str
    tokens: tuple[Token, ...]  # content tokens (stopwords dropped unless nothing else is left)
    spelled: str  # every word joined: "allreduce" for "All-reduce", "all reduce" and "AllReduce" alike
    size: int  # number of words, stopwords included
    joined: str  # the content words joined
    fuzzy: bool  # typos tolerated in the joined form (no acronym or number in it, long enough)


@dataclass(frozen=True)
class TargetMatch:
    target: Target
    typos: tuple[tuple[str, str], ...]  # (as written, as expected)
    pure: bool  # nothing but filler and the question's own words around it
    hedged: bool  # "Job or Deployment"
    negated: bool = False  # ruled out: "not a Job", "a Deployment rather than a Job"


def _content(tokens: list[Token]) -> tuple[Token, ...]:
    kept = tuple(t for t in tokens if t.norm not in STOPWORDS)
    return kept or tuple(tokens)


def _initials(words: list[Token]) -> str:
    return "".join(w.norm[0] for w in words)


def _variants(text: str) -> list[str]:
    """The text, and for "Long Name (LN)" also "Long Name", "LN", and the words before the name + "LN";
    for "LN (Long Name)" also "Long Name"."""
    out = [text]
    match = _PARENTHETICAL.match(text.strip())
    if not match:
        return out
    before, inside, after = (g.strip() for g in match.groups())
    main = f"{before} {after}".strip()
    out.append(main)
    words = tokenize(fold(main))
    inner = tokenize(fold(inside))
    if len(inner) == 1 and _ACRONYM.fullmatch(inner[0].surface):
        out.append(inside)
        letters = re.sub(r"[^a-z]", "", inner[0].norm)
        for k in range(len(words), 0, -1):
            if _initials(words[-k:]) == letters:
                out += [" ".join(w.surface for w in words[-k:]), " ".join(w.surface for w in words[:-k]) + " " + inside]
                break
    elif len(words) == 1 and _ACRONYM.fullmatch(words[0].surface) and len(inner) > 1:
        out.append(inside)  # "ONNX (Open Neural Network Exchange)": the expansion alone
    return out


@lru_cache(maxsize=512)
def derive_targets(short_answer: str, aliases: tuple[str, ...]) -> tuple[Target, ...]:
    seen, out = set(), []
    for source in ((short_answer,) if short_answer.strip() else ()) + aliases:
        for text in _variants(str(source)):
            tokens = tokenize(fold(text))
            while tokens and tokens[0].norm in FILLER and len(tokens) > 1:
                tokens = tokens[1:]
            content = _content(tokens)
            spelled, joined = "".join(t.norm for t in tokens), "".join(t.norm for t in content)
            fuzzy = len(joined) >= 8 and not any(is_exact_only(t) for t in content)
            target = Target(" ".join(text.split()), content, spelled, len(tokens), joined, fuzzy)
            if target.tokens and target.joined not in seen:
                seen.add(target.joined)
                out.append(target)
    return tuple(out)


def _named_words(short_answer: str) -> tuple[Token, ...]:
    """The words a short answer names, without its parenthetical: "Long Name" of "Long Name (LN)".

    is_term and qualifier both judge the name itself, so both must read it the same way; a gloss or acronym
    in brackets would otherwise count as extra words.
    """
    match = _PARENTHETICAL.match(short_answer.strip())
    return tuple(tokenize(fold(f"{match.group(1)} {match.group(3)}" if match else short_answer)))


def is_term(short_answer: str) -> bool:
    """A short answer that names a term (a few words, no verb), rather than a sentence to paraphrase."""
    tokens = _named_words(short_answer)
    while len(tokens) > 1 and tokens[0].norm in _ARTICLES:
        tokens = tokens[1:]
    return 0 < len(tokens) <= 4 and not any(t.norm in GENERIC_VERBS or t.norm in FILLER - _JOINERS for t in tokens)


_PRODUCT = re.compile(r"[A-Z]{2,}[0-9]*|[A-Za-z]+[A-Z][A-Za-z0-9]*")


@lru_cache(maxsize=512)
def qualifier(short_answer: str, question_norms: frozenset[str]) -> str:
    """The product a multi-word term belongs to, named first: "PyTorch" of "PyTorch Distributed Data Parallel".

    Naming only it is partly right. Only a leading name written as one (PyTorch, MLflow, AWS) counts, so the
    other words of the term ("Data Parallel", itself another term) never do.
    """
    tokens = _named_words(short_answer)
    if len(tokens) < 2 or not _PRODUCT.fullmatch(tokens[0].surface) or tokens[0].norm in question_norms:
        return ""
    return tokens[0].norm


@lru_cache(maxsize=8192)
def _same(written: Token, expected: Token) -> str:
    """ "" when unequal, "exact" when equal up to inflection, "typo" when a tolerated misspelling."""
    if written.norm == expected.norm or stem(written.norm) == stem(expected.norm):
        return "exact"
    if not is_exact_only(expected) and not is_exact_only(written) and is_typo(written.norm, expected.norm):
        return "typo"
    return ""


def _compare(window: list[Token], target: Target) -> tuple[bool, tuple[tuple[str, str], ...]]:
    if "".join(t.norm for t in window) == target.spelled:
        return True, ()
    window = [t for t in window if t.norm not in STOPWORDS] or window
    expected = list(target.tokens)
    if "".join(t.norm for t in window) == target.joined:
        return True, ()
    if len(window) == len(expected):
        verdicts = [_same(w, e) for w, e in zip(window, expected, strict=True)]
        if all(verdicts):
            typos = tuple(
                (w.surface, e.surface) for w, e, v in zip(window, expected, verdicts, strict=True) if v == "typo"
            )
            return True, typos
        return False, ()
    joined = "".join(t.norm for t in window)
    if target.fuzzy and is_typo(joined, target.joined):
        return True, ((" ".join(t.surface for t in window), target.shown),)
    return False, ()


class _Context:
    def __init__(self, tokens: list[Token], question_norms: frozenset[str]) -> None:
        self.tokens, self.question_norms = tokens, question_norms

    def allowed(self, token: Token) -> bool:
        norm = token.norm
        if norm in FILLER or norm in GENERIC_HEADS or norm in NEGATORS or norm in self.question_norms:
            return True
        if _VERSION.fullmatch(norm):  # an API version names no other term: "batch/v1 Job" is a Job
            return True
        return len(norm) >= 4 and any(is_typo(norm, q) for q in self.question_norms if len(q) >= 4)

    def neighbour(self, index: int, step: int) -> Token | None:
        """The token next to position `index` in direction `step`, unless punctuation separates them."""
        other = index + step
        if not 0 <= other < len(self.tokens):
            return None
        return None if (self.tokens[max(index, other)].boundary) else self.tokens[other]

    def negated(self, first: int) -> bool:
        """A negator before the term, in its clause, with only filler between: "not a Job", "rather than a Job",
        "I don't think it's a Job"; not "Job, not a Deployment" or "not a Deployment but a Job"."""
        for gap, position in enumerate(range(first - 1, -1, -1)):
            if self.tokens[position + 1].boundary:
                return False
            norm = self.tokens[position].norm
            if norm in NEGATORS:
                after = self.tokens[position + 1].norm
                return after not in NOT_NEGATING and not (norm.endswith("nt") and after in PRONOUNS)
            pair = (self.tokens[position - 1].norm, norm) if position > 0 else ("", "")
            if pair in NEGATING_PAIRS and not self.tokens[position].boundary:
                return True
            if norm in CLAUSE_WORDS or gap >= NEGATION_WINDOW or not self.allowed(self.tokens[position]):
                return False
        return False

    def retracted(self, last: int, *, asking: bool) -> bool:
        """The clause after the term takes it back: "Job? No.", "Job. Not really, a CronJob"; not
        "Job, not a Deployment", "Job. Not sure." or the tag question "Job, no?" (`asking`: ends with "?")."""
        rest = self.tokens[last + 1 :]
        if not rest or not rest[0].boundary:
            return False
        clause = rest[:1] + list(takewhile(lambda t: not t.boundary, rest[1:]))
        if asking and len(clause) == len(rest):
            return False
        norms = [t.norm for t in clause]
        spots = [i for i, norm in enumerate(norms) if norm in RETRACTORS]
        return (
            bool(spots)
            and all(norm in RETRACTION_WORDS or norm in FILLER for norm in norms)
            and not any(norms[i + 1] in NOT_NEGATING for i in spots if i + 1 < len(norms))
        )

    def hedged(self, first: int, last: int) -> bool:
        """An "or" next to the term that offers another term as well: "Job or (maybe) a Deployment"."""
        n = len(self.tokens)
        for index, step in ((first, -1), (last, 1)):
            position = index + step
            while 0 <= position < n and self.tokens[position].norm in _ARTICLES:
                position += step
            if not (0 <= position < n and self.tokens[position].norm in _HEDGES):
                continue
            position += step
            while 0 <= position < n and self.tokens[position].norm in FILLER:
                position += step
            # The other offer runs to the end of its clause: "Tool number 0 or Tool number 1" offers "number 1",
            # though its first word is one of the question's.
            first_word = position
            while 0 <= position < n and self.tokens[position].norm not in CLAUSE_WORDS:
                if position != first_word and self.tokens[max(position - step, position)].boundary:
                    break  # punctuation ends the offer
                if not self.allowed(self.tokens[position]):
                    return True
                position += step
        return False


_QUALIFIED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.([A-Z]\w*)")


def unqualified(tokens: list[Token]) -> list[Token] | None:
    """The tokens with each qualified class name read as the class alone ("torch.nn.parallel.DistributedDataParallel"
    as "DistributedDataParallel": its module path names no other term), or None if there is none."""
    out, changed = [], False
    for token in tokens:
        match = _QUALIFIED.fullmatch(token.surface)
        if match and token.parts:
            name = match[1]
            out.append(Token(token.parts[-1], name, (), token.boundary, True))
            changed = True
        else:
            out.append(token)
    return out if changed else None


def find_target(
    tokens: list[Token], targets: tuple[Target, ...], question_norms: frozenset[str], *, asking: bool = False
) -> TargetMatch | None:
    """The best clean occurrence of a target in the response, or None. An occurrence the response rules out
    ("not a Job", "Job? No.") ranks below any other and is flagged `negated`. `asking`: the response ends
    with a question mark, so a bare "no" at its end asks for confirmation ("Job, no?") rather than retracts.

    An occurrence glued to another content word ("Cron Job", "Job scheduler") names a different
    term and does not count; words separated by punctuation or function words are explanation.
    """
    context = _Context(tokens, question_norms)
    best: TargetMatch | None = None
    for target in targets:
        loose_edges = all(t.norm in STOPWORDS for t in target.tokens)
        initials = {target.spelled[0], target.joined[0]}
        for first in range(len(tokens)):
            # Every match, exact or with typos, starts with the same letter as the target.
            if tokens[first].norm[0] not in initials:
                continue
            for last in range(first, min(first + target.size + 3, len(tokens))):
                # Windows start and end on content words; stopwords inside are skipped by _compare.
                edge = tokens[first].norm in STOPWORDS or tokens[last].norm in STOPWORDS
                if edge and not loose_edges and "".join(t.norm for t in tokens[first : last + 1]) != target.spelled:
                    continue
                ok, typos = _compare(tokens[first : last + 1], target)
                if not ok:
                    continue
                left, right = context.neighbour(first, -1), context.neighbour(last, 1)
                if any(t is not None and not (context.allowed(t) or _count(t, target)) for t in (left, right)):
                    continue
                pure = all(context.allowed(t) for i, t in enumerate(tokens) if not first <= i <= last)
                negated = context.negated(first) or context.retracted(last, asking=asking)
                found = TargetMatch(target, typos, pure, context.hedged(first, last), negated)
                if best is None or _rank(found) > _rank(best):
                    best = found
    return best


_COUNT = re.compile(r"\d{1,4}|x\d{1,4}|\d{1,4}x")


def _count(token: Token, target: Target) -> bool:
    """A count beside the term ("2 Jobs", "DDP x8") glues no other term to it, unless numbers are of the term's
    own kind (INT8 beside "4" may be INT4)."""
    return bool(_COUNT.fullmatch(token.norm)) and not any(c.isdigit() for c in target.spelled)


def _rank(match: TargetMatch) -> tuple[bool, bool, bool, int]:
    return (not match.negated, not match.hedged, match.pure, -len(match.typos))


def is_negated(tokens: list[Token], index: int, question_norms: frozenset[str]) -> bool:
    """The token at `index` is ruled out by a negator before it in its clause ("not PyTorch")."""
    return _Context(tokens, question_norms).negated(index)
