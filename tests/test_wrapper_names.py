"""Issue 27: argument errors name the public function, as PyTorch's do.

The generated wrappers (ops/_codegen.py) are Cython defs, whose argument errors carry
the def's own name (Note [Wrapper names], ops/_prelude.pxi); the dtype checks prefix
the function's name as PyTorch's parser does; Tensor's metaclass prints as
PyTorch's. Each form class of argument error is compared with PyTorch: the message
exactly where our wording is PyTorch's, else its exception type and the name it quotes
(the "name()" it starts with). The sweep calls every generated public function and
method with an unexpected keyword."""
import os
import pickle
import re
import runpy

import pytest

import autograd_core
from _diff import catch, Raised, same_error, torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODEGEN = runpy.run_path(os.path.join(ROOT, "autograd_core", "ops", "_codegen.py"))

_NAME = re.compile(r"^([\w.]+)\(\)")


def _quoted_name(message):
    m = _NAME.match(message)
    return m.group(1) if m else None


def same_name(fn):
    """fn(torch) and fn(autograd_core) raise the same builtin error type whose
    messages start with the same "name()"; returns both Raised."""
    want, got = catch(fn, torch, quiet=True), catch(fn, autograd_core, quiet=True)
    assert isinstance(want, Raised), f"torch does not raise: a broken case ({want!r})"
    assert isinstance(got, Raised), f"autograd_core raised nothing; torch: {want.message}"
    assert got.type == want.type, f"torch {want!r}\n ours {got!r}"
    assert _quoted_name(want.message) is not None, f"torch quotes no name: {want.message}"
    assert _quoted_name(got.message) == _quoted_name(want.message), \
        f"\n torch: {want.message}\n  ours: {got.message}"
    return want, got


def x1(m):
    return m.ones(3)


# ------------------------------------------------------------------ form classes

EXACT = {
    # one unexpected keyword: a function, a method with arguments, an in-place one
    "function_keyword": lambda m: m.abs(x1(m), foo=1),
    "function_keyword_neg": lambda m: m.neg(x1(m), foo=1),
    "method_keyword": lambda m: x1(m).add_(x1(m), foo=2),
    "method_keyword_mul": lambda m: x1(m).mul(x1(m), foo=2),
    "linalg_keyword": lambda m: m.linalg.vector_norm(x1(m), foo=1),
    "functional_keyword": lambda m: m.nn.functional.relu(x1(m), foo=1),
    # a method without arguments (METH_O): PyTorch's TensorBase.<name>
    "method_no_args_keyword": lambda m: x1(m).abs(foo=1),
    "method_no_args_keyword_inplace": lambda m: x1(m).neg_(foo=1),
    # an alias quotes its own name
    "alias_keyword": lambda m: m.absolute(x1(m), foo=1),
    "alias_method_keyword": lambda m: x1(m).arccos_(foo=1),
    "alias_wrong_type": lambda m: m.arccos(3),
    "alias_missing": lambda m: m.absolute(),
    "alias_dim_wrong_type": lambda m: m.swapdims(x1(m), "a", 1),
    # a missing required argument, a wrong type (the wrappers' own checks)
    "function_missing": lambda m: m.abs(),
    "method_missing": lambda m: x1(m).mul(),
    "function_wrong_type": lambda m: m.abs(3),
    "function_wrong_type_keyword": lambda m: m.exp(input=[1]),
    # dtype of another type: PyTorch's parser prefixes the function's name
    "zeros_dtype": lambda m: m.zeros(3, dtype=3),
    "ones_dtype": lambda m: m.ones(3, dtype="float32"),
    "empty_dtype": lambda m: m.empty(3, dtype=3),
    "full_dtype": lambda m: m.full((2,), 1., dtype=3),
    "zeros_like_dtype": lambda m: m.zeros_like(x1(m), dtype=3),
    "full_like_dtype": lambda m: m.full_like(x1(m), 1, dtype=3),
    "empty_strided_dtype": lambda m: m.empty_strided((2,), (1,), dtype=3),
    "cumsum_dtype": lambda m: m.cumsum(x1(m), 0, dtype=3),
    "cumprod_method_dtype": lambda m: x1(m).cumprod(0, dtype=3),
    "nansum_dtype": lambda m: m.nansum(x1(m), dtype=3),
    "vector_norm_dtype": lambda m: m.linalg.vector_norm(x1(m), dtype=3),
    "norm_dtype": lambda m: m.norm(x1(m), dtype=3),
    "softmax_dtype": lambda m: m.softmax(x1(m), 0, dtype=3),
    # layout= and requires_grad= of another type: refused (they were ignored), by name
    "zeros_layout": lambda m: m.zeros(3, layout=3),
    "empty_like_layout": lambda m: m.empty_like(x1(m), layout="strided"),
    "empty_strided_layout": lambda m: m.empty_strided((2,), (1,), layout=3),
    "ones_requires_grad": lambda m: m.ones(3, requires_grad=3),
    "full_requires_grad": lambda m: m.full((2,), 1., requires_grad=1.0),
    "zeros_like_requires_grad": lambda m: m.zeros_like(x1(m), requires_grad="a"),
    "zeros_like_input_first": lambda m: m.zeros_like(3, dtype=3),
    "log_softmax_dtype": lambda m: m.log_softmax(x1(m), 0, dtype=3),
}


@pytest.mark.parametrize("case", sorted(EXACT))
def test_argument_error_exact(case):
    same_error(EXACT[case])


NAMED = {
    # too many positionals: Cython words the count its own way ("takes at most 1
    # positional argument (3 given)" for PyTorch's "takes 1 positional argument but 3
    # were given"); the name quoted is PyTorch's
    "function_positionals": lambda m: m.abs(x1(m), x1(m), x1(m)),
    "function_positionals_add": lambda m: m.add(x1(m), x1(m), x1(m), x1(m)),
    "method_positionals": lambda m: x1(m).mul(x1(m), 2, 3),
    # a method without arguments given one (PyTorch: "TensorBase.exp() takes no
    # arguments (1 given)"; METH_O's: "takes exactly one argument (2 given)")
    "method_no_args_positional": lambda m: x1(m).exp(1),
    # an op PyTorch overloads: its "invalid combination" block names it (ours: the
    # unexpected keyword)
    "overloaded_keyword": lambda m: m.sum(x1(m), foo=1),
    "overloaded_method_keyword": lambda m: x1(m).sum(foo=1),
}


@pytest.mark.parametrize("case", sorted(NAMED))
def test_argument_error_names_the_function(case):
    same_name(NAMED[case])


def test_exact_messages_spelled_out():
    # the issue's own lines, spelled out (the comparison above is against PyTorch)
    x = autograd_core.ones(3)
    with pytest.raises(TypeError, match=r"^abs\(\) got an unexpected keyword argument 'foo'$"):
        autograd_core.abs(x, foo=1)
    with pytest.raises(TypeError, match=r"^TensorBase\.abs\(\) takes no keyword arguments$"):
        x.abs(foo=1)
    with pytest.raises(TypeError, match=r"^add_\(\) got an unexpected keyword argument"):
        x.add_(x, foo=2)
    with pytest.raises(TypeError, match=r"^zeros\(\): argument 'dtype' must be "
                                        r"autograd_core\.dtype, not int$"):
        autograd_core.zeros(3, dtype=3)


def test_factory_defaults_still_taken():
    # None is each argument's default, as PyTorch's parser takes it
    t = autograd_core.zeros(2, layout=None, requires_grad=None, dtype=None)
    assert t.dtype == autograd_core.float32 and not t.requires_grad
    assert autograd_core.ones_like(t, layout=autograd_core.strided, requires_grad=True).requires_grad


def test_wrappers_keep_public_names_and_builtins():
    # the defs carry their public names; the module's builtins are untouched
    x = autograd_core.tensor([-1.5, 2.5])
    assert autograd_core.abs.__name__ == autograd_core.abs.__qualname__ == "abs"
    assert autograd_core.Tensor.abs.__name__ == "abs"
    assert autograd_core.Tensor.neg_.__name__ == "neg_"
    assert autograd_core.sum.__name__ == "sum"
    assert autograd_core.abs(x).tolist() == [1.5, 2.5]
    assert x.abs().tolist() == [1.5, 2.5]
    assert autograd_core.sum(x).item() == pytest.approx(1.0)
    assert autograd_core.round(x).tolist() == torch.round(torch.tensor([-1.5, 2.5])).tolist()
    assert autograd_core.max(x).item() == 2.5 and autograd_core.min(x).item() == -1.5
    # an alias is its own wrapper, named as PyTorch names it
    assert autograd_core.absolute.__name__ == "absolute"
    assert autograd_core.Tensor.arccos_.__name__ == "arccos_"
    assert autograd_core.absolute(x).tolist() == [1.5, 2.5]


def test_tensor_metaclass_name():
    assert repr(type(autograd_core.Tensor)) == sub_name_(repr(type(torch.Tensor)))
    assert autograd_core._C._TensorMeta is type(autograd_core.Tensor)
    assert type(autograd_core.Tensor).__name__ == type(torch.Tensor).__name__ == "_TensorMeta"
    assert repr(autograd_core.Tensor) == "<class 'autograd_core.Tensor'>"
    assert repr(autograd_core.nn.Parameter) == "<class 'autograd_core.nn.parameter.Parameter'>"
    # pickling Tensor, a tensor and a Parameter is unchanged
    assert pickle.loads(pickle.dumps(autograd_core.Tensor)) is autograd_core.Tensor
    t = autograd_core.tensor([1., 2.])
    assert pickle.loads(pickle.dumps(t)).tolist() == [1., 2.]
    p = pickle.loads(pickle.dumps(autograd_core.nn.Parameter(t)))
    assert type(p) is autograd_core.nn.Parameter and p.requires_grad
    assert p.tolist() == [1., 2.]


def sub_name_(s):
    return s.replace("torch.", "autograd_core.")


# ------------------------------------------------------------------ the sweep

_NAMESPACES = {"function": lambda m: m, "method": lambda m: m.Tensor,
               "functional": lambda m: m.nn.functional, "linalg": lambda m: m.linalg,
               "special": lambda m: m.special}

# entries whose quoted name differs from PyTorch's, with the reason
KNOWN = {
    # PyTorch's functional is a boolean_dispatch over its private _adaptive_max_pool2d,
    # whose name its message quotes; ours is the op itself
    ("functional", "adaptive_max_pool2d"),
    # PyTorch's F.logsigmoid is torch._C._nn.log_sigmoid, whose parser quotes that name
    ("functional", "logsigmoid"),
    # PyTorch's Tensor.norm and Tensor.unflatten are Python methods of torch.Tensor, whose
    # errors CPython words as "Tensor.norm()"; a def's name cannot hold the dot
    ("method", "norm"), ("method", "unflatten"),
    # hand-written methods taking sizes as varargs (python_method: manual, x.permute(1, 0)):
    # their defs in ops/view.pyx keep their _pym_ names (not generated)
    ("method", "broadcast_to"), ("method", "flip"), ("method", "permute"),
    ("method", "reshape"), ("method", "tile"),
}


def _generated_entries():
    ops = CODEGEN["load_table"](os.path.join(ROOT, "autograd_core", "ops", "derivatives.yaml"))
    entries = set()
    for op in ops:
        if op.python != "generated" or "internal" in op.variants:
            continue
        for v in op.variants:
            names = [op.name] + op.aliases
            if op.inplace and v in ("function", "method", "functional"):
                names += [op.inplace] + [a + "_" for a in op.aliases]
            entries.update((v, CODEGEN["_public_name"](n, v)) for n in names)
    return sorted(entries)


def _unexpected_keyword(m, variant, name):
    x = m.ones(2, 2)
    if variant == "method":
        # (through the class, as x.name(...) calls it: a bound method taken with
        # getattr(x, name) is named after type(x) in PyTorch's message, Tensor.abs)
        getattr(m.Tensor, name)(x, foo__=1)
    else:
        getattr(_NAMESPACES[variant](m), name)(x, foo__=1)


def test_sweep_unexpected_keyword_names_the_public_function():
    entries = _generated_entries()
    assert len(entries) > 800
    checked, differ = 0, []
    for variant, name in entries:
        if not hasattr(_NAMESPACES[variant](torch), name):
            continue     # (a name PyTorch lacks: nothing to compare)
        assert hasattr(_NAMESPACES[variant](autograd_core), name), (variant, name)
        want = catch(_unexpected_keyword, torch, variant, name, quiet=True)
        got = catch(_unexpected_keyword, autograd_core, variant, name, quiet=True)
        assert isinstance(want, Raised) and isinstance(got, Raised), (variant, name, want, got)
        checked += 1
        if (got.type, _quoted_name(got.message)) != (want.type, _quoted_name(want.message)):
            differ.append(((variant, name), want, got))
    assert checked > 750
    assert {d[0] for d in differ} == KNOWN, "\n".join(
        f"{k}: torch {w!r}\n    ours {g!r}" for k, w, g in differ if k not in KNOWN)


def test_generated_defs_never_shadow_builtins():
    # Note [Wrapper names]: the defs under public names live in class bodies; no
    # module-level def may take a builtin's name (abs, sum, min, max, round, pow, all,
    # any, ...), which every line of the family module would then call
    import builtins
    ops = CODEGEN["load_table"](os.path.join(ROOT, "autograd_core", "ops", "derivatives.yaml"))
    by_name = {}
    for op in ops:
        by_name[op.name] = op
        if op.inplace:
            by_name[op.inplace] = op
    shadowing = set()
    for family in CODEGEN["FAMILIES"]:
        text = CODEGEN["gen_family"](family, ops, by_name)
        module_defs = set(re.findall(r"^def (\w+)\(", text, re.M))
        shadowing |= module_defs & set(dir(builtins))
        if family == "pointwise":
            assert "\n    def abs(" in text and '_py_abs = _FUNCTION_WRAPPERS.__dict__["abs"]' in text
            assert '_pym_abs = _METHOD_WRAPPERS.__dict__["abs"]' in text
            assert 'name_meth_o(_pym_abs, "abs")' in text
    assert not shadowing
