"""What the simulated users saw, merged across the load processes, and the statistics drawn from it."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .loadgen import Response


@dataclass
class Recorder:
    """What users saw; picklable, merged across processes. Times are time.monotonic(), shared by processes."""

    samples: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter = field(default_factory=Counter)  # (name, status) -> responses
    failures: Counter = field(default_factory=Counter)  # (name, reason) -> count
    counts: Counter = field(default_factory=Counter)
    keys: dict[str, set] = field(default_factory=lambda: defaultdict(set))

    def response(self, name: str, response: Response, *, sample: bool = True) -> None:
        self.statuses[name, response.status] += 1
        if sample:
            self.samples[name].append((response.started, response.elapsed))

    def merge(self, other: Recorder) -> None:
        for name, samples in other.samples.items():
            self.samples[name].extend(samples)
        self.statuses.update(other.statuses)
        self.failures.update(other.failures)
        self.counts.update(other.counts)
        for name, keys in other.keys.items():
            self.keys[name] |= keys

    def window(self, name: str, start: float, end: float) -> list[float]:
        """Latencies (s) of the `name` requests that started in [start, end)."""
        return [elapsed for started, elapsed in self.samples.get(name, ()) if start <= started < end]


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(fraction * len(ordered)))) - 1]
