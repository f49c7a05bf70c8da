"""A bridge to the pinned npm KaTeX, run in one long-lived `node` process.

Starting node costs ~50 ms, a formula ~0.4 ms once it runs, so the process is
kept and fed one JSON line per formula. A lock serialises callers (threads share
one pipe) and a fork gets its own process, so gunicorn's pre-fork model is safe.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import subprocess
import threading
from pathlib import Path

from django.conf import settings

from apps.common.errors import DependencyUnavailableError

WORKER = Path(__file__).with_name("katex_worker.js")
TIMEOUT_SECONDS = 10.0  # for one formula
START_TIMEOUT_SECONDS = 10.0  # for node to load KaTeX and say hello


# Longer formulas are refused: KaTeX's time grows faster than their length (100 KB took 9 s).
MAX_FORMULA = 5_000


class KatexUnavailableError(DependencyUnavailableError):
    """Node or the katex npm package is missing: a set-up problem, not bad content."""

    service = "its maths renderer (KaTeX)"


class _NoAnswerError(KatexUnavailableError):
    pass


class KatexParseError(ValueError):
    """KaTeX rejected the TeX; the message is KaTeX's own."""


class _Worker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._pid = 0
        self.version = ""

    def _start(self) -> subprocess.Popen[str]:
        node = settings.NODE_BINARY
        if shutil.which(node) is None:
            raise KatexUnavailableError(f"Node.js ({node!r}, NODE_BINARY) is not on PATH; KaTeX rendering needs it")
        self._proc = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            [node, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            cwd=WORKER.parent,
        )
        self._pid = os.getpid()
        hello = self._read_line(START_TIMEOUT_SECONDS)
        try:
            self.version = json.loads(hello)["version"]
        except (ValueError, KeyError, TypeError):
            self._stop()
            raise KatexUnavailableError(f"the KaTeX worker did not start: {hello.strip()[:500]}") from None
        return self._proc

    def _read_line(self, timeout: float) -> str:
        if self._proc is None or self._proc.stdout is None:
            raise KatexUnavailableError("the KaTeX worker is not running")
        with selectors.DefaultSelector() as selector:
            selector.register(self._proc.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                self._stop()
                raise _NoAnswerError(f"the KaTeX worker gave no answer within {timeout:.0f} s")
        line = self._proc.stdout.readline()
        if not line:
            stderr = self._proc.stderr.read() if self._proc.stderr else ""
            self._stop()
            raise KatexUnavailableError(f"the KaTeX worker exited: {stderr.strip()[:500]}")
        return line

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
        self._proc = None

    def _ensure(self) -> subprocess.Popen[str]:
        if self._proc is None or self._pid != os.getpid() or self._proc.poll() is not None:
            self._proc = None
            return self._start()
        return self._proc

    def _ask(self, tex: str, display: bool) -> dict | None:
        """The worker's reply, or None when it gave none in time (it is stopped then); the caller holds the lock."""
        proc = self._ensure()
        try:
            proc.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            self._stop()
            raise KatexUnavailableError("the KaTeX worker closed its input") from None
        try:
            return json.loads(self._read_line(TIMEOUT_SECONDS))
        except _NoAnswerError:
            return None

    def render(self, tex: str, *, display: bool) -> str:
        with self._lock:
            reply = self._ask(tex, display)
            if reply is None:
                # A worker may stall on its own (stopped, starved): a fresh one tries again before the formula is
                # blamed, or a stored page would get an error box in place of good maths (rerender_content).
                reply = self._ask(tex, display)
            if reply is None:
                raise KatexParseError(f"typesetting it took longer than {TIMEOUT_SECONDS:.0f} s")
        if "error" in reply:
            raise KatexParseError(reply["error"])
        return reply["html"]


_worker = _Worker()


# KaTeX writes an operator name in a sub- or superscript ("r_{\max}") as two children of the script element,
# <mi>max</mi><mo>&#x2061;</mo>, where MathML allows one: invalid HTML, and a screen reader may read the wrong
# base and script. In an <mrow> they are one child, as KaTeX itself writes the name when it is the base.
_LOOSE_OPERATOR_NAME = re.compile("(?<!<mrow>)(<mi>[^<]*</mi><mo>\u2061</mo>)(?=</msub>|</msup>|</msubsup>|<m)")


def render_tex(tex: str, *, display: bool = False) -> str:
    """KaTeX's HTML+MathML for `tex`; raises KatexParseError on invalid TeX."""
    if len(tex) > MAX_FORMULA:
        raise KatexParseError(f"the formula is {len(tex):,} characters long; at most {MAX_FORMULA:,}")
    return _LOOSE_OPERATOR_NAME.sub(r"<mrow>\1</mrow>", _worker.render(tex, display=display))


def katex_version() -> str:
    with _worker._lock:
        _worker._ensure()
    return _worker.version
