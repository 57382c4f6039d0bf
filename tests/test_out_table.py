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
from _diff import Raised, assert_same, catch, no_warnings, torch
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
# passes fails the suite, remove it then). PyTorch's kernels differ among themselves:
# sum/prod/cumsum compute in out's dtype (an int or bool out is accepted); the unary
# sign-like ops, the norms, quantile, searchsorted and many linalg functions refuse an out
# of another float dtype (here: cast); cat/stack refuse a narrowing out with a TypeError
# (here: RuntimeError); functions PyTorch composes in Python or CompositeImplicit (diag,
# linalg.norm, softmax, nuclear_norm, cross_entropy...) record a graph through out= with
# inputs that require grad, where here out= refuses them.
RULES_KNOWN = {
    'sum.fn', 'sum.dim_neg', 'sum.dims_keepdim', 'cat', 'cat.dim1', 'cat.dim_neg',
    'cat.single', 'stack', 'stack.dim', 'stack.dim_neg', 'iter.use', 'slice_scatter', 'hstack',
    'vstack', 'row_stack', 'dstack', 'column_stack', 'concatenate', 'nan_to_num.nonfinite',
    'nan_to_num_.nonfinite', 'clamp.tensor', 'clamp.tensor_min', 'clamp_min.tensor',
    'lerp.scalar', 'isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf', 'signbit',
    'prod.dim_keepdim', 'linalg.norm', 'linalg.norm.fro', 'linalg.norm.vec_ord',
    'linalg.norm.dim1', 'linalg.norm.ord1', 'linalg.norm.ordinf', 'linalg.norm.ordm1',
    'linalg.norm.ordminf', 'linalg.norm.ord2', 'linalg.norm.ordm2', 'linalg.norm.nuc',
    'linalg.matrix_norm', 'linalg.matrix_norm.nuc_keepdim', 'linalg.matrix_norm.ord2_dims',
    'linalg.matrix_norm.ord1_keepdim', 'linalg.matrix_norm.inf_dims', 'cumsum.fn',
    'cumsum.dtype', 'cumprod.fn', 'cumprod.dtype', 'tensordot', 'tensordot.lists',
    'tensordot.dims0', 'tensordot.dims2', 'tensordot.broadcast_dim', 'diag.embed',
    'diag.embed_neg_offset', 'diag.extract', 'diag.extract_offset_pos',
    'linalg.matrix_power.0', 'linalg.matrix_power.1', 'linalg.pinv.rtol', 'linalg.cond',
    'linalg.cond.m2', 'linalg.cond.nuc', 'lu', 'chain_matmul.one', 'linalg.tensorinv',
    'linalg.tensorinv.ind2', 'linalg.tensorsolve', 'linalg.tensorsolve.dims', 'inner',
    'nuclear_norm', 'nuclear_norm.dim', 'nuclear_norm.keepdim', 'nansum.dim',
    'nansum.nan_dims', 'nanmean', 'nanmean.dim_nan', 'quantile', 'quantile.dim0_keepdim',
    'quantile.q_tensor', 'quantile.lower', 'quantile.higher', 'quantile.midpoint',
    'quantile.nearest', 'quantile.nan', 'nanquantile', 'softmax', 'log_softmax',
    'nn.cross_entropy.probs.mean', 'nn.cross_entropy.probs_smoothing_weight.mean',
    'nn.cross_entropy.probs.sum', 'nn.cross_entropy.probs_smoothing_weight.sum',
    'nn.cross_entropy.probs.none', 'nn.cross_entropy.probs_smoothing_weight.none',
}
OUT_KNOWN = {
    "sum.fn": "sum(input) without dim takes out= here (PyTorch: only with dim)",
    "lu": "torch.lu(out=) is not supported",
}


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
]
# autograd_core follows PyTorch's out= here not yet (strict xfails: remove when fixed)
EXTRA_KNOWN = {
    "concat": "a narrowing out: PyTorch's TypeError, here a RuntimeError",
    "arange.float": "an int64 out: PyTorch casts the step to 0 first (ValueError)",
}


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
