#!/bin/sh
# The image's entrypoint: derives the host settings from DOMAIN, waits for the
# database, and before serving migrates and creates the first admin; then runs the
# command (gunicorn by default, or e.g. `python manage.py backup`).
set -eu

# DOMAIN is the one name the admin sets (.env); Django's settings follow from it
# unless set explicitly. No DOMAIN: the site is plain HTTP on localhost (Caddy serves
# http://localhost), where an HTTPS redirect or HTTPS-only cookies would lock
# everyone out.
if [ -n "${DOMAIN:-}" ]; then
    : "${DJANGO_ALLOWED_HOSTS:=$DOMAIN}"
    : "${DJANGO_CSRF_TRUSTED_ORIGINS:=https://$DOMAIN}"
else
    : "${DJANGO_ALLOWED_HOSTS:=localhost,127.0.0.1,[::1]}"
    : "${DJANGO_CSRF_TRUSTED_ORIGINS:=http://localhost}"
    : "${DJANGO_SECURE_SSL_REDIRECT:=0}"
    : "${DJANGO_SECURE_COOKIES:=0}"
    : "${DJANGO_HSTS_SECONDS:=0}"
    export DJANGO_SECURE_SSL_REDIRECT DJANGO_SECURE_COOKIES DJANGO_HSTS_SECONDS
fi
export DJANGO_ALLOWED_HOSTS DJANGO_CSRF_TRUSTED_ORIGINS

# compose starts PostgreSQL beside the app; it refuses connections while it
# initialises a new volume.
python manage.py wait_for_database --timeout "${DATABASE_WAIT_SECONDS:-60}"

# Only the server migrates: another command of the same image (the daily backup, a
# `docker compose run`) must not race it, nor change the schema behind its back.
if [ "${1:-}" = "gunicorn" ]; then
    python manage.py migrate --noinput

    if [ -n "${DJANGO_SUPERUSER_USERNAME:-}" ] && [ -n "${DJANGO_SUPERUSER_PASSWORD:-}" ]; then
        # Only the first time: a later start leaves the account (and any password
        # changed since) as it is. The name is read from the environment, never
        # pasted into the code.
        if python manage.py shell -c '
import os, sys
from django.contrib.auth import get_user_model
name = os.environ["DJANGO_SUPERUSER_USERNAME"]
sys.exit(0 if get_user_model().objects.filter(username=name).exists() else 1)
'; then
            echo "The admin account ${DJANGO_SUPERUSER_USERNAME} exists; left as it is."
        else
            DJANGO_SUPERUSER_EMAIL="${DJANGO_SUPERUSER_EMAIL:-}" \
                python manage.py createsuperuser --noinput
        fi
    fi
fi

exec "$@"
