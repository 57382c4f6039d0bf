"""Forward-mode AD of the whole op table on complex128 inputs against PyTorch 2.13
(issue 27): where PyTorch computes a tangent ours computes the same one (values, dtype,
shape, strides, the signs of zero real and imaginary parts, ZeroTensor or not), where
PyTorch refuses forward AD ours refuses too. Every input of a case is complex (the
float64 inputs of the table plus an imaginary part), every tangent a complex one.
Cases where both raise are not compared here (the op's own errors on complex inputs are
tests/test_complex*.py's business, forward-AD refusal types tests/test_forward_ad.py's)."""
import os
import sys

import numpy as np
import pytest

from _diff import Raised, assert_same, catch

sys.path.insert(0, os.path.dirname(__file__))
from op_spec import case_args, case_id, complex_dual_inputs  # noqa: E402
from op_table import OPS  # noqa: E402

import torch  # noqa: E402
import autograd_core  # noqa: E402

# Where ours is not PyTorch's yet, by case id (strict xfails: a fix makes them fail until
# the entry goes)
KNOWN = {}

# Ops ours refuses on purpose where PyTorch computes, by op name: PyTorch's complex silu
# tangent is t * conj(silu'(x)), a finite difference of the holomorphic silu gives
# t * silu'(x) (test_silu_jvp_refused_where_pytorchs_tangent_is_conjugated)
REFUSED_ON_PURPOSE = {"nn.silu", "nn.silu_inplace"}


def fw(mod):
    import importlib
    return importlib.import_module(mod.__name__ + ".autograd.forward_ad")


def _table_cases():
    for spec in OPS:
        if "float64" not in spec.dtypes:
            continue
        for i, case in enumerate(spec.cases):
            try:
                complex_dual_inputs(spec, case)
            except Exception:  # noqa: BLE001  (a case of integer or boolean inputs)
                continue
            cid = case_id(spec, i)
            marks = [pytest.mark.xfail(strict=True, reason=KNOWN[cid])] if cid in KNOWN else []
            yield pytest.param(spec, case, id=cid, marks=marks)


def _prog(spec, case, arrays, tangents):
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            leaves = [fwAD.make_dual(mod.tensor(a), mod.tensor(t))
                      for a, t in zip(arrays, tangents)]
            out = spec.fn(mod, *case_args(case, leaves))
            outs = out if isinstance(out, (tuple, list)) else (out,)
            res = []
            for o in outs:
                t = fwAD.unpack_dual(o).tangent if isinstance(o, mod.Tensor) else None
                # (a ZeroTensor's values are read through numpy(force=True))
                res.append(None if t is None else
                           (t, tuple(t.stride()) if t.numel() > 1 else None,
                            t._is_zerotensor(), t.detach().numpy(force=True)))
            return res
    return prog


def _zero_signs(a):
    """For each zero real or imaginary part of a complex array, its sign bit."""
    parts = np.stack([np.real(a), np.imag(a)])
    return np.where(parts == 0, np.signbit(parts), False)


@pytest.mark.parametrize("spec,case", list(_table_cases()))
def test_complex_tangent_is_pytorchs(spec, case):
    arrays, tangents = complex_dual_inputs(spec, case)
    prog = _prog(spec, case, arrays, tangents)
    want = catch(prog, torch, quiet=True)
    got = catch(prog, autograd_core, quiet=True)
    if isinstance(want, Raised):
        if isinstance(got, Raised):
            return
        raise AssertionError(f"PyTorch raises, ours computes: {want.type}: {want.message[:200]}")
    if spec.name in REFUSED_ON_PURPOSE:
        assert isinstance(got, Raised) and got.type in ("RuntimeError", "NotImplementedError"), got
        return
    assert not isinstance(got, Raised), f"ours raises, PyTorch computes: {got.type}: {got.message}"
    assert len(want) == len(got)
    for k, (w, g) in enumerate(zip(want, got)):
        assert (w is None) == (g is None), f"output {k}: tangent {w is not None} vs {g is not None}"
        if w is None:
            continue
        assert_same(w[0], g[0], rtol=1e-6, atol=1e-8, what=f"tangent {k}")
        assert w[1:3] == g[1:3], f"output {k}: (strides, ZeroTensor) {w[1:3]} vs {g[1:3]}"
        if w[3].dtype.kind == "c":
            assert (_zero_signs(w[3]) == _zero_signs(g[3])).all(), \
                f"output {k}: signs of zeros differ:\n torch {w[3]}\n ours {g[3]}"


def test_silu_jvp_refused_where_pytorchs_tangent_is_conjugated():
    """PyTorch's complex silu tangent is conjugated where the derivative of the holomorphic
    silu is not (a central difference along the tangent says which is right): ours refuses
    forward AD of silu on complex values rather than give either value silently."""
    z = np.array([0.3 + 0.8j, -1.2 + 0.4j])
    t = np.array([0.5 - 0.2j, 1.0 + 0.7j])

    def silu(v):
        return v / (1 + np.exp(-v))
    h = 1e-6
    fd = (silu(z + h * t) - silu(z - h * t)) / (2 * h)
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        out = torch.nn.functional.silu(fwAD.make_dual(torch.tensor(z), torch.tensor(t)))
        pytorchs = fwAD.unpack_dual(out).tangent.numpy()
    assert not np.allclose(pytorchs, fd, atol=1e-6)          # the reason for the refusal
    fwAD = autograd_core.autograd.forward_ad
    with fwAD.dual_level():
        dual = fwAD.make_dual(autograd_core.tensor(z), autograd_core.tensor(t))
        with pytest.raises((RuntimeError, NotImplementedError), match="silu"):
            autograd_core.nn.functional.silu(dual)
