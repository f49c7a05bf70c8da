"""The grader's note under a verdict: which key terms an answer covered and which it lacked, in words."""

from __future__ import annotations

from collections.abc import Sequence

from .keyterms import Coverage, KeyTerm
from .textnorm import STOPWORDS, Token

PHRASE_WORDS = 3  # the longest run of key terms a note names as one phrase


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_BEFORE_VERB = _words("it they which")  # "it recomputes"; not "can underflow", a noun of the answer as well
_BEFORE_INFINITIVE = _words("order able used help helps allow allows need needs needed want wants try tries way")
_OBJECT_STARTS = _words("the a an its their them it each all every both this these those")
_PLURAL_LIKE = ("ss", "us", "is")


def _infinitive(tokens: list[Token], k: int) -> bool:
    """tokens[k] is "to" opening an infinitive: at the start of a clause ("To manage ..."), after "in order",
    "able", "used", "helps" ..., or "too large to"; not "in addition to hard labels"."""
    if k == 0 or tokens[k].boundary:
        return True
    return tokens[k - 1].norm in _BEFORE_INFINITIVE or (k > 1 and tokens[k - 2].norm == "too")


def verbs(tokens: list[Token], question_norms: frozenset[str]) -> frozenset[str]:
    """Words the model answer uses as verbs, which read badly as terms in a note ("but not staging or manage"):
    after a subject pronoun ("it recomputes"), an infinitive "to" with more words
    after it in the clause ("To manage model versioning"), or with an -s after the question's subject and before
    its object ("Quantization reduces the ...", "Dynamic batching collects individual ...")."""
    out = set()
    for k in range(1, len(tokens) - 1):
        before, token, after = tokens[k - 1 : k + 2]
        norm = token.norm
        if token.boundary or token.technical or norm in STOPWORDS or norm in question_norms:
            continue
        if (
            before.norm in _BEFORE_VERB
            or (before.norm == "to" and _infinitive(tokens, k - 1) and not after.boundary)
            or (
                before.norm in question_norms
                and norm.endswith("s")
                and not norm.endswith(_PLURAL_LIKE)
                and not after.boundary
                and (after.norm not in STOPWORDS or after.norm in _OBJECT_STARTS)
            )
        ):
            out.add(norm)
    return frozenset(out)


def phrased(
    labels: tuple[str, ...],
    key_terms: tuple[KeyTerm, ...],
    answer_words: tuple[tuple[str, bool], ...],
    verbs: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """The key terms as the model answer writes them together: "limited dynamic range", not "dynamic, range
    and limited". Terms next to each other in the answer (no punctuation between) make one phrase; the
    phrases keep the order of their most important term, and a term shows once. Terms the answer uses as verbs
    (`verbs`) are left out unless nothing else is left: "GPU utilization" rather than "improve GPU utilization"."""
    nouns = tuple(label for label in labels if not any(t.label == label and t.word in verbs for t in key_terms))
    labels = nouns or labels
    rank = {label: i for i, label in enumerate(labels)}
    by_word = {t.word: t.label for t in key_terms if t.word and t.label in rank}
    runs, run = [], []
    for norm, after_punctuation in (*answer_words, ("", True)):
        if after_punctuation or norm not in by_word:
            words = list(dict.fromkeys(run))
            # At most three words a phrase: a longer run reads as a clause ("range avoids overflow").
            runs += [tuple(words[i : i + PHRASE_WORDS]) for i in range(0, len(words), PHRASE_WORDS)]
            run = []
        if norm in by_word:
            run.append(by_word[norm])
    runs = [run for run in runs if len(run) > 1]
    phrases, placed = [], set()
    for phrase in sorted(runs, key=lambda words: min(rank[w] for w in words)):
        if placed.isdisjoint(phrase):
            phrases.append((min(rank[w] for w in phrase), " ".join(phrase)))
            placed.update(phrase)
    phrases += [(rank[label], label) for label in labels if label not in placed]
    return tuple(text for _, text in sorted(phrases))


def join_words(words: Sequence[str], conjunction: str = "and") -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def _quoted(words: Sequence[str]) -> str:
    return join_words([f"'{word}'" for word in words])


def coverage_feedback(
    verdict: str, covered: tuple[str, ...], lacking: tuple[str, ...], result: Coverage, note: str
) -> str:
    """Names the model answer's key words the response covered and those it lacked, quoted: they are words cut
    from the answer ("'limited dynamic range'", "'reloaded'"), which read as a list, not as a sentence. Covered,
    not "used": a synonym covers a term ("copy" for 'replica'), and the student never wrote the answer's word."""
    got, lacking = covered[:3], lacking[:3]
    used = f"You covered {_quoted(got)}." if got else ""
    if verdict == "correct":
        more = lacking and len(result.missing) > len(result.matched)
        text = f"{used} The model answer also has {_quoted(lacking[:2])}." if more else used
    elif verdict == "partial":
        text = f"{used} Missing: {_quoted(lacking)}." if lacking else used  # partly right on its comparison alone
    elif got:  # "You covered" beside "Incorrect" read as a contradiction: what matched is too little to count
        matches = "matches" if len(got) == 1 else "match"
        points = f" Its key points: {_quoted(lacking)}." if lacking else ""
        text = f"Only {_quoted(got)} {matches} the answer.{points}"
    else:
        text = f"The answer's key points: {_quoted(lacking)}." if lacking else ""
    return f"{text.strip()} {note}".strip()
