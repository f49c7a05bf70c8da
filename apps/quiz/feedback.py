"""The grader's note under a verdict: which key terms an answer covered and which it lacked, in words."""

from __future__ import annotations

from collections.abc import Sequence

from .keyterms import Coverage, KeyTerm

PHRASE_WORDS = 3  # the longest run of key terms a note names as one phrase


def phrased(
    labels: tuple[str, ...], key_terms: tuple[KeyTerm, ...], answer_words: tuple[tuple[str, bool], ...]
) -> tuple[str, ...]:
    """The key terms as the model answer writes them together: "limited dynamic range", not "dynamic, range
    and limited". Terms next to each other in the answer (no punctuation between) make one phrase; the
    phrases keep the order of their most important term, and a term shows once."""
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


def coverage_feedback(
    verdict: str, covered: tuple[str, ...], lacking: tuple[str, ...], result: Coverage, note: str
) -> str:
    got, lacking = covered[:3], lacking[:3]
    if verdict == "correct":
        text = f"You covered {join_words(got)}." if got else ""
        if lacking and len(result.missing) > len(result.matched):
            text += f" You could also mention {join_words(lacking[:2])}."
    elif verdict == "partial" and got:
        text = f"You covered {join_words(got)}"
        text += f" but not {join_words(lacking, 'or')}." if lacking else "."
    elif verdict == "partial":
        text = ""
    elif got:
        text = f"You mentioned {join_words(got)}, but the answer turns on {join_words(lacking)}."
    else:
        text = f"A full answer mentions {join_words(lacking)}." if lacking else ""
    return f"{text} {note}".strip()
