"""Where the machine's CPU went in each phase: gunicorn, the load processes, everything else (PostgreSQL...).

The client shares the cores with the server, so a figure is only meaningful next to this split:
load processes near a full core each, or little idle time left, mean the client limits the result.
"""

from __future__ import annotations

import threading
import time

import psutil


def _tree_seconds(pid: int) -> float:
    """CPU seconds of a process and its live children (a worker restarted meanwhile loses its share)."""
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


class CpuMeter:
    """Samples CPU use at given monotonic times, in a thread, so the split per phase can be printed."""

    def __init__(self, groups: dict[str, list[int]], *, by_name: tuple[str, ...] = ("postgres",)) -> None:
        self.groups = groups
        self.by_name = by_name
        self.samples: list[tuple[float, dict[str, float]]] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def _sample(self) -> None:
        busy = psutil.cpu_times()
        snapshot = {"machine": sum(busy) - busy.idle - getattr(busy, "iowait", 0.0)}
        for name, pids in self.groups.items():
            snapshot[name] = sum(_tree_seconds(pid) for pid in pids)
        for name in self.by_name:
            snapshot[name] = 0.0
        for process in psutil.process_iter(["name", "cpu_times"]):
            if process.info["name"] in self.by_name and process.info["cpu_times"] is not None:
                snapshot[process.info["name"]] += process.info["cpu_times"].user + process.info["cpu_times"].system
        self.samples.append((time.monotonic(), snapshot))

    def start(self, at: list[float]) -> None:
        def run() -> None:
            for moment in at:
                if self._stop.wait(max(0.0, moment - time.monotonic())):
                    return
                self._sample()

        self._thread = threading.Thread(target=run, name="cpu-meter", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def report(self, labels: list[str | None]) -> list[str]:
        """One line per labelled interval between samples: each group's use in % of one core, and idle."""
        lines, cores = [], psutil.cpu_count() or 1
        for label, (begin, before), (end, after) in zip(labels, self.samples, self.samples[1:], strict=False):
            seconds = end - begin
            if label is None or seconds <= 0:
                continue
            used = {name: (after[name] - before[name]) / seconds * 100 for name in after}
            others = used["machine"] - sum(value for name, value in used.items() if name != "machine")
            parts = [f"{name} {value:.0f}%" for name, value in used.items() if name != "machine"]
            idle = cores * 100 - used["machine"]
            lines.append(
                f"cpu in {label} (% of a core; {cores} cores): {', '.join(parts)}, rest {others:.0f}%, idle {idle:.0f}%"
            )
        return lines
