"""Complex dtypes (issue 27, item 1), compared with PyTorch: the dtypes and their
promotion, creation and conversion, the views of complex tensors (real, imag,
view_as_real, view_as_complex), printing, and the op table run on complex inputs
(every op either matches PyTorch or refuses: Note [Complex guard]).
"""
import re
import warnings

import numpy as np
import pytest

from _subprocess import CWD, child_env
from _diff import Raised, assert_same, catch, norm, same, same_error, sub_name, torch
import autograd_core
import op_table
from op_spec import case_args, case_seed, is_shape, make_arrays


# ------------------------------------------------------------------ dtypes and promotion

def test_dtype_attributes():
    def prog(m):
        out = []
        for d in (m.complex64, m.complex128, m.cfloat, m.cdouble, m.float32, m.int64):
            out.append((str(d), d.is_complex, d.is_floating_point, d.is_signed, d.itemsize,
                        str(d.to_real())))
        out.append((str(m.float32.to_complex()), str(m.float64.to_complex()),
                    str(m.complex64.to_complex()), str(m.get_default_dtype())))
        return out
    same(prog)


def test_to_complex_of_an_integer_dtype():
    same_error(lambda m: m.int32.to_complex())
    same_error(lambda m: m.bool.to_complex())


@pytest.mark.parametrize("a", ["float16", "float32", "float64", "int64", "uint8", "bool",
                               "complex64", "complex128"])
@pytest.mark.parametrize("b", ["float32", "float64", "int32", "complex64", "complex128"])
def test_promote_types(a, b):
    if "float16" in (a, b) and ("complex" in a or "complex" in b) and a != b:
        if {a, b} == {"float16", "complex64"} or {a, b} == {"float16", "complex128"}:
            pass  # promote_types does not need complex32 here
    same(lambda m: (m.promote_types(getattr(m, a), getattr(m, b)),
                    m.can_cast(getattr(m, a), getattr(m, b))))


@pytest.mark.parametrize("tensor_dtype", ["float32", "float64", "int64", "bool", "complex64",
                                          "complex128"])
@pytest.mark.parametrize("other", [1j, 2.5, 3, "t0c64", "t0c128", "t1c128", "t0f64"])
def test_result_type(tensor_dtype, other):
    def prog(m):
        x = m.ones(3, dtype=getattr(m, tensor_dtype))
        o = {"t0c64": m.tensor(1j, dtype=m.complex64), "t0c128": m.tensor(1j, dtype=m.complex128),
             "t1c128": m.ones(3, dtype=m.complex128),
             "t0f64": m.tensor(1., dtype=m.float64)}.get(other, other) \
            if isinstance(other, str) else other
        return m.result_type(x, o), (x + o).dtype, (x * o).dtype
    same(prog)


def test_python_complex_takes_the_default_complex_dtype():
    def prog(m):
        out = [m.tensor(1j).dtype, m.tensor([1, 2.5j]).dtype, (m.ones(2) + 1j).dtype,
               m.full((2,), 1j).dtype]
        m.set_default_dtype(m.float64)
        try:
            out += [m.tensor(1j).dtype, (m.ones(2, dtype=m.int64) * 1j).dtype,
                    m.full((2,), 1j).dtype, m.get_default_dtype()]
        finally:
            m.set_default_dtype(m.float32)
        return out
    same(prog)


# ------------------------------------------------------------------ creation and conversion

def test_tensor_from_python_complex_numbers():
    same(lambda m: m.tensor([[1 + 2j, 3], [0.5, -1j]]))
    same(lambda m: m.tensor(2 - 3j, dtype=m.complex128))
    same(lambda m: m.tensor([1, 2], dtype=m.complex64))
    same(lambda m: m.tensor([True, 2.5, 1j]))
    same(lambda m: m.tensor([np.complex64(1 + 1j), 2]))


def test_python_complex_into_a_real_dtype_raises():
    same_error(lambda m: m.tensor([1 + 2j], dtype=m.float32))


@pytest.mark.parametrize("np_dtype", [np.complex64, np.complex128])
def test_from_numpy_shares_memory(np_dtype):
    a = (np.arange(6) + 1j * np.arange(6)[::-1]).astype(np_dtype).reshape(2, 3)
    same(lambda m: m.from_numpy(a.copy()))
    same(lambda m: m.as_tensor(a.copy()))
    same(lambda m: m.tensor(a))
    b = a.copy()
    t = autograd_core.from_numpy(b)
    t[0, 0] = 5 - 5j
    assert b[0, 0] == 5 - 5j


def test_factories_with_complex_dtypes():
    def prog(m):
        return [m.zeros(2, 3, dtype=m.complex64), m.ones(2, dtype=m.complex128),
                m.full((2, 2), 1 - 2j), m.full((2,), 3, dtype=m.complex64),
                m.empty(0, dtype=m.cfloat), m.zeros_like(m.ones(2, dtype=m.cdouble)),
                m.ones_like(m.ones(2), dtype=m.complex64), m.eye(2, dtype=m.complex64)]
    same(prog)


@pytest.mark.parametrize("n", [1, 3, 8, 17, 40])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_random_complex_streams(n, dtype):
    def prog(m):
        g = m.Generator().manual_seed(7)
        return (m.rand(n, dtype=getattr(m, dtype), generator=g),
                m.randn(n, 2, dtype=getattr(m, dtype), generator=g))
    same(prog)


def test_item_tolist_numpy():
    def prog(m):
        x = m.tensor([[1 + 2j, -3j]], dtype=m.complex128)
        return x[0, 0].item(), x.tolist(), x.numpy(), m.tensor(0.5j).item()
    same(prog)


def test_conversions_between_real_and_complex():
    def prog(m):
        x = m.tensor([1.5, -2.0])
        c = m.tensor([1 + 2j, 3 - 4j], dtype=m.complex128)
        return (x.to(m.complex64), x.cfloat(), x.cdouble(), x.type(m.complex128),
                c.to(m.complex64), c.cfloat(), c.cdouble().dtype,
                x.is_complex(), c.is_complex(), m.is_complex(c), c.is_floating_point(),
                m.is_floating_point(c))
    same(prog)


def test_complex_to_real_cast_warns_once_as_pytorch():
    # PyTorch warns once per process: run each library in a fresh interpreter
    import subprocess
    import sys
    prog = ("import warnings, {m} as t\nwarnings.simplefilter('always')\n"
            "x = t.tensor([1+2j, 3-4j])\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    a = x.float(); b = x.to(t.int64); c = x.double()\n"
            "print(a.tolist(), b.tolist(), c.tolist(), [str(i.message) for i in w],"
            " [i.category.__name__ for i in w])\n")
    out = {}
    for m in ("torch", "autograd_core"):
        r = subprocess.run([sys.executable, "-c", prog.format(m=m)], capture_output=True,
                           text=True, cwd=CWD, env=child_env())
        assert r.returncode == 0, r.stderr
        out[m] = re.sub(r" \(Triggered internally at [^)]*\)", "", sub_name(r.stdout.strip()))
    assert out["torch"] == out["autograd_core"]


def test_scalar_conversions():
    same(lambda m: (float(m.tensor(2 + 0j)), int(m.tensor(3 + 0j)), bool(m.tensor(1j)),
                    complex(m.tensor(1 - 1j))))
    same_error(lambda m: float(m.tensor(1 + 1j)))
    same_error(lambda m: int(m.tensor(1 + 1j)))


def test_complex_and_polar():
    def prog(m):
        re = m.tensor([1., -2., 0.5])
        im = m.tensor([[0.], [3.]])
        r = m.tensor([2., 1.], dtype=m.float64)
        th = m.tensor([0.5, -3.], dtype=m.float64)
        return m.complex(re, im), m.polar(r, th), m.complex(re.double(), re.double())
    same(prog)


@pytest.mark.parametrize("prog", [
    lambda m: m.complex(m.ones(2), m.ones(2, dtype=m.float64)),
    lambda m: m.complex(m.ones(2, dtype=m.int64), m.ones(2, dtype=m.int64)),
    lambda m: m.complex(m.ones(2), m.ones(3)),
    lambda m: m.polar(m.ones(2), m.ones(2, dtype=m.float64)),
])
def test_complex_and_polar_errors(prog):
    same_error(prog)


# ------------------------------------------------------------------ views

def test_view_as_real_and_complex_share_memory():
    def prog(m):
        x = m.tensor([[1 + 2j, 3 - 4j], [5j, -6]], dtype=m.complex128)
        r = m.view_as_real(x)
        r[0, 1, 1] = 40.
        c = m.view_as_complex(r)
        c[1, 1] = 7 + 7j
        t = m.view_as_real(x.t())
        return x, r, c, r.shape, r.stride(), t.stride(), t._base is x, c._base is x
    same(prog)


@pytest.mark.parametrize("prog", [
    lambda m: m.view_as_complex(m.ones(3)),
    lambda m: m.view_as_complex(m.ones(3, 3)),
    lambda m: m.view_as_complex(m.ones(2, 3).t()),
    lambda m: m.view_as_complex(m.ones(3, 3)[:, :2]),
    lambda m: m.view_as_complex(m.ones(7)[1:].view(3, 2)),
    lambda m: m.view_as_complex(m.ones(3, 2, dtype=m.int64)),
    lambda m: m.view_as_complex(m.ones(())),
    lambda m: m.view_as_real(m.ones(3)),
    lambda m: m.imag(m.ones(3)),
    lambda m: m.ones(3).imag,
])
def test_view_errors(prog):
    same_error(prog)


def test_real_and_imag_are_writable_views():
    def prog(m):
        x = m.tensor([1 + 2j, 3 - 4j, 5j])
        re, im = x.real, x.imag
        re[0] = 10.
        im.mul_(2)
        y = m.ones(2)
        return x, re, im, m.real(x), m.imag(x), y.real is y, re._base is x, x._version
    same(prog)


def test_views_of_views_and_in_place_on_the_base():
    def prog(m):
        x = m.tensor([[1 + 1j, 2 - 2j], [3j, 4]])
        row = x[1]
        im = row.imag
        x.mul_(1j)          # in place on the base: every view sees it
        r = m.view_as_real(row)
        r[0, 0] = -9.
        return x, row, im, r, x._version
    same(prog)


def test_conj_values():
    # no lazy conjugate bit yet: conj computes (values as PyTorch's)
    def prog(m):
        x = m.tensor([1 + 2j, -3j])
        return x.conj().resolve_conj(), m.conj_physical(x), x.conj_physical(), m.conj(x).imag
    same(prog)


# ------------------------------------------------------------------ printing

_PRINT_CASES = [
    lambda m: m.tensor(1 + 2j),
    lambda m: m.tensor(-0.5j),
    lambda m: m.tensor([1 + 2j, 3 - 4j]),
    lambda m: m.tensor([0.1 + 2.25j, -3.5 - 4j], dtype=m.complex128),
    lambda m: m.tensor([1e-5 + 1j, 1e5 - 1j]),
    lambda m: m.tensor([[1e10 + 1j, 2], [3j, -4]], dtype=m.complex128),
    lambda m: m.tensor([float("nan") + 1j, complex(float("inf"), -1), -0.0 - 0.0j]),
    lambda m: m.zeros(2, 3, dtype=m.complex64),
    lambda m: m.zeros(0, dtype=m.complex64),
    lambda m: m.zeros(2, 0, dtype=m.complex128),
    lambda m: m.arange(2000.).reshape(1000, 2).mul(0.37).view(1000, 2) * (1 + 1j),
    lambda m: m.arange(24.).reshape(2, 3, 4) * (0.5 - 0.25j),
    lambda m: m.arange(60.).reshape(3, 20) * 1j + 1,
    lambda m: m.randn(3, 3, dtype=m.complex64, generator=m.Generator().manual_seed(1)),
    lambda m: m.randn(4, dtype=m.complex128, generator=m.Generator().manual_seed(2)),
]


@pytest.mark.parametrize("i", range(len(_PRINT_CASES)))
def test_printing(i):
    assert sub_name(repr(_PRINT_CASES[i](torch))) == repr(_PRINT_CASES[i](autograd_core))


@pytest.mark.parametrize("opts", [dict(precision=2), dict(precision=8), dict(sci_mode=True),
                                  dict(linewidth=40), dict(edgeitems=1, threshold=5)])
def test_printing_with_options(opts):
    try:
        for m in (torch, autograd_core):
            m.set_printoptions(**opts)
        for case in (_PRINT_CASES[3], _PRINT_CASES[4], _PRINT_CASES[12], _PRINT_CASES[13]):
            assert sub_name(repr(case(torch))) == repr(case(autograd_core))
    finally:
        for m in (torch, autograd_core):
            m.set_printoptions(profile="default")


def test_printing_with_float64_default():
    try:
        for m in (torch, autograd_core):
            m.set_default_dtype(m.float64)
        for case in (_PRINT_CASES[0], _PRINT_CASES[3], lambda m: m.ones(2, dtype=m.complex64)):
            assert sub_name(repr(case(torch))) == repr(case(autograd_core))
    finally:
        for m in (torch, autograd_core):
            m.set_default_dtype(m.float32)


# ------------------------------------------------------------------ ops on complex inputs

_REFUSALS = [
    lambda m: m.tensor([1j]).max(),
    lambda m: m.tensor([1j]) < m.tensor([2j]),
    lambda m: m.tensor([1j]).clamp(0, 1),
    lambda m: m.floor(m.tensor([1j])),
    lambda m: m.tensor([1j]) // m.tensor([2j]),
    lambda m: m.tensor([1j, 2]).sort(),
]


@pytest.mark.parametrize("i", range(len(_REFUSALS)))
def test_refusals_with_pytorch_messages(i):
    same_error(_REFUSALS[i])


_COMPLEX_RESULTS_OF_REAL_LEAVES = [
    lambda m, x: x * 1j,
    lambda m, x: x + 1j,
    lambda m, x: x.to(m.complex64),
    lambda m, x: x.cfloat(),
    lambda m, x: m.cat([x, m.tensor([1j])]),
    lambda m, x: m.stack([x, m.tensor([1j, 1])]),
    lambda m, x: m.zeros(2, dtype=m.complex64).copy_(x),
    lambda m, x: m.zeros(2, dtype=m.complex64).mul_(x),
]


@pytest.mark.parametrize("i", range(len(_COMPLEX_RESULTS_OF_REAL_LEAVES)))
def test_complex_result_of_a_tensor_requiring_grad_records(i):
    # PyTorch records these (the result requires grad) and the real leaf gets the real
    # part of its gradient (tests/test_complex_autograd.py has the rest)
    f = _COMPLEX_RESULTS_OF_REAL_LEAVES[i]

    def prog(m):
        x = m.tensor([1., 2.], requires_grad=True)
        y = f(m, x)
        (y * (1 - 2j)).abs().sum().backward()
        with m.no_grad():
            plain = f(m, x).requires_grad
        return y.requires_grad, plain, x.grad
    same(prog, rtol=1e-6, atol=1e-7)


def _complex_arrays(spec, case, dtype, seed):
    re = make_arrays(spec, case, "float64", seed)
    im = make_arrays(spec, case, "float64", seed + 1)
    return [(a + 1j * b).astype(dtype) for a, b in zip(re, im)]


def _run(mod, spec, case, arrays):
    leaves = [mod.tensor(a.copy()) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return spec.fn(mod, *case_args(case, leaves))


def _contains_complex_tensor(x):
    if isinstance(x, autograd_core.Tensor):
        return x.is_complex()
    if isinstance(x, (list, tuple)):
        return any(_contains_complex_tensor(v) for v in x)
    return False


def test_op_table_on_complex_inputs(capsys):
    """Every op-table entry on complex inputs (complex64 and complex128, its first cases)
    under both libraries: where both compute, the results match; where PyTorch computes
    and autograd_core refuses, it is a form not supported yet (counted); autograd_core
    never computes what PyTorch refuses, nor anything else than PyTorch."""
    matched, refused, both_raise, bad = [], [], [], []
    for spec in op_table.OPS:
        for ci, case in enumerate(spec.cases[:3]):
            if not any(is_shape(x) for x in case.inputs):
                continue
            for dtype in ("complex64", "complex128"):
                arrays = _complex_arrays(spec, case, dtype, case_seed(spec.name, ci, dtype))
                want = catch(_run, torch, spec, case, arrays)
                got = catch(_run, autograd_core, spec, case, arrays)
                form = f"{spec.name}[{ci}]/{dtype}"
                if isinstance(got, Raised):
                    if isinstance(want, Raised):
                        both_raise.append(form)
                    else:
                        refused.append(form)
                    continue
                if isinstance(want, Raised):
                    bad.append(f"{form}: torch raises {want.type}: {want.message}; ours "
                               f"computes")
                    continue
                try:
                    assert_same(want, got, rtol=1e-4 if dtype == "complex64" else 1e-7,
                                atol=1e-5 if dtype == "complex64" else 1e-9)
                except AssertionError as e:
                    bad.append(f"{form}: {str(e)[:300]}")
                    continue
                matched.append(form)
    with capsys.disabled():
        ops_matched = sorted({f.split("[")[0] for f in matched})
        print(f"\ncomplex op forms: {len(matched)} match PyTorch ({len(ops_matched)} "
              f"op-table entries), {len(refused)} refused where PyTorch computes, "
              f"{len(both_raise)} raise in both, {len(bad)} differ")
        print("refused here: " + " ".join(refused))
    assert not bad, "\n".join(bad[:40])
    assert len(matched) > 100


def test_guard_is_one_set():
    """The complex guard's set names ops of the table (no stale names)."""
    from autograd_core._core import tensor as core
    names = set(core.op_table_addresses())
    F = autograd_core.nn.functional

    def exists(n):
        return (n in names or hasattr(autograd_core, n) or hasattr(F, n)
                or hasattr(autograd_core.Tensor, n))
    stale = sorted(n for n in core.complex_ops() if not exists(n))
    assert not stale, stale


# ------------------------------------------------------------------ eig

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 0)])
def test_linalg_eig_matches_pytorch(dtype, shape):
    rng = np.random.default_rng(len(shape) * 10 + shape[-1])
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)

    def prog(m):
        A = m.tensor(a, dtype=getattr(m, dtype))
        w, v = m.linalg.eig(A)
        # eigenvectors are unique up to a phase: compare A v = v diag(w) and |v|
        resid = (A.to(w.dtype) @ v - v * w.unsqueeze(-2)).abs().amax() \
            if A.numel() else m.tensor(0.)
        return w, v.abs(), bool(resid < 1e-4), m.linalg.eigvals(A), w.dtype, v.dtype
    tol = 1e-4 if dtype in ("float32", "complex64") else 1e-9
    same(prog, rtol=tol, atol=tol)


def test_linalg_eig_errors():
    same_error(lambda m: m.linalg.eig(m.ones(2, 3)))
    # known difference: PyTorch's LAPACK call returns what it computes on NaN input;
    # numpy's refuses it, so autograd_core raises rather than invent values
    with pytest.raises(RuntimeError, match="infs or NaNs"):
        autograd_core.linalg.eigvals(autograd_core.tensor([[float("nan"), 0.], [0., 1.]]))
