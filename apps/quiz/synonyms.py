"""A small table of general ML-engineering synonyms used by key-term matching.

One group per line, members separated by commas; a member may be several words. Groups are not
transitive: a word in two groups matches either group's words, but those groups stay apart.
Entries are general vocabulary, not tied to any card.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from .textnorm import Token, canon, stem, stems_related

_TABLE = """
copy, replica, replicate, duplicate, clone, mirror
gpu, device, accelerator, worker, rank
worker, process, rank
split, shard, partition, slice, chunk, divide, subset, portion
inference, serving, serve, prediction, predict, production
deployment, production, serving, deploy, ship, live
memory, ram, vram, hbm, footprint
speed, throughput, fast, faster, quick, quicker, speedup, accelerate, rapid
latency, delay, wait, lag, response time
weight, parameter, param, coefficient
gradient, grad
average, mean
sum, add, total, aggregate, accumulate, combine
synchronize, sync, consistent, in sync, coordinate
identical, same, equal, consistent
reduce, lower, decrease, shrink, cut, smaller, fewer, minimize, save, lessen, compress
increase, raise, boost, higher, larger, bigger, improve, better, maximize, grow
large, big, huge, bigger, larger, massive, giant
small, tiny, little, smaller, lightweight, compact
store, save, keep, persist, retain, hold, preserve
full, complete, entire, everything, entirety
recompute, recalculate, rerun, redo, regenerate
architecture, structure, graph, topology, definition, layout
reload, load, restore
rebuild, reconstruct, recreate, redefine, instantiate
configuration, config, setting, setup, combination, candidate
update, step, apply
underflow, round to zero, flush to zero
overflow, explode
version, revision, tag, release
staging, testing, preproduction, pre production, test environment
archive, retire, deprecate, decommission
reproducible, reproduce, repeatable, reproducibility
log, track, record, monitor
compare, comparison, contrast, benchmark
mimic, imitate, emulate, copy, match, learn from
soft, smooth, flat, flatten, soften
label, target, ground truth
remove, drop, delete, eliminate, discard, prune, strip, zero out
kill, stop, terminate, abort, halt, discard, drop, eliminate, prune, early stopping
hardware, chip, processor, silicon
asic, custom chip, specialized chip, application specific
matrix, matmul, gemm
multiply, multiplication, matmul, gemm, product
framework, library, toolkit
export, convert, port, transfer, translate
interoperability, interoperable, portability, portable, compatibility, compatible, framework agnostic
discrepancy, mismatch, difference, inconsistency, differ, divergence, skew, gap, inconsistent
random, randomly, stochastic, arbitrary
exhaustive, every combination, brute force, all combination
surrogate, proxy, approximation
compute, computation, calculation, flop, calculate
activation, intermediate output, feature map
backward, backprop, backpropagation
node, machine, server, host
thread, multithreading, multithreaded, threaded
parallel, concurrent, concurrently, simultaneously
precision, bitwidth, bit width, bit, quantization, quantize, quantized
integer, int, fixed point
fp32, float32, single precision, full precision, 32bit, 32 bit
fp16, float16, half precision, 16bit, 16 bit
bf16, bfloat16, brain float, 16bit, 16 bit
int8, 8bit, 8 bit
accuracy, accurate, quality, performance
fusion, fuse, merge, fused
operator, op, operation
batch, group, bundle, combine, collect
microbatch, minibatch, micro batch, mini batch, small batch
request, query, call, incoming
window, interval, period, timeout
automatic, auto, automatically, adaptive, dynamic
trial, run, experiment, evaluation, attempt
metric, score, measure, measurement
artifact, file, output
pin, fix, lock, freeze
rollback, roll back, revert, restore
audit, auditability, traceability, lineage, trace
promote, promotion, transition, move, advance
manage, management, handle, organize, govern
visualization, visualize, plot, dashboard, chart
collaboration, share, team
ingestion, ingest, loading, load, input, read, feed, prefetch, prefetching
preprocessing, preprocess, transformation, transform, augmentation, cleaning
pipeline, etl, dataloader, data loader
offline, historical, precomputed
online, real time, realtime, live
cost, expense, price, overhead
tradeoff, trade off, cost, price, expense, compromise
utilization, usage, occupancy, busy
bandwidth, communication, traffic
signal, information, knowledge
similarity, similar, relationship, relative
retrain, retraining, fine tune, finetune
simulate, emulate, fake, mock
robust, resilient, tolerant, cope, adapt
grid, lattice, mesh, array
neighbor, neighbour, adjacent
multiply accumulate, mac, fma, multiply add
general purpose, generic, flexible, programmable, versatile
specialized, dedicated, custom, purpose built, application specific
scale, multiply, factor, scaling
factor, constant, coefficient, multiplier
unscale, divide, rescale
mantissa, significand, fraction bit
sample, draw, pick, choose, select
evaluate, try, test, assess
allocate, assign, spend
top, best, promising, winner, survivor
poor, bad, worst, underperforming, unpromising
repeatedly, iteratively, repeat, iterate, loop
cheap, cheaper, inexpensive, lower cost
error, mistake, wrong
seed, random state, rng
previous, prior, earlier, older, old, past
llm, gpt, large language model, language model
output, prediction, logit
"""


def _member(text: str) -> tuple[str, ...]:
    return tuple(stem(canon(word)) for word in text.split())


def _parse() -> tuple[dict[str, frozenset[int]], dict[tuple[str, str], frozenset[int]]]:
    single: dict[str, set[int]] = {}
    double: dict[tuple[str, str], set[int]] = {}
    for number, line in enumerate(filter(None, map(str.strip, _TABLE.splitlines()))):
        for text in line.split(","):
            member = _member(text)
            if len(member) > 1:  # "multiply accumulate" is also written "multiply-accumulate"
                single.setdefault(stem(canon("".join(text.split()))), set()).add(number)
            if len(member) == 1:
                single.setdefault(member[0], set()).add(number)
            elif len(member) == 2:
                double.setdefault((member[0], member[1]), set()).add(number)
            else:  # three-word phrases are matched by their first two words
                double.setdefault((member[0], member[1]), set()).add(number)
    return {k: frozenset(v) for k, v in single.items()}, {k: frozenset(v) for k, v in double.items()}


_SINGLE, _DOUBLE = _parse()


@lru_cache(maxsize=8192)
def groups_of(word_stem: str, *, compound: bool = False) -> frozenset[int]:
    """Synonym groups of a stemmed word (tolerating a short suffix difference, unless it is a `compound`: "lowerbit"
    of "lower-bit" is not "lower" extended, and "smaller" alone says nothing of bits)."""
    found = _SINGLE.get(word_stem)
    if found is not None:
        return found
    if compound or len(word_stem) < 5:
        return frozenset()
    related = [groups for key, groups in _SINGLE.items() if stems_related(key, word_stem)]
    return frozenset().union(*related) if related else frozenset()


@lru_cache(maxsize=1024)
def spellings(word_stem: str) -> tuple[str, ...]:
    """One-word members of the groups `word_stem` belongs to: "16bit" and "float16" for "fp16"."""
    groups = _SINGLE.get(word_stem, frozenset())
    return tuple(sorted(k for k, found in _SINGLE.items() if found & groups and k != word_stem))


def groups_of_pair(first: str, second: str) -> frozenset[int]:
    return _DOUBLE.get((first, second), frozenset())


# Named instances of a kind: each names its kind ("PyTorch" is a framework), never another of its kind.
_KINDS = {
    "framework": """
        pytorch tensorflow keras jax mxnet caffe paddlepaddle scikitlearn sklearn xgboost onnxruntime tensorrt openvino
        tflite coreml
    """,
}
_KIND_OF = {stem(canon(name)): stem(canon(kind)) for kind, names in _KINDS.items() for name in names.split()}


def kind_of(word_stem: str) -> str:
    """The kind a named instance is of ("framework" of "pytorch"), or ""."""
    return _KIND_OF.get(word_stem, "")


def named_at(tokens: list[Token], i: int) -> tuple[str, str]:
    """(kind, name) of the instance named at `i`, in one word ("PyTorch") or two ("ONNX Runtime"); ("", "")."""
    name = stem(tokens[i].norm)
    if not kind_of(name) and i + 1 < len(tokens) and not tokens[i + 1].boundary:
        name = stem(tokens[i].norm + tokens[i + 1].norm)
    return (kind_of(name), name) if kind_of(name) else ("", "")


def several_named(tokens: list[Token], skip: Callable[[str], bool]) -> dict[str, tuple[str, ...]]:
    """The kinds of which the text names two or more instances ("PyTorch ... TensorFlow": framework), each with their
    names, but for the names `skip` leaves out. One alone names a product, not its kind."""
    named: dict[str, dict[str, None]] = {}
    for i in range(len(tokens)):
        kind, name = named_at(tokens, i)
        if kind and not skip(name):
            named.setdefault(kind, {})[name] = None
    return {kind: tuple(names) for kind, names in named.items() if len(names) > 1}


VOCABULARY = frozenset(_SINGLE) | frozenset(w for pair in _DOUBLE for w in pair)
