"""The Dockerfile and .dockerignore, read as Docker reads them (there is no Docker here to build
the image; tests/stack runs its commands instead)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import PurePosixPath

import pytest

from tests.test_serve import ROOT

pytestmark = pytest.mark.pure

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` out of the build context (its patterns here are
    plain names, globs and ``**/`` prefixes; a directory's pattern covers what is inside it)."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    parents = [str(p) for p in reversed(PurePosixPath(path).parents) if str(p) != "."]
    for candidate in [*parents, path]:
        for pattern in patterns:
            assert not pattern.startswith("!"), "exceptions are not read here"
            name = pattern.removeprefix("**/")
            if fnmatch.fnmatch(candidate, pattern) or (
                pattern.startswith("**/") and fnmatch.fnmatch(PurePosixPath(candidate).name, name)
            ):
                return True
    return False


def test_the_build_context_leaves_out_tests_tools_docs_and_local_state() -> None:
    for path in (
        "tests/test_compose.py",
        "tests/stack/harness.py",
        "bench/load.py",
        "docs/deploy.md",
        ".venv/bin/python",
        ".git/HEAD",
        "test-artifacts/stack/game-through-proxy.png",
        "games/__pycache__/models.cpython-311.pyc",
        "db.sqlite3",
        "unoallwild.egg-info/PKG-INFO",
    ):
        assert ignored(path), path


def test_the_build_context_keeps_what_the_image_installs_and_runs() -> None:
    for path in (
        "pyproject.toml",
        "README.md",  # pyproject.toml's readme: the build needs it
        "manage.py",
        "config/settings/__init__.py",
        "config/gunicorn.conf.py",
        "games/engine/uno/game.py",
        "web/static/web/app.js",
        "players/templates",
    ):
        assert not ignored(path), path


def test_the_default_command_writes_only_where_the_image_user_may() -> None:
    user = re.findall(r"^USER (\S+)", DOCKERFILE, re.M)[-1]
    (sqlite_path,) = re.findall(r"^ENV SQLITE_PATH=(\S+)", DOCKERFILE, re.M)
    data_dir = str(PurePosixPath(sqlite_path).parent)
    assert data_dir != "/app" and not data_dir.startswith("/app/"), data_dir
    runs = " ".join(re.findall(r"^RUN (.*?)(?<!\\)$", DOCKERFILE, re.M | re.S))
    assert re.search(rf"mkdir -p [^&]*{re.escape(data_dir)}\b", runs), runs
    assert re.search(rf"chown {user} [^&]*{re.escape(data_dir)}\b", runs), runs
    assert re.search(rf'^VOLUME \["{re.escape(data_dir)}"\]', DOCKERFILE, re.M)
