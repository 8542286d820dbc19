"""The image's HEALTHCHECK: asks the app's /healthz from inside the container.

It sends the host name the app serves, as the entrypoint derives it (the first of
DJANGO_ALLOWED_HOSTS, else DOMAIN, else localhost): Django answers any other name 400.
A health check runs in a process of its own, so it sees the container's environment,
not what the entrypoint exported. Standard library only: the image has no curl.
"""

from __future__ import annotations

import http.client
import os
import sys


def served_host() -> str:
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(","):
        host = host.strip().lstrip(".")
        if host and host != "*":
            return host
    return os.environ.get("DOMAIN", "").strip() or "localhost"


def main() -> int:
    port = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000").rpartition(":")[2]
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=4)
    try:
        connection.request("GET", "/healthz", headers={"Host": served_host()})
        answer = connection.getresponse()
        body = answer.read(2000).decode("utf-8", "replace")
    except OSError as error:
        print(f"/healthz: no answer: {error}")
        return 1
    print(f"/healthz: {answer.status} {body}")
    return 0 if answer.status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
