"""Complex tensors through nn.functional (issue 27), compared with PyTorch: reflection,
replication and circular padding (functions and modules), unfold/fold (im2col/col2im),
silu's values, softmax/log_softmax computed in a real dtype=, dropout with p=1; values,
gradients (the pads' backward is a scatter-add that accumulates complex values),
double backward, forward mode, gradcheck/gradgradcheck, and PyTorch's errors.
"""
import importlib
import warnings

import numpy as np
import pytest

from _diff import Raised, catch, complex_data, graph_desc, real_loss, same, same_error, torch
import autograd_core


_z = complex_data


_loss = real_loss


def _F(m):
    return m.nn.functional


def _grads(m, fn, shape, dtype, nc, seed=0):
    """fn's value on a complex input of shape (when nc, a transposed leaf: non-contiguous),
    the leaf's gradient, and the result's grad_fn chain."""
    z = _z(m, *(shape[:-2] + shape[-2:][::-1] if nc else shape), seed=seed, dtype=dtype,
           requires_grad=True)
    x = z.transpose(-1, -2) if nc else z
    out = fn(m, x)
    g, = m.autograd.grad(_loss(m, out), z)
    # (circular padding: PyTorch writes slices of the input into the output, which
    # records one CopySlices per write, here one write of the wrapped input; both end
    # in CopySlices and give the same gradients)
    top = type(out.grad_fn).__name__
    chain = top if top == "CopySlices" else graph_desc(out.grad_fn)
    return out, g, out.dtype, chain


# ------------------------------------------------------------------ padding

# (mode, pad, input shape): 1-3 padded dims, batched and unbatched
_PADS = [
    ("reflect", (2, 1), (2, 4)), ("reflect", (2, 1), (2, 3, 4)),
    ("reflect", (1, 2, 2, 1), (2, 3, 4)), ("reflect", (1, 2, 2, 1), (1, 2, 3, 4)),
    ("reflect", (1, 1, 2, 0, 0, 1), (2, 3, 3, 2)), ("reflect", (1, 1, 2, 0, 0, 1), (1, 2, 3, 3, 2)),
    ("replicate", (3, 1), (2, 3, 4)), ("replicate", (1, 2, 0, 3), (1, 2, 3, 4)),
    ("replicate", (1, 0, 0, 1, 1, 1), (1, 2, 2, 3)), ("replicate", (2, 2), (3, 1)),
    ("circular", (1, 2), (1, 2, 4)), ("circular", (1, 1, 2, 0), (1, 2, 3, 4)),
    ("circular", (1, 0, 1, 1, 0, 1), (1, 1, 2, 3, 2)),
]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("nc", [False, True])
@pytest.mark.parametrize("mode,pad,shape", _PADS)
def test_pad_values_and_gradients(mode, pad, shape, nc, dtype):
    tol = 1e-5 if dtype == "complex64" else 1e-10
    same(lambda m: _grads(m, lambda m, x: _F(m).pad(x, pad, mode=mode), shape, dtype, nc),
         rtol=tol, atol=tol)


_MODULES = [
    ("ReflectionPad1d", (2, 1), (2, 3, 4)), ("ReflectionPad2d", (1, 2, 2, 1), (1, 2, 3, 4)),
    ("ReflectionPad3d", 1, (1, 2, 3, 3, 2)), ("ReplicationPad1d", 2, (2, 3, 4)),
    ("ReplicationPad2d", (1, 0, 2, 1), (1, 2, 3, 4)), ("ReplicationPad3d", 1, (1, 1, 2, 2, 3)),
    ("CircularPad1d", (1, 2), (1, 2, 4)), ("CircularPad2d", 1, (1, 2, 3, 4)),
    ("CircularPad3d", (1, 0, 1, 1, 0, 1), (1, 1, 2, 3, 2)),
]


@pytest.mark.parametrize("name,pad,shape", _MODULES)
def test_pad_modules(name, pad, shape):
    same(lambda m: _grads(m, lambda m, x: getattr(m.nn, name)(pad)(x), shape, "complex128",
                          False), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode,pad,shape", [("reflect", (2, 1), (0, 3, 4)),
                                            ("replicate", (1, 1), (0, 2, 3)),
                                            ("reflect", (1, 1, 1, 1), (0, 2, 3, 3))])
def test_pad_empty_batch(mode, pad, shape):
    def prog(m):
        z = m.zeros(shape, dtype=m.complex64, requires_grad=True)
        out = _F(m).pad(z, pad, mode=mode)
        out.sum().abs().backward()
        return out, z.grad
    same(prog, may_raise=True)


@pytest.mark.parametrize("mode,pad,shape", [("reflect", (1, 2), (2, 3, 4)),
                                            ("replicate", (2, 0, 1, 1), (1, 2, 3, 3)),
                                            ("reflect", (1, 1, 1, 0, 0, 1), (1, 2, 2, 3, 2))])
def test_pad_double_backward(mode, pad, shape):
    """The pads' backward ops (ReflectionPad*BackwardBackward0...) on complex values."""
    def prog(m):
        z = _z(m, *shape, requires_grad=True)
        v = _z(m, *shape, seed=3, requires_grad=True)
        out = _F(m).pad(z, pad, mode=mode)
        g, = m.autograd.grad(_loss(m, out * out), z, create_graph=True)
        gg = m.autograd.grad(_loss(m, g * v, seed=5), (z, v))
        return g, gg, graph_desc(g.grad_fn)
    same(prog, rtol=1e-10, atol=1e-10)


def test_pad_errors_on_complex():
    z = lambda m: _z(m, 2, 3)  # noqa: E731
    same_error(lambda m: _F(m).pad(z(m), (3, 1), mode="reflect"))
    same_error(lambda m: _F(m).pad(z(m), (4, 1), mode="circular"))
    # PyTorch's check_valid_input: a zero-size dim other than the batch dim (any dtype)
    for shape, pad in [((2, 0), (1, 1)), ((0, 2, 0), (1, 1)), ((2, 0, 3), (1, 1, 1, 1)),
                       ((2, 3, 0), (1, 1, 1, 1)), ((2, 0, 2, 2), (1, 1) * 3),
                       ((1, 2, 2, 0), (1, 1) * 3)]:
        for mode in ("reflect", "replicate"):
            for d in ("complex64", "float32"):
                same_error(lambda m: _F(m).pad(m.zeros(shape, dtype=getattr(m, d)), pad,
                                               mode=mode))


# ------------------------------------------------------------------ unfold / fold

_UNFOLD = [((2, 2, 4, 5), dict(kernel_size=(2, 3), dilation=1, padding=1, stride=(2, 1))),
           ((2, 4, 5), dict(kernel_size=2, dilation=(1, 2), padding=(0, 1), stride=1)),
           ((1, 3, 3, 3), dict(kernel_size=3))]


_FOLD = [((2, 12, 15), dict(output_size=(4, 5), kernel_size=(2, 3), padding=1, stride=(2, 1))),
         ((8, 4), dict(output_size=(3, 4), kernel_size=2, dilation=(1, 2))),
         ((0, 4, 4), dict(output_size=3, kernel_size=2))]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("nc", [False, True])
@pytest.mark.parametrize("fn,module,shape,kw",
                         [("unfold", "Unfold", s, k) for s, k in _UNFOLD]
                         + [("fold", "Fold", s, k) for s, k in _FOLD])
def test_unfold_fold(fn, module, shape, kw, nc, dtype):
    """The function and the module: values, gradients and graph as PyTorch's."""
    tol = 1e-5 if dtype == "complex64" else 1e-10
    same(lambda m: _grads(m, lambda m, x: getattr(_F(m), fn)(x, **kw), shape, dtype, nc),
         rtol=tol, atol=tol)
    same(lambda m: _grads(m, lambda m, x: getattr(m.nn, module)(**kw)(x), shape, dtype, nc),
         rtol=tol, atol=tol)


def test_unfold_fold_errors_on_complex():
    same_error(lambda m: _F(m).unfold(_z(m, 1, 2, 2, 2), 3))
    same_error(lambda m: _F(m).fold(_z(m, 1, 5, 4), (3, 3), 2))


# ------------------------------------------------------------------ gradcheck, forward mode

_CHECKED = {
    "reflect1d": lambda F, x: F.pad(x.reshape(2, 3, 4), (2, 1), mode="reflect"),
    "reflect2d": lambda F, x: F.pad(x, (1, 2, 2, 1), mode="reflect"),
    "reflect3d": lambda F, x: F.pad(x.reshape(1, 2, 3, 2, 2), (1, 1, 1, 0, 0, 1), mode="reflect"),
    "replicate1d": lambda F, x: F.pad(x.reshape(2, 3, 4), (3, 1), mode="replicate"),
    "replicate2d": lambda F, x: F.pad(x, (1, 2, 0, 3), mode="replicate"),
    "replicate3d": lambda F, x: F.pad(x.reshape(1, 2, 3, 2, 2), (1, 0, 0, 1, 1, 1),
                                      mode="replicate"),
    "circular": lambda F, x: F.pad(x, (1, 2, 1, 0), mode="circular"),
    "unfold": lambda F, x: F.unfold(x, (2, 3), padding=1, stride=(2, 1)),
    "fold": lambda F, x: F.fold(x.reshape(1, 4, 6), (3, 4), 2),
}


@pytest.mark.parametrize("name", sorted(_CHECKED))
def test_gradcheck_complex(name):
    F = autograd_core.nn.functional
    x = _z(autograd_core, 1, 2, 3, 4, seed=2, requires_grad=True)
    f = lambda a: _CHECKED[name](F, a)  # noqa: E731
    gc = autograd_core.autograd
    assert gc.gradcheck(f, (x,), check_forward_ad=True)
    assert gc.gradgradcheck(f, (x,))


def test_forward_ad_tangents_match_pytorch():
    def prog(m):
        fwAD = importlib.import_module(m.__name__ + ".autograd.forward_ad")
        F = m.nn.functional
        out = []
        with fwAD.dual_level():
            d = fwAD.make_dual(_z(m, 1, 2, 3, 4), _z(m, 1, 2, 3, 4, seed=4))
            for name in sorted(_CHECKED):
                out.append(fwAD.unpack_dual(_CHECKED[name](F, d)).tangent)
        return out
    same(prog, rtol=1e-10, atol=1e-10)


def test_forward_ad_of_pad_backward_matches_pytorch():
    """Forward over reverse: the gradient of a pad taken for a dual grad_output carries
    the tangent of the pad's backward op (reflection_pad_backward of the tangent)."""
    def prog(m):
        fwAD = importlib.import_module(m.__name__ + ".autograd.forward_ad")
        F = m.nn.functional
        out = []
        for mode, pad in (("reflect", (2, 1)), ("replicate", (1, 2, 0, 1))):
            z = _z(m, 2, 3, 4, requires_grad=True)
            y = F.pad(z, pad, mode=mode)
            with fwAD.dual_level():
                gy = fwAD.make_dual(_z(m, *y.shape, seed=6), _z(m, *y.shape, seed=7))
                g, = m.autograd.grad(y, z, gy)
                p, t = fwAD.unpack_dual(g)
                out.append((p, t))
        return out
    same(prog, rtol=1e-10, atol=1e-10)


# ------------------------------------------------------------------ silu

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_silu_values(dtype):
    def prog(m):
        z = _z(m, 3, 4, dtype=dtype)
        y = z.clone()
        special = m.tensor([0j, complex(float("inf"), 0), complex(-float("inf"), 0),
                            complex(float("nan"), 1), 1e3 + 1e3j, -1e3 + 2j],
                           dtype=getattr(m, dtype))
        return (_F(m).silu(z), _F(m).silu(z.t()), _F(m).silu(y, inplace=True), y,
                _F(m).silu(z[:0]), _F(m).silu(z[0, 0]), _F(m).silu(special))
    tol = 1e-5 if dtype == "complex64" else 1e-12
    same(prog, rtol=tol, atol=tol)


def test_silu_complex_gradients_refused():
    """PyTorch refuses silu's derivative on complex values and gives silu_'s unconjugated
    (grad * s * (1 + x * (1 - s)), not the conjugate Wirtinger derivative its convention
    asks for, which a finite difference gives): both refused here, rather than a
    gradient that is either wrong or not PyTorch's."""
    F = autograd_core.nn.functional
    z = _z(autograd_core, 3, requires_grad=True)
    # (silu_ refused with the RuntimeError PyTorch's out-of-place silu raises)
    with pytest.raises(RuntimeError, match="^silu does not support automatic differentiation"):
        F.silu(z)
    with pytest.raises(RuntimeError, match="^silu does not support automatic differentiation"):
        F.silu(z * 1, inplace=True)
    assert isinstance(catch(lambda: _F(torch).silu(_z(torch, 3, requires_grad=True))), Raised)
    # PyTorch's silu_ gradient is grad * d, d = silu'(x), where its convention (and a
    # finite difference) gives grad * conj(d)
    x = _z(torch, 3, requires_grad=True)
    gy = _z(torch, 3, seed=5)
    g, = torch.autograd.grad(_F(torch).silu(x * 1, inplace=True), x, gy)
    s = x.detach().sigmoid()
    d = s * (1 + x.detach() * (1 - s))
    assert torch.allclose(g, gy * d) and not torch.allclose(g, gy * d.conj())
    # the finite difference of the real loss Re(sum(conj(gy) * silu(x))) that
    # grad_outputs=gy stands for: d/dRe + i d/dIm
    xa, ga, h = x.detach().numpy(), gy.numpy(), 1e-6

    def loss(v):
        return np.real(np.sum(np.conj(ga) * v / (1 + np.exp(-v))))
    fd = np.array([(loss(xa + h * e) - loss(xa - h * e)) / (2 * h)
                   + 1j * (loss(xa + 1j * h * e) - loss(xa - 1j * h * e)) / (2 * h)
                   for e in np.eye(3)])
    assert np.allclose(fd, (gy * d.conj()).numpy(), atol=1e-6)
    # without grad, both compute
    assert F.silu(z.detach()).dtype == autograd_core.complex128


def test_silu_integer_error():
    same_error(lambda m: _F(m).silu(m.ones(2, dtype=m.int64)))


# ------------------------------------------------------------------ softmax with dtype=

@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_real_dtype_of_complex(fn, dim):
    """A complex input computed in a real dtype=: its real part (PyTorch's cast warns),
    the gradient back through the cast (ToCopyBackward0) real-valued in the complex
    dtype."""
    def prog(m):
        z = _z(m, 3, 4, dtype="complex64", requires_grad=True)
        out = getattr(_F(m), fn)(z, dim, dtype=m.float64)
        g, = m.autograd.grad((out * out).sum(), z)
        return out, g, graph_desc(out.grad_fn)
    same(prog, quiet=True, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_of_complex_errors(fn):
    for dim in (0, 1, -1):
        same_error(lambda m: getattr(m, fn)(_z(m, 2, 3), dim))
        same_error(lambda m: getattr(m, fn)(_z(m, 2, 3), dim, dtype=m.complex128))
        same_error(lambda m: getattr(m, fn)(m.ones(2, 3), dim, dtype=m.complex64))
        same_error(lambda m: getattr(m, fn)(m.ones(2, 3, dtype=m.int64), dim))
    same_error(lambda m: getattr(m, fn)(_z(m), 0))


# ------------------------------------------------------------------ dropout p=1

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_dropout_p1_complex(dtype):
    def prog(m):
        F = _F(m)
        z = _z(m, 3, 4, dtype=dtype, requires_grad=True)
        outs = [F.dropout(z, 1.0), F.dropout(z.t(), 1.0), F.dropout1d(z, 1.0),
                F.dropout2d(z[None, None], 1.0), F.dropout(z * 1, 1.0, inplace=True),
                F.dropout(z[:0], 1.0), m.feature_dropout(z, 1.0, True),
                F.dropout3d(z[None, None, None], 1.0), F.alpha_dropout(z, 1.0, True),
                F.feature_alpha_dropout(z[None], 1.0, True)]
        g, = m.autograd.grad(sum(_loss(m, o) for o in outs if o.numel()), z)
        return outs, g, [graph_desc(o.grad_fn) for o in outs]
    same(prog, quiet=True)


def test_dropout_dtypes_errors():
    for d in ("complex64", "int64", "bool"):
        same_error(lambda m: _F(m).dropout(m.ones(3, dtype=getattr(m, d)), 0.5))
        same_error(lambda m: m.feature_dropout(m.ones(2, 3, dtype=getattr(m, d)), 0.5, True))
        same(lambda m: (_F(m).dropout(m.ones(3, dtype=getattr(m, d)), 1.0),
                        _F(m).dropout(m.ones(3, dtype=getattr(m, d)), 1.0, inplace=True)))
