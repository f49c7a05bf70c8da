"""A lean HTTP/1.1 keep-alive client on asyncio streams, and the processes that run simulated users.

Each load process runs its share of users as coroutines. A user function gets its user, the shared
params, a Recorder and `ready()`: it logs in, awaits `ready()` (which returns the common start time
once every user of every process is ready), then runs its phases until deadlines derived from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import signal
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from .record import Recorder

HOST = "127.0.0.1"
# Reopen a connection left idle this long instead of racing gunicorn's keep-alive timeout (2 s at least).
IDLE_REOPEN_S = 1.0
REQUEST_TIMEOUT_S = 15.0
START_DELAY_S = 0.3


class HttpError(Exception):
    """No complete HTTP response: refused, reset, closed early or timed out."""


class _StaleConnectionError(Exception):
    """A reused connection closed before any byte of the response: gunicorn ended it, safe to resend."""


@dataclass(slots=True)
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    started: float
    elapsed: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class HttpClient:
    """One keep-alive connection with a cookie jar; `twin()` is a second connection sharing the jar."""

    def __init__(self, port: int, *, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.cookies: dict[str, str] = {} if cookies is None else cookies
        self.resends = 0
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._last_used = 0.0

    def twin(self) -> HttpClient:
        return HttpClient(self.port, cookies=self.cookies)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        return await self.request("GET", path, headers=headers)

    async def post(self, path: str, form: dict, headers: dict[str, str] | None = None) -> Response:
        return await self.request("POST", path, body=urlencode(form).encode(), headers=headers)

    async def request(self, method: str, path: str, *, body: bytes = b"", headers: dict | None = None) -> Response:
        head = [f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{name}={value}" for name, value in self.cookies.items()) + "\r\n")
        if method == "POST":
            head.append(f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n")
        for name, value in (headers or {}).items():
            head.append(f"{name}: {value}\r\n")
        head.append("\r\n")
        data = "".join(head).encode("latin-1") + body
        fresh = False
        if self._writer is None or time.monotonic() - self._last_used > IDLE_REOPEN_S:
            await self._open()
            fresh = True
        # A GET is resent once more even on a new connection (a worker recycling after max_requests may accept it
        # and close it unanswered), as browsers and proxies resend idempotent requests; a POST only off a stale one.
        closed_fresh = 0
        for _attempt in range(3):
            started = time.monotonic()
            try:
                async with asyncio.timeout(REQUEST_TIMEOUT_S):
                    self._writer.write(data)
                    status, response_headers, response_body = await self._read()
            except _StaleConnectionError:
                await self.close()
                if fresh:
                    closed_fresh += 1
                    if method != "GET" or closed_fresh > 1:
                        raise HttpError(f"{method} {path}: connection closed without a response") from None
                    await asyncio.sleep(0.05)  # for the recycled worker's successor
                await self._open()
                fresh, self.resends = True, self.resends + 1
                continue
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError, IndexError) as exc:
                await self.close()
                raise HttpError(f"{method} {path}: {type(exc).__name__} {exc}") from None
            elapsed = time.monotonic() - started
            self._last_used = started + elapsed
            if response_headers.get("connection", "").lower() == "close":
                await self.close()
            return Response(status, response_headers, response_body, started, elapsed)
        raise AssertionError("unreachable")  # pragma: no cover

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def _open(self) -> None:
        await self.close()
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                self._reader, self._writer = await asyncio.open_connection(HOST, self.port)
        except (OSError, TimeoutError) as exc:
            raise HttpError(f"connect: {type(exc).__name__} {exc}") from None

    async def _read(self) -> tuple[int, dict[str, str], bytes]:
        reader = self._reader
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                raise _StaleConnectionError from None
            raise
        except ConnectionResetError:
            raise _StaleConnectionError from None
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                if name == "set-cookie":
                    self._store_cookie(value)
                else:
                    headers[name] = value
        if status in {204, 304} or status < 200:
            body = b""
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._read_chunked()
        else:
            body = await reader.read()
            headers["connection"] = "close"
        return status, headers, body

    async def _read_chunked(self) -> bytes:
        parts = []
        for _chunk in range(1_000_000):
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await self._reader.readexactly(size + 2))
            if size == 0:
                break
        return b"".join(part[:-2] for part in parts)

    def _store_cookie(self, value: str) -> None:
        pair, _, attributes = value.partition(";")
        name, _, cookie = pair.strip().partition("=")
        if "max-age=0" in attributes.lower().replace(" ", ""):
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = cookie


async def hammer(client: HttpClient, path: str, *, until: float, recorder: Recorder, name: str) -> None:
    """GET `path` back to back until `until`."""
    for _request in range(10_000_000):
        if time.monotonic() >= until:
            return
        try:
            response = await client.get(path)
        except HttpError as exc:
            recorder.failures[name, str(exc)] += 1
            await asyncio.sleep(0.05)  # a server that is down must not turn this into a busy loop
            continue
        recorder.response(name, response)


UserMain = Callable[[dict, dict, Recorder, Callable[[], Awaitable[float]]], Awaitable[None]]


async def _run_users(user_main: UserMain, users: list[dict], params: dict, pipe, recorder: Recorder) -> None:
    loop = asyncio.get_running_loop()
    start: asyncio.Future[float] = loop.create_future()
    waiting = len(users)
    all_ready = asyncio.Event()

    def mark_ready() -> None:
        nonlocal waiting
        waiting -= 1
        if waiting == 0:
            all_ready.set()

    async def run_one(user: dict) -> None:
        marked = False

        async def ready() -> float:
            nonlocal marked
            marked = True
            mark_ready()
            return await start

        try:
            await user_main(user, params, recorder, ready)
        except Exception as exc:  # one user's crash is reported, the others go on
            recorder.failures["user", f"{type(exc).__name__}: {exc}"] += 1
        finally:
            if not marked:
                mark_ready()

    tasks = [asyncio.create_task(run_one(user)) for user in users]
    async with asyncio.timeout(params["ready_timeout"]):
        await all_ready.wait()
    pipe.send(("ready", None))
    start.set_result(await loop.run_in_executor(None, pipe.recv))
    async with asyncio.timeout(params["run_timeout"]):
        await asyncio.gather(*tasks)


def _process_main(target: str, users: list[dict], params: dict, pipe) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends us
    module, _, function = target.partition(":")
    recorder = Recorder()
    try:
        asyncio.run(_run_users(getattr(importlib.import_module(module), function), users, params, pipe, recorder))
    except BaseException:
        pipe.send(("error", traceback.format_exc()))
        return
    pipe.send(("done", recorder))


def run_users(
    target: str, users: list[dict], params: dict, *, processes: int, on_start: Callable[[float, list[int]], None]
) -> tuple[float, Recorder]:
    """Runs `target` ("module:function") for every user, spread over `processes`; returns (start time, record).

    `on_start(start, pids of the load processes)` runs once every user is ready and the start time is set.
    """
    context = multiprocessing.get_context("spawn")  # fresh interpreters: no Django, no inherited connections
    workers, pipes = [], []
    recorder = Recorder()
    finished = False
    try:
        for share in (users[index::processes] for index in range(processes)):
            if not share:
                continue
            parent_end, child_end = context.Pipe()
            worker = context.Process(target=_process_main, args=(target, share, params, child_end), daemon=True)
            worker.start()
            child_end.close()
            workers.append(worker)
            pipes.append(parent_end)
        for pipe in pipes:
            _expect(pipe, "ready", params["ready_timeout"] + 10)
        start = time.monotonic() + START_DELAY_S
        for pipe in pipes:
            pipe.send(start)
        on_start(start, [worker.pid for worker in workers])
        for pipe in pipes:
            recorder.merge(_expect(pipe, "done", params["run_timeout"] + 10))
        finished = True
    finally:
        for worker in workers:
            if not finished:  # an error or Ctrl-C here: the users must not go on loading the server
                worker.terminate()
            worker.join(5)
            if worker.is_alive():
                worker.terminate()
                worker.join(5)
    return start, recorder


def _expect(pipe, kind: str, timeout: float):
    if not pipe.poll(timeout):
        raise RuntimeError(f"a load process sent nothing within {timeout:.0f} s (waiting for {kind})")
    got, payload = pipe.recv()
    if got != kind:
        raise RuntimeError(f"a load process failed:\n{payload}")
    return payload
