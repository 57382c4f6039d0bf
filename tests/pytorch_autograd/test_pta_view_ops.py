"""View semantics: PyTorch's test/test_view_ops.py (class TestViewOps, and the view
parts of TestOldViewOps), each rewritten here as a differential program (run under torch
and autograd_core, results compared by tests/_diff.py): which ops return views of their
input (``_is_view()``, ``_base``), and that writes through a view reach its base.
Each test is named after the PyTorch test it follows."""
import pytest

from _diff import data, same


def is_view_of(base, other):
    """PyTorch's TestViewOps.is_view_of, minus its storage-pointer comparison (writes
    through the view are compared instead, by each test)."""
    return other._is_view() and other is not base and other._base is base


def is_view_of_same_base(v1, v2):
    return v1._is_view() and v1 is not v2 and is_view_of(v1._base, v2)


def _write_test(make_view, index_v, shape=(5, 5)):
    """A program: a view of ones(shape), a write of 0 at index_v through it, then
    (is_view_of, base, view)."""
    def prog(torch):
        t = torch.ones(shape)
        v = make_view(torch, t)
        r = [is_view_of(t, v)]
        v[index_v] = 0
        return r + [t, v]
    return prog


def test_conj_self():
    def prog(torch):
        t = torch.ones(5, 5)
        return t.conj() is t
    same(prog)


def test_view_tensor_split():
    def prog(torch):
        a = data(torch, 40, 30)
        return ([is_view_of(a, s) for s in a.tensor_split(7, 0)],
                [is_view_of(a, s) for s in a.tensor_split(7, 1)])
    same(prog)


def _split_test(fn, index):
    def prog(torch):
        t = data(torch, 4, 4, 4)
        parts = getattr(torch, fn)(t, 2)
        r = [is_view_of(t, p) for p in parts]
        t[2, 2, 2] = 7
        return r + [parts[1][index]]
    return prog


def test_view_tensor_hsplit():
    same(_split_test("hsplit", (2, 0, 2)))


def test_view_tensor_vsplit():
    same(_split_test("vsplit", (0, 2, 2)))


def test_view_tensor_dsplit():
    same(_split_test("dsplit", (2, 2, 0)))


def test_imag_noncomplex():
    def prog(torch):
        torch.imag(torch.ones((5, 5)))
    same(prog, must_raise=True)


def test_diagonal_view():
    def prog(torch):
        t = torch.ones((5, 5))
        v = torch.diagonal(t)
        r = [is_view_of(t, v)]
        v[0] = 0
        r.append(t[0, 0] == v[0])
        t = torch.ones((3, 3, 3))
        v = torch.diagonal(t, offset=1, dim1=1, dim2=2)
        r.append(is_view_of(t, v))
        v[0, 0] = 0
        return r + [t]
    same(prog)


def test_select_view():
    same(_write_test(lambda torch, t: t.select(0, 2), 0))


def test_unbind_view():
    def prog(torch):
        t = torch.zeros((5, 5))
        r = []
        for idx, v in enumerate(torch.unbind(t)):
            r.append(is_view_of(t, v))
            v[0] = idx + 1
        return r + [t]
    same(prog)


def test_unbind():
    def prog(torch):
        stacked = data(torch, 3, 10, 10, seed=1, requires_grad=True)
        x, y, z = stacked.unbind()
        grad = data(torch, 3, 10, 10, seed=2)
        torch.autograd.backward([x, y, z], grad.unbind())
        r = [stacked.grad]
        for i in range(3):
            stacked = data(torch, 3, 10, 10, seed=3 + i, requires_grad=True)
            outs = stacked.unbind()
            gi = grad.unbind()[i]
            r.append(torch.autograd.grad(outs[i], stacked, gi))
        stacked = data(torch, 3, 4, 4, seed=7, requires_grad=True)
        r.append(torch.autograd.gradcheck(lambda x: x.unbind(), (stacked,)))
        return r
    same(prog)


def test_expand_view():
    same(_write_test(lambda torch, t: t.expand(5, 5), (2, 2), shape=(5, 1)))


def test_expand_as_view():
    same(_write_test(lambda torch, t: t.expand_as(torch.empty((5, 5))), (2, 2),
                     shape=(5, 1)))


def test_narrow_view():
    same(_write_test(lambda torch, t: torch.narrow(t, 1, 2, 2), (0, 0)))


def test_permute_view():
    same(_write_test(lambda torch, t: t.permute(1, 0), (0, 1)))


@pytest.mark.parametrize("fn", ["swapdims", "swapaxes", "transpose"])
def test_transpose_view(fn):
    same(_write_test(lambda torch, t: getattr(torch, fn)(t, 0, 1), (0, 1)))


@pytest.mark.parametrize("fn", ["swapdims_", "swapaxes_", "transpose_"])
def test_transpose_inplace_view(fn):
    same(_write_test(lambda torch, t: getattr(t.view_as(t), fn)(0, 1), (0, 1)))


def test_t_view():
    same(_write_test(lambda torch, t: t.t(), (0, 1)))


def test_t_inplace_view():
    same(_write_test(lambda torch, t: t.view_as(t).t_(), (0, 1)))


@pytest.mark.parametrize("op", ["T", "mT"])
def test_T_view(op):
    # (PyTorch also runs H and mH, the conjugate transposes)
    same(_write_test(lambda torch, t: getattr(t, op), (0, 1)))


def test_unfold_view():
    same(_write_test(lambda torch, t: t.unfold(0, 3, 2), (1, 0), shape=(10,)))


def test_squeeze_view():
    def prog(torch):
        t = torch.ones(5, 1, 5)
        v = torch.squeeze(t)
        r = [is_view_of(t, v)]
        v[0, 1] = 0
        return r + [t, v._base is t]
    same(prog)


def test_squeeze_inplace_view():
    def prog(torch):
        t = torch.ones(5, 5)
        v = t.view_as(t).squeeze_()
        r = [is_view_of(t, v)]
        v[0, 1] = 0
        return r + [t]
    same(prog)


def test_unsqueeze_view():
    same(_write_test(lambda torch, t: torch.unsqueeze(t, 1), (0, 0, 1)))


def test_unsqueeze_inplace_view():
    same(_write_test(lambda torch, t: t.view_as(t).unsqueeze_(1), (0, 0, 1)))


def test_as_strided_view():
    same(_write_test(lambda torch, t: torch.as_strided(t, (25,), (1,)), 6))


def test_as_strided_inplace_view():
    same(_write_test(lambda torch, t: t.view_as(t).as_strided_((25,), (1,)), 6))


def test_as_strided_gradients():
    def prog(torch):
        r = []

        def test(x, prepro_fn, size, strides, offset=None):
            x = x.to(torch.double).detach().requires_grad_()

            def closure(x):
                if prepro_fn is not None:
                    x = prepro_fn(x)
                return x.as_strided(size, strides, offset)

            r.append(torch.autograd.gradcheck(closure, [x]))
            r.append(torch.autograd.gradgradcheck(closure, [x]))

        test(torch.arange(0, 25), lambda x: x.view(5, 5), [3, 3], [6, 2], 2)
        test(data(torch, 12), None, [1, 2, 1, 5], [0, 5, 100, 1], 2)
        test(data(torch, 5), None, [3, 3, 3], [0, 1, 0], 2)
        test(data(torch, 5), None, [3, 3, 3], [0, 0, 0], 4)
        test(data(torch, 5), lambda x: x.expand(5, 5), [5, 5], [0, 1], 0)
        test(data(torch, 35), None, [6, 6], [5, 1], 2)
        test(data(torch, 15), None, [3, 2], [3, 6], 2)
        test(data(torch, 3, 4), None, [4, 3], [1, 4])
        x = data(torch, 6, 2)
        test(x[3:], None, [3, 2], [2, 1], 0)
        r.append(x[3:].as_strided([3, 2], [2, 1], 0))
        test(data(torch, 2, 3), lambda x: x.expand(10, 2, 3), [2, 3], [3, 1], 0)
        return r
    same(prog)


def test_view_view():
    same(_write_test(lambda torch, t: t.view(25), 6))


def test_view_as_view():
    same(_write_test(lambda torch, t: t.view_as(torch.empty((25,))), 6))


def test_contiguous_self():
    def prog(torch):
        t = torch.ones(5, 5)
        return t.contiguous() is t
    same(prog)


def test_contiguous_nonview():
    def prog(torch):
        t = torch.ones(5, 5)
        nv = t.t().contiguous()
        r = [is_view_of(t, nv)]
        nv[0, 0] = 0
        return r + [t, nv]
    same(prog)


def test_reshape_view():
    same(_write_test(lambda torch, t: torch.reshape(t, (25,)), 6))


def test_reshape_as_view():
    same(_write_test(lambda torch, t: t.reshape_as(torch.empty((25,))), 6))


def test_reshape_nonview():
    def prog(torch):
        t = torch.ones(5, 5)
        nv = torch.reshape(t.t(), (25,))
        r = [is_view_of(t, nv)]
        nv[6] = 0
        return r + [t, nv]
    same(prog)


def test_flatten_view():
    def prog(torch):
        r = []

        def test_writes_propagate(t, v):
            v[(0,) * v.ndim] = 0
            r.append(t[(0,) * t.ndim].item() == v[(0,) * v.ndim].item())

        t = torch.ones(1, 2, 3, 4)
        v = t.flatten()
        r.append(is_view_of(t, v))
        test_writes_propagate(t, v)
        t = torch.tensor(1)
        v = t.flatten()
        test_writes_propagate(t, v)
        r.append(is_view_of(t, v))
        t = torch.ones(1, 2, 3, 4).transpose(2, 3)
        v = t.flatten(0, 1)
        test_writes_propagate(t, v)
        r.append(is_view_of_same_base(t, v))
        return r
    same(prog)


def test_flatten_nonview():
    def prog(torch):
        r = []

        def assert_is_nonview(t, nv):
            r.append(nv._is_view())
            nv[(0,) * nv.ndim] = 0
            r.append(t[(0,) * t.ndim].item() != nv[(0,) * nv.ndim].item())

        t = torch.ones(2, 3, 2, 3).transpose(2, 3)
        assert_is_nonview(t, t.flatten(1, 3))
        t = torch.ones(2, 2).T
        assert_is_nonview(t, t.flatten())
        t = torch.ones(2, 2)
        return r + [t.flatten(1, 1) is t]
    same(prog)


def test_basic_indexing_slice_view():
    same(_write_test(lambda torch, t: t[:2, :3], (0, 0)))


def test_basic_indexing_ellipses_view():
    same(_write_test(lambda torch, t: t[..., :2], (0, 0)))


def test_basic_indexing_newaxis_view():
    same(_write_test(lambda torch, t: t[None, :2, 3], (0, 0)))


def test_advanced_indexing_nonview():
    def prog(torch):
        t = torch.ones(3, 3)
        rows = torch.tensor([[0, 0], [2, 2]])
        cols = torch.tensor([[0, 1], [2, 2]])
        nv = t[rows, cols]
        r = [is_view_of(t, nv)]
        nv[1, 1] = 0
        return r + [t, nv]
    same(prog)


def test_advanced_indexing_assignment():
    def prog(torch):
        t = torch.ones(3, 3)
        rows = torch.tensor([[0, 0], [2, 2]])
        cols = torch.tensor([[0, 1], [2, 2]])
        t[rows, cols] = 0
        return t
    same(prog)


@pytest.mark.parametrize("fn", ["movedim", "moveaxis"])
def test_movedim_view(fn):
    def prog(torch):
        r = []
        for kw in ({"source": (0, 1), "destination": (1, 0)},
                   {"source": 0, "destination": 1}):
            t = torch.zeros(3, 3)
            out = getattr(torch, fn)(t, **kw)
            r.append(is_view_of(t, out))
            for i, (i1, i2) in enumerate(((0, 1), (2, 0), (1, 1))):
                out[i1, i2] = 0.25 * (i + 1)
            r.append(t)
        return r
    same(prog)


def test_view_copy():
    def prog(torch):
        a = data(torch, 4, requires_grad=True)
        a_ref = a.clone().detach().requires_grad_()
        a_view = a_ref.view(2, 2)
        a_view_copy = torch.view_copy(a, (2, 2))
        r = [is_view_of(a_ref, a_view), is_view_of(a, a_view_copy)]
        a_view_copy.sum().backward()
        a_view.sum().backward()
        return r + [a_view_copy, a_view, a.grad, a_ref.grad]
    same(prog)


# ------------------------------------------------ the view parts of TestOldViewOps

def test_empty_reshape():
    def prog(torch):
        x = data(torch, 0, 6)
        r = [x.reshape(1, 0, 6, 1, 1).shape]
        try:
            x.reshape(0, -1)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_view_empty():
    def prog(torch):
        return data(torch, 0, 6).view(1, 0, 6, 1, 1).shape
    same(prog)


def test_expand():
    def prog(torch):
        tensor = data(torch, 1, 8, 1, seed=1)
        tensor2 = data(torch, 5, seed=2)
        template = data(torch, 4, 8, 5, seed=3)
        target = template.size()
        r = [tensor.expand_as(template).size(), tensor.expand(4, 8, 5).size(),
             tensor.expand(target).size(), tensor2.expand_as(template).size(),
             tensor2.expand(4, 8, 5).size(), tensor2.expand(target).size(),
             tensor2.expand(1, 5).expand(2, 2, 5)]
        noncontig = data(torch, 5, 2, 1, 3, seed=4)[:, 0]
        r += [noncontig.is_contiguous(), noncontig.expand(2, 5, 4, 3)]
        expanded = tensor2.expand(1, 1, 5)
        unsqueezed = tensor2.unsqueeze(0).unsqueeze(1)
        r += [expanded, unsqueezed, expanded.stride(), unsqueezed.stride(),
              tensor.expand(4, -1, 5)]
        try:
            tensor2.expand(-1, -1)
        except RuntimeError as e:
            r.append(str(e))
        return r + [torch.zeros(0).expand((0,))]
    same(prog)


def test_view():
    def prog(torch):
        tensor = data(torch, 15, seed=1)
        template = data(torch, 3, 5, seed=2)
        empty = torch.empty(0)
        r = [tensor.view_as(template).size(), tensor.view(3, 5).size(),
             tensor.view(-1, 5).size(), tensor.view(3, -1).size(),
             empty.view_as(empty), empty.view(0), empty.view(0, 3, 0, 1).size(),
             empty.view(-1).size(), empty.view(10, 3, -1).size()]
        for f in (lambda: empty.view(-1, 0), lambda: empty.view(3, 0, -1, 0),
                  lambda: tensor.view(15, 0), lambda: tensor.view(7, -1),
                  lambda: tensor.view(15, -1, -1)):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        t = data(torch, 1, 1).expand(3, 4)
        c = t.clone()
        for shape in ((-1,), (1, -1, 1), (-1, 1), (6, 2, 1), (1, 6, 2, 1)):
            r += [t.view(*shape), c.view(*shape)]
        return r
    same(prog)


def test_flatten():
    def prog(torch):
        z = torch.tensor(123)
        r = [z.flatten().shape, z.flatten()]
        src = data(torch, 5, 5, 5, 5)
        for a, b in ((0, -1), (0, 2), (0, 1), (1, 2), (2, 3), (-2, -1), (2, 2)):
            r.append(src.flatten(a, b).shape)
        for a, b in ((5, 10), (2, 0)):
            try:
                src.flatten(a, b)
            except (IndexError, RuntimeError) as e:
                r.append((type(e).__name__, str(e)))
        return r
    same(prog)


def test_narrow():
    def prog(torch):
        x = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
        return [x.narrow(0, 0, 1), x.narrow(0, 0, 2), x.narrow(0, 1, 1), x.narrow(0, -1, 1),
                x.narrow(0, -2, 2), x.narrow(0, -3, 3), x.narrow(-1, -1, 1),
                x.narrow(-2, -1, 1)]
    same(prog)


def test_t():
    # the dense half (the other half uses sparse tensors)
    def prog(torch):
        r = []
        for x in (torch.tensor(0.5), torch.arange(4), data(torch, 2, 2)):
            r.append((x.t(), x.t()._is_view()))
        try:
            data(torch, 2, 2, 2).t()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_split():
    def prog(torch):
        tensor = data(torch, 7, 4)
        r = [[s.size() for s in tensor.split(3, 0)]]
        tensor = data(torch, 20, 10, seed=1)
        r.append([(s.size(), s._is_view()) for s in tensor.split([5, 5, 10], 0)])
        r.append([s for s in tensor.split([2, 2, 6], 1)])
        return r
    same(prog)


def test_chunk():
    def prog(torch):
        tensor = data(torch, 4, 7)
        r = [[s for s in tensor.chunk(3, 1)]]
        for n in (0, -2):
            try:
                tensor.chunk(n)
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_unsqueeze():
    def prog(torch):
        x = data(torch, 2, 3, 4)
        r = [x.unsqueeze(1), x.clone().unsqueeze_(2)]
        x = x[:, 1]
        return r + [x.is_contiguous(), x.unsqueeze(1), x.clone().unsqueeze_(2)]
    same(prog)


def test_T():
    def prog(torch):
        a = data(torch, 2, 3, 4)
        b = data(torch, 10, seed=1)
        scalar = torch.tensor(5)
        return a.T, a.permute(2, 1, 0), b.T, scalar.T
    same(prog, quiet=True)


def test_transposes():
    # real dtypes: T and mT (H, mH and adjoint are conjugate transposes)
    def prog(torch):
        r = []
        for op, shapes in (("T", ((), (2, 3))), ("mT", ((), (2, 3), (2, 3, 4)))):
            for shape in shapes:
                a = data(torch, *shape)
                try:
                    r.append(getattr(a, op))
                except RuntimeError as e:
                    r.append(str(e))
        return r
    same(prog, quiet=True)


def test_transposes_errors():
    def prog(torch):
        try:
            data(torch, 2).mT
        except RuntimeError as e:
            return str(e)
    same(prog)


def test_reshape():
    # PyTorch's test compares data pointers; here whether the result is a view
    def prog(torch):
        x = data(torch, 3, 3)
        r = [x.reshape(-1)._is_view(), x.reshape(1, 9, 1)._is_view(), torch.reshape(x, (9,))]
        y = data(torch, 4, 4, 4, seed=1)[:, 0, :]
        r += [y.reshape(-1), y.reshape(2, 2, 4)]
        s = torch.tensor(0.5)
        r.append(s.reshape(-1).shape)
        empty = torch.tensor([])
        r += [empty.reshape(-1), empty.reshape([0]), empty.reshape([0, 1]).shape,
              empty.reshape([1, -1]).shape]
        for f in (lambda: x.reshape(-1, -1), lambda: s.reshape(2), lambda: empty.reshape(1),
                  lambda: x.reshape_as(torch.ones(10))):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_view_copy_out():
    def prog(torch):
        a = data(torch, 2, 2)
        out = torch.empty(2, dtype=torch.float64)
        torch.diagonal_copy(a, out=out)
        r = [out, torch.diagonal_copy(a)]
        a = data(torch, 4, seed=1)
        out1 = torch.empty(2, dtype=torch.float64)
        out2 = torch.empty(2, dtype=torch.float64)
        torch.split_copy(a, 2, out=(out1, out2))
        return r + [out1, out2, torch.split_copy(a, 2)]
    same(prog)


# ---- complex views (view_as_real / view_as_complex / real / imag): views of the same
# memory, checked by their _base and by writing through them

def _transposed(t, contiguous, dim0=0, dim1=1):
    return t if contiguous else t.transpose(dim0, dim1)


@pytest.mark.parametrize("case", [(True, 0, 1), (False, 0, 1), (False, 0, 2), (False, 1, 2)])
def test_view_as_complex(case):
    contiguous, dim0, dim1 = case

    def prog(torch):
        t = data(torch, 3, 2, 2, dtype="float32")
        expected = _transposed(t[:, :, 0] + 1j * t[:, :, 1], contiguous, dim0, dim1)
        res = torch.view_as_complex(_transposed(t, contiguous, dim0, dim1))
        r = [res, expected, is_view_of(t, res)]
        res[0, 0] = 5 - 5j
        return r + [t]
    same(prog, may_raise=True)
    # the stride and shape errors, an empty tensor
    same(lambda torch: torch.view_as_complex(torch.as_strided(torch.ones(3, 3), (2, 2), (1, 1))),
         must_raise=True)
    same(lambda torch: torch.view_as_complex(torch.tensor([])), must_raise=True)
    same(lambda torch: torch.view_as_complex(torch.tensor(2.0)), must_raise=True)

    def empty(torch):
        x = torch.tensor([])
        res = torch.view_as_complex(x.reshape(0, 2))
        return is_view_of(x, res), res.shape
    same(empty)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("contiguous", [True, False])
def test_view_as_real(dtype, contiguous):
    def prog(torch):
        t = torch.complex(data(torch, 3, 4), data(torch, 3, 4, seed=1)).to(getattr(torch, dtype))
        inp = _transposed(t, contiguous)
        res = torch.view_as_real(inp)
        r = [res[:, :, 0], inp.real, res[:, :, 1], inp.imag, is_view_of(t, res)]
        res[0, 0, 1] = 7.
        e = torch.tensor([], dtype=getattr(torch, dtype))
        z = torch.tensor(2 + 3j, dtype=getattr(torch, dtype))
        return r + [t, is_view_of(e, torch.view_as_real(e)), torch.view_as_real(e).shape,
                    is_view_of(z, torch.view_as_real(z)), torch.view_as_real(z).shape]
    same(prog)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("contiguous", [True, False])
def test_real_imag_view(dtype, contiguous):
    def prog(torch):
        t = torch.complex(data(torch, 3, 3), data(torch, 3, 3, seed=2)).to(getattr(torch, dtype))
        u = t if contiguous else t.T
        re, im = u.real, u.imag
        r = [re, torch.from_numpy(u.numpy().real), is_view_of(t, re),
             im, torch.from_numpy(u.numpy().imag), is_view_of(t, im)]
        a = torch.complex(data(torch, 10), data(torch, 10, seed=3)).to(getattr(torch, dtype))
        return r + [a[5:].real, a.real[5:], a[5:].imag, a.imag[5:]]
    same(prog)


# ---- the lazy conjugate and negative bits (Note [Conjugate and negative views])

def _complex_data(torch, shape, dtype):
    re = data(torch, *shape, seed=3)
    im = data(torch, *shape, seed=4)
    return torch.complex(re, im).to(getattr(torch, dtype))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_conj_imag_view(dtype):
    def prog(torch):
        t = _complex_data(torch, (4, 5), dtype)
        v = t.conj()
        v_imag = v.imag
        return (is_view_of(t, v), v, is_view_of(t, v_imag), v_imag, v_imag.is_neg())
    same(prog)


def test_conj_view_with_shared_memory():
    def prog(torch):
        a = _complex_data(torch, (4, 5), "complex64")
        b = a.conj()
        c = a.conj()
        r = [torch.add(a, b), a.add_(b).clone()]
        r += [torch.add(b, c), torch.add(b, c, out=a).clone()]
        r += [torch.add(b, c), b.add_(c).clone()]
        return r + [a, b, c]
    same(prog)


@pytest.mark.parametrize("dtypes", [("complex64", "float32"), ("complex128", "complex64"),
                                    ("complex64", "int64"), ("complex128", "bool"),
                                    ("complex64", "float16")])
def test_set_real_imag(dtypes):
    def prog(torch):
        x = _complex_data(torch, (10,), dtypes[0])
        new_real = data(torch, 10, seed=5).to(getattr(torch, dtypes[1]))
        new_imag = data(torch, 10, seed=6).to(getattr(torch, dtypes[1]))
        x.real = new_real
        x.imag = new_imag
        return x
    same(prog, quiet=True)


def test_conj_neg_view_numpy_error():
    def prog(torch):
        out = []
        for f in (lambda: torch.tensor([1 + 2j]).conj().numpy(),
                  lambda: torch.tensor([1 + 2j]).conj().imag.numpy(),
                  lambda: torch.tensor([1 + 2j]).conj().view(torch.float64),
                  lambda: torch.tensor([1 + 2j]).conj().imag.view(torch.int32)):
            try:
                f()
                out.append(None)
            except RuntimeError as e:
                out.append(str(e))
        return out
    same(prog)
