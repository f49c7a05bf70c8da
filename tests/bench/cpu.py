"""Where the machine's CPU went in each phase: gunicorn, the load processes, PostgreSQL, everything else.

The client shares the cores with the server, so a figure is only meaningful next to this split:
load processes near a full core each, little idle time, or a large "rest" (other work on the
machine) mean the figures say more about the machine than about the app.
"""

from __future__ import annotations

import threading
import time

import psutil


def _seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


class CpuMeter:
    """Samples CPU use at given monotonic times, in a thread, so the split per phase can be printed.

    `groups` are process trees by root pid; `by_name` groups every process of that name (postgres).
    A process that exits between two samples loses that interval's share to "rest".
    """

    def __init__(self, groups: dict[str, list[int]], *, by_name: tuple[str, ...] = ("postgres",)) -> None:
        self.groups = groups
        self.by_name = by_name
        self.samples: list[tuple[float, float, dict[str, dict[int, float]]]] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def _snapshot(self) -> dict[str, dict[int, float]]:
        snapshot: dict[str, dict[int, float]] = {name: {} for name in [*self.groups, *self.by_name]}
        for name, pids in self.groups.items():
            for pid in pids:
                try:
                    root = psutil.Process(pid)
                    members = [root, *root.children(recursive=True)]
                except psutil.Error:
                    continue
                for process in members:
                    try:
                        snapshot[name][process.pid] = _seconds(process)
                    except psutil.Error:
                        continue
        for process in psutil.process_iter(["name"]):
            if process.info["name"] in self.by_name:
                try:
                    snapshot[process.info["name"]][process.pid] = _seconds(process)
                except psutil.Error:
                    continue
        return snapshot

    def _sample(self) -> None:
        busy = psutil.cpu_times()
        machine = sum(busy) - busy.idle - getattr(busy, "iowait", 0.0)
        self.samples.append((time.monotonic(), machine, self._snapshot()))

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
        for label, before, after in zip(labels, self.samples, self.samples[1:], strict=False):
            seconds = after[0] - before[0]
            if label is None or seconds <= 0:
                continue
            used = {
                name: sum(max(0.0, total - before[2][name].get(pid, 0.0)) for pid, total in pids.items())
                / seconds
                * 100
                for name, pids in after[2].items()
            }
            machine = (after[1] - before[1]) / seconds * 100
            parts = [f"{name} {value:.0f}%" for name, value in used.items()]
            rest, idle = machine - sum(used.values()), cores * 100 - machine
            shares = ", ".join([*parts, f"rest {max(rest, 0):.0f}%", f"idle {max(idle, 0):.0f}%"])
            lines.append(f"cpu in {label} (% of a core; {cores} cores): {shares}")
        return lines
