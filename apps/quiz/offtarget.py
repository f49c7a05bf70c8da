"""Words of a response that earn nothing, weighed against what it covers. Pure, stdlib only.

Most content words earning nothing is keyword stuffing or another concept, irrelevant once everything is covered;
it fades out over the upper half of coverage, where beside an answer mostly given other words are elaboration. A
response far longer than the model answer is cut too.
"""

from __future__ import annotations

from .keyterms import Coverage, ResponseIndex

ELABORATION_FROM = 0.5  # coverage ratio above 1 - this: off-target words weigh less and less
# Content words from which most earning nothing is another concept: three already ("serves models as a REST API",
# two of three off target, for a registry); two are still a fragment, judged by points.py.
OFF_TARGET_FROM = 3


def penalty(result: Coverage, index: ResponseIndex, answer_size: int, items: float = 0.0) -> float:
    """The factor a coverage score is multiplied by for the response's words that earn nothing (`items`: the share
    of a list's items that earn something, for a question asking for a number of them)."""
    factor = 1.0
    precision = max(result.precision, items)
    if len(index.content) >= OFF_TARGET_FROM and result.ratio < 1.0:
        weight = min(1.0, (1.0 - result.ratio) / ELABORATION_FROM)
        factor *= 1.0 - weight * (1.0 - min(1.0, 0.25 + 1.25 * precision))
    limit = max(30, 3 * answer_size)
    if index.length > limit:
        factor *= limit / index.length
    return factor
