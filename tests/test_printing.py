"""Compare autograd_core's tensor printing with PyTorch's own repr.

Through the public API only: ``repr`` of autograd_core tensors and
``autograd_core.set_printoptions``/``get_printoptions``.  Every expectation comes from
the installed torch, so any divergence in formatting rules fails here.
"""

import math

import numpy as np
import pytest

import autograd_core as ac
from _diff import sub_name, torch
from _diff import same, same_error

torch_tensor_str = pytest.importorskip("torch._tensor_str")  # torch's get_printoptions

NAN, INF = math.nan, math.inf


def expected(t):
    return sub_name(repr(t))


def check(arr, **opts):
    """Assert our repr of ``arr`` equals torch's under the same options."""
    arr = np.asarray(arr)
    got = repr(ac.tensor(arr))
    want = expected(torch.tensor(arr))
    assert got == want, f"\n--- ours ---\n{got}\n--- torch ---\n{want}"


@pytest.fixture(autouse=True)
def default_printoptions():
    """Start and end every test with both libraries at default options."""
    torch.set_printoptions(profile="default")
    ac.set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")
    ac.set_printoptions(profile="default")


def both_set(**kwargs):
    torch.set_printoptions(**kwargs)
    ac.set_printoptions(**kwargs)


def _random_cases():
    rng = np.random.default_rng(1234)
    cases = {}
    shapes = [(), (1,), (5,), (17,), (40,), (3, 4), (1, 1), (7, 13), (2, 3, 4),
              (3, 1, 5), (2, 2, 2, 3), (2, 1, 3, 2, 2)]
    for shape in shapes:
        normal = rng.standard_normal(shape)
        for dt in ("float16", "float32", "float64"):
            cases[f"normal-{dt}-{shape}"] = normal.astype(dt)
        cases[f"ints-float32-{shape}"] = rng.integers(-50, 50, shape).astype("float32")
        cases[f"scaled-float64-{shape}"] = normal * 1e5
        cases[f"tiny-float64-{shape}"] = normal * 1e-6
        for dt in ("int64", "int32", "int16", "int8", "uint8"):
            lo = 0 if dt == "uint8" else -100
            cases[f"{dt}-{shape}"] = rng.integers(lo, 100, shape).astype(dt)
        cases[f"bool-{shape}"] = rng.random(shape) > 0.5
    # Magnitudes spanning the switch into scientific notation.
    for exponent in range(-12, 14, 3):
        vals = rng.standard_normal(6) * 10.0**exponent
        cases[f"exp{exponent}-float64"] = vals
        cases[f"exp{exponent}-float32"] = vals.astype("float32")
    cases["mixed-magnitudes"] = np.array([1e-3, 1.0, 1e3, -2.5e6])
    cases["ratio-just-below"] = np.array([1.0, 999.0, 500.5])
    cases["ratio-just-above"] = np.array([1.0, 1001.0, 500.5])
    cases["max-above-1e8"] = np.array([1.5e8, 2.0e8])
    cases["int-valued-above-1e8"] = np.array([1e8, 3e8], dtype="float32")
    cases["min-below-1e-4"] = np.array([0.5, 9e-5])
    cases["int-valued-large"] = np.array([1e7, 2.0, -3.0])
    cases["int-valued-sci"] = np.array([1.0, 1e6])
    cases["float16-extremes"] = np.array([65504, -65504, 6e-8, 1.0], dtype="float16")
    cases["float16-overflow-1e8-check"] = np.array([60000, 0.001], dtype="float16")
    cases["subnormal-float64"] = np.array([5e-324, 1.0])
    cases["huge-ratio-float64"] = np.array([1e300, 1e-300])
    info = np.iinfo(np.int64)
    cases["int64-extremes"] = np.array([info.min, 0, info.max])
    return cases


RANDOM_CASES = _random_cases()


@pytest.mark.parametrize("name", sorted(RANDOM_CASES))
def test_random_arrays(name):
    check(RANDOM_CASES[name])


SPECIAL_CASES = {
    "scalar-int-float": np.array(3.0, dtype="float32"),
    "scalar-frac": np.array(3.5, dtype="float32"),
    "scalar-neg-zero": np.array(-0.0, dtype="float32"),
    "scalar-zero": np.array(0.0),
    "scalar-nan": np.array(NAN, dtype="float32"),
    "scalar-inf": np.array(-INF, dtype="float32"),
    "scalar-tiny": np.array(1e-7, dtype="float32"),
    "scalar-huge": np.array(1e10),
    "scalar-int": np.array(7),
    "scalar-int8": np.array(-7, dtype="int8"),
    "scalar-bool": np.array(True),
    "scalar-half": np.array(0.1, dtype="float16"),
    "zeros": np.zeros(4, dtype="float32"),
    "neg-zeros": np.array([0.0, -0.0], dtype="float32"),
    "neg-zero-with-frac": np.array([-0.0, 1.5], dtype="float32"),
    "neg-zero-with-int": np.array([-0.0, 12.0], dtype="float32"),
    "neg-zero-sci": np.array([-0.0, 1e-9, 1.0]),
    "nan-only": np.array([NAN, NAN], dtype="float32"),
    "inf-only": np.array([INF, -INF], dtype="float32"),
    "nan-and-int": np.array([NAN, 1.0], dtype="float32"),
    "nan-and-frac": np.array([NAN, 1.25, -INF], dtype="float32"),
    "nan-sci": np.array([NAN, 1e-8, INF, 1.0]),
    "inf-int-wide": np.array([INF, 123456.0, -INF]),
    "bools": np.array([True, False]),
    "bools-all-true": np.array([[True, True], [True, True]]),
    "wrap-ints": np.arange(100) * 1234567,
    "wrap-floats": np.linspace(-3, 3, 50),
    "wrap-sci": np.logspace(-10, 10, 30),
    "wrap-3d": np.linspace(0, 1, 2 * 3 * 40).reshape(2, 3, 40),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_CASES))
def test_special_values(name):
    check(SPECIAL_CASES[name])


@pytest.mark.parametrize(
    "shape", [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0), (1, 0, 1, 0)], ids=str
)
@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]
)
def test_empty(shape, dtype):
    check(np.zeros(shape, dtype=dtype))


def test_non_contiguous():
    rng = np.random.default_rng(7)
    base = rng.standard_normal((6, 8, 4)).astype("float32")
    t = ac.tensor(base)
    # (numpy view, the same values as an autograd_core tensor, is that one a strided view)
    views = ((base.T, t.permute(2, 1, 0), True), (base[::2, 1::3], t[::2, 1::3], True),
             (base[:, ::-1, 2], t[:, :, 2].flip(1), False),  # no negative strides in the API
             (base.transpose(1, 0, 2)[::3], t.transpose(0, 1)[::3], True))
    for view, tv, strided in views:
        assert not view.flags.c_contiguous
        assert tv.is_contiguous() is not strided
        # torch.tensor rejects negative strides; the values are what matter.
        assert repr(tv) == expected(torch.tensor(view.copy()))


@pytest.mark.parametrize(
    "shape",
    [(1001,), (2000,), (40, 40), (3, 400), (400, 3), (6, 7, 30), (11, 11, 11),
     (5, 5, 5, 5, 5), (2, 2000)],
    ids=str,
)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "float16"])
def test_summarised(shape, dtype):
    rng = np.random.default_rng(99)
    arr = rng.standard_normal(shape) * 100
    check(arr.astype(dtype))


def test_summary_hides_outliers_from_the_formatter():
    # The hidden middle element would force scientific notation if seen.
    arr = np.ones(2001)
    arr[1000] = 1e30
    arr[1] = 0.5
    check(arr)


OPTION_SETS = [
    dict(precision=2),
    dict(precision=8),
    dict(precision=0),
    dict(threshold=5),
    dict(threshold=0),
    dict(edgeitems=1, threshold=10),
    dict(edgeitems=0),
    dict(edgeitems=0, threshold=10),
    dict(edgeitems=10, threshold=50),
    dict(linewidth=40),
    dict(linewidth=200),
    dict(linewidth=5),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(profile="short"),
    dict(profile="full"),
    dict(profile="short", precision=6),
    dict(precision=3, sci_mode=True, linewidth=60),
]

OPTION_ARRAYS = {
    "float-1d": np.random.default_rng(3).standard_normal(30) * 7,
    "float-3d": np.random.default_rng(4).standard_normal((4, 5, 6)),
    "int-2d": np.arange(60).reshape(6, 10) - 25,
    "intvalued-float": np.arange(20, dtype="float32"),
    "float64-long": np.linspace(1e-3, 1e3, 2500),
    "zeros": np.zeros((3, 3), dtype="float32"),
    "scalar": np.array(2.71828, dtype="float64"),
    "bool-2d": np.eye(12, dtype=bool),
}


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: repr(o))
@pytest.mark.parametrize("name", sorted(OPTION_ARRAYS))
def test_printoptions(opts, name):
    both_set(**opts)
    assert ac.get_printoptions() == torch_tensor_str.get_printoptions()
    check(OPTION_ARRAYS[name])


def test_get_printoptions_defaults_and_sci_mode_reset():
    assert ac.get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
        "sci_mode": None,
    }
    both_set(sci_mode=True, precision=2)
    both_set(linewidth=100)  # omitting sci_mode resets it, as in torch
    assert ac.get_printoptions() == torch_tensor_str.get_printoptions()
    both_set(**ac.get_printoptions())
    assert ac.get_printoptions() == torch_tensor_str.get_printoptions()


AUTOGRAD_ARRAYS = {
    "scalar": np.array(3.5, dtype="float32"),
    "scalar-int": np.array(3.0, dtype="float32"),
    "vector": np.array([1.0, 2.5, -3.0], dtype="float32"),
    "float64": np.array([1.0, 2.0]),
    "float16": np.array([0.25, 8.0], dtype="float16"),
    "matrix": np.random.default_rng(5).standard_normal((3, 4)).astype("float32"),
    # Last line long enough that the suffixes must wrap.
    "wrap-last-line": np.linspace(-1, 1, 13),
    "wrap-float32": np.linspace(-1, 1, 18).astype("float32"),
    "wrap-2d": np.linspace(-1, 1, 24).reshape(2, 12),
    "near-edge": np.linspace(0, 1, 8),
    "summarised": np.random.default_rng(6).standard_normal((50, 50)),
    "empty": np.zeros((0,), dtype="float32"),
    "empty-2d-float64": np.zeros((0, 4)),
}


@pytest.mark.parametrize("name", sorted(AUTOGRAD_ARRAYS))
def test_requires_grad_suffix(name):
    arr = AUTOGRAD_ARRAYS[name]
    leaf = torch.tensor(arr, requires_grad=True)
    got = repr(ac.tensor(arr, requires_grad=True))
    assert got == expected(leaf)


@pytest.mark.parametrize("name", sorted(AUTOGRAD_ARRAYS))
def test_grad_fn_suffix(name):
    arr = AUTOGRAD_ARRAYS[name]
    result = torch.tensor(arr, requires_grad=True) * 1
    got = repr(ac.tensor(arr, requires_grad=True) * 1)
    assert got == expected(result)


@pytest.mark.parametrize("linewidth", [30, 45, 60, 80])
@pytest.mark.parametrize("name", ["vector", "float64", "wrap-2d", "empty-2d-float64"])
def test_suffix_wrapping_under_linewidth(linewidth, name):
    both_set(linewidth=linewidth, edgeitems=0 if linewidth == 30 else 3)
    arr = AUTOGRAD_ARRAYS[name]
    result = torch.tensor(arr, requires_grad=True).sum(-1, keepdim=True)
    got = repr(ac.tensor(arr, requires_grad=True).sum(-1, keepdim=True))
    assert got == expected(result)


def test_module_prefix():
    arr = np.array([1, 2], dtype="int32")
    assert repr(ac.tensor(arr)) == "tensor([1, 2], dtype=autograd_core.int32)"
    # with the module name swapped back, the text is torch's
    assert repr(ac.tensor(arr)).replace("autograd_core.", "torch.") == repr(torch.tensor(arr))


def test_grad_fn_takes_precedence_over_requires_grad():
    arr = np.array([1.5], dtype="float32")
    got = repr(ac.tensor(arr, requires_grad=True) + 0)
    assert got == "tensor([1.5000], grad_fn=<AddBackward0>)"


# ----------------------------------------------- format() of tensors
def test_format_of_tensors():
    def prog(mod):
        t = mod.tensor(2.170964002609253)
        return (f"{t}", f"{t:.3f}", "{:+.2f}".format(mod.tensor([1.5])[0]), f"{mod.tensor(7):>4d}",
                f"{mod.tensor(True)}", f"{mod.tensor([1., 2.])}", format(mod.tensor(0.5), ""),
                f"{mod.nn.Parameter(mod.tensor(1.5))}")
    same(prog)
    same_error(lambda mod: f"{mod.tensor([1.0, 2.0]):.2f}")
    same_error(lambda mod: f"{mod.nn.Parameter(mod.tensor(1.5)):.2f}")


@pytest.mark.parametrize("default", ["float32", "float64", "float16", "bfloat16"])
def test_complex_suffix_under_each_default_dtype(default):
    # the complex dtype a Python complex takes prints no dtype= (complex128 under a float64
    # default, else complex64: also under float16 and bfloat16, which once printed it)
    def prog(mod):
        old = mod.get_default_dtype()
        mod.set_default_dtype(getattr(mod, default))
        try:
            return [repr(mod.tensor([1 + 2j, 0.5], dtype=d))
                    for d in (mod.complex64, mod.complex128)]
        finally:
            mod.set_default_dtype(old)
    same(prog)
