"""No source file over 600 lines and no Python function over 80 (docs/architecture.md's and the
house style's limits): a file or a function that long is several jobs, and a reader who opens it
cannot hold it in view. Benchmarks (bench/) and migrations (generated) are not held to it.

A test rather than a linter rule so that the offender is named with its size, in the same run as
everything else.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
CHECKED_SUFFIXES = (".py", ".js", ".css", ".html")


def _tracked_sources() -> list[Path]:
    """The files git tracks with a checked ending, outside bench/ and any migrations folder."""
    names = subprocess.run(
        ["git", "ls-files", "-z", "--", *(f"*{suffix}" for suffix in CHECKED_SUFFIXES)],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split("\0")
    paths = [Path(name) for name in names if name]
    return [
        path
        for path in paths
        if path.parts[0] != "bench" and "migrations" not in path.parts and (ROOT / path).is_file()
    ]


def _line_count(path: Path) -> int:
    return len((ROOT / path).read_text(encoding="utf-8").splitlines())


def _long_functions(path: Path) -> dict[str, tuple[int, int]]:
    """``"path name"`` of each function or method longer than the limit: its line and length."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=str(path))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found[f"{path.as_posix()} {node.name}"] = (node.lineno, length)
    return found


def test_the_checked_files_are_found() -> None:
    # A git that answered nothing would make the tests below pass on no files at all.
    names = {path.as_posix() for path in _tracked_sources()}
    assert "tests/test_sizes.py" in names
    assert not any(name.startswith(("bench/", "players/migrations/")) for name in names)


def test_no_source_file_is_over_600_lines() -> None:
    too_long = {
        path.as_posix(): lines
        for path in _tracked_sources()
        if (lines := _line_count(path)) > MAX_FILE_LINES
    }
    assert not too_long, f"over {MAX_FILE_LINES} lines: {too_long}"


def test_no_python_function_is_over_80_lines() -> None:
    unexpected = {
        f"{where} (line {line})": length
        for path in _tracked_sources()
        if path.suffix == ".py"
        for where, (line, length) in _long_functions(path).items()
    }
    assert not unexpected, f"functions over {MAX_FUNCTION_LINES} lines: {unexpected}"
