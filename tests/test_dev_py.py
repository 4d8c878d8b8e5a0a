"""dev.py's bootstrap: `serve` installs the service's own dependencies, `test` adds the dev extras,
and each set is installed again only when pyproject.toml (or the venv's Python) changed.

pip never runs here: a fake venv in a temporary folder, and a recorder in place of
``subprocess.run``. A real install of the runtime dependencies into a fresh venv is its own test.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

import dev

pytestmark = pytest.mark.pure


class Pip:
    """Stands in for ``subprocess.run``: records pip's arguments, fails when told to."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.fail = False

    def __call__(self, args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.calls.append(args[args.index("--disable-pip-version-check") + 1 :])
        return subprocess.CompletedProcess(args, 1 if self.fail else 0)

    def installs(self) -> list[list[str]]:
        """The project installs (the pip upgrade before each left out)."""
        return [call for call in self.calls if call[:2] == ["install", "-e"]]


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout with a pyproject.toml and a venv that already exists (no real venv made)."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "Scripts").mkdir()
    (venv / "bin" / "python").touch()
    (venv / "Scripts" / "python.exe").touch()
    (venv / "pyvenv.cfg").write_text("version = 3.11.2\n")
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "INSTALL_LOG", venv / "install.log")
    return tmp_path


@pytest.fixture
def pip(monkeypatch: pytest.MonkeyPatch) -> Pip:
    recorder = Pip()
    monkeypatch.setattr(dev.subprocess, "run", recorder)
    return recorder


def test_serve_installs_the_project_without_extras() -> None:
    assert dev.install_command(dev.EXTRAS["serve"]) == ["install", "-e", "."]


def test_test_installs_the_project_with_its_dev_extras() -> None:
    assert dev.install_command(dev.EXTRAS["test"]) == ["install", "-e", ".[dev]"]


def test_the_runtime_install_has_no_test_tools() -> None:
    # The heavy test tools are declared in the dev extras, never in the service's dependencies.
    import tomllib

    project = tomllib.loads((Path(dev.__file__).parent / "pyproject.toml").read_text())["project"]
    runtime = {name.split("==")[0].split("[")[0].lower() for name in project["dependencies"]}
    dev_tools = {
        name.split("==")[0].split("[")[0].lower()
        for name in project["optional-dependencies"]["dev"]
    }
    assert {"pytest", "playwright", "selenium", "open-spiel", "rlcard"} <= dev_tools
    assert not runtime & {"pytest", "playwright", "selenium", "open-spiel", "rlcard", "mypy"}


def test_serve_installs_once_then_starts_at_once(checkout: Path, pip: Pip) -> None:
    dev.bootstrap(dev.EXTRAS["serve"])
    dev.bootstrap(dev.EXTRAS["serve"])
    assert pip.installs() == [["install", "-e", "."]]


def test_serve_after_test_installs_nothing(checkout: Path, pip: Pip) -> None:
    dev.bootstrap(dev.EXTRAS["test"])
    dev.bootstrap(dev.EXTRAS["serve"])
    assert pip.installs() == [["install", "-e", ".[dev]"]]


def test_test_after_serve_adds_the_dev_extras_once(checkout: Path, pip: Pip) -> None:
    dev.bootstrap(dev.EXTRAS["serve"])
    dev.bootstrap(dev.EXTRAS["test"])
    dev.bootstrap(dev.EXTRAS["test"])
    dev.bootstrap(dev.EXTRAS["serve"])
    assert pip.installs() == [["install", "-e", "."], ["install", "-e", ".[dev]"]]


def test_a_changed_pyproject_installs_each_set_again(checkout: Path, pip: Pip) -> None:
    dev.bootstrap(dev.EXTRAS["test"])
    (checkout / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "2"\n')
    dev.bootstrap(dev.EXTRAS["serve"])
    dev.bootstrap(dev.EXTRAS["test"])
    assert pip.installs() == [
        ["install", "-e", ".[dev]"],
        ["install", "-e", "."],
        ["install", "-e", ".[dev]"],
    ]


def test_a_venv_on_another_python_installs_again(checkout: Path, pip: Pip) -> None:
    dev.bootstrap(dev.EXTRAS["serve"])
    (checkout / ".venv" / "pyvenv.cfg").write_text("version = 3.13.1\n")
    dev.bootstrap(dev.EXTRAS["serve"])
    assert len(pip.installs()) == 2


def test_a_failed_install_is_tried_again_next_time(
    checkout: Path, pip: Pip, capsys: pytest.CaptureFixture[str]
) -> None:
    pip.fail = True
    with pytest.raises(subprocess.CalledProcessError):
        dev.bootstrap(dev.EXTRAS["test"])
    pip.fail = False
    dev.bootstrap(dev.EXTRAS["test"])
    assert pip.calls[-1] == ["install", "-e", ".[dev]"]
    assert dev.is_installed("dev", dev.install_fingerprint())


@pytest.mark.parametrize(
    ("argv", "extras", "command"),
    [
        (["serve", "--port", "8123"], "", ["manage.py", "serve", "--port", "8123"]),
        (["test", "-n", "2", "tests/engine"], "dev", ["-m", "pytest", "-n", "2", "tests/engine"]),
    ],
)
def test_each_command_installs_its_set_and_passes_its_arguments_on(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], extras: str, command: list[str]
) -> None:
    asked: list[str] = []
    ran: list[list[str]] = []
    monkeypatch.setattr(dev, "bootstrap", lambda wanted: asked.append(wanted) or Path("py"))
    monkeypatch.setattr(dev, "run", lambda args: ran.append(args) or 0)
    assert dev.main(argv) == 0
    assert asked == [extras]
    assert ran == [["py", *command]]
