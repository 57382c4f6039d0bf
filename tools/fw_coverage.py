"""Forward-AD coverage of the op table (tests/op_table*.py): runs every float64 case of
every op with dual inputs under PyTorch and autograd_core and lists the cases where
autograd_core raises "Trying to use forward AD with ..." (or another error) while
PyTorch gives a tangent, or where the tangents differ.

    python tools/fw_coverage.py

Prints one line per case without PyTorch's tangent and the count. Cases where PyTorch
itself raises while autograd_core computes a tangent are listed too ("PyTorch raises").
A few multi-output decompositions and reductions beyond the op table's cases are
checked as well (EXTRA).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402
import autograd_core  # noqa: E402
from _diff import Raised, catch, assert_same  # noqa: E402
from op_spec import case_args, case_id, case_seed, make_arrays  # noqa: E402
from op_table import OPS  # noqa: E402


def _prog(fn, arrays, tangents):
    def prog(mod):
        fwAD = mod.autograd.forward_ad
        with fwAD.dual_level():
            leaves = [fwAD.make_dual(mod.tensor(a), mod.tensor(t))
                      for a, t in zip(arrays, tangents)]
            out = fn(mod, *leaves)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            return [fwAD.unpack_dual(o).tangent if isinstance(o, mod.Tensor) else None
                    for o in outs]
    return prog


def _spd(a):
    return a @ a.T + a.shape[-1] * np.eye(a.shape[-1])


def _abs_uv(r):
    return (r[0].abs(), r[1], r[2].abs())


# multi-output decompositions and reductions (fn, input arrays)
_g = np.random.default_rng(0)
_A = _g.standard_normal((4, 3))
_S = _g.standard_normal((3, 3))
_B = _g.standard_normal((3, 2))
_SYM = _S + _S.T
EXTRA = {
    # singular vectors through |U|, |Vh|: numpy's LAPACK may pick other signs than
    # PyTorch's, and the tangent of |U| (sign(U) dU) does not depend on that choice
    "linalg.svd": (lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)), [_A]),
    "svd": (lambda m, a: _abs_uv(m.svd(a)), [_A]),
    "linalg.svdvals": (lambda m, a: m.linalg.svdvals(a), [_A]),
    "linalg.eigh": (lambda m, a: (lambda r: (r[0], r[1].abs()))(m.linalg.eigh(a)), [_SYM]),
    "linalg.eigvalsh": (lambda m, a: m.linalg.eigvalsh(a), [_SYM]),
    "linalg.qr": (lambda m, a: m.linalg.qr(a), [_A]),
    "linalg.slogdet": (lambda m, a: m.linalg.slogdet(a), [_S]),
    "logdet": (lambda m, a: m.logdet(a), [_spd(_S)]),
    "linalg.lu": (lambda m, a: m.linalg.lu(a), [_S]),
    "linalg.lu_factor": (lambda m, a: m.linalg.lu_factor(a), [_S]),
    "linalg.lu_solve": (lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(a), b), [_S, _B]),
    "lu_unpack": (lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)), [_S]),
    "linalg.lstsq": (lambda m, a, b: m.linalg.lstsq(a, b).solution, [_A, _g.standard_normal((4, 2))]),
    "linalg.cholesky_ex": (lambda m, a: m.linalg.cholesky_ex(a), [_spd(_S)]),
    "linalg.inv_ex": (lambda m, a: m.linalg.inv_ex(a), [_S]),
    "linalg.solve_ex": (lambda m, a, b: m.linalg.solve_ex(a, b), [_S, _B]),
    "cholesky_inverse": (lambda m, a: m.cholesky_inverse(a), [np.tril(_spd(_S))]),
    "triangular_solve": (lambda m, b, a: m.triangular_solve(b, a), [_B, np.triu(_spd(_S))]),
    "var_mean": (lambda m, a: m.var_mean(a, 1), [_A]),
    "std_mean": (lambda m, a: m.std_mean(a, 1), [_A]),
    "aminmax": (lambda m, a: m.aminmax(a, dim=1), [_A]),
    "linalg.eig": (lambda m, a: m.linalg.eig(a), [_S]),
}


def _cases():
    for spec in OPS:
        if "float64" not in spec.dtypes:
            continue
        for i, case in enumerate(spec.cases):
            seed = case_seed(spec.name, case.inputs)
            arrays = make_arrays(spec, case, "float64", seed)
            rng = np.random.default_rng(seed + 1)
            tangents = [rng.standard_normal(a.shape) for a in arrays]
            yield case_id(spec, i), (lambda m, *x, s=spec, c=case: s.fn(m, *case_args(c, x))), \
                arrays, tangents
    for name, (fn, arrays) in EXTRA.items():
        rng = np.random.default_rng(1)
        yield "extra:" + name, fn, arrays, [rng.standard_normal(a.shape) for a in arrays]


def main():
    bad, total = [], 0
    for cid, fn, arrays, tangents in _cases():
        total += 1
        prog = _prog(fn, arrays, tangents)
        want = catch(prog, torch, quiet=True)
        got = catch(prog, autograd_core, quiet=True)
        if isinstance(want, Raised):
            if not isinstance(got, Raised):
                bad.append((cid, "PyTorch raises " + want.message[:70]))
            continue
        if isinstance(got, Raised):
            bad.append((cid, f"{got.type}: {got.message[:90]}"))
            continue
        try:
            assert_same(want, got, rtol=1e-6, atol=1e-8)
        except AssertionError as e:
            bad.append((cid, "tangent differs: " + str(e).splitlines()[0][:90]))
    for cid, why in bad:
        print(f"{cid}: {why}")
    print(f"{len(bad)} of {total} cases without PyTorch's tangent")
    return len(bad)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
