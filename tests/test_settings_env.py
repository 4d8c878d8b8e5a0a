"""The environment helpers and the settings built from them."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import ConnectionHandler

import config.settings  # noqa: F401  (fills the registry before the snapshot below)
from config import env
from config.env import EnvError, env_bool, env_int, env_list, env_str, env_url

ROOT = Path(env.__file__).resolve().parent.parent
SETTINGS_PATH = ROOT / "config" / "settings" / "__init__.py"
# Taken at import, before the autouse fixture below swaps the registry out.
SETTINGS_NAMES = frozenset(env.registered_names())
SETTINGS_REGISTRY = dict(env.REGISTRY)
SETTINGS_VARIABLES = [
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "SQLITE_PATH",
    "CONN_MAX_AGE",
    "DATABASE_POOL_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "DATABASE_PREPARED_STATEMENTS",
    "REDIS_URL",
    "CORS_ALLOWED_ORIGINS",
    "EMAIL_BACKEND",
    "STATIC_ROOT",
    "LOG_LEVEL",
]


@pytest.fixture(autouse=True)
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, env.EnvVar]:
    """Names read by these tests must not leak into the registry the other tests inspect."""
    registry: dict[str, env.EnvVar] = {}
    monkeypatch.setattr(env, "REGISTRY", registry)
    return registry


def load_settings(monkeypatch: pytest.MonkeyPatch, **environ: str) -> dict[str, Any]:
    """Execute config/settings/ afresh with exactly these variables set (the live settings stay)."""
    for name in SETTINGS_NAMES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_PATH))


def test_env_int_rejects_a_non_number() -> None:
    with pytest.raises(EnvError, match="WORKERS must be an integer, got 'abc'"):
        env_int("WORKERS", 1, environ={"WORKERS": "abc"})


def test_env_int_enforces_its_lower_bound() -> None:
    with pytest.raises(EnvError, match="WORKERS must be >= 1"):
        env_int("WORKERS", 1, min_value=1, environ={"WORKERS": "0"})


def test_env_int_reads_a_number_and_falls_back_to_the_default() -> None:
    assert env_int("WORKERS", 1, environ={"WORKERS": " 12 "}) == 12
    assert env_int("WORKERS", 1, environ={}) == 1


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        ("1", True),
        ("yes", True),
        ("false", False),
        ("0", False),
        ("No", False),
    ],
)
def test_env_bool_accepts_the_documented_words(raw: str, expected: bool) -> None:
    assert env_bool("FLAG", False, environ={"FLAG": raw}) is expected


@pytest.mark.parametrize("raw", ["flase", "on", "2", "enabled"])
def test_env_bool_rejects_anything_else_instead_of_guessing(raw: str) -> None:
    with pytest.raises(EnvError, match="FLAG must be one of true/false"):
        env_bool("FLAG", False, environ={"FLAG": raw})


def test_a_variable_without_default_is_required() -> None:
    with pytest.raises(EnvError, match="NEEDED is required"):
        env_str("NEEDED", environ={})


def test_an_empty_value_counts_as_unset() -> None:
    assert env_str("NAME", "fallback", environ={"NAME": "  "}) == "fallback"


def test_env_list_splits_on_commas_and_drops_blanks() -> None:
    assert env_list("HOSTS", [], environ={"HOSTS": "a.example, b.example,,"}) == [
        "a.example",
        "b.example",
    ]


def test_env_url_rejects_a_scheme_it_does_not_support() -> None:
    with pytest.raises(EnvError, match="REDIS_URL must use one of the schemes redis"):
        env_url("REDIS_URL", None, schemes=("redis",), environ={"REDIS_URL": "http://x"})


def test_env_url_does_not_echo_a_password_in_its_error() -> None:
    with pytest.raises(EnvError) as caught:
        env_url("DB", None, environ={"DB": "db.internal/uno?password=hunter2"})
    assert "hunter2" not in str(caught.value)


def test_env_error_is_an_improperly_configured() -> None:
    assert issubclass(EnvError, ImproperlyConfigured)


def test_the_registry_records_every_name_read(isolated_registry: dict[str, env.EnvVar]) -> None:
    env_str("ONE", "x", help="first", environ={})
    env_int("TWO", 2, environ={"TWO": "3"})
    with pytest.raises(EnvError):
        env_bool("THREE", environ={})
    assert env.registered_names() == {"ONE", "TWO", "THREE"}
    assert isolated_registry["ONE"].help == "first"


def test_settings_read_the_core_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    load_settings(monkeypatch)
    assert set(SETTINGS_VARIABLES) <= env.registered_names()


def test_settings_read_every_variable_whichever_branch_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry is the list of knobs, so it must not depend on the environment."""
    load_settings(monkeypatch)
    embedded = env.registered_names()
    env.REGISTRY.clear()
    load_settings(
        monkeypatch,
        DATABASE_URL="postgres://db/uno",
        REDIS_URL="redis://r:6379/0",
        DEBUG="0",
        SECRET_KEY="k",
    )
    assert env.registered_names() == embedded == SETTINGS_NAMES


def readme_table_names() -> set[str]:
    """The variables named in the first column of the README's configuration table."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", table, flags=re.MULTILINE))


def test_readme_documents_every_variable() -> None:
    documented = readme_table_names()
    undocumented = sorted(SETTINGS_NAMES - documented)
    # Rows ready to paste, so the fix is one copy away. SETTINGS_REGISTRY holds the help texts.
    rows = "\n".join(
        f"| `{name}` | `{SETTINGS_REGISTRY[name].default}` | {SETTINGS_REGISTRY[name].help} |"
        for name in undocumented
    )
    assert not undocumented, f"add to the README's configuration table:\n{rows}"


def test_the_readme_documents_no_variable_the_code_does_not_read() -> None:
    stale = sorted(readme_table_names() - SETTINGS_NAMES)
    assert not stale, f"the README's configuration table names variables nothing reads: {stale}"


# getattr(settings, "NAME", default) and settings.NAME in the service's code.
_SETTING_READ = re.compile(
    r"""getattr\(\s*settings,\s*["']([A-Z][A-Z0-9_]*)["']|(?<![\w.])settings\.([A-Z][A-Z0-9_]*)"""
)


def test_every_setting_the_code_reads_is_defined_in_settings() -> None:
    """A setting read with a default of its own (``getattr(settings, "X", 1.0)``) but never defined
    in config/settings/ cannot be configured, and the README never hears of it."""
    from django.conf import global_settings

    defined = set(vars(config.settings)) | set(vars(global_settings))
    unknown: dict[str, set[str]] = {}
    for app in ("config", "games", "players", "notifications", "moderation", "ratings", "web"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for match in _SETTING_READ.finditer(path.read_text()):
                name = match.group(1) or match.group(2)
                if name not in defined:
                    unknown.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert not unknown, f"settings read but never defined in config/settings/: {unknown}"


def test_the_bot_settings_default_to_the_bots_own_defaults() -> None:
    from games import bots

    assert SETTINGS_REGISTRY["BOT_BUDGET_MS"].default == bots.DEFAULT_BUDGET_MS
    assert SETTINGS_REGISTRY["BOT_TAKEOVER_LEVEL"].default == bots.DEFAULT_LEVEL


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"BOT_DELAY_SECONDS": "2,1"}, "low,high"),
        ({"BOT_DELAY_SECONDS": "fast"}, "two numbers"),
        ({"BOT_GRACE_SECONDS": "soon"}, "must be a number"),
    ],
)
def test_bad_bot_settings_refuse_to_start(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        load_settings(monkeypatch, **environ)


def test_bot_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(
        monkeypatch,
        BOT_DELAY_SECONDS="0.5, 1",
        BOT_GRACE_SECONDS="2.5",
        BOT_BUDGET_MS="300",
        BOT_TAKEOVER_LEVEL="expert",
    )
    assert loaded["BOT_DELAY_SECONDS"] == (0.5, 1.0)
    assert (loaded["BOT_GRACE_SECONDS"], loaded["BOT_BUDGET_MS"]) == (2.5, 300)
    assert loaded["BOT_TAKEOVER_LEVEL"] == "expert"


def test_debug_off_without_a_secret_key_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        load_settings(monkeypatch, DEBUG="false")


def test_debug_off_with_a_secret_key_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, DEBUG="false", SECRET_KEY="s3cret")
    assert loaded["DEBUG"] is False
    assert loaded["SECRET_KEY"] == "s3cret"


def test_postgres_database_url_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(
        monkeypatch,
        DATABASE_URL="postgres://alice:pw@db.internal:6543/uno",
        CONN_MAX_AGE="120",
    )
    database = loaded["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.internal", 6543, "uno")
    assert (database["USER"], database["PASSWORD"]) == ("alice", "pw")
    assert database["CONN_MAX_AGE"] == 120
    assert "transaction_mode" not in database.get("OPTIONS", {})


def test_a_pool_size_pools_postgresql_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(
        monkeypatch, DATABASE_URL="postgres://alice:pw@db.internal:6543/uno", DATABASE_POOL_SIZE="8"
    )
    database = loaded["DATABASES"]["default"]
    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 10}
    assert database["CONN_MAX_AGE"] == 0
    # Broken pooled connections (a restarted server) are replaced on checkout.
    assert database["CONN_HEALTH_CHECKS"] is True


def test_no_pool_by_default_and_never_for_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, DATABASE_URL="postgres://alice:pw@db.internal:6543/uno")
    assert "pool" not in loaded["DATABASES"]["default"].get("OPTIONS", {})
    loaded = load_settings(monkeypatch, DATABASE_POOL_SIZE="8")
    assert "pool" not in loaded["DATABASES"]["default"]["OPTIONS"]


def test_prepared_statements_bind_on_the_server_and_prepare_repeated_queries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "postgres://alice:pw@db.internal:6543/uno"
    options = load_settings(monkeypatch, DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="true")[
        "DATABASES"
    ]["default"]["OPTIONS"]
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
    # Off by default (Django's choice: a pooler in transaction mode loses prepared statements),
    # and never for SQLite, whose driver has no such options.
    for environ in ({"DATABASE_URL": url}, {"DATABASE_PREPARED_STATEMENTS": "true"}):
        options = load_settings(monkeypatch, **environ)["DATABASES"]["default"].get("OPTIONS", {})
        assert "server_side_binding" not in options and "prepare_threshold" not in options


def test_a_pool_refuses_persistent_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE needs CONN_MAX_AGE=0"):
        load_settings(
            monkeypatch,
            DATABASE_URL="postgres://alice:pw@db.internal:6543/uno",
            DATABASE_POOL_SIZE="8",
            CONN_MAX_AGE="60",
        )


def test_sqlite_default_makes_concurrent_writers_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch)
    database = loaded["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(Path(loaded["BASE_DIR"]) / "db.sqlite3")
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] == 20
    assert database["CONN_MAX_AGE"] == 0


def test_sqlite_path_moves_the_database_file(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, SQLITE_PATH="/tmp/elsewhere.sqlite3")
    assert loaded["DATABASES"]["default"]["NAME"] == "/tmp/elsewhere.sqlite3"


def test_sqlite_database_url_gets_the_same_options(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, DATABASE_URL="sqlite:////tmp/other.sqlite3")
    assert loaded["DATABASES"]["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_sqlite_connections_use_wal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, django_db_blocker: Any
) -> None:
    """The init command really runs: a fresh file database ends up in WAL mode."""
    loaded = load_settings(monkeypatch, SQLITE_PATH=str(tmp_path / "wal.sqlite3"))
    connections = ConnectionHandler({"default": loaded["DATABASES"]["default"]})
    with django_db_blocker.unblock():
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("PRAGMA journal_mode")
                assert cursor.fetchone()[0] == "wal"
        finally:
            connections.close_all()


def test_without_redis_tasks_run_inline_and_cache_is_local(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded = load_settings(monkeypatch)
    assert loaded["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    assert loaded["CELERY_TASK_ALWAYS_EAGER"] is True
    assert loaded["CELERY_BROKER_URL"] == "memory://"


def test_with_redis_cache_and_celery_use_it(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, REDIS_URL="redis://cache:6379/0")
    # The fail-open subclass of Django's RedisCache: a Redis outage must not fail requests.
    assert loaded["CACHES"]["default"]["BACKEND"] == "config.cache.FailOpenRedisCache"
    assert loaded["CACHES"]["default"]["LOCATION"] == "redis://cache:6379/0"
    assert loaded["CELERY_BROKER_URL"] == "redis://cache:6379/0"
    assert loaded["CELERY_RESULT_BACKEND"] == "redis://cache:6379/0"
    assert loaded["CELERY_TASK_ALWAYS_EAGER"] is False


def test_cors_origins_are_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_settings(monkeypatch, CORS_ALLOWED_ORIGINS="https://a.example,https://b.example")
    assert loaded["CORS_ALLOWED_ORIGINS"] == ["https://a.example", "https://b.example"]


def test_a_bad_log_level_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="LOG_LEVEL"):
        load_settings(monkeypatch, LOG_LEVEL="loud")
