"""tests/conftest.py: which tests are pure, each xdist worker's own Redis database, and the CI rule
under pytest-xdist as CI runs it (with CI=true a skipped test or module fails the run; an
xdist_group runs in one worker).

The CI rule's test runs pytest in a subprocess on a folder of its own holding a copy of
tests/conftest.py and two tests that skip, with two xdist workers: the workers' reports must reach
the hooks of the controller."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import worker_redis_url

ROOT = Path(__file__).resolve().parent.parent
SKIPPING = """
import pytest


def test_passes() -> None:
    assert True


def test_skips() -> None:
    pytest.skip("no such service here")
"""
SKIPPED_MODULE = """
import pytest

pytest.importorskip("a_module_nobody_installed")


def test_never_collected() -> None:
    assert False
"""

# Ten tests that fill a list in their process, then one that needs all ten: under --dist loadgroup
# one worker runs the group, in order.
GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("together")
SEEN = []


@pytest.mark.parametrize("n", range(10))
def test_fills(n: int) -> None:
    SEEN.append(n)


def test_saw_all_ten() -> None:
    assert SEEN == list(range(10))
"""


def run_pytest(folder: Path) -> subprocess.CompletedProcess[str]:
    tests = folder / "tests"
    tests.mkdir()
    shutil.copy(ROOT / "tests" / "conftest.py", tests / "conftest.py")
    (tests / "test_skipping.py").write_text(SKIPPING)
    (tests / "test_skipped_module.py").write_text(SKIPPED_MODULE)
    (tests / "test_grouped.py").write_text(GROUPED)
    (folder / "pytest.ini").write_text("[pytest]\nDJANGO_SETTINGS_MODULE = config.settings\n")
    environ = {k: v for k, v in os.environ.items() if k not in {"CI", "PYTEST_XDIST_WORKER"}}
    environ.update(PYTHONPATH=str(ROOT), CI="true")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-p",
            "no:cacheprovider",
            "tests",
        ],
        cwd=folder,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.pure
def test_a_skip_fails_the_parallel_run_under_ci_and_a_group_runs_together(tmp_path: Path) -> None:
    done = run_pytest(tmp_path)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "skipped tests fail the run when CI=true" in done.stdout, done.stdout
    assert "tests/test_skipping.py::test_skips: no such service here" in done.stdout
    assert "tests/test_skipped_module.py" in done.stdout.split("fail the run when CI=true")[1]
    assert "12 passed, 2 skipped" in done.stdout, done.stdout  # the group's 11 and test_passes
    assert "FAILED" not in done.stdout, done.stdout


@pytest.fixture
def a_player(db: None) -> str:
    return "alice"


def test_a_test_that_asks_for_no_database_is_pure(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("pure")


@pytest.mark.django_db
def test_a_test_with_the_django_db_mark_is_not_pure(request: pytest.FixtureRequest) -> None:
    assert not request.node.get_closest_marker("pure")


def test_a_test_given_the_database_by_a_fixture_is_not_pure(
    request: pytest.FixtureRequest, a_player: str
) -> None:
    assert not request.node.get_closest_marker("pure")


@pytest.mark.services
def test_a_test_of_the_passs_services_is_not_pure(request: pytest.FixtureRequest) -> None:
    assert not request.node.get_closest_marker("pure")


@pytest.mark.parametrize(
    ("url", "worker", "expected"),
    [
        ("redis://127.0.0.1:6379/8", "gw0", "redis://127.0.0.1:6379/8"),
        ("redis://127.0.0.1:6379/8", "gw1", "redis://127.0.0.1:6379/9"),
        ("redis://:secret@cache:6379", "gw3", "redis://:secret@cache:6379/3"),
        ("rediss://cache:6380/0", "gw2", "rediss://cache:6380/2"),
        ("redis://127.0.0.1:6379/8", None, "redis://127.0.0.1:6379/8"),
        ("", "gw1", ""),
    ],
)
def test_each_xdist_worker_has_its_own_redis_database(
    url: str, worker: str | None, expected: str
) -> None:
    assert worker_redis_url(url, worker) == expected
