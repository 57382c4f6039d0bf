"""Differential tests: every op of the op table (op_table.py) run in autograd_core and in PyTorch.

For each op x case x dtype the two libraries get identical inputs; the forward values,
dtypes, shapes, requires_grad, is_leaf and grad_fn names, the leaves' gradients after
``backward(g)`` and the second derivatives must all equal PyTorch's.
"""
import importlib
import itertools

import numpy as np
import pytest

import autograd_core as ac
from _diff import Raised, assert_same, catch, no_warnings, torch
from autograd_core.autograd.graph import Node
from op_spec import case_args, case_id, case_seed, is_shape, make_arrays, make_leaves
from op_table import GRAD_FN_ALLOWLIST, OPS

TOL = {"float32": dict(rtol=1e-5, atol=1e-5), "float64": dict(rtol=1e-10, atol=1e-12)}

PARAMS = [pytest.param(spec, i, dt, id=f"{case_id(spec, i)}-{dt}")
          for spec in OPS for i in range(len(spec.cases)) for dt in spec.dtypes]


# ------------------------------------------------------------------ helpers

def as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def np_dtype(t):
    """The numpy dtype of tensor t's values."""
    return np.dtype(str(t.dtype).rsplit(".", 1)[-1])


def gname(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def run(spec, case, mod, arrays):
    leaves = make_leaves(mod, arrays, case)
    args = case_args(case, leaves)
    with no_warnings():
        out = spec.fn(mod, *args)
    return leaves, args, out


def compare_outputs(a_out, t_out, dt):
    """The same kind of result (tensor, tuple, list, named tuple), and per output the same
    dtype, shape, values (to the dtype's tolerance), requires_grad, is_leaf and grad_fn."""
    assert_same(t_out, a_out, what="outputs", **TOL[dt])
    assert [gname(a) for a in as_list(a_out)] == [gname(t) for t in as_list(t_out)], "grad_fns"
    if isinstance(t_out, tuple) and (hasattr(t_out, "_fields") or hasattr(t_out, "values")):
        for f in ("values", "indices"):
            assert getattr(a_out, f) is a_out[("values", "indices").index(f)], f


def upstream(t_outs, seed):
    """Fixed random upstream gradients for the differentiable outputs."""
    rng = np.random.default_rng(seed)
    return [np.asarray(rng.standard_normal(t.shape), dtype=np_dtype(t)) for t in t_outs]


# ------------------------------------------------------------------ the op tests

@pytest.mark.parametrize("spec,i,dt", PARAMS)
def test_op(spec, i, dt):
    case = spec.cases[i]
    seed = case_seed(spec.name, i, dt)
    arrays = make_arrays(spec, case, dt, seed)
    t_run = catch(run, spec, case, torch, arrays)
    if isinstance(t_run, Raised):  # the table asks for an error: the same one is expected
        a_run = catch(run, spec, case, ac, arrays)
        assert isinstance(a_run, Raised) and isinstance(a_run.exc, type(t_run.exc)), \
            f"torch raises {t_run.exc!r}, autograd_core: {a_run!r}"
        return
    t_leaves, t_args, t_out = t_run
    a_leaves, a_args, a_out = run(spec, case, ac, arrays)

    # the table itself: PyTorch's grad_fn is one the entry names (or the op returned an input)
    for t in as_list(t_out):
        if t.requires_grad and not any(t is x for x in t_args):
            assert gname(t) in spec.grad_fns + (None,), f"table: torch gives {gname(t)}"

    compare_outputs(a_out, t_out, dt)
    for k, (a, t) in enumerate(zip(as_list(a_out), as_list(t_out))):
        assert ([j for j, x in enumerate(a_args) if a is x]
                == [j for j, x in enumerate(t_args) if t is x]), \
            f"output {k}: is an input in one library only"

    for name in spec.inner_grad_fns:
        for lib, out in (("torch", t_out), ("autograd_core", a_out)):
            assert name in graph_names(as_list(out)[0].grad_fn), f"{lib}: no {name} in the graph"

    # backward with a fixed upstream gradient
    t_diff = [t for t in as_list(t_out) if t.requires_grad]
    a_diff = [a for a in as_list(a_out) if a.requires_grad]
    assert len(a_diff) == len(t_diff)
    if t_diff:
        gs = upstream(t_diff, seed + 1)
        if len(t_diff) == 1:
            t_diff[0].backward(torch.tensor(gs[0]))
            a_diff[0].backward(ac.tensor(gs[0]))
        else:
            torch.autograd.backward(t_diff, [torch.tensor(g) for g in gs])
            ac.autograd.backward(a_diff, [ac.tensor(g) for g in gs])
        for k, (a, t) in enumerate(zip(a_leaves, t_leaves)):
            assert_same(t.grad, a.grad, what=f"input {k} .grad", **TOL[dt])


@pytest.mark.parametrize("spec,i,dt", PARAMS)
def test_op_no_grad(spec, i, dt):
    """Under no_grad: the same values and metadata (views of a leaf that requires grad
    still report requires_grad=True in PyTorch)."""
    case = spec.cases[i]
    arrays = make_arrays(spec, case, dt, case_seed(spec.name, i, dt))
    with torch.no_grad():
        t_run = catch(run, spec, case, torch, arrays)
    if isinstance(t_run, Raised):
        pytest.skip("torch raises (checked in test_op)")
    _, _, t_out = t_run
    with ac.no_grad():
        _, _, a_out = run(spec, case, ac, arrays)
    compare_outputs(a_out, t_out, dt)


def graph_names(node, seen=None):
    """Names of all nodes reachable from node."""
    seen = set() if seen is None else seen
    if node is None or id(node) in seen:
        return set()
    seen.add(id(node))
    names = {type(node).__name__}
    for nxt, _ in node.next_functions:
        names |= graph_names(nxt, seen)
    return names


@pytest.mark.parametrize("spec,i,dt", PARAMS)
def test_double_backward(spec, i, dt):
    """autograd.grad(out, inputs, g, create_graph=True), then the grad of sum(first * w)."""
    case = spec.cases[i]
    if not case.smooth:
        pytest.skip("at a kink/tie")
    if not spec.double_backward:
        pytest.skip("PyTorch's second derivative raises")
    seed = case_seed(spec.name, i, dt, "2nd")
    arrays = make_arrays(spec, case, dt, seed)
    t_run = catch(run, spec, case, torch, arrays)
    if isinstance(t_run, Raised):
        pytest.skip("torch raises (checked in test_op)")
    t_leaves, _, t_out = t_run
    a_leaves, _, a_out = run(spec, case, ac, arrays)
    t_diff = [t for t in as_list(t_out) if t.requires_grad]
    a_diff = [a for a in as_list(a_out) if a.requires_grad]
    t_in = [t for t in t_leaves if t.requires_grad]
    a_in = [a for a in a_leaves if a.requires_grad]
    if not t_diff:
        pytest.skip("no differentiable output")
    assert len(a_diff) == len(t_diff) and len(a_in) == len(t_in)
    gs = upstream(t_diff, seed + 1)
    t_g1 = torch.autograd.grad(t_diff, t_in, [torch.tensor(g) for g in gs], create_graph=True,
                               allow_unused=True)
    a_g1 = ac.autograd.grad(a_diff, a_in, [ac.tensor(g) for g in gs], create_graph=True,
                            allow_unused=True)
    assert len(a_g1) == len(t_g1)
    for k, (a, t) in enumerate(zip(a_g1, t_g1)):
        assert_same(t, a, what=f"first grad {k}", **TOL[dt])
        if t is not None:
            if spec.double_grad_fns and t.requires_grad and not any(case.nc):
                assert gname(t) in spec.double_grad_fns, f"table: torch gives {gname(t)}"
                assert gname(a) == gname(t), f"first grad {k}: grad_fn"

    rng = np.random.default_rng(seed + 2)
    ws = [None if t is None else rng.standard_normal(t.shape).astype(np_dtype(t)) for t in t_g1]
    used = [k for k, t in enumerate(t_g1) if t is not None and t.requires_grad]
    if not used:
        return
    t_s = sum((t_g1[k] * torch.tensor(ws[k])).sum() for k in used)
    a_s = sum((a_g1[k] * ac.tensor(ws[k])).sum() for k in used)
    t_g2 = torch.autograd.grad(t_s, t_in, allow_unused=True)
    a_g2 = ac.autograd.grad(a_s, a_in, allow_unused=True)
    for k, (a, t) in enumerate(zip(a_g2, t_g2)):
        assert_same(t, a, what=f"second grad {k}", **TOL[dt])


SECOND_ORDER_RTOL = 1e-8   # |second derivative| above this (relative) is not rounding


def _finite_max_abs(ts):
    vals = [float(v) for t in ts if t is not None and t.numel()
            for v in [t.detach().abs().nan_to_num(0.0, 0.0, 0.0).max()]]
    return max(vals, default=0.0)


def _second_derivative_is_nonzero(spec, i, case):
    """Whether PyTorch's second derivative of the case is nonzero (float64): the grad of
    sum(w * d(v . out)/d inputs) with fixed random v and w, so no cancellation of a
    symmetric probe (a sum of ones kills the second derivative of shift-invariant ops:
    softmax, var, norms, losses) can hide it.  Nonzero means larger than rounding: some
    entry above SECOND_ORDER_RTOL times the scale of the inputs and first derivatives
    (or NaN, which is not zero).  None when the case has no second derivative to probe."""
    seed = case_seed(spec.name, i, "flag")
    arrays = make_arrays(spec, case, "float64", seed)
    r = catch(run, spec, case, torch, arrays)
    if isinstance(r, Raised):
        return None
    leaves, _, out = r
    outs = [t for t in as_list(out) if t.requires_grad]
    ins = [t for t in leaves if t.requires_grad]
    if not outs:
        return None
    rng = np.random.default_rng(seed + 1)
    vs = [torch.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype) for o in outs]
    g1 = torch.autograd.grad(outs, ins, vs, create_graph=True, allow_unused=True)
    used = [g for g in g1 if g is not None and g.requires_grad]
    if not used:
        return None
    ws = [torch.tensor(rng.standard_normal(tuple(g.shape)), dtype=g.dtype) for g in used]
    g2 = torch.autograd.grad(sum((g * w).sum() for g, w in zip(used, ws)), ins,
                             allow_unused=True)
    scale = max(1.0, _finite_max_abs(ins), _finite_max_abs(used))
    tol = SECOND_ORDER_RTOL * scale
    return any(g is not None and bool((~(g.detach().abs() <= tol)).any()) for g in g2)


def test_table_second_order_flags():
    """An entry marked second_order=True has a case where PyTorch's second derivative is
    nonzero, and one marked False has none (keeps the table honest).  Decided above
    rounding, so the answer does not depend on the CPU (see
    _second_derivative_is_nonzero)."""
    wrong = []
    for spec in OPS:
        found = any(_second_derivative_is_nonzero(spec, i, case)
                    for i, case in enumerate(spec.cases) if case.smooth) \
        if spec.double_backward else False
        if found != spec.second_order:
            wrong.append((spec.name, found))
    assert not wrong, f"second_order flag disagrees with torch: {wrong}"


# ------------------------------------------------------------------ type promotion

def _mk(mod, spec):
    """A tensor from (values, dtype name) or a Python scalar."""
    if isinstance(spec, tuple):
        vals, dt = spec
        return mod.tensor(vals, dtype=getattr(mod, dt))
    return spec


_I64 = ([1, 2, 3], "int64")
_I32 = ([1, -2, 3], "int32")
_I8 = ([1, -2, 3], "int8")
_U8 = ([1, 2, 3], "uint8")
_B = ([True, False, True], "bool")
_F32 = ([0.5, -1.5, 2.0], "float32")
_F64 = ([0.5, -1.5, 2.0], "float64")
_F16 = ([0.5, -1.5, 2.0], "float16")
_F64_0D = (1.25, "float64")
_F32_0D = (1.25, "float32")
_I64_0D = (2, "int64")
_I32_0D = (2, "int32")
_B_0D = (True, "bool")

PROMO_PAIRS = [
    (_I64, 2.5), (2.5, _I64), (_I64, 2), (2, _I64), (_I32, 3), (_I64, True), (True, _I64),
    (_B, 2), (2, _B), (_B, 1.5), (_B, True), (_B, _B), (_B, _I64), (_B, _F32),
    (_F32, _F64_0D), (_F64_0D, _F32), (_F32, _F64), (_F16, _F32), (_F16, 2.5),
    (_I64, _F32_0D), (_I32, _I64_0D), (_I32, _I64), (_U8, _I8), (_U8, 300), (_I8, _I32_0D),
    (_F32, 2), (_F32_0D, _F64_0D), (_I64_0D, 2.5), (_B_0D, _I32), (_F32_0D, _I64), (_I32, _F64_0D),
    (_U8, _B), (_I64, _I64),
]
PROMO_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "**": lambda a, b: a ** b,
}


def _promo_id(x):
    if isinstance(x, tuple):
        return x[1] + ("_0d" if not isinstance(x[0], list) else "")
    return repr(x)


@pytest.mark.parametrize("opname", list(PROMO_OPS))
@pytest.mark.parametrize("lhs,rhs", PROMO_PAIRS,
                         ids=[f"{_promo_id(a)}-{_promo_id(b)}" for a, b in PROMO_PAIRS])
def test_promotion(opname, lhs, rhs):
    f = PROMO_OPS[opname]
    t = catch(lambda: f(_mk(torch, lhs), _mk(torch, rhs)), quiet=True)
    if isinstance(t, Raised):
        a = catch(lambda: f(_mk(ac, lhs), _mk(ac, rhs)))
        assert isinstance(a, Raised) and isinstance(a.exc, type(t.exc)), \
            f"torch raises {t.exc!r}, autograd_core: {a!r}"
        return
    a = f(_mk(ac, lhs), _mk(ac, rhs))
    tol = dict(rtol=1e-3, atol=1e-3) if "float16" in str(t.dtype) else dict(rtol=1e-6, atol=1e-6)
    assert_same(t, a, **tol)


@pytest.mark.parametrize("opname", list(PROMO_OPS))
def test_promotion_grad(opname):
    """float32 leaf op float64 0-d leaf: float32 output; each grad has its leaf's dtype."""
    f = PROMO_OPS[opname]
    rng = np.random.default_rng(5)
    x = np.abs(rng.standard_normal(4)).astype(np.float32) + 0.5
    y = np.array(1.75)
    res = []
    for mod in (torch, ac):
        a = mod.tensor(x, requires_grad=True)
        b = mod.tensor(y, requires_grad=True)
        out = f(a, b)
        out.backward(mod.tensor(np.ones(4, np.float32)))
        res.append((out, a.grad, b.grad))
    (t_out, t_ga, t_gb), (a_out, a_ga, a_gb) = res
    assert_same((t_out, t_ga, t_gb), (a_out, a_ga, a_gb), rtol=1e-5, atol=1e-6)
    assert gname(a_out) == gname(t_out)


# ------------------------------------------------------------------ completeness

def _node_classes():
    """Every public grad_fn class of autograd_core: the subclasses of the public base
    autograd_core.autograd.graph.Node, without private ones (leading underscore),
    AccumulateGrad, and the classes made for custom autograd.Functions (subclasses of
    their base, found from a Function applied here)."""
    class _Probe(ac.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    importlib.import_module("autograd_core._dynamo._replay")  # compiled mode's nodes
    x = ac.ones(2, requires_grad=True)
    function_base = type(_Probe.apply(x).grad_fn).__mro__[1]
    accumulate_grad = type(x.sum().grad_fn.next_functions[0][0])
    assert issubclass(function_base, Node) and function_base is not Node
    assert accumulate_grad.__name__ == "AccumulateGrad"
    found, todo = set(), [Node]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return {c.__name__: c for c in found
            if not c.__name__.startswith("_") and c is not accumulate_grad
            and not (issubclass(c, function_base) and c is not function_base)}


def test_every_node_class_is_covered():
    """Each public Node subclass of autograd_core is a grad_fn some entry expects."""
    covered = set(GRAD_FN_ALLOWLIST)
    for spec in OPS:
        covered.update(spec.grad_fns, spec.inner_grad_fns, spec.double_grad_fns)
    nodes = sorted(_node_classes())
    assert nodes, "no Node subclasses found"
    missing = [n for n in nodes if n not in covered]
    assert not missing, f"Node classes with no op table entry: {missing}"
    stale = [n for n in GRAD_FN_ALLOWLIST if n not in nodes]
    assert not stale, f"allowlisted names that are not Node classes: {stale}"


def test_table_is_well_formed():
    names = [s.name for s in OPS]
    assert len(names) == len(set(names)), "duplicate op names"
    for spec in OPS:
        assert spec.cases and spec.grad_fns is not None
        for case in spec.cases:
            n_t = sum(1 for x in case.inputs if is_shape(x))
            assert len(case.nc) <= n_t and all(k < n_t for k in case.no_grad), spec.name
    # the suite covers 0-d inputs, broadcasting, non-contiguous inputs
    cases = list(itertools.chain.from_iterable(s.cases for s in OPS))
    assert any(() in c.inputs for c in cases)
    assert any(any(c.nc) for c in cases)
