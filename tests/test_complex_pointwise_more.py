"""Complex pointwise and reduction ops of issue 27 compared with PyTorch: nan_to_num
(parts replaced separately; only nan_to_num_ records on complex), sinc (sin(pi z) /
(pi z), 1 at 0), float_power (complex128), logaddexp, logsumexp and logcumsumexp
(PyTorch's complex kernels: maxima by real part, its inf and NaN handling), and the
forward derivatives of var and std on complex inputs (tests/test_complex_autograd.py
holds the latter). Values, gradients of a real loss, gradcheck/gradgradcheck with forward
AD, corners (0-d, empty, non-contiguous, complex64 and complex128) and errors.
"""
import pytest

from _diff import complex_data, real_loss, same, same_error
import autograd_core

INF, NAN = float("inf"), float("nan")
DTYPES = ["complex64", "complex128"]


_z = complex_data


_loss = real_loss


def _grads(m, f, *shapes, seed=0, **kw):
    leaves = [_z(m, *s, seed=seed + k, requires_grad=True, **kw) for k, s in enumerate(shapes)]
    out = f(m, *leaves)
    g = m.autograd.grad(_loss(m, out), leaves)
    return out, g, out.grad_fn.name()


# Every pair of special parts: finite, +-inf, nan, in the real and imaginary parts.
_SPECIAL = [complex(a, b) for a in (1.5, -0.5, INF, -INF, NAN, 0.0)
            for b in (0.25, -2.0, INF, -INF, NAN, 0.0)]


def _special(m, dtype):
    return m.tensor(_SPECIAL, dtype=getattr(m, dtype))


# ------------------------------------------------------------------ nan_to_num

@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_to_num_replaces_parts_separately(dtype):
    # (compared part by part: |max + max j| overflows the comparer's scale)
    same(lambda m: tuple(m.view_as_real(t) for t in (
                    m.nan_to_num(_special(m, dtype)),
                    m.nan_to_num(_special(m, dtype), nan=1.5, posinf=2.0, neginf=-3.0),
                    _special(m, dtype).nan_to_num(posinf=7.0),
                    _special(m, dtype).reshape(6, 6).t().nan_to_num_(nan=-1.0),
                    m.nan_to_num(m.tensor(complex(NAN, -INF), dtype=getattr(m, dtype))),
                    m.nan_to_num(m.zeros(0, 3, dtype=getattr(m, dtype))))))


def test_nan_to_num_out_of_place_refuses_complex_autograd():
    # PyTorch's functional variant refuses complex outputs that record; the in-place
    # one records NanToNumBackward0
    same_error(lambda m: m.nan_to_num(_z(m, 3, requires_grad=True)))
    same_error(lambda m: _z(m, 2, 2, requires_grad=True).nan_to_num(nan=0.0))
    same(lambda m: m.nan_to_num(_z(m, 3, requires_grad=True).detach()))
    with autograd_core.no_grad():
        autograd_core.nan_to_num(_z(autograd_core, 3, requires_grad=True))


def test_nan_to_num_inplace_gradient():
    def prog(m):
        z = m.tensor(_SPECIAL, dtype=m.complex128, requires_grad=True)
        y = z * 1.0
        y.nan_to_num_(nan=1.0, posinf=2.0)
        return _grads_of(m, y, z)
    same(prog)


def _grads_of(m, out, *leaves):
    return out, m.autograd.grad(_loss(m, out), leaves), out.grad_fn.name()


def test_nan_to_num_forward_ad_on_complex():
    # (PyTorch's forward AD takes complex tangents through the functional variant)
    def prog(m):
        p = m.tensor([1 + 2j, complex(INF, 1), complex(NAN, NAN)], dtype=m.complex128)
        t = m.tensor([0.5 - 1j, 2j, 1 + 1j], dtype=m.complex128)
        return m.func.jvp(lambda z: m.nan_to_num(z, nan=3.0), (p,), (t,))
    same(prog)


# ------------------------------------------------------------------ sinc

@pytest.mark.parametrize("dtype", DTYPES)
def test_sinc_values(dtype):
    def prog(m):
        d = getattr(m, dtype)
        z = _z(m, 4, 5, dtype=dtype, scale=2.0)
        tiny = m.tensor([0j, 1e-20 + 0j, 1e-4 - 1e-4j, 1j * 1e-7, -0.0 + 0j, 2.0 + 0j,
                         1 + 30j], dtype=d)
        return (m.sinc(z), z.t().sinc(), tiny.sinc(), m.sinc(m.tensor(0.5 + 0.5j, dtype=d)),
                m.sinc(m.zeros(0, dtype=d)), z.clone().sinc_())
    same(prog)


def test_sinc_gradients():
    same(lambda m: _grads(m, lambda m, z: m.sinc(z), (3, 4)))
    same(lambda m: _grads(m, lambda m, z: m.sinc(z.t()), (4, 3), seed=3))
    # at 0 the derivative is 0 (PyTorch's where(self_squared_pi == 0, 0, ...))
    def at_zero(m):
        z = m.tensor([0j, 0.5 + 0.5j], dtype=m.complex128, requires_grad=True)
        return _grads_of(m, m.sinc(z), z)
    same(at_zero)


def test_sinc_gradcheck():
    z = _z(autograd_core, 2, 3, requires_grad=True, scale=0.7)
    assert autograd_core.autograd.gradcheck(autograd_core.sinc, (z,), check_forward_ad=True)
    assert autograd_core.autograd.gradgradcheck(autograd_core.sinc, (z,))


# ------------------------------------------------------------------ float_power

@pytest.mark.parametrize("dtype", DTYPES)
def test_float_power_complex128(dtype):
    def prog(m):
        d = getattr(m, dtype)
        a, b = _z(m, 3, 4, dtype=dtype), _z(m, 4, seed=1, dtype=dtype)
        x = m.tensor([[0.5, 2.0, 1.5, 3.0]])
        return (m.float_power(a, b), a.float_power(2.5), m.float_power(1.5, a),
                m.float_power(x, b), m.float_power(a, x.float()), m.float_power(x, 1j),
                m.float_power(a.t(), 2), m.float_power(m.tensor(1 + 1j, dtype=d), 3),
                a.to(m.complex128).float_power_(b), m.float_power(m.zeros(0, dtype=d), 2))
    same(prog)


@pytest.mark.parametrize("prog", [
    lambda m: m.ones(2, dtype=m.complex64).float_power_(2.0),
    lambda m: m.ones(2, dtype=m.float64).float_power_(1j),
    lambda m: m.ones(2, dtype=m.float64).float_power_(m.ones(2, dtype=m.complex64)),
])
def test_float_power_inplace_errors(prog):
    same_error(prog)


def test_float_power_gradients():
    same(lambda m: _grads(m, lambda m, a, b: m.float_power(a, b), (3, 4), (4,)))
    same(lambda m: _grads(m, lambda m, a: m.float_power(a, 2.5), (3,)))
    same(lambda m: _grads(m, lambda m, a: m.float_power(1.5, a), (3,), dtype="complex64"))


# ------------------------------------------------------------------ logaddexp

@pytest.mark.parametrize("dtype", DTYPES)
def test_logaddexp_values(dtype):
    def prog(m):
        s = _special(m, dtype)
        d = getattr(m, dtype)
        a, b = _z(m, 3, 4, dtype=dtype, scale=3.0), _z(m, 4, seed=1, dtype=dtype)
        return (m.logaddexp(s[:, None], s[None, :]), m.logaddexp(a, b), a.t().logaddexp(a.t()),
                m.logaddexp(a, b * 40), m.logaddexp(a, m.tensor([1.0, -2.0, 0.5, 3.0])),
                m.logaddexp(m.tensor(1e-9 + 0j, dtype=d), m.tensor(-30 + 1j, dtype=d)),
                m.logaddexp(m.zeros(0, dtype=d), m.zeros(0, dtype=d)))
    same(prog)


def test_logaddexp_gradients():
    same(lambda m: _grads(m, lambda m, a, b: m.logaddexp(a, b), (3, 4), (4,)))
    same(lambda m: _grads(m, lambda m, a, b: a.logaddexp(b * 3), (2, 3), (2, 3), seed=4))
    a = _z(autograd_core, 2, 3, requires_grad=True)
    b = _z(autograd_core, 3, seed=1, requires_grad=True)
    assert autograd_core.autograd.gradcheck(autograd_core.logaddexp, (a, b),
                                            check_forward_ad=True)
    assert autograd_core.autograd.gradgradcheck(autograd_core.logaddexp, (a, b))


# ------------------------------------------------------------------ logsumexp

@pytest.mark.parametrize("dtype", DTYPES)
def test_logsumexp_values(dtype):
    def prog(m):
        d = getattr(m, dtype)
        z = _z(m, 2, 3, 4, dtype=dtype, scale=3.0)
        s = _special(m, dtype).reshape(6, 6)
        return (z.logsumexp(1), m.logsumexp(z, (0, 2), keepdim=True), m.logsumexp(z, -1),
                z.transpose(0, 2).logsumexp(0), s.logsumexp(0), s.logsumexp(1),
                m.logsumexp(m.tensor(1 + 2j, dtype=d), 0),
                m.logsumexp(m.zeros(0, 3, dtype=d), 0), m.logsumexp(m.zeros(2, 0, dtype=d), 1),
                m.logsumexp(m.tensor([complex(INF, 1), complex(INF, 2)], dtype=d), 0),
                m.logsumexp(m.tensor([complex(-INF, 1), complex(-INF, 2)], dtype=d), 0),
                m.logsumexp(z * 100, 1))
    same(prog)


def test_logsumexp_gradients():
    same(lambda m: _grads(m, lambda m, z: z.logsumexp(1), (3, 4)))
    same(lambda m: _grads(m, lambda m, z: m.logsumexp(z, (0, 2), keepdim=True), (2, 3, 4)))
    same(lambda m: _grads(m, lambda m, z: z.logsumexp(0), ()))
    z = _z(autograd_core, 3, 4, requires_grad=True)
    assert autograd_core.autograd.gradcheck(lambda z: z.logsumexp(1), (z,))
    assert autograd_core.autograd.gradgradcheck(lambda z: z.logsumexp(1), (z,))


# ------------------------------------------------------------------ logcumsumexp

@pytest.mark.parametrize("dtype", DTYPES)
def test_logcumsumexp_values(dtype):
    def prog(m):
        d = getattr(m, dtype)
        z = _z(m, 3, 4, dtype=dtype, scale=3.0)
        s = _special(m, dtype).reshape(6, 6)
        return (z.logcumsumexp(1), m.logcumsumexp(z, 0), z.t().logcumsumexp(1),
                s.logcumsumexp(0), s.logcumsumexp(1), s.t().logcumsumexp(1),
                m.logcumsumexp(m.tensor(1 + 2j, dtype=d), 0),
                m.logcumsumexp(m.zeros(0, 3, dtype=d), 0),
                m.logcumsumexp(m.tensor([complex(-INF, 1), 2j, complex(INF, 3), 1.0],
                                        dtype=d), 0),
                m.logcumsumexp(z * 200, 1))
    same(prog)


def test_logcumsumexp_gradients():
    same(lambda m: _grads(m, lambda m, z: z.logcumsumexp(1), (3, 4)))
    same(lambda m: _grads(m, lambda m, z: m.logcumsumexp(z.t(), 0), (2, 5), seed=2))
    same(lambda m: _grads(m, lambda m, z: z.logcumsumexp(0), ()))
    z = _z(autograd_core, 2, 4, requires_grad=True)
    assert autograd_core.autograd.gradcheck(lambda z: z.logcumsumexp(1), (z,))
    assert autograd_core.autograd.gradgradcheck(lambda z: z.logcumsumexp(1), (z,))


# ------------------------------------------------------------------ scatter_reduce / index_reduce

_SRIDX = [[0, 1], [0, 0], [3, 1]]


@pytest.mark.parametrize("dtype", DTYPES)
def test_scatter_and_index_reduce_values(dtype):
    def prog(m):
        x, s = _z(m, 3, 4, dtype=dtype), _z(m, 3, 2, seed=1, dtype=dtype)
        src = _z(m, 3, 4, seed=2, dtype=dtype)
        out = [x.scatter_reduce(1, m.tensor(_SRIDX), s, r, include_self=inc)
               for r in ("sum", "prod", "mean") for inc in (True, False)]
        out += [x.index_reduce(0, m.tensor([2, 0, 2]), src, r) for r in ("prod", "mean")]
        out += [x.t().index_reduce(1, m.tensor([2, 0, 2]), src.t(), "mean"),
                x.clone().scatter_reduce_(1, m.tensor(_SRIDX), s, "prod"),
                x.clone().index_reduce_(1, m.tensor([3, 1]), s, "mean")]
        return out
    same(prog, quiet=True)


@pytest.mark.parametrize("prog", [
    lambda m: _z(m, 3, 4).scatter_reduce(1, m.tensor(_SRIDX), _z(m, 3, 2), "amax"),
    lambda m: _z(m, 3, 4, dtype="complex64").scatter_reduce(1, m.tensor(_SRIDX),
                                                           _z(m, 3, 2, dtype="complex64"), "amin"),
    lambda m: _z(m, 3, 4).index_reduce(0, m.tensor([2, 0, 2]), _z(m, 3, 4), "amax"),
    lambda m: _z(m, 3, 4).index_reduce(0, m.tensor([2, 0, 2]), _z(m, 3, 4), "amin"),
    lambda m: _z(m, 3, 4).index_reduce(0, m.tensor([2, 0, 2]), _z(m, 3, 4), "prod",
                                       include_self=False),
    # the functional forms refuse to record complex outputs (the in-place ones record)
    lambda m: _z(m, 3, 4, requires_grad=True).scatter_reduce(1, m.tensor(_SRIDX), _z(m, 3, 2),
                                                             "sum"),
    lambda m: _z(m, 3, 4).scatter_reduce(1, m.tensor(_SRIDX), _z(m, 3, 2, requires_grad=True),
                                         "mean"),
    lambda m: _z(m, 3, 4, requires_grad=True).index_reduce(0, m.tensor([2, 0, 2]), _z(m, 3, 4),
                                                           "prod"),
])
def test_scatter_and_index_reduce_complex_errors(prog):
    same_error(prog)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean"])
def test_scatter_reduce_inplace_gradients(reduce):
    def prog(m):
        x, s = _z(m, 3, 4, requires_grad=True), _z(m, 3, 2, seed=1, requires_grad=True)
        y = x * 1.0
        y.scatter_reduce_(1, m.tensor(_SRIDX), s, reduce, include_self=reduce != "mean")
        return _grads_of(m, y, x, s)
    same(prog)


@pytest.mark.parametrize("reduce", ["prod", "mean"])
def test_index_reduce_inplace_gradients(reduce):
    def prog(m):
        x, s = _z(m, 3, 4, requires_grad=True), _z(m, 3, 2, seed=1, requires_grad=True)
        y = x.t() * 1.0
        y.index_reduce_(0, m.tensor([3, 1]), s.t(), reduce)
        return _grads_of(m, y, x, s)
    same(prog, quiet=True)


# ------------------------------------------------------------------ forward AD of the reductions

def test_logsumexp_and_logcumsumexp_forward_ad_on_complex():
    def prog(m):
        p = m.tensor([[1 + 2j, -0.5 + 1j, 3 - 1j], [0.2j, 2 + 0j, -1 - 1j]], dtype=m.complex128)
        t = m.tensor([[0.5 - 1j, 2j, 1 + 1j], [1 + 0j, -1j, 0.3 + 0.3j]], dtype=m.complex128)
        p64, t64 = p.to(m.complex64), t.to(m.complex64)
        return (m.func.jvp(lambda z: z.logsumexp(1), (p,), (t,)),
                m.func.jvp(lambda z: m.logsumexp(z, (0, 1), keepdim=True), (p,), (t,)),
                m.func.jvp(lambda z: z.logsumexp(0), (p64,), (t64,)),
                m.func.jvp(lambda z: z.logsumexp(0), (p[0, 0],), (t[0, 0],)),
                m.func.jvp(lambda z: z.logcumsumexp(1), (p,), (t,)),
                m.func.jvp(lambda z: z.logcumsumexp(0), (p64,), (t64,)))
    same(prog)
    z = _z(autograd_core, 3, 4, requires_grad=True)
    for f in (lambda z: z.logsumexp(1), lambda z: z.logsumexp((0, 1), keepdim=True),
              lambda z: z.logcumsumexp(0)):
        assert autograd_core.autograd.gradcheck(f, (z,), check_forward_ad=True)


def test_logsumexp_forward_ad_on_real_inputs():
    # (the explicit forward row replaced the transposed backward for real inputs too)
    def prog(m):
        p = m.tensor([[1.0, -0.5, 3.0], [0.2, 2.0, -1.0]], dtype=m.float64)
        t = m.tensor([[0.5, 2.0, 1.0], [1.0, -1.0, 0.3]], dtype=m.float64)
        inf = m.tensor([[INF, 1.0], [-INF, -INF]])
        return (m.func.jvp(lambda z: z.logsumexp(1), (p,), (t,)),
                m.func.jvp(lambda z: z.logsumexp(0, keepdim=True), (p.float(),), (t.float(),)),
                m.func.jvp(lambda z: z.logsumexp(1), (inf,), (m.ones(2, 2),)),
                m.func.jvp(lambda z: z.logsumexp(1), (m.zeros(2, 0),), (m.zeros(2, 0),)))
    same(prog)
