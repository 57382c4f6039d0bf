"""The op layer's structure (issue 7): one owner per op and per node class, the op
table complete, every Tensor method a real class attribute, no builtin shadowed in
the op modules, and the derivative table in agreement with the compiled modules."""
import importlib
import inspect
import pydoc

import pytest

import autograd_core as torch
from autograd_core._core import tensor as core_tensor
from autograd_core.autograd.graph import Node

FAMILIES = ("pointwise", "view", "reduce", "index", "linalg", "nn", "spectral")
CORE_MODULES = ("autograd_core._core.tensor", "autograd_core._core.engine",
                "autograd_core._core.function")


def _family(name):
    return importlib.import_module(f"autograd_core.ops.{name}")


def _node_classes(module):
    # node types print under their bare PyTorch names (their __module__ is builtins),
    # so a module's node classes are the Node subclasses in its namespace
    return {name: obj for name, obj in vars(module).items()
            if isinstance(obj, type) and issubclass(obj, Node) and obj is not Node}


def test_every_node_class_is_defined_once():
    seen = {}
    for modname in CORE_MODULES + tuple(f"autograd_core.ops.{f}" for f in FAMILIES):
        for cls in _node_classes(importlib.import_module(modname)).values():
            other = seen.setdefault(cls.__name__, cls)
            assert other is cls, f"two node classes are named {cls.__name__} ({modname})"


def test_table_nodes_exist_and_every_family_node_is_in_the_table():
    for fam in FAMILIES:
        mod = _family(fam)
        classes = {cls.__name__ for cls in _node_classes(mod).values()}
        table = set(mod.TABLE_NODES)
        assert not table - classes, f"{fam}: table nodes without a class: {sorted(table - classes)}"
        extra = {n for n in classes - table if not n.startswith("_")}
        assert not extra, f"{fam}: node classes not named in derivatives.yaml: {sorted(extra)}"


def test_every_public_function_has_one_implementation():
    owners = {}
    for fam in FAMILIES:
        for table in ("TORCH_FUNCTIONS", "NN_FUNCTIONAL", "LINALG", "SPECIAL"):
            for name, fn in getattr(_family(fam), table).items():
                key = (table, name)
                assert key not in owners, f"{table}.{name} defined by {owners[key]} and {fam}"
                owners[key] = fam
    for fam in FAMILIES:
        for name, fn in _family(fam).TORCH_FUNCTIONS.items():
            assert getattr(torch, name) is fn, f"autograd_core.{name} is not {fam}'s"


def test_every_tensor_method_is_installed_once_as_a_class_attribute():
    installed = core_tensor.installed_methods()
    for fam in FAMILIES:
        for name, fn in _family(fam).TENSOR_METHODS.items():
            assert installed[name] is fn
            assert torch.Tensor.__dict__[name] is fn
    assert "__getattr__" not in torch.Tensor.__dict__


def test_op_table_is_complete():
    core_tensor.check_op_table()
    assert all(addr != 0 for addr in core_tensor.op_table_addresses().values())


def test_methods_are_visible_to_dir_help_and_inspect():
    t = torch.tensor([-1.5, 0.5, 2.0])
    for name in ("clamp", "exp", "sum", "reshape", "index_select", "matmul", "backward"):
        assert name in dir(t), name
        assert callable(getattr(torch.Tensor, name))
    assert torch.Tensor.clamp(t, 0).tolist() == [0.0, 0.5, 2.0]
    text = pydoc.render_doc(torch.Tensor.clamp)
    assert "clamp" in text
    assert list(inspect.signature(torch.add).parameters)[:2] == ["input", "other"]
    assert torch.exp.__name__ == "exp" and torch.Tensor.exp.__name__ == "exp"


def test_subclass_overrides_a_method():
    class MyTensor(torch.Tensor):
        def clamp(self, *args, **kwargs):
            return "overridden"

    assert MyTensor([1.0]).clamp(0) == "overridden"


def test_op_modules_shadow_no_builtins():
    import builtins
    shadowed = {"sum", "max", "min", "abs", "all", "any", "pow", "round", "divmod", "len",
                "range", "map", "filter", "sorted", "reversed"}
    for fam in FAMILIES:
        mod = _family(fam)
        names = {n for n in vars(mod) if n in shadowed and vars(mod)[n] is not getattr(builtins, n)}
        assert not names, f"ops.{fam} defines {sorted(names)}"


@pytest.mark.parametrize("fam", FAMILIES)
def test_public_functions_have_docstrings_with_examples(fam):
    missing = []
    mod = _family(fam)
    for table in ("TORCH_FUNCTIONS", "NN_FUNCTIONAL", "LINALG", "SPECIAL"):
        for name, fn in getattr(mod, table).items():
            if name.endswith("_"):
                continue  # in-place variants share their op's documentation
            if not fn.__doc__ or ">>>" not in fn.__doc__:
                missing.append(name)
    assert not missing, f"{fam}: public functions without a runnable example: {sorted(missing)}"


def _public_functions():
    for fam in FAMILIES:
        mod = _family(fam)
        for table in ("TORCH_FUNCTIONS", "NN_FUNCTIONAL", "LINALG"):
            for name, fn in getattr(mod, table).items():
                if fn.__doc__ and ">>>" in fn.__doc__ and fn.__name__ == name:
                    yield pytest.param(fn, id=f"{fam}.{name}")


@pytest.mark.parametrize("fn", _public_functions())
def test_docstring_examples_run(fn):
    import doctest
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(fn, fn.__name__, globs={}):
        runner.run(test)
    assert runner.failures == 0
