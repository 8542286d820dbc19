"""The portable copy: every row of every app as Django's JSON fixtures hold them,
which `loaddata` writes into either engine. `dumpdata` itself would do, but for
one loss: its JSON keeps a moment to the millisecond (as JavaScript does), and a
round's times, read back from another engine, would then differ from the
snapshot's. Here they are written to the microsecond, as stored."""

from __future__ import annotations

import datetime
import gzip
from pathlib import Path

from django.apps import apps
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, router
from django.db.models import QuerySet

# Rows `migrate` writes by itself on every database: the copy leaves them out, and
# names them by their natural keys (app, model and codename) where other rows refer
# to them, since their ids differ from one database to another.
LEFT_TO_MIGRATE = ("contenttypes.ContentType", "auth.Permission")


class ExactJSONEncoder(DjangoJSONEncoder):
    """Django's encoder, with moments to the microsecond."""

    def default(self, o: object) -> object:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def dump(target: Path) -> int:
    """Write the copy, gzipped, to ``target``; returns the rows written. Rows keep
    their ids (a signed-in browser's session names its user by id) and are read
    through the models' base managers, every row there is."""
    rows = 0

    def every_row():
        nonlocal rows
        for model in copied_models():
            for row in QuerySet(model=model, using=connection.alias).order_by("pk").iterator():
                rows += 1
                yield row

    with gzip.open(target, "wt", encoding="utf-8") as out:
        serializers.serialize(
            "json",
            every_row(),
            stream=out,
            cls=ExactJSONEncoder,
            use_natural_foreign_keys=True,
        )
    return rows


def copied_models() -> list:
    """The models whose rows the copy holds, those whose natural keys others name
    first (Django's order for dumpdata)."""
    ordered = serializers.sort_dependencies(
        [(config, None) for config in apps.get_app_configs()], allow_cycles=True
    )
    return [
        model
        for model in ordered
        if model._meta.label not in LEFT_TO_MIGRATE
        and not model._meta.proxy
        and model._meta.managed
        and router.allow_migrate_model(connection.alias, model)
    ]
