"""bench/compile_engine.py without compiling (mypyc takes minutes): what a build copies, what it
compiles, where it refuses to write, and the checks that refuse a build's figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import compile_engine as ce

ROOT = Path(__file__).resolve().parents[2]


def test_copies_the_engine_with_its_data_and_no_build_products(tmp_path: Path) -> None:
    (tmp_path / "games/engine/uno/__pycache__").mkdir(parents=True)
    for name in (
        "games/__init__.py",
        "games/models.py",  # Django's side of games: not the engine
        "games/engine/__init__.py",
        "games/engine/uno/__init__.py",
        "games/engine/uno/state.py",
        "games/engine/uno/deck.json",
        "games/engine/uno/state.cpython-311-x86_64-linux-gnu.so",  # stale: never copied
        "games/engine/uno/__pycache__/state.cpython-311.pyc",
    ):
        (tmp_path / name).write_text("")
    files = ce.source_files(tmp_path)
    assert [f.as_posix() for f in files] == [
        "games/__init__.py",
        "games/engine/__init__.py",
        "games/engine/uno/__init__.py",
        "games/engine/uno/deck.json",
        "games/engine/uno/state.py",
    ]


def test_compiles_every_engine_module_but_those_left_interpreted() -> None:
    files = [
        Path(p)
        for p in (
            "games/__init__.py",
            "games/engine/__init__.py",
            "games/engine/scenario.py",
            "games/engine/uno/__init__.py",
            "games/engine/uno/state.py",
            "games/engine/uno/splash/deck.json",
            "games/engine/gin/__init__.py",
            "games/engine/gin/melds.py",
        )
    ]
    every = [m.as_posix() for m in ce.modules_to_compile(files)]
    assert every == [
        "games/engine/__init__.py",
        "games/engine/scenario.py",
        "games/engine/uno/__init__.py",
        "games/engine/uno/state.py",
        "games/engine/gin/__init__.py",
        "games/engine/gin/melds.py",
    ]
    fewer = ce.modules_to_compile(files, ["games.engine.gin", "games.engine.scenario"])
    assert [m.as_posix() for m in fewer] == [
        "games/engine/__init__.py",
        "games/engine/uno/__init__.py",
        "games/engine/uno/state.py",
    ]
    assert ce.module_name(Path("games/engine/uno/__init__.py")) == "games.engine.uno"


def test_the_real_tree_copies_the_decks_and_every_module() -> None:
    files = ce.source_files(ROOT)
    names = {f.as_posix() for f in files}
    assert "games/engine/uno/splash/deck.json" in names
    assert "games/engine/uno/allwild/presets.json" in names
    assert "games/engine/uno/state.py" in names
    assert not any(name.startswith("games/api") for name in names)


def test_prepare_copies_and_refuses_the_source_tree(tmp_path: Path) -> None:
    out = tmp_path / "out"
    files = ce.prepare(out, ROOT)
    assert (out / "games/engine/uno/state.py").read_bytes() == (
        ROOT / "games/engine/uno/state.py"
    ).read_bytes()
    assert len(files) == sum(1 for p in out.rglob("*") if p.is_file()) - 1  # the marker
    # The build's package spans the sources' games too (the Django apps are not copied).
    init = (out / "games/__init__.py").read_text()
    assert init == (ROOT / "games/__init__.py").read_text() + ce.PACKAGE_PATH
    ce.prepare(out, ROOT)  # its own directory: wiped and made again
    with pytest.raises(SystemExit, match="inside games/"):
        ce.prepare(ROOT / "games" / "engine-build", ROOT)
    with pytest.raises(SystemExit, match="repository"):
        ce.prepare(ROOT, ROOT)
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "keep.txt").write_text("mine")
    with pytest.raises(SystemExit, match="refusing to wipe"):
        ce.prepare(stranger, ROOT)
    assert (stranger / "keep.txt").read_text() == "mine"


def test_a_build_is_refused_unless_compiled_there_and_fingerprinted_as_pinned(
    tmp_path: Path,
) -> None:
    pinned = {"uno_splash": "aa", "gin_rummy": "bb"}
    so = str(tmp_path / "games/engine/uno/state.cpython-311-x86_64-linux-gnu.so")
    assert ce.problems(tmp_path, {"games.engine.uno.state": so}, dict(pinned), pinned) == []
    source = str(ROOT / "games/engine/uno/state.py")
    elsewhere = str(ROOT / "games/engine/uno/state.cpython-311-x86_64-linux-gnu.so")
    wrong = ce.problems(
        tmp_path,
        {"games.engine.uno.state": source, "games.engine.uno.play": elsewhere},
        {"uno_splash": "aa", "gin_rummy": "cc"},
        pinned,
    )
    assert len(wrong) == 3
    assert wrong[0].startswith("games.engine.uno.play: imported from")
    assert wrong[1].startswith("games.engine.uno.state: imported from")
    assert wrong[2] == "gin_rummy: fingerprint cc != pinned bb"


def test_a_copy_left_uncompiled_is_refused(tmp_path: Path) -> None:
    # The real check in a fresh interpreter, on a build that was copied but not compiled: the
    # engine imports from the copies' .py files, so the build is refused before its figures count.
    out = tmp_path / "out"
    files = ce.prepare(out, ROOT)
    state = [
        m for m in ce.modules_to_compile(files) if ce.module_name(m) == "games.engine.uno.state"
    ]
    wrong = ce.check_build(out, state, ROOT, fingerprint=False)
    assert len(wrong) == 1
    assert "games.engine.uno.state: imported from" in wrong[0]
    assert wrong[0].endswith(f"not a compiled module in {out.resolve()}")
