"""out= on every torch.* and linalg.* function the op table calls, against PyTorch.

Each op table entry (op_table.py) runs once under a probe of the module: every
torch.<name>(...) / linalg.<name>(...) call its fn makes is run again, on detached inputs,
with out= tensors of the result's dtype, of a narrower or other-category dtype (PyTorch's
cast rules differ per op: sum into a bool out is allowed, exp into one is refused), and
with inputs that require grad (PyTorch's autograd error). Where PyTorch refuses out= (a
TypeError: views, Tensor-only signatures) autograd_core must refuse it too. The results,
the out tensors and the errors are compared with PyTorch's. Functions the op table does
not reach are called from EXTRA below, and test_every_out_function_is_probed checks that
every public function PyTorch gives out= is reached."""
import os
import inspect
import re

import numpy as np
import pytest

import autograd_core as ac
from _diff import Raised, assert_same, catch, no_warnings, same, torch
from op_spec import case_args, case_seed, make_arrays, make_leaves
from op_table import OPS

# not probed: random functions (a second call advances the generator), constructors and
# helpers of the harness
SKIP = {"tensor", "as_tensor", "from_numpy", "manual_seed", "is_tensor", "is_grad_enabled",
        "no_grad", "enable_grad", "set_grad_enabled", "Size", "Generator", "is_floating_point",
        "bernoulli", "multinomial", "normal", "poisson", "rand", "randn", "randint",
        "randperm", "rand_like", "randn_like", "randint_like", "dropout", "feature_dropout",
        "alpha_dropout", "feature_alpha_dropout", "rrelu", "native_dropout", "numel",
        "get_default_dtype", "set_default_dtype", "result_type", "promote_types", "can_cast",
        "broadcast_shapes", "autograd", "nn", "finfo", "iinfo", "dtype", "device"}
FLOATS = ("float64", "float32")


def _detach(x, mod):
    if isinstance(x, mod.Tensor):
        return x.detach()
    if isinstance(x, list):
        return [_detach(v, mod) for v in x]
    if isinstance(x, tuple):
        return tuple(_detach(v, mod) for v in x)
    if isinstance(x, dict):
        return {k: _detach(v, mod) for k, v in x.items()}
    return x


def _outs(mod, result, dtype_for):
    if isinstance(result, mod.Tensor):
        return mod.empty(0, dtype=dtype_for(result.dtype))
    return tuple(mod.empty(0, dtype=dtype_for(r.dtype)) for r in result)


def _own(d):
    return d


def _other_dtypes(mod):
    """out dtypes besides the result's own: one narrower float, one integer, bool."""
    return [lambda d: mod.float32 if d == mod.float64 else mod.float64,
            lambda d: mod.int64 if d.is_floating_point else mod.float64,
            lambda d: mod.bool]


def _same_values(mod, out, result):
    if out.dtype != result.dtype or out.shape != result.shape:
        return "differs"
    if out.dtype.is_floating_point:
        with mod.no_grad():
            return bool(mod.allclose(out, result.detach(), rtol=1e-6, atol=1e-7,
                                     equal_nan=True))
    return bool(mod.equal(out, result))


def _is_result(mod, r):
    return isinstance(r, mod.Tensor) or (isinstance(r, tuple) and r and all(
        isinstance(x, mod.Tensor) for x in r))


def _probe_call(mod, name, f, args, kwargs, result, log, rules):
    """The out= runs of one call of f into log: with an out of the result's dtype, the
    result and the out tensor; with rules, also outs of other dtypes and inputs that
    require grad."""
    entry = [name]
    dargs, dkw = _detach(args, mod), _detach(kwargs, mod)
    for dtype_for in [_own] + (_other_dtypes(mod) if rules else []):
        o = _outs(mod, result, dtype_for)
        with no_warnings():
            r = catch(f, *dargs, out=o, **dkw)
        if isinstance(r, Raised):
            # PyTorch's TypeError lists the signatures, and its messages for a refused
            # out dtype differ from kernel to kernel: the type is what is compared
            entry.append(Raised(r.exc, check_message=False))
            if r.type == "TypeError" and dtype_for is _own:
                break
            continue
        # the out tensors' dtypes and shapes are compared with PyTorch's; their values
        # with the function's own result (the op table compares those with PyTorch's:
        # decompositions may differ from PyTorch's in signs)
        outs = [o] if isinstance(o, mod.Tensor) else list(o)
        res = [result] if isinstance(result, mod.Tensor) else list(result)
        entry.append([r is o if isinstance(o, mod.Tensor) else
                      all(a is b for a, b in zip(r, o)), type(r).__name__,
                      [(x.dtype, tuple(x.shape)) for x in outs],
                      [_same_values(mod, x, y) for x, y in zip(outs, res)]])
    if rules and any(isinstance(a, mod.Tensor) and a.requires_grad for a in args):
        with no_warnings():
            r = catch(f, *args, out=_outs(mod, result, _own), **kwargs)
        # (PyTorch's message names the ATen op that runs: pow for square, mul for outer)
        entry.append(Raised(r.exc, check_message=False) if isinstance(r, Raised) else
                     [type(r).__name__, r.requires_grad if isinstance(r, mod.Tensor) else None])
    log.append(entry)


class Probe:
    """mod, with every public function (and linalg's) run also with out=."""

    def __init__(self, mod, log, rules, prefix=""):
        self._mod, self._log, self._rules, self._prefix = mod, log, rules, prefix

    def __getattr__(self, name):
        v = getattr(self._mod, name)
        if name == "linalg" and not self._prefix:
            return Probe(v, self._log, self._rules, "linalg.")
        if name in SKIP or name.endswith("_") or name.endswith("_copy") or \
                isinstance(v, type) or not callable(v):
            return v
        mod = torch if self._mod in (torch, torch.linalg) else ac

        def call(*args, **kwargs):
            r = v(*args, **kwargs)
            if "out" not in kwargs and _is_result(mod, r):
                _probe_call(mod, self._prefix + name, v, args, kwargs, r, self._log,
                            self._rules)
            return r
        return call


def _run(spec, mod, dt, rules):
    case = spec.cases[0]
    arrays = make_arrays(spec, case, dt, case_seed(spec.name, 0, dt))
    leaves = make_leaves(mod, arrays, case)
    log = []
    with no_warnings():
        r = catch(spec.fn, Probe(mod, log, rules), *case_args(case, leaves))
    return log, r


# Where autograd_core's out= rules differ from PyTorch's (strict xfails: an entry that
# passes fails the suite, remove it then). PyTorch's kernels differ among themselves;
# Note [out= rules] (ops/_prelude.pxi) lists the rules autograd_core follows.
RULES_KNOWN = set()
OUT_KNOWN = {}


@pytest.mark.parametrize("spec", OPS, ids=[s.name for s in OPS])
def test_out_like_pytorch(spec, request):
    if spec.name in OUT_KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=OUT_KNOWN[spec.name]))
    dt = spec.dtypes[0]
    want, _ = _run(spec, torch, dt, False)
    got, _ = _run(spec, ac, dt, False)
    assert_same(want, got, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("spec", OPS, ids=[s.name for s in OPS])
def test_out_dtype_and_autograd_rules(spec, request):
    if spec.name in RULES_KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason="out= rules differ"))
    dt = spec.dtypes[0]
    want, _ = _run(spec, torch, dt, True)
    got, _ = _run(spec, ac, dt, True)
    assert_same(want, got, rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------------ coverage of the probe

def _torch_out_functions():
    """The public torch.* / linalg.* functions PyTorch gives out= (its generated signature
    stubs, and the signatures of its Python-level functions), that autograd_core has."""
    pyi = open(os.path.join(os.path.dirname(torch.__file__), "_C",
                            "_VariableFunctions.pyi")).read()
    names = set()
    for m in re.finditer(r"def (\w+)\((.*?)\) ->", pyi, re.S):
        if re.search(r"\bout: ", m.group(2)) and not m.group(1).startswith("_"):
            names.add(m.group(1))
    for name in dir(torch):
        f = getattr(torch, name, None)
        if name.startswith("_") or not callable(f) or isinstance(f, type) or \
                getattr(f, "__module__", None) not in ("torch.functional", "torch"):
            continue
        try:
            if "out" in inspect.signature(f).parameters:
                names.add(name)
        except (TypeError, ValueError):
            pass
    for name in dir(torch.linalg):
        if not name.startswith("_") and callable(getattr(torch.linalg, name)):
            for s in torch._C._jit_get_schemas_for_operator("aten::linalg_" + name):
                if any(a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
                       for a in s.arguments):
                    names.add("linalg." + name)
    return {n for n in names if _has(n)}


def _has(name):
    mod, _, short = name.rpartition(".")
    return hasattr(ac.linalg if mod else ac, short)


def _x(m, *shape):
    return m.tensor(np.linspace(-0.9, 0.9, int(np.prod(shape))).reshape(shape))


def _i(m, *shape):
    return m.tensor(np.arange(1, 1 + int(np.prod(shape))).reshape(shape) * 3 % 7)


# the functions with out= that no op table entry calls: (name, program over a probe p and
# the module m that makes the inputs)
EXTRA = [
    ("absolute", lambda p, m: p.absolute(_x(m, 2, 3))),
    ("arccos", lambda p, m: p.arccos(_x(m, 4))),
    ("arccosh", lambda p, m: p.arccosh(_x(m, 4) + 2)),
    ("arcsinh", lambda p, m: p.arcsinh(_x(m, 4))),
    ("arctan", lambda p, m: p.arctan(_x(m, 4))),
    ("arctan2", lambda p, m: p.arctan2(_x(m, 4), _x(m, 4) + 1)),
    ("arctanh", lambda p, m: p.arctanh(_x(m, 4))),
    ("bitwise_and", lambda p, m: p.bitwise_and(_i(m, 5), _i(m, 5) + 1)),
    ("bitwise_or", lambda p, m: p.bitwise_or(_i(m, 5), 6)),
    ("bitwise_xor", lambda p, m: p.bitwise_xor(_i(m, 5), _i(m, 5) * 2)),
    ("bitwise_not", lambda p, m: p.bitwise_not(_i(m, 2, 3))),
    ("bitwise_left_shift", lambda p, m: p.bitwise_left_shift(_i(m, 5), 2)),
    ("bitwise_right_shift", lambda p, m: p.bitwise_right_shift(_i(m, 5), _i(m, 5) % 3)),
    ("gcd", lambda p, m: p.gcd(_i(m, 6), _i(m, 6) + 4)),
    ("lcm", lambda p, m: p.lcm(_i(m, 6), _i(m, 6) + 4)),
    ("clamp_max", lambda p, m: p.clamp_max(_x(m, 2, 3), 0.2)),
    ("concat", lambda p, m: p.concat([_x(m, 2, 3), _x(m, 1, 3)])),
    ("multiply", lambda p, m: p.multiply(_x(m, 2, 3), 3)),
    ("subtract", lambda p, m: p.subtract(_x(m, 2, 3), _x(m, 3), alpha=2)),
    ("isin", lambda p, m: p.isin(_i(m, 6), m.tensor([3, 5]))),
    ("isin.invert", lambda p, m: p.isin(_i(m, 6), m.tensor([3, 5]), invert=True)),
    ("index_reduce", lambda p, m: p.index_reduce(_x(m, 3, 2), 0, m.tensor([0, 2, 0]),
                                                 _x(m, 3, 2) + 1, "prod")),
    ("zeros", lambda p, m: p.zeros(2, 3)),
    ("ones", lambda p, m: p.ones((3,), dtype=m.float64)),
    ("full", lambda p, m: p.full((2, 2), 1.5)),
    ("arange", lambda p, m: p.arange(0, 5)),
    ("arange.float", lambda p, m: p.arange(0.0, 2.0, 0.5)),
    ("linspace", lambda p, m: p.linspace(-1, 1, 5)),
    ("logspace", lambda p, m: p.logspace(-1, 1, 5)),
    ("range", lambda p, m: p.range(0, 4)),
    ("eye", lambda p, m: p.eye(2, 3)),
    ("where.scalar", lambda p, m: p.where(_x(m, 4) > 0, _x(m, 4), 1.0)),
    ("median.all", lambda p, m: p.median(_x(m, 5))),
    ("prod.all", lambda p, m: p.prod(_x(m, 5))),
    ("argsort.stable", lambda p, m: p.argsort(_x(m, 5), stable=True)),
    ("argsort", lambda p, m: p.argsort(_x(m, 5))),
    ("nonzero.as_tuple", lambda p, m: p.nonzero(_i(m, 5) > 3, as_tuple=True)),
    ("frexp", lambda p, m: p.frexp(_x(m, 5) * 10)),
    ("complex", lambda p, m: p.complex(_x(m, 2, 3), _x(m, 2, 3) + 1)),
    ("polar", lambda p, m: p.polar(_x(m, 4) + 1, _x(m, 4))),
]
# autograd_core follows PyTorch's out= here not yet (strict xfails: remove when fixed)
EXTRA_KNOWN = {}


@pytest.mark.parametrize("name, prog", EXTRA, ids=[e[0] for e in EXTRA])
def test_out_extra(name, prog, request):
    if name in EXTRA_KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=EXTRA_KNOWN[name]))
    for rules in (False, True):
        logs = []
        for mod in (torch, ac):
            log = []
            with no_warnings():
                r = catch(prog, Probe(mod, log, rules), mod)
            logs.append([log, r])
        assert logs[0][0], "the program calls no function"
        assert_same(logs[0], logs[1], rtol=1e-4, atol=1e-5)


def test_every_out_function_is_probed():
    probed = set()
    for spec in OPS:
        probed |= {e[0] for e in _run(spec, ac, spec.dtypes[0], False)[0]}
    for name, prog in EXTRA:
        log = []
        with no_warnings():
            catch(prog, Probe(ac, log, False), ac)
        probed |= {e[0] for e in log}
    # complex results (eig, eigvals), the *_copy ops (their own tests), nn entry points
    # composed in Python (native_batch_norm) and the random functions are not probed
    missing = {n for n in _torch_out_functions() - probed
               if not n.endswith("_copy") and n not in SKIP and n not in (
                   "linalg.eig", "linalg.eigvals", "conj_physical", "native_batch_norm",
                   "empty")}
    assert not missing, sorted(missing)


# ------------------------------------------------------------------ graphs through out=

def _m(mod):
    return mod.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], requires_grad=True)


def _v(mod):
    return mod.tensor([0.5, -1., 2.], requires_grad=True)


# Note [out= rules]: where PyTorch composes the out= variant, inputs that require grad
# give out a history (CopyBackwards, or the NotImplemented node of the out= kernel);
# where the composition ends in an out= kernel, its autograd error
GRAPH = [
    ("linalg.norm", lambda m, x, v, o: m.linalg.norm(x, out=o)),
    ("linalg.matrix_norm.nuc", lambda m, x, v, o: m.linalg.matrix_norm(x, "nuc", out=o)),
    ("linalg.cond", lambda m, x, v, o: m.linalg.cond(x, out=o)),
    ("linalg.tensorinv", lambda m, x, v, o: m.linalg.tensorinv(x, 1, out=o)),
    ("linalg.tensorsolve", lambda m, x, v, o: m.linalg.tensorsolve(x, v, out=o)),
    ("linalg.pinv.rtol", lambda m, x, v, o: m.linalg.pinv(x, rtol=0.1, out=o)),
    ("linalg.pinv.atol", lambda m, x, v, o: m.linalg.pinv(x, atol=0.1, out=o)),
    ("linalg.pinv", lambda m, x, v, o: m.linalg.pinv(x, out=o)),
    ("linalg.pinv.tensor_rtol", lambda m, x, v, o: m.linalg.pinv(x, rtol=m.tensor(.1), out=o)),
    ("linalg.matrix_power.0", lambda m, x, v, o: m.linalg.matrix_power(x, 0, out=o)),
    ("linalg.matrix_power.1", lambda m, x, v, o: m.linalg.matrix_power(x, 1, out=o)),
    ("linalg.matrix_power.2", lambda m, x, v, o: m.linalg.matrix_power(x, 2, out=o)),
    ("linalg.matrix_power.-1", lambda m, x, v, o: m.linalg.matrix_power(x, -1, out=o)),
    ("inner", lambda m, x, v, o: m.inner(v, v, out=o)),
    ("tensordot", lambda m, x, v, o: m.tensordot(x, v, 1, out=o)),
    ("nuclear_norm", lambda m, x, v, o: m.nuclear_norm(x, out=o)),
    ("quantile", lambda m, x, v, o: m.quantile(v, 0.3, out=o)),
    ("nanquantile", lambda m, x, v, o: m.nanquantile(x, 0.6, 1, out=o)),
    ("chain_matmul.one", lambda m, x, v, o: m.chain_matmul(x, out=o)),
    ("chain_matmul.two", lambda m, x, v, o: m.chain_matmul(x, x, out=o)),
    ("diag.extract", lambda m, x, v, o: m.diag(x, out=o)),
    ("softmax", lambda m, x, v, o: m.softmax(x, 1, out=o)),
    ("log_softmax", lambda m, x, v, o: m.log_softmax(x, 0, out=o)),
    ("slice_scatter", lambda m, x, v, o: m.slice_scatter(x, x[:1] * 2, 0, 0, 1, out=o)),
    ("lu", lambda m, x, v, o: m.lu(x, out=(o, m.empty(0, dtype=m.float64)))[0]),
    ("clamp.tensor", lambda m, x, v, o: m.clamp(x, v, out=o)),
    ("sum.dim", lambda m, x, v, o: m.sum(x, 1, out=o)),
]


@pytest.mark.parametrize("name, fn", GRAPH, ids=[g[0] for g in GRAPH])
def test_out_graph_like_pytorch(name, fn):
    """out's history (node names), version, values and the gradients it leads to."""
    def prog(m):
        x, v, o = _m(m), _v(m), m.empty(0)
        r = fn(m, x, v, o)
        # (out's node and the nodes it leads to: the compositions below are their
        # functions' own business, tested with them)
        top = None if o.grad_fn is None else (type(o.grad_fn).__name__, [
            None if f is None else type(f).__name__ for f, _ in o.grad_fn.next_functions])
        res = [r is o, top, o.requires_grad, o.is_leaf, o._version, o.detach()]
        if o.requires_grad:
            r = catch(lambda: o.sum().backward())
            res.append(r if isinstance(r, Raised) else (x.grad, v.grad))
        return res
    # (diag's NotImplemented node names diag here, PyTorch's the ATen op it runs)
    if name.startswith("diag"):
        same(lambda m: prog(m)[:-1], may_raise=True, quiet=True)
    else:
        same(prog, may_raise=True, quiet=True)


def _f(m):
    return m.linspace(-1.5, 1.5, 6, dtype=m.float64).reshape(2, 3)


# the dtype rules of the kernels that compute in out's dtype, or check it their way
DTYPES = [
    ("sum.int", lambda m: m.sum(_f(m), 1, out=m.empty(0, dtype=m.int64))),
    ("sum.bool", lambda m: m.sum(_f(m), 1, out=m.empty(0, dtype=m.bool))),
    ("sum.dtype_mismatch", lambda m: m.sum(_f(m), 1, dtype=m.float32, out=m.empty(0))),
    ("sum.dtype_none", lambda m: m.sum(_f(m), None, out=m.empty(0, dtype=m.int32))),
    ("sum.no_dim", lambda m: m.sum(_f(m), out=m.empty(0))),
    ("prod.int", lambda m: m.prod(_f(m), 0, out=m.empty(0, dtype=m.int32))),
    ("cumsum.int", lambda m: m.cumsum(_f(m), 1, out=m.empty(0, dtype=m.int64))),
    ("cumsum.bool", lambda m: m.cumsum(_f(m), 1, out=m.empty(0, dtype=m.bool))),
    ("cumsum.dtype_bool", lambda m: m.cumsum(_f(m), 1, dtype=m.bool)),
    ("cumprod.dtype_bool", lambda m: m.cumprod(_f(m), 0, dtype=m.bool)),
    ("nansum.int", lambda m: m.nansum(_f(m), 1, out=m.empty(0, dtype=m.int64))),
    ("nansum.int_dtype", lambda m: m.nansum(_f(m), 1, dtype=m.int64,
                                            out=m.empty(0, dtype=m.int64))),
    ("nansum.dtype_mismatch", lambda m: m.nansum(_f(m), 1, dtype=m.float32,
                                                 out=m.empty(0, dtype=m.float64))),
    ("nansum.int_input", lambda m: m.nansum(_f(m).long(), 1, out=m.empty(0, dtype=m.bool))),
    ("nanmean.float32", lambda m: m.nanmean(_f(m), 1, out=m.empty(0))),
    ("nanmean.int", lambda m: m.nanmean(_f(m), 1, out=m.empty(0, dtype=m.int64))),
    ("nanmean.int_dtype", lambda m: m.nanmean(_f(m), 1, dtype=m.int64)),
    ("cat.narrowing", lambda m: m.cat([_f(m), _f(m)], out=m.empty(0, dtype=m.int64))),
    ("cat.int_into_int8", lambda m: m.cat([_f(m).long()], out=m.empty(0, dtype=m.int8))),
    ("stack.narrowing", lambda m: m.stack([_f(m).int()], out=m.empty(0, dtype=m.bool))),
    ("clamp.number_bound", lambda m: m.clamp(_f(m), 0.1, out=m.empty(0))),
    ("clamp_max.number", lambda m: m.clamp_max(_f(m), 0.1, out=m.empty(0))),
    ("clamp_max.tensor", lambda m: m.clamp_max(_f(m).float(), _f(m)[0].float(),
                                               out=m.empty(0, dtype=m.float64))),
    ("lerp.tensor_weight", lambda m: m.lerp(_f(m), _f(m), _f(m), out=m.empty(0))),
    ("matrix_power.int", lambda m: m.linalg.matrix_power(_f(m)[:, :2], 1,
                                                         out=m.empty(0, dtype=m.int64))),
    ("matrix_power.wider", lambda m: m.linalg.matrix_power(_f(m)[:, :2].float(), 0,
                                                           out=m.empty(0, dtype=m.float64))),
    ("chain_matmul.int", lambda m: m.chain_matmul(_f(m), out=m.empty(0, dtype=m.int64))),
    ("lu.size", lambda m: m.lu(_f(m), out=(m.empty(0),))),
    ("arange.int64", lambda m: m.arange(0, 3, 1.5, dtype=m.int64)),
    ("arange.int32", lambda m: m.arange(0, 3, 1.5, out=m.empty(0, dtype=m.int32))),
    ("arange.zero_step", lambda m: m.arange(0., 2., 0.5, out=m.empty(0, dtype=m.int64))),
]


@pytest.mark.parametrize("name, fn", DTYPES, ids=[d[0] for d in DTYPES])
def test_out_dtype_like_pytorch(name, fn):
    # (an overloaded function's TypeError lists its signatures: sum's type is compared)
    if name == "sum.no_dim":
        want, got = catch(fn, torch, quiet=True), catch(fn, ac, quiet=True)
        assert isinstance(got, Raised) and got.type == want.type == "TypeError"
        return
    same(fn, may_raise=True, quiet=True)
