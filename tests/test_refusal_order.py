"""Refusals whose check order or kernel name the refusal sweep of tests/test_unsigned.py
(test_refusal_messages) brought in line with PyTorch, on inputs beyond the op table's:
the ops that PyTorch refuses (or computes) by another argument's dtype or by a kernel
their arguments select, where autograd_core computed or raised another error."""
import pytest

from _diff import same, same_error


def _t(m, shape, dt):
    return m.ones(tuple(shape), dtype=getattr(m, dt))


# ---- ops that computed where PyTorch refuses

@pytest.mark.parametrize("fn", ["linspace", "logspace"])
@pytest.mark.parametrize("steps", [0, 1, 3])
def test_space_factories_on_wide_unsigned(fn, steps):
    # (0 or 1 step is filled without the kernel, which has no uint16/32/64)
    same(lambda m: getattr(m, fn)(0, 3, steps, dtype=m.uint32), may_raise=True)


@pytest.mark.parametrize("bound", ["complex64_min", "complex128_max", "complex64_both"])
@pytest.mark.parametrize("op", ["clamp", "clamp_min", "clamp_max"])
def test_clamp_real_input_with_complex_tensor_bound(op, bound):
    def prog(m):
        x = m.tensor([0.5, -1.0, 2.0])
        dt, side = bound.split("_")
        b = m.ones(3, dtype=getattr(m, dt))
        if op == "clamp":
            return m.clamp(x, b if side != "max" else None, b if side != "min" else None)
        return getattr(m, op)(x, b)
    same_error(prog)


def test_clamp_min_unsigned_input_complex_bound_is_a_promotion_error():
    same_error(lambda m: m.clamp_min(_t(m, (3,), "uint16"), _t(m, (3,), "complex64")))


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("wdt", ["float64", "uint16", "complex64"])
def test_nll_loss_weight_of_another_dtype(fn, wdt):
    same_error(lambda m: getattr(m.nn.functional, fn)(
        m.tensor([[0.1, 0.2, 0.7], [1.0, 2.0, 3.0]]), m.tensor([0, 2]), _t(m, (3,), wdt)))


@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (2, 3, 2, 2), (2, 3, 1, 2, 2)])
def test_nll_loss_kernel_by_dims(shape):
    def prog(m):
        t = m.zeros((shape[0],) + shape[2:], dtype=m.int64)
        return m.nn.functional.nll_loss(_t(m, shape, "uint16"), t)
    same_error(prog)


@pytest.mark.parametrize("dt", ["bfloat16", "float16", "int64", "uint16"])
@pytest.mark.parametrize("rcond", [None, 0.1])
def test_lstsq_unsupported_dtypes(dt, rcond):
    same_error(lambda m: m.linalg.lstsq(_t(m, (3, 2), dt), _t(m, (3, 1), dt), rcond=rcond))


@pytest.mark.parametrize("case", ["int64", "float16", "tau_double", "other_double",
                                  "int64_bad_tau"])
def test_ormqr_dtype_checks(case):
    def prog(m):
        dt = {"int64": "int64", "float16": "float16", "int64_bad_tau": "int64"}.get(case, "float32")
        a, tau, c = _t(m, (3, 2), dt), _t(m, (3 if case == "int64_bad_tau" else 2,), dt), \
            _t(m, (3, 3), dt)
        if case == "tau_double":
            tau = tau.double()
        if case == "other_double":
            c = c.double()
        return m.ormqr(a, tau, c)
    same_error(prog)


@pytest.mark.parametrize("mode, pad", [("reflect", (1, 1)), ("replicate", (1, 1, 1, 1))])
@pytest.mark.parametrize("dt", ["bool", "uint16"])
def test_index_pads_without_kernel(mode, pad, dt):
    same_error(lambda m: m.nn.functional.pad(_t(m, (1, 2, 3), dt), pad, mode=mode))


@pytest.mark.parametrize("tol", ["none", "tol", "atol", "atol_rtol", "hermitian_tol"])
@pytest.mark.parametrize("dt", ["float16", "int64", "uint16"])
def test_matrix_rank_dtype_errors(dt, tol):
    kw = {"none": {}, "tol": {"tol": 0.1}, "atol": {"atol": 0.1},
          "atol_rtol": {"atol": 0.1, "rtol": 0.2}, "hermitian_tol": {"tol": 0.1,
                                                                     "hermitian": True}}[tol]
    same_error(lambda m: m.linalg.matrix_rank(_t(m, (3, 3), dt), **kw))


# ---- checks of another argument that PyTorch makes first

@pytest.mark.parametrize("op", ["masked_scatter", "masked_scatter_"])
@pytest.mark.parametrize("sdt", ["float64", "uint16"])
def test_masked_scatter_source_dtype(op, sdt):
    same_error(lambda m: getattr(m.ones(3), op)(m.tensor([True, False, True]),
                                                _t(m, (3,), sdt)))


@pytest.mark.parametrize("op", ["put", "put_", "index_copy", "index_copy_", "index_add",
                                "index_add_"])
def test_source_dtype_checked_before_the_self_kernel(op):
    def prog(m):
        x, s, i = m.ones(3, 2), _t(m, (2, 2), "uint16"), m.tensor([0, 1])
        if op.startswith("put"):
            return getattr(x, op)(i, _t(m, (2,), "uint16"))
        return getattr(x, op)(0, i, s)
    same_error(prog)


@pytest.mark.parametrize("shape, dim, alpha", [((3, 2), 0, 1), ((3, 2), 1, 1), ((3, 2), 0, 2),
                                               ((3, 2, 2), 1, 1), ((3, 2, 2), 2, 1),
                                               ((3,), 0, 1), ((), 0, 1)])
def test_index_add_unsigned_kernel_by_path(shape, dim, alpha):
    def prog(m):
        x = _t(m, shape, "uint16")
        n = 2 if shape else 1
        src_shape = shape[:dim] + (n,) + shape[dim + 1:] if shape else ()
        idx = m.tensor([0, 1][:n])
        return m.index_add(x, dim, idx, _t(m, src_shape, "uint16"), alpha=alpha)
    same_error(prog)


@pytest.mark.parametrize("dt", ["int64", "bool", "uint16"])
@pytest.mark.parametrize("fn", ["eig", "eigvals"])
def test_eig_of_integral_input(fn, dt):
    same_error(lambda m: getattr(m.linalg, fn)(_t(m, (2, 3), dt)))


@pytest.mark.parametrize("p", [None, 2, -2, "nuc", "fro", 1])
def test_cond_dtype_error_is_the_inner_op(p):
    same_error(lambda m: m.linalg.cond(_t(m, (2, 2), "int64"), p))


@pytest.mark.parametrize("case", ["float16", "int64", "shape"])
def test_inv_ex_words(case):
    shape = (2, 3) if case == "shape" else (2, 2)
    same_error(lambda m: m.linalg.inv_ex(_t(m, shape, "float32" if case == "shape" else case)))


@pytest.mark.parametrize("dt", ["uint16", "complex64"])
@pytest.mark.parametrize("fn", ["histc", "histc_range", "histogram_range"])
def test_histogram_kernels_by_range(fn, dt):
    def prog(m):
        x = _t(m, (5,), dt)
        if fn == "histc":
            return m.histc(x, 6)
        if fn == "histc_range":
            return m.histc(x, 4, -1, 1)
        return m.histogram(x, 4, range=(-1.0, 1.0))
    same_error(prog)


@pytest.mark.parametrize("dims", ["2d", "3d"])
def test_matmul_of_two_dtypes_checks_them_first(dims):
    a, b = ((2, 3), (3, 4)) if dims == "2d" else ((2, 2, 3), (2, 3, 4))
    same_error(lambda m: m.matmul(m.ones(*a), _t(m, b, "uint16")))


@pytest.mark.parametrize("case", ["dtype_same", "dtype_wider", "from_int32", "out", "no_dtype"])
def test_sum_into_a_wide_unsigned_dtype(case):
    def prog(m):
        x = _t(m, (3, 2), "int32" if case == "from_int32" else "uint16")
        if case == "out":
            return m.sum(x, 0, out=m.empty(2, dtype=m.uint16))
        if case == "no_dtype":   # (sums in int64)
            return x.sum(0)
        return x.sum(0, dtype=m.uint32 if case == "dtype_wider" else m.uint16)
    same(prog, may_raise=True)


@pytest.mark.parametrize("dt", ["int32", "float16", "bool", "uint16"])
@pytest.mark.parametrize("side", ["first", "second"])
def test_tensordot_broadcast_contraction_keeps_the_dtype(dt, side):
    def prog(m):
        a, b = ((2, 1), (3, 2)) if side == "first" else ((2, 3), (1, 2))
        return m.tensordot(_t(m, a, dt), _t(m, b, dt), dims=([1], [0]))
    same(prog, may_raise=True)
