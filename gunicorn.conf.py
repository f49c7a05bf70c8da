"""Gunicorn's production settings: `gunicorn -c gunicorn.conf.py mlcourse.wsgi`.

Each value can be overridden from the environment (names below). The defaults were chosen with
`make bench` (tests/bench/) on a 2-core machine: 32 clients answering quizzes, then hitting /healthz.
"""

from __future__ import annotations

import errno
import os
import socket
import sys

from gunicorn.glogging import Logger

# gunicorn has put the project directory on sys.path by now (its chdir setting).
from apps.common import env
from apps.common.logs import LOG_FORMATS, LOG_LEVELS, logging_config


def _exit_on_bad_value(read):
    # gunicorn answers any exception raised while reading this file with a traceback; the message alone names the
    # variable and says what is wrong with it.
    def reader(*args, **kwargs):
        try:
            return read(*args, **kwargs)
        except env.ConfigurationError as exc:
            raise SystemExit(f"gunicorn: {exc}") from None

    return reader


env_bool, env_int, env_choice = (_exit_on_bad_value(read) for read in (env.env_bool, env.env_int, env.env_choice))


def _cpus() -> int:
    # The CPUs this process may run on (a container's cpuset), not the host's count.
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# All interfaces by default: the TLS proxy in front reaches the app over the network.
bind = f"{os.environ.get('HOST', '0.0.0.0')}:{env_int('PORT', 8000, minimum=1, maximum=65535)}"  # noqa: S104

# The request path is CPU-bound Python (ORM, templates, grading) with database round trips in between:
# one process per CPU uses every core despite the GIL, and a few threads per process fill the database
# waits. Measured: 2 workers x 4 threads served as many answers as 4 x 2, 3 x 3 or sync x 5, and more
# /healthz; 8 threads per worker only added GIL contention (higher p99). gthread rather than sync also
# keeps connections alive and does not tie up a process while a slow client sends its body.
# sync needs GUNICORN_THREADS=1, or is gthread; any other name was a traceback from gunicorn's worker loader.
worker_class = env_choice("GUNICORN_WORKER_CLASS", "gthread", ("gthread", "sync"))
threads = env_int("GUNICORN_THREADS", 4, minimum=1)

# Database connections. A persistent connection (DB_CONN_MAX_AGE > 0) saves starting a PostgreSQL backend
# per request: measured 4x the /healthz rate and +45 % answers. With gthread each thread keeps its own
# connection, so an instance holds up to workers x threads, twice that while a reload overlaps old and new
# workers. DB_CONNECTION_BUDGET is this instance's share of the server's max_connections (100 by default,
# shared with other instances, migrations and shells): the default worker count stays within it, and an
# explicit one that does not is refused rather than left to exhaust the server.
os.environ.setdefault("DB_CONN_MAX_AGE", "60")
_persistent = env_int("DB_CONN_MAX_AGE", 0) > 0
_budget = env_int("DB_CONNECTION_BUDGET", 20, minimum=1)
workers = env_int("WEB_CONCURRENCY", max(1, min(_cpus(), _budget // threads)) if _persistent else _cpus(), minimum=1)
if _persistent and workers * threads > _budget:
    raise SystemExit(
        f"gunicorn: {workers} workers x {threads} threads would keep {workers * threads} database connections, "
        f"over DB_CONNECTION_BUDGET={_budget}. Lower WEB_CONCURRENCY or GUNICORN_THREADS, raise the budget if "
        "PostgreSQL's max_connections has room for it (twice over during a reload), or set DB_CONN_MAX_AGE=0."
    )

# No control socket (gunicorn 25+ opens one in the home directory by default): two instances on a host would
# share its path, and changing the worker count through it would pass by the connection budget above.
control_socket_disable = True

# One listening socket, the master's, shared by the workers: connections wait in its backlog while workers
# restart, so a recycle or a reload loses none. GUNICORN_REUSE_PORT=1 gives each worker its own SO_REUSEPORT
# socket instead, and the kernel spreads connections evenly (measured p99 ~400 ms vs ~500 ms at 32 clients: with
# one listener, a worker free at accept() takes a connection and keeps it alive, and a core can idle while the
# other queues). Its cost: a worker's socket closes with it, and the connections queued there are reset (unless
# net.ipv4.tcp_migrate_req=1); when every worker restarts at once, as two did within 0.4 s despite the jitter,
# nothing listens and connections are refused (22 failed requests in one bench run).
reuse_port = env_bool("GUNICORN_REUSE_PORT", False)


def on_starting(server) -> None:
    """Refuses a port that another process holds, at once and in one line.

    Without it, the master retried a taken port five times, a second apart, and ended on a message about
    connecting. With reuse_port the workers bind, not the master: a worker that cannot bind exits and the master
    starts another, every few seconds, forever, so a supervisor sees a live process that serves nothing; and a
    second instance by the same user binds beside the first (SO_REUSEPORT) and silently takes half the traffic. A
    test bind without SO_REUSEPORT fails in every case. Skipped for a master re-executed by USR2 (GUNICORN_PID),
    whose predecessor holds the port on purpose, and under systemd socket activation.
    """
    if server.master_pid or os.environ.get("LISTEN_FDS"):
        return
    urls = []
    for address in server.cfg.address:
        if not isinstance(address, tuple):
            continue  # a Unix socket or an inherited descriptor: not shared by SO_REUSEPORT
        host, port = address
        ipv6 = ":" in host
        with socket.socket(socket.AF_INET6 if ipv6 else socket.AF_INET, socket.SOCK_STREAM) as probe:
            # As gunicorn's own sockets do, so that connections in TIME_WAIT from the last run do not count.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if server.pidfile is not None:
                    server.pidfile.unlink()
                if exc.errno == errno.EADDRINUSE:
                    sys.exit(f"gunicorn: port {port} on {host} is in use by another process")
                sys.exit(f"gunicorn: cannot listen on port {port} on {host}: {exc.strerror}")
        urls.append(f"http://[{host}]:{port}" if ipv6 else f"http://{host}:{port}")
    if server.cfg.reuse_port:
        # gunicorn's own line names the master's listeners, none with reuse_port (the logging config drops it).
        server.log.info("Listening at: %s (%s)", ",".join(urls), server.pid)


# Longer than the upstream idle timeout of the usual proxies (nginx, AWS ALB: 60 s), so the proxy, not
# gunicorn, closes idle connections: otherwise a request sent just as gunicorn closes fails with a 502.
# An idle kept-alive connection costs a socket in the worker's poller, not a thread.
keepalive = env_int("GUNICORN_KEEPALIVE", 75)
# gthread's main loop, not the request threads, beats the heartbeat: this only catches a hung worker.
timeout = env_int("GUNICORN_TIMEOUT", 30, minimum=1)
# Under the 30 s that container platforms wait between SIGTERM and SIGKILL, so requests finish first.
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT", 25, minimum=1)

# The request line (method, path and query) gunicorn reads, at most. Its default, 4,094 bytes, answered a long search
# pasted into the box with gunicorn's own bare "URI Too Long" page; 8,190, the most gunicorn takes, matches nginx's
# default buffer (large_client_header_buffers 8k), and below it the search page refuses a query over its own limit
# with a form error. Longer lines still get the proxy's (or gunicorn's) refusal: no page of the site needs one.
limit_request_line = env_int("GUNICORN_LIMIT_REQUEST_LINE", 8190, minimum=1024, maximum=8190)

# Recycle workers to bound slow memory growth. A worker saturated with quiz pages serves ~100 requests/s
# here, so this is minutes at the very least and hours at normal load. The jitter keeps the workers from
# restarting together: under an even load they reach the limit at the same moment, and a recycle takes about
# two seconds, in which a worker closes the connections it holds unanswered; at 2,000 (a tenth) two workers
# serving /healthz at 1,200 requests/s each overlapped and every client saw a connection closed. Half spreads
# them by several seconds even then.
max_requests = env_int("GUNICORN_MAX_REQUESTS", 20000)
max_requests_jitter = env_int("GUNICORN_MAX_REQUESTS_JITTER", 10000)
# Import Django once in the master: a recycled worker is a cheap fork instead of a second of imports on a
# busy core. Nothing connects to the database at import time, so no connection is shared across forks.
# The price: a deploy must restart the master (SIGHUP alone reloads workers, not code).
preload_app = env_bool("GUNICORN_PRELOAD", True)

# The access log costs a formatted write per request; the proxy in front logs requests already.
accesslog = "-" if env_bool("GUNICORN_ACCESS_LOG", False) else None
errorlog = "-"
# gunicorn's own lines (its error log, and the access log when on) in the app's format, through the handler Django's
# settings give the root logger: LOG_FORMAT=json keeps the stream one JSON object a line. gunicorn turns
# propagation off for its loggers, hence propagate.
_log_level = env_choice("LOG_LEVEL", "INFO", LOG_LEVELS)
logconfig_dict = logging_config(
    env_choice("LOG_FORMAT", "json", LOG_FORMATS),
    _log_level,
    {
        "gunicorn.error": {"level": _log_level, "filters": ["empty_listening_at"], "propagate": True},
        "gunicorn.access": {"level": "INFO", "propagate": True},
    },
)


class _Logger(Logger):
    # With logconfig_dict set, gunicorn would gather every request's access-log fields even with the access
    # log off; only `accesslog` turns it on here.
    @property
    def access_log_enabled(self) -> bool:
        return self.cfg.accesslog is not None


logger_class = _Logger

# Heartbeat files on tmpfs: on a container's overlay filesystem their updates can block a worker.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108 - gunicorn's heartbeat files
