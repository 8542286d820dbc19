"""gunicorn settings for scorekeeper: ``gunicorn -c gunicorn.conf.py`` (docs/hosting/scaling.md,
running it by hand; benchmarks/load.py uses it too). Command-line options
override what is set here.

Forwarded headers are trusted only when DJANGO_BEHIND_PROXY says a reverse proxy
sets them. gunicorn's own default trusts X-Forwarded-Proto from 127.0.0.1, so any
client on the same host (or a proxy that passes the client's header through) could
claim HTTPS and skip Django's redirect to it.
"""

from __future__ import annotations

import os
from pathlib import Path


def _env_bool(name: str) -> bool:
    # On as scorekeeper/environment.py's switch reads it: 1/true/yes/on. A value that
    # is neither on nor off stops the app's settings in each worker, and gunicorn
    # with them (a worker that fails to boot halts it), so no guess made here serves.
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


wsgi_app = "scorekeeper.wsgi:application"
# The project folder, so the app imports whatever directory gunicorn starts in.
chdir = str(Path(__file__).resolve().parent)
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

# Threads let a worker answer the score table's polls while another request of the
# same worker waits on the database. 2 workers a core × 4 threads is what
# benchmarks/load.py measured on the 2-core machine (benchmarks/README.md, many phones at once).
worker_class = "gthread"
workers = _env_int("GUNICORN_WORKERS", 2 * (os.cpu_count() or 1))
threads = _env_int("GUNICORN_THREADS", 4)
# A request still running after 30 s is stopped and answered 500; every page and a
# league import are meant to finish well inside it.
timeout = 30
graceful_timeout = 30
keepalive = _env_int("GUNICORN_KEEPALIVE", 5)

if _env_bool("DJANGO_BEHIND_PROXY"):
    # Only the proxy's addresses (it runs on this host by default) may say that the
    # client used HTTPS, and only through the header Django reads too
    # (SECURE_PROXY_SSL_HEADER); the proxy must overwrite what the client sent.
    forwarded_allow_ips = os.environ.get("DJANGO_PROXY_IPS", "127.0.0.1,::1")
    secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
else:
    # Nobody may: the scheme is the connection's own. gunicorn treats a UNIX socket
    # peer as trusted whatever forwarded_allow_ips says, hence the empty header lists.
    forwarded_allow_ips = ""
    secure_scheme_headers = {}
    forwarder_headers = ""

accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")


def on_starting(server) -> None:
    """The app keeps live answers in a cache in memory only with one process serving
    (settings.LIVE_CACHE): it learns how many from here, the worker count as the
    command line left it. The workers, started after this, inherit it."""
    os.environ["DJANGO_SERVER_PROCESSES"] = str(server.cfg.workers)
