"""torch.func over elementwise ops: jvp with a Python number operand, the forward
formulas of softmax and cumprod (zeros included), gradients through tangents, vmap over
an empty batch (cases the fuzzer's torch.func statements reach, tests/fuzz/gen.py
st_transform), each run under torch and autograd_core and compared (values, dtypes,
requires_grad, grad_fn names, gradients through the tangent, exceptions)."""

import pytest

from _diff import same


def _name(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def _jvp_report(m, f, x, tangent=None):
    """jvp of f at x: primal and tangent, with the tangent's dtype, requires_grad and
    grad_fn name, and the gradient of the tangent's sum with respect to x (reverse over
    forward) when it has a history."""
    t = m.ones_like(x) if tangent is None else tangent
    p, g = m.func.jvp(f, (x,), (t,))
    out = [p, g, str(g.dtype), g.requires_grad, _name(g), _name(p)]
    if g.requires_grad:
        out.append(m.autograd.grad(g.sum(), x, allow_unused=True))
    return out


def _primal(m, shape, dtype, requires_grad, values=(-1.3, 0.4, 0.9, -0.25, 1.7, 0.6)):
    n = 1
    for s in shape:
        n *= s
    x = m.tensor(list(values[:n]), dtype=getattr(m, dtype)).reshape(shape)
    return x.requires_grad_(requires_grad)


# ---------------------------------------------------------------- tangents' history

NUMBER_OPS = [
    ("div", lambda u: u / 2.0), ("mul", lambda u: u * 1.5), ("add", lambda u: u + 0.25),
    ("sub", lambda u: u - 0.5), ("rsub", lambda u: 1.0 - u),
    ("add_alpha", lambda u: u.add(0.5, alpha=2.0)), ("exp_of_mul", lambda u: (u * 0.5).exp()),
    ("log_of_add", lambda u: (u.abs() + 0.5).log()), ("pow", lambda u: (u.abs() + 0.5) ** 0.5),
]


@pytest.mark.parametrize("name,f", NUMBER_OPS, ids=[n for n, _ in NUMBER_OPS])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0,)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_jvp_with_a_python_number_operand(name, f, shape, dtype, requires_grad):
    # seed 18000441: the tangent of u / 2.0 requires grad when u does (PyTorch's
    # formula reads the result); seed 18000721: a 0-d float32 u gives u + 0.25 a float64
    # tangent (the number's zero tangent is a 0-d float64 tensor, not a wrapped number)
    same(lambda m: _jvp_report(m, f, _primal(m, shape, dtype, requires_grad)))


def test_jvp_tangent_dtype_flows_on_and_unpack_dual():
    def prog(m):
        import autograd_core.autograd.forward_ad as fwad_ac
        import torch.autograd.forward_ad as fwad_t
        fwad = fwad_t if m.__name__ == "torch" else fwad_ac
        x = m.tensor(0.75, dtype=m.float32)
        with fwad.dual_level():
            d = fwad.make_dual(x, m.tensor(1.0, dtype=m.float32))
            y = (d + 0.25).sin() * 3
            p, t = fwad.unpack_dual(y)
            z = (d[None] + 0.25).sin()  # one dimension: float32 wins the promotion
            return p, t, str(t.dtype), fwad.unpack_dual(z).tangent.dtype

    same(prog)


def test_jvp_of_division_by_zero_number_and_zero_tensor():
    # the other operand's zero tangent is a ZeroTensor: 0 * inf is 0 in the formula
    def prog(m):
        x = m.tensor([1.0, -2.0, 0.0], dtype=m.float64)
        y = m.tensor([0.0, 2.0, 0.0], dtype=m.float64)
        return (m.func.jvp(lambda u: u / 0.0, (x,), (m.ones_like(x),)),
                m.func.jvp(lambda u: u / y, (x,), (m.ones_like(x),)),
                m.func.jvp(lambda u: y * u + y, (x,), (m.ones_like(x),)))

    same(prog, quiet=True)


TENSOR_OPS = [
    ("softmax", lambda m, d: lambda u: m.softmax(u, dim=d)),
    ("log_softmax", lambda m, d: lambda u: m.log_softmax(u, dim=d)),
    ("softmax_dtype", lambda m, d: lambda u: m.softmax(u, dim=d, dtype=m.float64)),
    ("log_softmax_dtype", lambda m, d: lambda u: m.log_softmax(u, d, dtype=m.float64)),
    ("cumprod", lambda m, d: lambda u: m.cumprod(u, dim=d)),
    ("cumprod_dtype", lambda m, d: lambda u: m.cumprod(u, d, dtype=m.float64)),
]


@pytest.mark.parametrize("name,make_f", TENSOR_OPS, ids=[n for n, _ in TENSOR_OPS])
@pytest.mark.parametrize("shape,dim", [((), 0), ((3,), -1), ((2, 3), 0), ((2, 3), -1),
                                       ((0,), 0), ((2, 0), 1)], ids=str)
@pytest.mark.parametrize("requires_grad", [False, True])
def test_jvp_softmax_and_cumprod_tangents(name, make_f, shape, dim, requires_grad):
    # seeds 18001493, 18001096, 18000951: PyTorch's formulas (softmax: result * (t -
    # logsumexp_jvp), MulBackward0; log_softmax: SubBackward0; cumprod: cumprod_jvp's
    # where, a masked_fill_ for a 0-d input), with their histories
    def prog(m):
        x = _primal(m, shape, "float32", requires_grad)
        t = _primal(m, shape, "float32", False, values=(0.5, -1.0, 2.0, 0.25, -0.75, 1.5))
        return _jvp_report(m, make_f(m, dim), x, t)

    same(prog)


@pytest.mark.parametrize("values", [
    (0.5, 0.0, 2.0, -1.5), (0.0, 3.0, 0.0, 2.0), (2.0, -1.0, 0.5, 0.0), (0.0, 0.0, 0.0, 1.0)])
@pytest.mark.parametrize("dim", [0, 1])
def test_jvp_cumprod_through_zeros(values, dim):
    def prog(m):
        x = m.tensor(values, dtype=m.float64).reshape(2, 2).requires_grad_(True)
        t = m.tensor([1.5, -0.5, 0.25, 2.0], dtype=m.float64).reshape(2, 2)
        return _jvp_report(m, lambda u: m.cumprod(u, dim=dim), x, t)

    same(prog)


def test_jvp_cumprod_of_zero_scalar():
    def prog(m):
        x = m.tensor(0.0, dtype=m.float64, requires_grad=True)
        return _jvp_report(m, lambda u: m.cumprod(u, 0), x, m.tensor(2.5, dtype=m.float64))

    same(prog)


def test_jvp_softmax_of_a_constant_tangent_is_exactly_zero():
    # seed 18000228: softmax's tangent for a tangent constant along dim is 0 exactly in
    # PyTorch (sum(w * 1) / sum(w) is 1), and g > 0 selects nothing
    def prog(m):
        x = m.tensor([[-0.6, 1.0, 2.0, -0.3], [-2.0, -1.5, 0.75, -1.25]], dtype=m.float64)
        outs = []
        for f in (lambda u: m.softmax(u, dim=-1), lambda u: m.log_softmax(u, dim=-1)):
            p, g = m.func.jvp(f, (x,), (m.ones_like(x),))
            outs.append((g, g[g > 0].shape, g[g < 0].shape))
        return outs

    same(prog)


def test_backward_through_a_tangent_after_writing_the_jvp_output():
    # seed 18001394: log_softmax's tangent does not save the result, so writing into
    # the returned primal leaves a backward through the tangent valid; softmax's does,
    # and both libraries refuse that backward
    def prog(m, op):
        x = m.tensor([[-1.5, -0.25, -0.6], [-0.5, -0.3, -0.6]], dtype=m.float64,
                     requires_grad=True)
        p, g = m.func.jvp(lambda u: getattr(m, op)(u, dim=-1), (x,), (m.ones_like(x),))
        w = m.tensor([[1.25, 0.9, 2.0], [2.0, -0.9, -0.6]], dtype=m.float64, requires_grad=True)
        p[:] = w
        (g.sum() + (x * x).sum() + w.sum()).backward()
        return p, g, x.grad, w.grad

    same(prog, "log_softmax")
    same(prog, "softmax", must_raise=True)


def test_vmap_of_the_new_formulas_matches():
    # the formulas run per sample under vmap's loop too
    def prog(m):
        x = m.tensor([[0.5, 0.0, -1.0], [2.0, 1.5, -0.5]], dtype=m.float64)
        t = m.tensor([[1.0, 2.0, -1.0], [0.5, 0.5, 0.5]], dtype=m.float64)
        return [m.func.vmap(lambda a, b: m.func.jvp(f, (a,), (b,))[1])(x, t)
                for f in (lambda u: m.softmax(u, 0), lambda u: m.log_softmax(u, 0),
                          lambda u: m.cumprod(u, 0), lambda u: u / 2.0 + 0.25)]

    same(prog)


# ---------------------------------------------------------------- seeds 19,000,000 on

def test_gradient_through_a_zero_tangent_is_a_zerotensor():
    # seed 19017392: u / 2.0's tangent reads other_t * result, a ZeroTensor product, so
    # the gradient it sends back to u is PyTorch's ZeroTensor: the leaf's .grad keeps
    # it, and a second backward accumulating into it raises
    def first(m):
        x = m.tensor(0.75, dtype=m.float64, requires_grad=True)
        p, g = m.func.jvp(lambda u: u / 2.0, (x,), (m.ones_like(x),))
        g.sum().backward(retain_graph=True)
        return x.grad, x.grad._is_zerotensor(), p, g

    def twice(m):
        x = m.tensor(0.75, dtype=m.float64, requires_grad=True)
        p, g = m.func.jvp(lambda u: u / 2.0, (x,), (m.ones_like(x),))
        g.sum().backward(retain_graph=True)
        (g.sum() + p.sum()).backward()

    same(first)
    same(twice, must_raise=True)


def test_gradient_through_jvp_inputs_is_not_a_view():
    # seed 19014016: jvp's dual inputs are aliases (PyTorch's functorch), so a gradient
    # reaching the primal through them is not a view made in no_grad mode, and writing
    # into it is allowed; under forward_ad's make_dual (a view, in both) it is a view
    def prog(m):
        x = m.tensor([[0.75], [-0.3], [1.25]], dtype=m.float64, requires_grad=True)
        p, _ = m.func.jvp(lambda u: m.sign(u) * 2.0 + u, (x,), (m.ones_like(x),))
        g, = m.autograd.grad(p.sum(), [x], retain_graph=True)
        g[2::2, None] = m.tensor([[[-0.75]]], dtype=m.float32)
        return g, g._is_view()

    same(prog)


VMAP_EMPTY = [
    ("mul", lambda m: lambda u: u * 0.5), ("radd", lambda m: lambda u: 0.5 + u),
    ("rsub", lambda m: lambda u: 1.0 - u), ("sub", lambda m: lambda u: m.sub(u, 0.5)),
    ("div_tensor", lambda m: lambda u: u / m.tensor(2.0)),
    ("tensor_sub", lambda m: lambda u: m.tensor(2.0) - u),
    ("pow_number", lambda m: lambda u: u ** 2),
    ("pow_tensor", lambda m: lambda u: m.pow(u, m.tensor(2.0))),
    ("maximum_1d", lambda m: lambda u: m.maximum(u, m.ones(2, dtype=m.float64))),
    ("where", lambda m: lambda u: m.where(u > 0, u, 0.0)),
    ("clamp", lambda m: lambda u: m.clamp(u, -0.6, 0.7)),
    ("exp_of_mul", lambda m: lambda u: m.exp(u * 0.5)),
]


@pytest.mark.parametrize("name,make_f", VMAP_EMPTY, ids=[n for n, _ in VMAP_EMPTY])
@pytest.mark.parametrize("shape", [(0,), (0, 2), (2,)], ids=str)
def test_vmap_binary_op_over_an_empty_batch_of_scalars(name, make_f, shape):
    # seed 19001403: PyTorch promotes types on the first sample of a logically 0-d
    # batched operand meeting an unbatched one (Note [Empty batch of scalars] in
    # func/_vmap.py): select()'s IndexError for an empty batch
    same(lambda m: m.func.vmap(make_f(m))(m.zeros(shape, dtype=m.float64)), may_raise=True)
