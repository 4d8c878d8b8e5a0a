"""No source file over 600 lines and no function over 80, Python or JavaScript (the limits of
docs/architecture.md and the house style): a file or a function that long is several jobs, and a
reader who opens it cannot hold it in view. Benchmarks (bench/) and migrations (generated) are
not held to it, nor the functions of vendored code.

A function's length is its whole span, the functions declared inside it included, in both
languages: a JavaScript factory whose inner functions share its variables is one long function
(the game screen was once "one 892-line closure with 36 inner functions", issue 31). JavaScript
is read by a parser (esprima), not by patterns, so a method, an arrow function or a callback
counts as a function wherever it is written.

A test rather than a linter rule so that the offender is named with its size, in the same run as
everything else.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path
from typing import Any

import esprima

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
CHECKED_SUFFIXES = (".py", ".js", ".css", ".html")
JS_FUNCTIONS = {"FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"}
# The service worker is a Django template (web/templates/web/sw.js): its `{{ … }}` are values.
TEMPLATE_VALUE = re.compile(r"\{\{.*?\}\}")


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


def _long_js_functions(source: str, name: str) -> dict[str, tuple[int, int]]:
    """``"path name"`` of each JavaScript function longer than the limit: its line and length."""
    found = {}

    def visit(node: Any, where: Any) -> None:
        # esprima calls this for every node it builds, with the node's span.
        if node.type in JS_FUNCTIONS:
            start, end = where.start.line, where.end.line
            if end - start + 1 > MAX_FUNCTION_LINES:
                label = getattr(node.id, "name", None) or "(anonymous)"
                found[f"{name} {label}"] = (start, end - start + 1)

    esprima.parseModule(TEMPLATE_VALUE.sub("null", source), {}, visit)
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


def test_no_javascript_function_is_over_80_lines() -> None:
    unexpected = {
        f"{where} (line {line})": length
        for path in _tracked_sources()
        # Vendored code (tests/web/vendor's minified axe) is someone else's to keep.
        if path.suffix == ".js" and "vendor" not in path.parts
        for where, (line, length) in _long_js_functions(
            (ROOT / path).read_text(encoding="utf-8"), path.as_posix()
        ).items()
    }
    assert not unexpected, f"functions over {MAX_FUNCTION_LINES} lines: {unexpected}"


def test_the_javascript_measure_counts_nested_functions_in_their_parent() -> None:
    inner = "\n".join(f"    const v{i} = {i};" for i in range(76))
    source = (
        "export function factory(ctx) {\n"  # 1
        "  const items = [1].map((x) => {\n"  # 2: a callback counts as a function
        f"{inner}\n"  # 3-78
        "    return x;\n"  # 79
        "  });\n"  # 80
        "  return { go() { return items; } };\n"  # 81
        "}\n"  # 82
        'const worker = "{{ version }}";\n'  # a template value is read as a value
    )
    assert _long_js_functions(source, "m.js") == {"m.js factory": (1, 82)}
    assert _long_js_functions(source.replace(inner, "    const v = 0;"), "m.js") == {}
