"""Compile the rules engine with mypyc into a build directory: an optional deployment step.

Run from the repository root::

    python bench/compile_engine.py                       # build/engine-mypyc (git-ignored)
    python bench/compile_engine.py --out /opt/engine     # elsewhere
    python bench/compile_engine.py --interpreted games.engine.scenario  # leave modules as .py
    python bench/compile_engine.py --tests tests/engine  # then pytest against the build
    python bench/compile_engine.py --tests-only --tests tests/engine -q  # the existing build
    python bench/engine.py --splash-only --compiled build/engine-mypyc --cpu

The engine is the same source, compiled: no rule is written twice. ``games/__init__.py`` and the
whole of ``games/engine`` (its data files too: decks and presets are read next to the modules) are
copied into ``OUT/games``; mypyc (shipped with mypy, ``--strict`` as the repository's mypy
configuration) compiles the copies there, so the ``.so`` files sit next to copies and never next
to the sources, where a stale one would shadow an edit. A process imports the compiled engine when
``OUT`` comes before the repository on ``sys.path`` (the build's ``games/__init__.py`` extends the
package to the repository's ``games``, for the Django apps); otherwise the pure engine. A script
run from the repository (``python manage.py``) has the repository first: see docs/deploy.md.

Then a fresh interpreter with ``OUT`` first on its path checks that every compiled module was
imported from its ``.so`` in ``OUT`` and that the compiled engine's fingerprint
(``bench/fingerprint.py``, one match per configuration) equals the one pinned in
``tests/engine/test_fingerprint.py``. A build that fails either check exits 1: its figures are
not the engine's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "build" / "engine-mypyc"
PACKAGE = Path("games")
ENGINE = PACKAGE / "engine"
# Written into OUT by this script: only a directory holding it is ever wiped.
MARKER = ".compile_engine"
# Build products, never copied from the sources (a stray one there would be copied stale).
SKIPPED_SUFFIXES = (".pyc", ".so", ".pyd", ".c", ".o")


def source_files(root: Path = ROOT) -> list[Path]:
    """The files a build copies, relative to ``root``: ``games/__init__.py`` (the package, left
    interpreted: it is empty of rules) and every file of ``games/engine`` but build products."""
    files = [PACKAGE / "__init__.py"]
    for path in sorted((root / ENGINE).rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or "__pycache__" in rel.parts or path.name.endswith(SKIPPED_SUFFIXES):
            continue
        files.append(rel)
    return files


def module_name(path: Path) -> str:
    """``games/engine/uno/__init__.py`` -> ``games.engine.uno``."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_to_compile(files: Iterable[Path], interpreted: Sequence[str] = ()) -> list[Path]:
    """The engine's modules mypyc compiles: every ``.py`` under ``games/engine`` except those
    named in ``interpreted`` (a package's name leaves out all of it)."""
    chosen = []
    for path in files:
        if path.suffix != ".py" or ENGINE not in path.parents:
            continue
        name = module_name(path)
        if any(name == skip or name.startswith(skip + ".") for skip in interpreted):
            continue
        chosen.append(path)
    return chosen


def prepare(out: Path, root: Path = ROOT) -> list[Path]:
    """Wipe ``out`` (only a directory this script made) and copy the sources into it; return the
    files copied, relative to both."""
    out = out.resolve()
    if out == root.resolve() or root.resolve() / PACKAGE in (out, *out.parents):
        raise SystemExit(f"{out}: a build directory must not be the repository or inside games/")
    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise SystemExit(f"{out}: not empty and not made by this script; refusing to wipe it")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("made by bench/compile_engine.py; wiped by its next run\n")
    files = source_files(root)
    for rel in files:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, out / rel)
    with (out / PACKAGE / "__init__.py").open("a", encoding="utf-8") as init:
        init.write(PACKAGE_PATH)
    return files


# Appended to the build's games/__init__.py: the package spans the build and every other
# ``games`` directory on sys.path (the repository's), so a process with OUT first on its path
# imports games.engine compiled and the rest of games (the Django apps) from the sources.
PACKAGE_PATH = """
# Added by bench/compile_engine.py: games.engine from this build, the rest from the sources.
__path__ = __import__("pkgutil").extend_path(__path__, __name__)
"""


def compile_modules(out: Path, modules: Sequence[Path]) -> None:
    """Run mypyc in ``out`` on the copies (its C sources and objects go to ``out/build``)."""
    command = [sys.executable, "-m", "mypyc", "--strict", *map(str, modules)]
    subprocess.run(command, cwd=out, check=True)


# Run in a fresh interpreter with OUT first on sys.path (the repository after it, for
# bench.fingerprint and the pinned hashes): which files were imported, then the fingerprint.
CHECK = """
import importlib, json, sys
names = sys.argv[1].split(",")
files = {name: importlib.import_module(name).__file__ for name in names}
found, PINNED = {}, {}
if sys.argv[2] == "fingerprint":
    from bench.fingerprint import fingerprint
    from tests.engine.test_fingerprint import PINNED
    found = fingerprint(matches=1)
    del found["all"]
print(json.dumps({"files": files, "fingerprint": found, "pinned": PINNED}))
"""


def check_build(
    out: Path, modules: Sequence[Path], root: Path = ROOT, fingerprint: bool = True
) -> list[str]:
    """What is wrong with the build in ``out`` (nothing: an empty list); ``fingerprint=False``
    checks only where ``modules`` are imported from."""

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(out), str(root)])}
    names = ",".join(module_name(m) for m in modules)
    done = subprocess.run(
        [sys.executable, "-c", CHECK, names, "fingerprint" if fingerprint else "files"],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:  # the compiled engine did not even import, or crashed
        return [f"the check failed (exit {done.returncode}):\n{done.stderr[-3000:]}"]
    report = json.loads(done.stdout.splitlines()[-1])
    return problems(out, report["files"], report["fingerprint"], report["pinned"])


def problems(
    out: Path, files: dict[str, str], found: dict[str, str], pinned: dict[str, str]
) -> list[str]:
    """Every module not imported from a compiled file in ``out``; every game whose fingerprint
    differs from the pinned one."""
    wrong = []
    for name, file in sorted(files.items()):
        path = Path(file).resolve()
        if out.resolve() not in path.parents or path.suffix not in (".so", ".pyd"):
            wrong.append(f"{name}: imported from {file}, not a compiled module in {out}")
    for game in sorted(pinned.keys() | found.keys()):
        if found.get(game) != pinned.get(game):
            wrong.append(f"{game}: fingerprint {found.get(game)} != pinned {pinned.get(game)}")
    return wrong


# pytest's ``pythonpath = ["."]`` puts the repository first on sys.path: the engine is imported
# from OUT before pytest starts, and stays the one imported.
RUN_TESTS = """
import sys
sys.path.insert(0, sys.argv[1])
import games.engine.uno.state, pytest
print("engine under test:", games.engine.uno.state.__file__, flush=True)
sys.exit(pytest.main(["-p", "no:cacheprovider", *sys.argv[2:]]))
"""


def run_tests(out: Path, pytest_args: Sequence[str], root: Path = ROOT) -> int:
    """pytest, from the repository, with the engine of the build in ``out``: its exit status."""
    command = [sys.executable, "-c", RUN_TESTS, str(out), *pytest_args]
    return subprocess.run(command, cwd=root).returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the build directory")
    parser.add_argument(
        "--interpreted",
        nargs="*",
        default=[],
        metavar="MODULE",
        help="modules (or packages) of games.engine to leave interpreted",
    )
    parser.add_argument(
        "--no-check", action="store_true", help="skip the import and fingerprint checks"
    )
    parser.add_argument(
        "--tests",
        nargs=argparse.REMAINDER,
        default=None,
        help="then run pytest with these arguments against the build (e.g. --tests tests/engine)",
    )
    parser.add_argument(
        "--tests-only",
        action="store_true",
        help="no build: run --tests against the existing build in --out",
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    if args.tests_only:
        return run_tests(out, args.tests or ["tests/engine"])
    start = time.monotonic()
    files = prepare(out)
    modules = modules_to_compile(files, args.interpreted)
    print(f"compiling {len(modules)} modules into {out} ...", flush=True)
    compile_modules(out, modules)
    print(f"compiled in {time.monotonic() - start:.0f} s", flush=True)
    if args.no_check:
        return 0
    wrong = check_build(out, modules)
    for line in wrong:
        print(f"BUILD REFUSED: {line}", file=sys.stderr)
    if wrong:
        return 1
    print(f"checked: {len(modules)} modules compiled, fingerprint as pinned")
    print(f"use it: python bench/engine.py --compiled {out}, or PYTHONPATH={out} python ...")
    return run_tests(out, args.tests) if args.tests is not None else 0


if __name__ == "__main__":
    sys.exit(main())
