"""What an answer splits and what it copies, and a response that does it the other way round (bindings.py)."""

from __future__ import annotations

import pytest

from apps.quiz.bindings import bindings, misbound

DATA_PARALLEL = (
    "The model is replicated on each device; each replica processes a different shard of the mini-batch, computes "
    "gradients locally, and gradients are synchronized (usually via all-reduce) and averaged."
)
MODEL_PARALLEL = (
    "Model parallelism splits a single model's layers or tensors across multiple devices because the model is too "
    "large to fit in one device's memory."
)


def test_the_answer_binds_each_action_to_its_things():
    found = bindings(DATA_PARALLEL)
    assert {("copy", "model"), ("split", "minibatch")} <= found
    assert ("split", "model") not in found
    assert ("split", "model") in bindings(MODEL_PARALLEL)


@pytest.mark.parametrize(
    ("answer", "response", "faulty"),
    [
        (DATA_PARALLEL, "splitting the model's layers across GPUs", "splitting the model's layers across GPUs"),
        (DATA_PARALLEL, "the layers of the model are split over the devices", "the layers of the model are split"),
        (MODEL_PARALLEL, "replicate the model on every GPU, each gets part of the batch", "replicate the model on"),
        # Said the right way round, or denied: nothing wrong.
        (DATA_PARALLEL, "replicate model, split data, sync grads", ""),
        (DATA_PARALLEL, "Each GPU has a copy of the model and its own shard of the data.", ""),
        (DATA_PARALLEL, "no model splitting - every GPU has the full model, the data is split", ""),
        (MODEL_PARALLEL, "you can't just replicate it, so you partition the layers across devices", ""),
        (MODEL_PARALLEL, "Splitting the model across devices.", ""),
        (MODEL_PARALLEL, "unlike data parallelism the model isn't replicated", ""),
    ],
)
def test_a_response_that_splits_what_the_answer_copies_is_named(answer, response, faulty):
    found = misbound(bindings(answer), response)
    assert (found[0] if found else "").startswith(faulty) and bool(found) == bool(faulty), found
