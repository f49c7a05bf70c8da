"""Roles in a comparison: which of two compared things each distinguishing word of the answer belongs to, and a
response that gives a word to the other one ("GPUs are ASICs ..., TPUs are general-purpose"). Pure, stdlib only.

The two things are read from the question's coordination: "GPUs and TPUs", "DataParallel (DP) and
DistributedDataParallel (DDP)" (the acronym stands for the name), "grid search and random search" (the words that
tell them apart), "the teacher and student", "PTQ with QAT". A text is cut into sentences and clauses (at
punctuation and clause words); a clause belongs to the thing it names, or else to the last one its sentence
named ("DDP is faster and recommended"). A clause naming both gives only the word right before each name to it
("a small student ... a large teacher"). What follows a negator or a contrast ("instead of threads", "unlike DP",
"doesn't need sparse kernels") is left out: it says what the thing is not.

A word of the answer distinguishes when every use of it belongs to the same thing (a use in a clause naming
neither makes it common). A clause of a response whose distinguishing words mostly belong to the other thing
swaps the roles; each such clause is a fault (faults.py). A response giving them to the right thing in two
clauses, and none to the other, draws a real contrast, however short: partly right (prose.py). A word the answer
denies one thing ("PTQ ... without retraining") given to it ("PTQ needs retraining") is a fault too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .synonyms import groups_of
from .targets import CLAUSE_WORDS, NEGATORS, PRONOUNS
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, stem, stems_related, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


CONTRAST_CLAUSES = 2  # clauses giving the right things their distinguishing words, none wrong: PARTIAL
_PIECE = re.compile(r"\([^()]{1,30}\)|[\w'\-.]+|[,;:?!]")
_CONJUNCTIONS = frozenset({"and", "with", "versus", "vs", "vs."})
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
# "big model = teacher" in notes: one clause, as "is" would make it, not a clause ending at "=".
_EQUALS = re.compile(r"\s*(?<![<>!=])=(?![=>])\s*")
# After these the rest of the clause says what the thing is not, or what another thing is.
_CUTS = NEGATORS | _words(
    """
    unlike instead rather than without except versus vs compared whereas less fewer lack lacks avoid avoids avoiding
    avoided prevent prevents preventing bypass bypasses
    """
)
_DENIALS = NEGATORS | _words("without lack lacks")
_RELATIVE = frozenset({"which", "who", "that", "whose"})  # of the last thing named, even after "than"
_ASIDE = re.compile(r"\(([^()]{1,40})\)")
# Words of a role that the stopword list leaves out, and their equivalents; among them when a thing happens
# ("PTQ after training, QAT during training"; "an already-trained model" is after training).
_ROLE_WORDS = {"whole": "whole", "entire": "whole", "single": "single", "individual": "single"} | {
    "after": "after", "post": "after", "already": "after", "during": "during", "before": "before", "pre": "before",
}  # fmt: skip
_NUMBER = re.compile(r"[\d.]+")


def _norm(text: str) -> str:
    tokens = tokenize(fold(text))
    return tokens[0].norm if len(tokens) == 1 else ""


def _word(piece: str) -> str:
    return "" if piece.startswith("(") or piece in ",;:?!" else piece


def _names(word: str, acronym: str, other: tuple[str, ...]) -> frozenset[str]:
    """A side's names: its acronym, and its word when that is a code name ("DataParallel") or no acronym is
    given; never a word the other side uses too."""
    out = set()
    inner = acronym.strip("()").strip()
    if inner and re.fullmatch(r"[A-Za-z][A-Za-z0-9]{1,9}", inner):
        out.add(_norm(inner))
    if word and (not out or re.search(r"[a-z][A-Z]", word)) and word.casefold() not in other:
        out.add(_norm(word))
    return frozenset(n for n in out if n and n not in STOPWORDS and n not in FILLER)


@lru_cache(maxsize=512)
def subjects(question: str) -> tuple[frozenset[str], ...]:
    """The two things the question compares, each as the set of its names (normalised); () when none."""
    pieces = _PIECE.findall(question)
    for i, piece in enumerate(pieces):
        if piece.casefold() not in _CONJUNCTIONS or i == 0 or i + 1 >= len(pieces):
            continue
        j, left_acronym = i - 1, ""
        if pieces[j].startswith("(") and j > 0:
            left_acronym, j = pieces[j], j - 1
        left, before = _word(pieces[j]), _word(pieces[j - 1]) if j > 0 else ""
        right = _word(pieces[i + 1])
        after = _word(pieces[i + 2]) if i + 2 < len(pieces) else ""
        right_acronym = ""
        for k in (i + 2, i + 3):
            if k < len(pieces) and pieces[k].startswith("("):
                right_acronym = pieces[k]
                break
        if right_acronym == pieces[i + 2 if i + 2 < len(pieces) else i]:
            after = ""
        if left and after and left.casefold() == after.casefold() and before:  # "grid search and random search"
            left = before
        if not left or not right or any(w.casefold() in STOPWORDS | FILLER for w in (left, right)):
            continue
        a = _names(left, left_acronym, (right.casefold(), after.casefold()))
        b = _names(right, right_acronym, (left.casefold(),))
        if a and b and not a & b:
            return (a, b)
    return ()


def _mentions(token: Token, names: frozenset[str]) -> bool:
    forms = {token.norm, *token.parts}
    return any(f.rstrip("s") == n.rstrip("s") for f in forms for n in names if f)


def _content(token: Token, qstems: frozenset[str]) -> list[str]:
    """The stems of a word that may carry a role: content words not of the question (with a compound's pieces)."""
    if token.norm in _ROLE_WORDS:
        return [_ROLE_WORDS[token.norm]]
    if token.norm in STOPWORDS or token.norm in FILLER or is_generic(token.norm) or len(token.norm) < 3:
        return []
    if _NUMBER.fullmatch(token.norm):
        return []
    words = [token.norm, *(p for p in token.parts if len(p) > 2 and p not in STOPWORDS)]
    marks = [_ROLE_WORDS[p] for p in token.parts if p in _ROLE_WORDS]  # "already-trained": after
    return [s for s in dict.fromkeys(stem(w) for w in words) if s not in qstems] + marks


def _heads(tokens: list[Token], names: tuple[frozenset[str], ...], qstems: frozenset[str]) -> frozenset[str]:
    """The question's words a text writes right after the names of both things ("search" of "grid search ...
    random search"): the head they share, so that a name alone is a mere word ("samples at random", "on a grid").
    Not any word ("DP uses ..., DDP uses ..."): a name is still the thing before another."""
    after = [
        {
            tokens[i + 1].norm
            for i, t in enumerate(tokens[:-1])
            if _mentions(t, n) and not tokens[i + 1].boundary and stem(tokens[i + 1].norm) in qstems
        }
        for n in names
    ]
    return frozenset(after[0] & after[1]) - STOPWORDS if len(after) == 2 else frozenset()


def _attributed(
    text: str, names: tuple[frozenset[str], ...], qstems: frozenset[str]
) -> list[tuple[str, list[tuple[int, str]], list[tuple[int, str]]]]:
    """Per clause of `text`, as written: (which thing, stem) for each word that the clause gives to one of the two
    things, -1 for a word in a clause that names neither; and the same for the words it denies them ("PTQ ...
    without retraining")."""
    out: list[tuple[str, list[tuple[int, str]], list[tuple[int, str]]]] = []
    last = nearest = -1

    def aside(match: re.Match[str]) -> str:  # "a big model (teacher)" names what it follows: left out
        tokens = tokenize(match.group(1))
        return " " if any(_mentions(t, n) for t in tokens for n in names) and len(tokens) <= 3 else match.group()

    folded = _ASIDE.sub(aside, _EQUALS.sub(" is ", fold(text)[:4000]))
    heads = _heads(tokenize(folded), names, qstems)
    for sentence in _SENTENCE_END.split(folded):
        tokens = tokenize(sentence)
        if not (tokens and tokens[0].norm in PRONOUNS):
            last = -1
        # Which thing each word names: with their shared head ("grid search"), when the text writes it after both.
        said = [
            {side for side, n in enumerate(names) if _mentions(t, n)}
            if not heads or (i + 1 < len(tokens) and tokens[i + 1].norm in heads)
            else set()
            for i, t in enumerate(tokens)
        ]
        clauses: list[list[int]] = []
        for at, token in enumerate(tokens):
            if not clauses or token.boundary or token.norm in CLAUSE_WORDS:
                clauses.append([])
            clauses[-1].append(at)
        for places in clauses:
            clause = [tokens[at] for at in places]
            if clause[0].norm in _RELATIVE and nearest >= 0:
                last = nearest
            cut = next((i for i, t in enumerate(clause) if t.norm in _CUTS), len(clause))
            kept = clause[:cut]
            named = {(i, side) for i in range(len(kept)) for side in said[places[i]]}
            sides = {side for _, side in named}
            spots = {i for i, _ in named}
            words: list[tuple[int, str]] = []
            for i, token in enumerate(kept):
                if i in spots:
                    continue
                if len(sides) == 1 or (not sides and last >= 0):
                    owner = next(iter(sides)) if sides else last
                elif sides:  # both named: only the word right before a name ("a small student model")
                    owner = next((side for j, side in named if j == i + 1), -2)
                else:
                    owner = -1
                if owner != -2:
                    words.extend((owner, s) for s in _content(token, qstems))
            # A plain denial of the clause's one thing ("PTQ ... without retraining"), not a contrast ("unlike DP").
            one = next(iter(sides)) if len(sides) == 1 else last if not sides else -1
            denying = cut < len(clause) and clause[cut].norm in _DENIALS and one >= 0
            denied = [(one, s) for t in clause[cut + 1 :] for s in _content(t, qstems)] if denying else []
            out.append((" ".join(t.surface for t in kept), words, denied))
            if named:  # a clause naming both leaves the next one to neither
                last = next(iter(sides)) if len(sides) == 1 else -1
            named_any = [side for at in places for side in sorted(said[at])]
            nearest = named_any[-1] if named_any else -1
    return out


def _same(a: str, b: str) -> bool:
    return stems_related(a, b) or bool(groups_of(a) & groups_of(b))


# The two things; each distinguishing word of the answer with the thing it belongs to; each word the answer denies
# one thing, with that thing.
Roles = tuple[tuple[frozenset[str], ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]


@lru_cache(maxsize=512)
def ownership(question: str, answer: str, qstems: frozenset[str]) -> Roles:
    """The compared things, and each distinguishing word of the answer: (stem, the thing it belongs to)."""
    names = subjects(question)
    if not names:
        return (), (), ()
    owners: dict[str, set[int]] = {}
    denials: dict[str, set[int]] = {}
    for _, clause, denied in _attributed(answer, names, qstems):
        for side, word_stem in clause:
            owners.setdefault(word_stem, set()).add(side)
        for side, word_stem in denied:
            denials.setdefault(word_stem, set()).add(side)
    # -1: a word of both, or of neither; kept so that it is not taken for its synonym that one thing owns.
    owned = {s: next(iter(o)) if len(o) == 1 else -1 for s, o in owners.items()}
    # Denied one thing and given to neither: "without retraining" of PTQ.
    unsaid = tuple((s, next(iter(o))) for s, o in denials.items() if len(o) == 1 and owned.get(s, -1) == -1)
    return (names, tuple(owned.items()), unsaid) if len(set(owned.values()) - {-1}) == 2 else ((), (), ())


def _owner(owned: dict[str, int], word_stem: str) -> int | None:
    """The thing the answer gives `word_stem` (or its one synonym or close form) to; None when neither or both."""
    found = owned.get(word_stem)
    if found is None:
        owners = {o for s, o in owned.items() if _same(s, word_stem)}
        found = next(iter(owners)) if len(owners) == 1 else None
    return None if found == -1 else found


def attributed(roles: Roles, qstems: frozenset[str], response: str) -> tuple[int, int]:
    """How many clauses of the response give the right thing one of the answer's distinguishing words
    (`roles`), and how many words it gives to the other one."""
    names, owned = roles[0], dict(roles[1])
    right = wrong = 0
    if not owned:
        return 0, 0
    for _, clause, _denied in _attributed(response, names, qstems):
        found = [(side, _owner(owned, word_stem)) for side, word_stem in clause if side >= 0]
        right += any(owner == side for side, owner in found)
        wrong += sum(owner is not None and owner != side for side, owner in found)
    return right, wrong


def misattributed(roles: Roles, qstems: frozenset[str], response: str) -> tuple[str, ...]:
    """The response's clauses that give the answer's distinguishing words (`roles`, see `ownership`) mostly to
    the other thing, as written; none when the response as a whole gives more of them to the right one."""
    names, owned, denied = roles[0], dict(roles[1]), dict(roles[2])
    if not owned:
        return ()
    out, total = [], 0
    for said, clause, _denied in _attributed(response, names, qstems):
        right, wrong = 0, []
        for side, word_stem in clause:
            if side < 0:
                continue
            found = _owner(owned, word_stem)
            if found is not None and found == side:
                right += 1
            elif found is not None or _owner(denied, word_stem) == side:  # "PTQ needs retraining"
                wrong.append(word_stem)
        if wrong and len(wrong) > right:
            out.append(said)
        total += len(wrong) - right
    # A slip in one clause of an answer that mostly gives each thing its own words is let be.
    return tuple(out) if total > 0 else ()


def contrasted(roles: Roles, qstems: frozenset[str], response: str) -> bool:
    """The answer's distinguishing words given to the right things in two clauses, none to the wrong one: a real
    contrast ("TPUs are made by Google and are faster for TensorFlow"), where one alone may be a stray fact."""
    right, wrong = attributed(roles, qstems, response)
    return right >= CONTRAST_CLAUSES and not wrong
