"""compose.yaml, checked without Docker (no registry is reachable here to pull the
stack's images): valid against the Compose Specification's JSON schema, as
check-jsonschema ships it, and holding what a club's server depends on: the data in
named volumes, the app's health check, Caddy on 80 and 443, the services started in
order, and every variable it reads explained in .env.example."""

from __future__ import annotations

import importlib.resources
import json
import re
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
ENV_EXAMPLE = ROOT / ".env.example"

# The switches a club's admin may need to set on their own server: each is in
# .env.example with a line saying what it does.
ADMIN_SWITCHES = {
    "DOMAIN",
    "DJANGO_SECRET_KEY",
    "DJANGO_TIME_ZONE",
    "DJANGO_SIGNUPS",
    "DJANGO_ADMINS",
    "DJANGO_EMAIL_URL",
    "DJANGO_DEFAULT_FROM_EMAIL",
    "GUNICORN_WORKERS",
    "BACKUP_KEEP",
    "DJANGO_HSTS_SECONDS",
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS",
    "DJANGO_HSTS_PRELOAD",
    "DJANGO_SUPERUSER_USERNAME",
    "DJANGO_SUPERUSER_EMAIL",
    "DJANGO_SUPERUSER_PASSWORD",
    "POSTGRES_PASSWORD",
}


def compose_file() -> dict:
    # The safe loader resolves the anchors and merge keys, as Compose does.
    return YAML(typ="safe").load(COMPOSE.read_text())


def compose_schema() -> dict:
    vendor = importlib.resources.files("check_jsonschema.builtin_schemas.vendor")
    return json.loads(vendor.joinpath("compose-spec.json").read_text())


def documented_variables() -> dict[str, list[str]]:
    """Each variable of .env.example, set or left commented out, with the comment lines
    right above it (a run of variables shares the comment above the first)."""
    found: dict[str, list[str]] = {}
    comment: list[str] = []
    for line in ENV_EXAMPLE.read_text().splitlines():
        setting = re.fullmatch(r"#? ?([A-Z][A-Z0-9_]*)=.*", line)
        if setting:
            found[setting.group(1)] = comment
        elif line.startswith("#"):
            comment = [*comment, line]
        else:
            comment = []
    return found


def named_volume(service: dict, target: str) -> str | None:
    for mount in service.get("volumes", []):
        source, _, rest = mount.partition(":")
        if rest.split(":")[0] == target and not source.startswith((".", "/")):
            return source
    return None


def test_compose_file_is_valid_against_the_compose_specification() -> None:
    schema = compose_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)

    errors = [
        f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(compose_file())
    ]

    assert errors == []


def test_the_schema_catches_a_mistake_so_the_check_above_means_something() -> None:
    broken = compose_file()
    broken["services"]["db"]["healthcheck"]["retries"] = "five"
    broken["services"]["caddy"]["ports"] = "80:80"

    schema = compose_schema()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema, cls=jsonschema.validators.validator_for(schema))


def test_the_database_and_the_backups_live_in_named_volumes() -> None:
    compose = compose_file()
    services, volumes = compose["services"], compose["volumes"]

    database = named_volume(services["db"], "/var/lib/postgresql/data")
    backups = named_volume(services["backup"], "/backups")

    assert database in volumes and backups in volumes
    assert database != backups
    # The app sees the same backups, to restore one; both write where BACKUP_DIR says.
    assert named_volume(services["app"], "/backups") == backups
    assert services["backup"]["environment"]["BACKUP_DIR"] == "/backups"


def test_the_app_has_a_health_check_on_healthz_and_starts_after_its_services() -> None:
    services = compose_file()["services"]
    app = services["app"]

    assert app["healthcheck"]["test"] == ["CMD", "python", "/app/docker/healthcheck.py"]
    assert '"/healthz"' in (ROOT / "docker/healthcheck.py").read_text()
    assert app["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    assert "healthcheck" in services["db"] and "healthcheck" in services["redis"]
    # The backup runs once the app has migrated, and has no web server to check.
    assert services["backup"]["depends_on"] == {"app": {"condition": "service_healthy"}}
    assert services["backup"]["healthcheck"] == {"disable": True}
    assert "manage.py backup" in "\n".join(services["backup"]["command"])


def test_only_caddy_is_published_on_80_and_443_with_the_repositorys_caddyfile() -> None:
    services = compose_file()["services"]

    published = {name: s["ports"] for name, s in services.items() if "ports" in s}

    assert list(published) == ["caddy"]
    assert {"80:80", "443:443"} <= set(published["caddy"])
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]
    assert (ROOT / "deploy/Caddyfile").is_file()
    assert services["caddy"]["environment"]["UPSTREAM"] == "app:8000"


def test_the_app_is_configured_for_the_stack_it_runs_in() -> None:
    environment = compose_file()["services"]["app"]["environment"]

    assert environment["DATABASE_URL"].split("@")[1] == "db:5432/scorekeeper"
    assert environment["REDIS_URL"] == "redis://redis:6379/0"
    assert environment["DJANGO_BEHIND_PROXY"] == "1"
    assert environment["DJANGO_ENV"] == "production"


def test_every_variable_compose_reads_is_explained_in_env_example() -> None:
    read = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", COMPOSE.read_text()))
    documented = documented_variables()

    assert read, "compose.yaml reads no variable: the pattern above is wrong"
    assert read - set(documented) == set()


def test_every_admin_switch_is_in_env_example_with_a_line_saying_what_it_does() -> None:
    documented = documented_variables()

    assert ADMIN_SWITCHES - set(documented) == set()
    unexplained = [name for name, comment in documented.items() if not comment]
    assert unexplained == []


def test_env_example_sets_no_secret() -> None:
    values = dict(
        line.split("=", 1)
        for line in ENV_EXAMPLE.read_text().splitlines()
        if re.match(r"[A-Z]", line)
    )

    assert values["DJANGO_SECRET_KEY"] == ""
    assert values["POSTGRES_PASSWORD"] == ""
