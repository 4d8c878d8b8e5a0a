"""Suite-wide pytest setup.

- Hypothesis profiles: ``ci`` (derandomized, so a CI failure reproduces) and ``dev``.
- A test that asks for no database is marked ``pure``: CI runs it once, on the SQLite pass, and
  deselects it with ``-m "not pure"`` on the PostgreSQL + Redis pass, which would only repeat it.
  "Asks for no database" is what pytest-django goes by: no ``django_db`` mark and no database
  fixture (``db``, ``transactional_db``, ``live_server``...), directly or through other fixtures;
  pytest-django refuses database access to every other test, so none can use the database by
  accident. Everything under tests/engine and tests/scenarios is pure whatever it asks for. A test
  that uses the pass's Redis (the cache, pub/sub) or its PostgreSQL server without a database
  fixture is marked ``services`` and stays on both passes.
- Under pytest-xdist (``-n``) each worker has its own test database (pytest-django adds ``_gw0``,
  ``_gw1``... to its name) and its own Redis database (the number of REDIS_URL's plus the worker's
  index), so that one worker's ``cache.clear()`` or counters never reach another's tests. A module
  whose tests share a module-scoped fixture of ours runs on one worker (an ``xdist_group``).
- With CI=true a skipped test fails the run: in CI a skip almost always means a missing service or
  package, and a green run that silently tested less is worse than a red one.
"""

from __future__ import annotations

import os
import random
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.cache.backends.locmem import LocMemCache
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from games import services
from tests.games.conftest import Player, persona_fixture

settings.register_profile(
    "ci",
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "100")),
    derandomize=True,
    # Derandomized, a CI run has nothing to replay from a previous one; and no example database
    # means no shared .hypothesis/ folder for parallel workers to write into.
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# No deadline in dev either: timing on a busy laptop is noise, not a failure.
settings.register_profile("dev", max_examples=50, deadline=None)


def worker_redis_url(url: str, worker: str | None) -> str:
    """REDIS_URL for an xdist worker ("gw0", "gw1"...): the database number plus the worker's
    index. ``redis://h:6379/8`` is db 8 for gw0, db 9 for gw1; without xdist, ``url`` as it is."""
    if not worker or not url.startswith(("redis://", "rediss://")):
        return url
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


def _separate_redis_per_worker() -> None:
    # Redis databases do not separate pub/sub channels, but game channels are named by UUID.
    from django.conf import settings as django_settings
    from django.test.utils import override_settings

    url = os.environ.get("REDIS_URL", "").strip()
    own = worker_redis_url(url, os.environ.get("PYTEST_XDIST_WORKER"))
    if own == url:
        return
    # Tests and the processes they start read the environment; the service reads settings.
    os.environ["REDIS_URL"] = own
    caches = {
        name: {**cache, "LOCATION": own} if cache.get("LOCATION") == url else cache
        for name, cache in django_settings.CACHES.items()
    }
    override_settings(
        REDIS_URL=own, CACHES=caches, CELERY_BROKER_URL=own, CELERY_RESULT_BACKEND=own
    ).enable()


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # The manifest storage of production resolves {% static %} through the files collectstatic
    # wrote, so any page with a static link (admin, DRF's browsable API) would need collectstatic
    # before the tests. Tests check pages, not hashed file names: use the plain storage.
    # trylast: after pytest-django has configured Django.
    from django.conf import settings as django_settings
    from django.test.utils import override_settings

    storages = {
        **django_settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Account mails are sent inline, where tests can see them, not from a thread of their own
    # (tests/players/test_passwords.py turns that on where it is under test).
    override_settings(STORAGES=storages, ACCOUNT_MAILS_IN_BACKGROUND=False).enable()
    _separate_redis_per_worker()

    # No test run has a Celery worker, so a task queued to a real broker would never run and
    # `.delay().get()` would wait forever. Run tasks inline even when REDIS_URL is set; the
    # PostgreSQL + Redis pass still exercises Redis through the cache.
    from config.celery import app as celery_app

    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


if _ci() or os.environ.get("HYPOTHESIS_PROFILE") == "ci":
    settings.load_profile("ci")
else:
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

PURE_DIRS = ("engine", "scenarios")
# pytest-django's fixtures that give a test the database (``live_server`` serves it to another
# thread). ``django_db_blocker`` is not one: pytest-django's own autouse fixtures ask for it.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "django_db_setup",
        "live_server",
        "admin_user",
        "admin_client",
    }
)


def shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses one of our module- or class-scoped fixtures (a browser, servers, a
    generated client...), which each xdist worker running part of the module would set up again."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for definitions in info.name2fixturedefs.values():
        chosen = definitions[-1]  # the one this item gets: the closest definition
        if chosen.scope in {"class", "module", "package"} and chosen.baseid.startswith("tests"):
            return True
    return False


def needs_database(item: pytest.Item) -> bool:
    """Whether pytest-django would give ``item`` the database, or it uses the pass's services."""
    if item.get_closest_marker("django_db") or item.get_closest_marker("services"):
        return True
    return bool(DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())))


# Reports reach the hooks below without the config, so skips are kept at module level. The
# controller of an xdist run receives the workers' test reports through the same hook.
_skips: list[str] = []


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # tryfirst: the marks must be on the items before `-m "not pure"` deselects by them.
    tests_dir = Path(__file__).resolve().parent
    pure_roots = [tests_dir / name for name in PURE_DIRS]
    for item in items:
        path = Path(item.path).resolve()
        if any(path.is_relative_to(root) for root in pure_roots) or not needs_database(item):
            item.add_marker(pytest.mark.pure)
        # Under `-n` with --dist loadgroup, such a module is one unit of work: its costly setup
        # runs once. xdist hands out the largest units first, the single tests fill in after.
        if not item.get_closest_marker("xdist_group") and shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    _group_for_xdist(config, items)


def _group_for_xdist(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker under --dist loadgroup: a nodeid per item, with its xdist_group in it.

    The scheduler of --dist loadgroup keys tests by nodeid, so of items sharing one only the first
    would run, silently: Schemathesis' items of one test do (their operation is in the name
    only, not in the nodeid pytest 9.2 makes), so each gets its operation as the nodeid's
    parameters. And pytest-xdist 3.8 marks a group by setting ``item._nodeid``, which pytest 9.2
    no longer reads (a node's id is ``item._id``): its groups would be ignored."""
    if getattr(config, "workerinput", None) is None or not config.getoption("loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id

    shared = {nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1}
    for item in items:
        if hasattr(item, "_nodeid") or not hasattr(item, "_id"):
            continue  # a pytest whose nodeids xdist still sets itself
        if item.nodeid in shared and item._id.params is None and item.name.endswith("]"):
            item._id = item._id.with_params(item.name.partition("[")[2].removesuffix("]"))
        marks = list(item.iter_markers("xdist_group"))
        if marks:
            names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in marks}
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(sorted(names))}")


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # An expected failure (xfail) reports as "skipped" too, but it ran: that is not a skip.
    if report.skipped and not hasattr(report, "wasxfail"):
        _record_skip(report)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    # A module-level skip (e.g. pytest.importorskip) skips a whole file at collection time.
    if report.skipped:
        _record_skip(report)


def _record_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    _skips.append(f"{report.nodeid}: {_skip_reason(report)}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _ci() and _skips and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    if not (_ci() and _skips):
        return
    terminalreporter.section("skipped tests fail the run when CI=true", sep="!", red=True)
    for line in _skips:
        terminalreporter.line(f"SKIPPED {line}", red=True)
    terminalreporter.line(
        f"{len(_skips)} test(s) skipped. Install what they need or remove the skip.", red=True
    )


# ---------------------------------------------------------------------------------------------
# The API personas (tests/games/conftest.py's ``Player``: a user and a bearer-token client) and
# the fixtures that go with them, for every folder. A folder whose personas differ defines its
# own (tests/notifications: verified e-mail addresses; tests/players: plain users).

alice = persona_fixture("alice")
bob = persona_fixture("bob")
carol = persona_fixture("carol")
dave = persona_fixture("dave")


@pytest.fixture
def lift_throttles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full games send hundreds of actions a minute: lift the rates, and give the test its own
    throttle cache so counts never leak between tests (or into Redis on the PostgreSQL pass).

    Opt-in (``pytestmark = API_TESTS``), so a test of the throttles themselves is unaffected."""
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"auth": None, "actions": None, "games": None}
    )
    monkeypatch.setattr(ScopedRateThrottle, "cache", LocMemCache(f"t-{uuid.uuid4()}", {}))


@pytest.fixture
def everyone(alice: Player, bob: Player, carol: Player, dave: Player) -> list[Player]:
    return [alice, bob, carol, dave]


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def seeded_engine(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], random.Random]:
    """Make the service's shuffles and seat order reproducible: ``seeded_engine(seed)``."""

    def seed(value: int) -> random.Random:
        rng = random.Random(value)
        monkeypatch.setattr(services.base, "new_rng", lambda: rng)
        return rng

    return seed
