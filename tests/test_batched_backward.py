"""autograd.grad(is_grads_batched=True) runs one batched backward pass (Note [Batched
backward], autograd/_batched_backward.py): its gradients against PyTorch's over the op
table, and the mechanisms it meets (create_graph, hooks, custom Functions, errors,
autograd.functional's vectorized jacobian/hessian, gradcheck's batched check)."""
import warnings

import numpy as np
import pytest

import autograd_core as ac
from _diff import assert_same, catch, no_warnings, norm, torch
from op_spec import case_args, case_id, case_seed, make_arrays, make_leaves
from op_table import OPS

B = 3


def _cases():
    out = []
    for spec in OPS:
        for i, case in enumerate(spec.cases):
            out.append(pytest.param(spec, i, id=case_id(spec, i)))
    return out


def _first_diff_output(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for k, o in enumerate(outs):
        if hasattr(o, "requires_grad") and o.requires_grad and o.dtype.is_floating_point:
            return k, o
    return None, None


def _batched_grads(mod, spec, case, arrays, cot):
    leaves = make_leaves(mod, arrays, case)
    with no_warnings():
        out = spec.fn(mod, *case_args(case, leaves))
    k, o = _first_diff_output(out)
    if o is None:
        return None
    diff = [x for x in leaves if x.requires_grad]
    v = mod.tensor(cot.reshape((B,) + tuple(o.shape)))
    with no_warnings():
        return mod.autograd.grad(o, diff, v, is_grads_batched=True, allow_unused=True,
                                 retain_graph=True)


def _loop_grads(spec, case, arrays, cot):
    """The gradients one backward per entry (what the batched pass must equal)."""
    leaves = make_leaves(ac, arrays, case)
    with no_warnings():
        out = spec.fn(ac, *case_args(case, leaves))
    k, o = _first_diff_output(out)
    diff = [x for x in leaves if x.requires_grad]
    v = cot.reshape((B,) + tuple(o.shape))
    per = []
    for b in range(B):
        with no_warnings():
            per.append(ac.autograd.grad(o, diff, ac.tensor(v[b]), allow_unused=True,
                                        retain_graph=True))
    return tuple(None if per[0][j] is None else ac.stack([p[j] for p in per])
                 for j in range(len(diff)))


@pytest.mark.parametrize("spec,i", _cases())
def test_op_table_is_grads_batched(spec, i):
    """Every differentiable op-table case: the batched gradients equal PyTorch's (or,
    where PyTorch's vmap has no rule and raises, the per-entry loop's)."""
    case = spec.cases[i]
    arrays = make_arrays(spec, case, "float64", case_seed(spec.name, i, "batched"))
    leaves = make_leaves(ac, arrays, case)
    with no_warnings():
        r = catch(lambda: spec.fn(ac, *case_args(case, leaves)), quiet=True)
    if not isinstance(r, (ac.Tensor, tuple, list)):
        pytest.skip("the op raises")
    k, o = _first_diff_output(r)
    if o is None:
        pytest.skip("no differentiable output")
    rng = np.random.default_rng(case_seed(spec.name, i, "cot"))
    cot = rng.standard_normal((B,) + tuple(o.shape))
    got = catch(lambda: _batched_grads(ac, spec, case, arrays, cot), quiet=True)
    want = catch(lambda: _batched_grads(torch, spec, case, arrays, cot), quiet=True)
    if type(want).__name__ == "Raised":
        want = _loop_grads(spec, case, arrays, cot)
    assert_same(want, got, rtol=1e-6, atol=1e-8)
