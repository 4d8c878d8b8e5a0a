"""The web client's modules never import each other in a circle (issue 31, §4).

The client has no build step, so nothing but this test looks at its module graph: every
``import … from "…"``, ``export … from "…"`` and ``import("…")`` of ``web/static/web`` is read,
resolved, and searched for a cycle (a renderer that imports the screen that loads it, a help
module that imports the sheet that draws it). The sizes of modules and functions are
tests/test_sizes.py's, for the whole code base.
"""

from __future__ import annotations

import re
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[2] / "web" / "static" / "web"

# `import x from "./a.js"`, `import { a } from "./a.js"`, `export { a } from "./a.js"`,
# `import "./a.js"` and `import("./a.js")`: the specifier of each.
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;"']*?\bfrom\s*["']([^"']+)["']"""
    r"""|^\s*import\s*["']([^"']+)["']"""
    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""",
    re.MULTILINE,
)


def modules() -> list[Path]:
    return sorted(p for p in CLIENT.rglob("*.js") if "vendor" not in p.parts)


def imports_of(path: Path) -> list[Path]:
    """The client's own modules that ``path`` imports (statically or when it runs)."""
    found = []
    for match in IMPORT.finditer(path.read_text(encoding="utf-8")):
        spec = next(group for group in match.groups() if group)
        if spec.startswith("."):
            found.append((path.parent / spec).resolve())
    return found


def import_graph() -> dict[Path, list[Path]]:
    return {path.resolve(): imports_of(path) for path in modules()}


def find_cycle(graph: dict[Path, list[Path]]) -> list[Path] | None:
    """One cycle of ``graph`` as the path that walks it (first node repeated at the end)."""
    done: set[Path] = set()
    for root in graph:
        if root in done:
            continue
        # Depth first with an explicit stack: (node, its successors not yet followed).
        trail: list[Path] = [root]
        on_trail = {root}
        stack = [iter(graph.get(root, []))]
        while stack:
            successor = next(stack[-1], None)
            if successor is None:
                stack.pop()
                node = trail.pop()
                on_trail.discard(node)
                done.add(node)
                continue
            if successor in on_trail:
                return [*trail[trail.index(successor) :], successor]
            if successor not in done:
                trail.append(successor)
                on_trail.add(successor)
                stack.append(iter(graph.get(successor, [])))
    return None


def node(name: str) -> Path:
    return (CLIENT / name).resolve()


def relative(path: Path) -> str:
    return path.relative_to(CLIENT).as_posix()


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle() -> None:
    a, b, c, d = (Path(f"/{name}.js") for name in "abcd")
    assert find_cycle({a: [b], b: [c], c: [b], d: [a]}) == [b, c, b]
    assert find_cycle({a: [b, c], b: [c], c: [], d: [a, c]}) is None


def test_the_import_reader_sees_static_re_exported_and_dynamic_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.js"
    module.write_text(
        'import { h } from "./dom.js";\n'
        'export { t } from "../i18n.js";\n'
        'const r = () => import("./games/x.js");\n'
        'import "./side.js";\n'
        'import { a } from "/abs.js";\n'
    )
    names = [p.relative_to(tmp_path.parent).as_posix() for p in imports_of(module)]
    here = tmp_path.name
    assert names == [f"{here}/dom.js", "i18n.js", f"{here}/games/x.js", f"{here}/side.js"]


def test_the_client_modules_import_each_other_in_no_circle() -> None:
    graph = import_graph()
    # The table's modules and the renderers are in the graph: a wrong reading would prove nothing.
    assert node("help.js") in graph[node("views/game.js")]
    assert node("games/uno_no_mercy.js") in graph[node("games/index.js")]
    missing = {relative(to) for targets in graph.values() for to in targets if to not in graph}
    assert not missing, f"imports of modules that are not there: {sorted(missing)}"
    cycle = find_cycle(graph)
    assert cycle is None, "an import circle: " + " -> ".join(relative(p) for p in cycle)


def test_the_table_is_split_into_its_modules() -> None:
    table = {p.name for p in (CLIENT / "table").glob("*.js")}
    assert {"state.js", "layout.js", "hand.js", "actions.js", "effects.js", "plugin.js"} <= table
    # The renderers reach the screen only through their context, never by importing it.
    for renderer in (CLIENT / "games").glob("*.js"):
        for target in imports_of(renderer):
            edge = (relative(renderer), relative(target))
            assert target.parent.name != "views" or target.name == "words.js", edge
            assert target.parent.name != "table" or target.name == "hand.js", edge
