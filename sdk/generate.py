#!/usr/bin/env python3
"""Build both SDKs' generated parts from openapi.yaml: the one command after the API changes.

    python sdk/generate.py            # regenerate (Python: openapi-python-client; TypeScript:
                                      # openapi-typescript, when sdk/typescript has its packages)
    python sdk/generate.py --check    # exit 1 if what was generated is older than openapi.yaml
    python sdk/generate.py --out DIR  # generate into DIR instead (the tests do)
    (--python-only, --typescript-only: one of the two)

The generated code is not committed (it is rebuilt from the committed schema, which
tests/test_openapi.py keeps current): ``sdk/python/cardgames_client/`` (a package) and
``sdk/typescript/src/schema.d.ts``. Each carries the SHA-256 of the schema it was made from
(``OPENAPI_SHA256``), which ``--check`` and the hand-written layers compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

SDK = Path(__file__).resolve().parent
SCHEMA = SDK.parent / "openapi.yaml"
PACKAGE = "cardgames_client"
STAMP = "OPENAPI_SHA256"
KINDS_CONSTANT = "ACCOUNT_EVENT_KINDS"
REGENERATE = "python sdk/generate.py"
# No post-hooks: the generator would run ruff over its output, which changes nothing that
# matters and needs ruff on PATH.
CONFIG = (
    f"post_hooks: []\nproject_name_override: cardgames-client\npackage_name_override: {PACKAGE}\n"
)


def schema_sha256(schema: Path = SCHEMA) -> str:
    return hashlib.sha256(schema.read_bytes()).hexdigest()


def python_target(out: Path) -> Path:
    return out / "python" / PACKAGE


def typescript_target(out: Path) -> Path:
    return out / "typescript" / "src" / "schema.d.ts"


def generate_python(schema: Path, out: Path) -> Path:
    """openapi-python-client's package for ``schema``, at ``out/python/cardgames_client``."""
    target = python_target(out)
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.yaml"
        config.write_text(CONFIG, encoding="utf-8")
        project = Path(tmp) / "project"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "openapi_python_client",
                "generate",
                "--path",
                str(schema),
                "--output-path",
                str(project),
                "--config",
                str(config),
                "--fail-on-warning",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode != 0:
            raise SystemExit(f"openapi-python-client failed:\n{result.stdout}\n{result.stderr}")
        shutil.rmtree(target, ignore_errors=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(project / PACKAGE, target)
    (target / "_schema.py").write_text(f'{STAMP} = "{schema_sha256(schema)}"\n', encoding="utf-8")
    return target


def generate_typescript(schema: Path, out: Path) -> Path:
    """openapi-typescript's types for ``schema``, at ``out/typescript/src/schema.d.ts`` (with
    the tool installed by ``npm ci`` in sdk/typescript)."""
    tool = SDK / "typescript" / "node_modules" / ".bin" / "openapi-typescript"
    if not tool.exists():
        raise SystemExit(f"{tool} is missing: run `npm ci` in sdk/typescript first.")
    target = typescript_target(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        # Fields with a default stay optional: a request may leave them out (the server fills
        # them in), which the tool's default (non-nullable defaults) would forbid.
        [str(tool), str(schema), "--output", str(target), "--default-non-nullable", "false"],
        check=True,
        capture_output=True,
    )
    kinds = json.dumps(account_event_kinds(schema))
    stamp = (
        f'export const {STAMP} = "{schema_sha256(schema)}";\n'
        "// The account stream's kinds this build knows: a newer one is skipped by `events()`.\n"
        f"export const {KINDS_CONSTANT}: readonly string[] = {kinds};\n"
    )
    # A .d.ts declares; the values live in a module of their own beside it.
    (target.parent / "schema-stamp.ts").write_text(stamp, encoding="utf-8")
    return target


def account_event_kinds(schema: Path) -> list[str]:
    """The kinds of the schema's ``AccountEvent`` union (its discriminator's mapping)."""
    spec = yaml.safe_load(schema.read_text(encoding="utf-8"))
    mapping: dict[str, str] = spec["components"]["schemas"]["AccountEvent"]["discriminator"][
        "mapping"
    ]
    return sorted(mapping)


def stale(out: Path, schema: Path = SCHEMA) -> list[str]:
    """What under ``out`` is missing or was generated from another schema than ``schema``."""
    want = schema_sha256(schema)
    found = []
    py = python_target(out) / "_schema.py"
    ts = typescript_target(out).parent / "schema-stamp.ts"
    for stamp_file in (py, ts):
        text = stamp_file.read_text(encoding="utf-8") if stamp_file.exists() else ""
        if want not in text:
            found.append(str(stamp_file.parent))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=SDK, help="where to generate (default: sdk/)")
    parser.add_argument("--schema", type=Path, default=SCHEMA)
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("--python-only", action="store_true")
    parser.add_argument("--typescript-only", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        behind = stale(args.out, args.schema)
        if args.python_only:
            behind = [b for b in behind if "typescript" not in b]
        if args.typescript_only:
            behind = [b for b in behind if "typescript" in b]
        for path in behind:
            print(f"stale against {args.schema}: {path}; run `{REGENERATE}`", file=sys.stderr)
        return 1 if behind else 0
    if not args.typescript_only:
        print(generate_python(args.schema, args.out))
    if not args.python_only:
        print(generate_typescript(args.schema, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
