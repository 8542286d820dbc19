# The scorekeeper app: gunicorn serving Django, static files collected at build time,
# migrations run at start (docker/entrypoint.sh). compose.yaml puts PostgreSQL, Redis
# and Caddy beside it; docs/hosting/ is the admin's guide.
#
# The base is any Debian-like image with Python 3.11+: the official slim image by
# default, or a plain Debian with python3 from its packages (CI builds on one made by
# debootstrap, as no registry is reachable there). Trixie's PostgreSQL client is 17,
# as new as compose.yaml's server: pg_dump refuses to dump a newer server than itself.
ARG BASE_IMAGE=python:3.11-slim-trixie

FROM ${BASE_IMAGE} AS build

# The official image has python3 with venv built in; plain Debian needs python3-venv
# (ensurepip). Only fetched when missing, so a base that has both builds offline.
RUN if ! python3 -c "import ensurepip" 2>/dev/null; then \
        apt-get update \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            python3 python3-venv ca-certificates \
        && rm -rf /var/lib/apt/lists/*; \
    fi

# pip's own certificate bundle knows only the public authorities; the system's is
# what a network with its own authority adds to (a build can mount the host's
# /etc/ssl/certs over it). Both bases ship this file.
ARG PIP_CERT=/etc/ssl/certs/ca-certificates.crt
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python3 -m venv /opt/venv
# The app's lock file: each package, those it pulls in too, at the version the tests
# ran on, and refused unless its file matches a hash written there (make lock).
COPY requirements.txt /app/requirements.txt
RUN /opt/venv/bin/pip install --require-hashes -r /app/requirements.txt

COPY . /app
WORKDIR /app
# The catalogues compiled (.po to .mo, in Python: no GNU gettext in the image), then
# collectstatic under the production settings, so the files are WhiteNoise's hashed
# and compressed ones. Production refuses to start without a real secret key; this one
# lives only in this command of the build stage and signs nothing.
RUN export DJANGO_ENV=production \
    DJANGO_SECRET_KEY="collectstatic-only-$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    DJANGO_STATIC_ROOT=/app/staticfiles \
    && /opt/venv/bin/python manage.py compile_catalogues \
    && /opt/venv/bin/python manage.py collectstatic --noinput \
    && /opt/venv/bin/python -m compileall -q /app/games /app/scorekeeper


FROM ${BASE_IMAGE} AS runtime

# pg_dump and pg_restore for `manage.py backup` and `restore` on PostgreSQL.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        postgresql-client \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 scorekeeper \
    && useradd --uid 10001 --gid scorekeeper --no-create-home --home-dir /app \
        --shell /usr/sbin/nologin scorekeeper \
    && mkdir -p /backups /run/scorekeeper \
    && chown scorekeeper:scorekeeper /backups /run/scorekeeper

COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app

# XDG_RUNTIME_DIR: where gunicorn puts its control socket (gunicornc); the default,
# under the home folder, is the app's read-only code.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_ENV=production \
    DJANGO_STATIC_ROOT=/app/staticfiles \
    BACKUP_DIR=/backups \
    GUNICORN_BIND=0.0.0.0:8000 \
    GUNICORN_ACCESS_LOG=- \
    XDG_RUNTIME_DIR=/run/scorekeeper

WORKDIR /app
USER scorekeeper
EXPOSE 8000

# The app's own health route: the database and the cache, answered 503 naming what
# failed. The first start migrates, hence the start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]

ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "-c", "gunicorn.conf.py"]
