"""The package's pure-Python modules import one way: no import cycle among them.

The graph is read from the source with ``ast`` (nothing is imported): an edge A -> B for
each ``import B`` / ``from B import x`` / ``from B.C import x`` (x a module or a name) in
A. Two graphs are checked:

- module level (the imports Python runs when A is first imported, in ``if``/``try``/class
  bodies included): no cycle at all;
- every import, those inside functions too (a deferred import is how a cycle hides):
  no cycle but the few listed in ``DEFERRED_CYCLES``, each with the reason it stays.

Edges into a package's ``__init__`` are left out of both: a submodule that imports its
package (``import autograd_core as torch``) binds the package's namespace, which it reads
only at call time, and ``autograd_core/__init__.py`` is by design the top of the order
(it imports every submodule). Compiled modules (``.pyx``) are not in the graph: they
import only downwards, which the build's cimports enforce.
"""
import ast
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "autograd_core")
PACKAGE = "autograd_core"

# Cycles that go through a deferred (function-level) import and stay, with the reason.
DEFERRED_CYCLES = {
    frozenset({"autograd_core.func._forward", "autograd_core.func._transforms"}):
        "hessian (in _transforms) is jacfwd over jacrev, as PyTorch's eager_transforms "
        "writes it, while _forward builds on _transforms' argument helpers; the deferred "
        "import is in hessian's body",
    frozenset({"autograd_core.autograd.function", "autograd_core.func._vmap"}):
        "Function.apply hands batched arguments to vmap's rule for custom Functions "
        "(Note [Function under vmap]), which needs the Function class itself; the "
        "deferred import runs only under vmap",
}


def _modules():
    mods = {}
    for directory, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(directory, f)
                rel = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
                name = rel[:-len(".__init__")] if rel.endswith(".__init__") else rel
                mods[name] = path
    return mods


def _imports(name, path, modules, deferred):
    """The modules of the package that module `name` imports."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    is_package = path.endswith("__init__.py")
    found = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if deferred:
                    visit(child)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name in modules)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = name if is_package else name.rpartition(".")[0]
                    for _ in range(child.level - 1):
                        base = base.rpartition(".")[0]
                    source = base + ("." + child.module if child.module else "")
                else:
                    source = child.module
                for alias in child.names:
                    if f"{source}.{alias.name}" in modules:
                        found.add(f"{source}.{alias.name}")
                    elif source in modules:
                        found.add(source)
            visit(child)

    visit(tree)
    found.discard(name)
    return found


def _graph(deferred):
    modules = _modules()
    packages = {m for m, p in modules.items() if p.endswith("__init__.py")}
    return {m: _imports(m, p, modules, deferred) - packages for m, p in modules.items()}


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative)."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.add(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        result.append(frozenset(component))
    return result


def test_the_graph_is_read():
    # the reader finds real edges (a test of the test: an empty graph has no cycles)
    graph = _graph(deferred=True)
    assert "autograd_core._creation" in graph["autograd_core._legacy"]
    assert "autograd_core.utils.data._base" in graph["autograd_core.utils.data._worker"]
    assert "autograd_core.utils.data._worker" in graph["autograd_core.utils.data.dataloader"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})]


def test_no_import_cycle_at_module_level():
    assert _cycles(_graph(deferred=False)) == []


def test_no_import_cycle_through_deferred_imports():
    cycles = set(_cycles(_graph(deferred=True)))
    unexpected = [sorted(c) for c in cycles if c not in DEFERRED_CYCLES]
    assert unexpected == []
    # a listed cycle that is gone is taken off the list
    assert cycles >= set(DEFERRED_CYCLES)


@pytest.mark.parametrize("cycle", [
    ("autograd_core._creation", "autograd_core._settings", "autograd_core._legacy"),
    ("autograd_core.utils.data.dataloader", "autograd_core.utils.data._worker"),
])
def test_named_circles_are_broken(cycle):
    # issue 32's two circles: no module of either imports back into it, even deferred
    graph = _graph(deferred=True)
    for c in _cycles({m: graph[m] & set(cycle) for m in cycle}):
        pytest.fail(f"import cycle {sorted(c)}")
