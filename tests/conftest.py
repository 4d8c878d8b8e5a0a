"""Suite-wide pytest setup.

- Hypothesis profiles: ``ci`` (derandomized, so a CI failure reproduces) and ``dev``.
- Everything under tests/engine and tests/scenarios is marked ``pure``: it needs no database, so CI
  runs it once, on the SQLite pass, and deselects it with ``-m "not pure"`` on the PostgreSQL pass.
  Pure tests need no fixture either: pytest-django only creates a test database for tests that ask
  for one (``django_db`` / ``db``), and refuses database access to everything else.
- With CI=true a skipped test fails the run: in CI a skip almost always means a missing service or
  package, and a green run that silently tested less is worse than a red one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "100")),
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# No deadline in dev either: timing on a busy laptop is noise, not a failure.
settings.register_profile("dev", max_examples=50, deadline=None)


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
        if any(path.is_relative_to(root) for root in pure_roots):
            item.add_marker(pytest.mark.pure)


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
