"""python -m tests.bench [NAME ...]: build the bench database, start gunicorn, run the benchmarks, stop it.

DATABASE_URL names the server (`make bench` supplies the embedded one); the benchmarks run against
`<its database>_bench`, dropped and recreated each time. Exits non-zero when a benchmark fails.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import time

from . import server

# Each is a module of this package with run(target, options) -> bool.
BENCHMARKS = ("answers", "dashboard", "grading")


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"any of {', '.join(BENCHMARKS)} (default: all)")
    parser.add_argument("--clients", type=int, default=32, help="concurrent simulated users (default: 32)")
    parser.add_argument(
        "--processes", type=int, default=2, help="load processes sharing the clients, so the client is no bottleneck"
    )
    parser.add_argument("--students", type=int, default=64, help="accounts to seed (default: 64)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of unmeasured load first")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of the measured phase")
    parser.add_argument("--healthz-seconds", type=float, default=10.0, help="seconds of GET /healthz")
    options = parser.parse_args(argv)
    unknown = sorted(set(options.names) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    if not 1 <= options.processes <= options.clients or options.students < options.clients:
        parser.error("need 1 <= --processes <= --clients <= --students")
    if options.warmup < 0 or options.seconds <= 0 or options.healthz_seconds <= 1:
        parser.error("need --warmup >= 0, --seconds > 0 and --healthz-seconds > 1")
    options.names = options.names or list(BENCHMARKS)
    return options


def _stop_on_sigterm(signum: int, _frame) -> None:
    raise SystemExit(128 + signum)  # unwinds like Ctrl-C, so gunicorn is stopped on the way out


def main(argv: list[str] | None = None) -> int:
    options = _parse(argv)
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        print("DATABASE_URL is not set; run `make bench`, or set it to a PostgreSQL server", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    began = time.monotonic()
    # Other work on the machine shares the cores with the server and skews every figure.
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load} before the run", flush=True)
    env, usernames, slugs = server.prepare(database_url, students=options.students)
    print(server.describe_gunicorn(env), flush=True)
    passed = True
    with server.gunicorn(env) as (port, pid):
        target = server.Target(port, pid, tuple(usernames), server.STUDENT_PASSWORD, tuple(slugs))
        for name in options.names:
            print(f"--- {name}", flush=True)
            ok = importlib.import_module(f"{__package__}.{name}").run(target, options)
            print(f"--- {name}: {'passed' if ok else 'FAILED'}", flush=True)
            passed = passed and ok
    print(f"bench {'passed' if passed else 'FAILED'} in {time.monotonic() - began:.0f} s", flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("bench interrupted", file=sys.stderr)
        sys.exit(130)
