"""The layers of docs/design.md hold: no module imports a higher layer, and no import cycle.

Every `import` and `from ... import` in recon/ counts, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "recon"

#: Each layer by the module or package that opens it; a name not listed belongs to its package.
LAYERS = {
    "recon.model": 0,
    "recon.result": 0,
    "recon.stats": 0,
    "recon.io": 1,
    "recon.rules": 1,
    "recon.compiled": 2,
    "recon.engines": 3,
    "recon.solver": 4,
    "recon.counting": 4,
    "recon.generation": 5,
    "recon.play": 6,
    "recon.cli": 7,
    "recon.__main__": 7,
    "recon": 7,  # the package's own __init__: the public API, on top
}


def module_name(path: Path) -> str:
    """recon/rules/trim.py -> recon.rules.trim; recon/io/__init__.py -> recon.io."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(name: str) -> int:
    """The layer of a recon module: its own entry, or its nearest listed package's."""
    while name not in LAYERS:
        name = name.rsplit(".", 1)[0]
    return LAYERS[name]


def recon_imports(path: Path) -> set[str]:
    """The recon modules that the file imports (a `from package import name` counts the submodule
    when there is one)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "recon")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "recon":
                target = node.module
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if (ROOT.parent / (sub.replace(".", "/") + ".py")).exists()
                          or (ROOT.parent / sub.replace(".", "/")).is_dir() else target)
    found.discard(name)
    return found


GRAPH = {module_name(path): recon_imports(path) for path in sorted(ROOT.rglob("*.py"))}


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_higher_layer(module):
    higher = sorted(other for other in GRAPH[module] if layer(other) > layer(module))
    assert not higher, f"{module} (layer {layer(module)}) imports {higher}"


def test_no_import_cycle():
    # a package's __init__ may import its own submodules (re-exports); those edges go down
    edges = {m: {o for o in targets if not o.startswith(m + ".")} for m, targets in GRAPH.items()}
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(module, path):
        state[module] = 1
        for other in sorted(edges.get(module, ())):
            if state.get(other) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(other):] + [other]))
            if other in edges and not state.get(other):
                visit(other, path + [other])
        state[module] = 2

    for module in sorted(edges):
        if not state.get(module):
            visit(module, [module])


def test_the_graph_sees_the_layers():
    """The checks above have something to check: the generation layer imports engines and the
    compiled kernels, and the CLI imports generation."""
    assert {"recon.engines.sat", "recon.compiled"} <= GRAPH["recon.generation.options"]
    assert any(m.startswith("recon.generation") for m in GRAPH["recon.cli"])


def test_a_full_status_solve_loads_no_optional_library():
    """Start-up: scipy.optimize, numba, python-sat, matplotlib and the compiled kernels load only
    on the paths that need them (a fresh process solving a 20x20 full status needs none)."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from recon.cli import main\n"
        "from recon import status, format_status\n"
        "import io, tempfile, os\n"
        "f = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)\n"
        "f.write(format_status(status(np.random.default_rng(1).random((20, 20)) < 0.4)))\n"
        "f.close()\n"
        "assert main(['solve', f.name, '-q'], stdout=io.StringIO(), stderr=io.StringIO()) == 0\n"
        "os.unlink(f.name)\n"
        "loaded = [m for m in ('scipy.optimize', 'numba', 'pysat', 'matplotlib', 'recon.compiled.trim') if m in sys.modules]\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_loading_the_kernels_compiles_every_kernel_module():
    """The kernel modules load on first use; `load` brings them all in before it compiles."""
    from recon import compiled

    if not compiled.AVAILABLE:
        pytest.skip("needs numba")
    compiled.load()
    from recon.compiled import basic, elimination, pairwise, search, trim

    from recon.compiled.jit import _KERNELS

    compiled_ids = {id(f) for f in _KERNELS}
    for module in (basic, elimination, pairwise, search, trim):
        values = [v for v in vars(module).values() if callable(v)]
        plain = [v for v in values if id(v) in compiled_ids]
        assert not plain, f"{module.__name__} kept Python kernels: {plain}"
        assert any(id(getattr(v, "py_func", None)) in compiled_ids for v in values), module.__name__
