"""Differential checks of the Tensor surface: creation and dtype inference, attributes,
conversions, in-place methods, Python protocols, comparisons and printing, each program
run under real torch and under autograd_core (see _diff.py)."""
import numpy as np
import pytest

import autograd_core
from _diff import catch, no_warnings, same, sub_name, torch
from _diff import same_error

# ---------------------------------------------------------------- tensor() inference

TENSOR_DATA = {
    "floats": [1., 2., 3.],
    "mixed_int_float": [1, 2.5],
    "ints": [1, 2, 3],
    "bools": [True, False],
    "int_bool": [1, True],
    "float_bool": [1.5, True],
    "nested": [[1., 2.], [3., 4.], [5., 6.]],
    "nested3": [[[1, 2]], [[3, 4]]],
    "scalar_float": 3.5,
    "scalar_int": 7,
    "scalar_bool": False,
    "empty": [],
    "empty_nested": [[], []],
    "negative_zero": [-0.0, 0.0],
    "big_int": [2 ** 40],
    "tuple": (1., 2.),
    "list_of_tuples": [(1, 2), (3, 4)],
}


@pytest.mark.parametrize("name", list(TENSOR_DATA))
def test_tensor_dtype_inference(name):
    def prog(torch):
        t = torch.tensor(TENSOR_DATA[name])
        return t, t.dtype, t.shape, t.dim(), t.is_leaf, t.requires_grad
    same(prog)


NUMPY_DATA = {
    "f64": np.array([1.5, 2.5]),
    "f32": np.array([1.5, 2.5], dtype=np.float32),
    "f16": np.array([1.5], dtype=np.float16),
    "i32": np.array([[1, 2]], dtype=np.int32),
    "i64": np.array([1, 2], dtype=np.int64),
    "i16": np.array([1], dtype=np.int16),
    "i8": np.array([-1], dtype=np.int8),
    "u8": np.array([255], dtype=np.uint8),
    "bool": np.array([True, False]),
    "f64_0d": np.array(2.5),
    "np_scalar_f64": np.float64(1.5),
    "np_scalar_f32": np.float32(1.5),
    "np_scalar_i32": np.int32(3),
    "list_of_np_f64": [np.float64(1.5), np.float64(2.)],
    "noncontiguous": np.arange(12.).reshape(3, 4)[:, ::2],
}


@pytest.mark.parametrize("name", list(NUMPY_DATA))
def test_tensor_from_numpy_keeps_dtype(name):
    def prog(torch):
        t = torch.tensor(NUMPY_DATA[name])
        return t, t.dtype, t.shape
    same(prog)


def test_tensor_explicit_dtype_and_copy():
    def prog(torch):
        a = np.array([1., 2.])
        t = torch.tensor(a, dtype=torch.float32)
        a[0] = 100.
        u = torch.tensor([1, 2], dtype=torch.float64, requires_grad=True)
        v = torch.tensor(torch.tensor([3., 4.]))  # warns in torch; a copy
        return t, u, v, torch.tensor([1.5, 2.7], dtype=torch.int32), \
            torch.tensor([0, 2], dtype=torch.bool), torch.tensor(3, dtype=torch.float16)
    same(prog)


def test_tensor_copy_of_tensor_is_independent():
    def prog(torch):
        src = torch.tensor([1., 2.], requires_grad=True)
        with no_warnings():
            t = torch.tensor(src)
        r = [t.requires_grad, t.is_leaf]
        with torch.no_grad():
            src.add_(5)
        r.append(t)
        return r
    same(prog)


def test_default_dtype():
    def prog(torch):
        r = [torch.get_default_dtype()]
        torch.set_default_dtype(torch.float64)
        try:
            r += [torch.tensor([1.]).dtype, torch.zeros(2).dtype, torch.tensor([1]).dtype,
                  torch.arange(0., 1., 0.5).dtype, torch.ones(1).dtype, torch.tensor(2.).dtype]
        finally:
            torch.set_default_dtype(torch.float32)
        r.append(torch.tensor([1.]).dtype)
        return r
    same(prog)


# ---------------------------------------------------------------- factories

FACTORIES = {
    "zeros": lambda t: t.zeros(2, 3),
    "zeros_tuple": lambda t: t.zeros((2, 3)),
    "zeros_list": lambda t: t.zeros([4]),
    "zeros_0d": lambda t: t.zeros(()),
    "zeros_empty_dim": lambda t: t.zeros(0, 3),
    "zeros_int": lambda t: t.zeros(2, dtype=t.int64),
    "zeros_size": lambda t: t.zeros(t.Size([1, 2])),
    "ones": lambda t: t.ones(3),
    "ones_f64": lambda t: t.ones(2, 2, dtype=t.float64),
    "ones_bool": lambda t: t.ones(2, dtype=t.bool),
    "ones_requires_grad": lambda t: t.ones(2, requires_grad=True),
    "full_float": lambda t: t.full((2, 2), 1.5),
    "full_int": lambda t: t.full((2,), 7),
    "full_bool": lambda t: t.full((2,), True),
    "full_dtype": lambda t: t.full((1, 2), 3, dtype=t.float64),
    "empty_shape": lambda t: (t.empty(2, 3).shape, t.empty(2, 3).dtype, t.empty(0).shape),
    "arange_int": lambda t: t.arange(5),
    "arange_start_end": lambda t: t.arange(2, 7),
    "arange_step": lambda t: t.arange(1, 10, 3),
    "arange_negative_step": lambda t: t.arange(5, 0, -2),
    "arange_float": lambda t: t.arange(0, 1, 0.25),
    "arange_float_end": lambda t: t.arange(2.5),
    "arange_float_inexact": lambda t: t.arange(0, 1, 0.1),
    "arange_float_step_int_bounds": lambda t: t.arange(0, 3, 0.5),
    "arange_dtype": lambda t: t.arange(4, dtype=t.float64),
    "arange_empty": lambda t: t.arange(0),
    "linspace": lambda t: t.linspace(0, 1, 5),
    "linspace_one": lambda t: t.linspace(2, 3, 1),
    "linspace_zero": lambda t: t.linspace(2, 3, 0),
    "linspace_int_bounds": lambda t: t.linspace(-3, 3, 7),
    "linspace_dtype": lambda t: t.linspace(0, 10, 4, dtype=t.float64),
    "eye": lambda t: t.eye(3),
    "eye_rect": lambda t: t.eye(2, 4),
    "eye_dtype": lambda t: t.eye(2, dtype=t.int64),
    "zeros_like": lambda t: t.zeros_like(t.ones(2, 3, dtype=t.float64)),
    "ones_like": lambda t: t.ones_like(t.tensor([1, 2])),
    "ones_like_dtype": lambda t: t.ones_like(t.tensor([1, 2]), dtype=t.float32),
    "zeros_like_grad_source": lambda t: t.zeros_like(t.ones(2, requires_grad=True) * 2),
    "full_like": lambda t: t.full_like(t.ones(2), 4.),
    "empty_like": lambda t: (t.empty_like(t.ones(2, 2)).shape, t.empty_like(t.ones(2, 2)).dtype),
}


@pytest.mark.parametrize("name", list(FACTORIES))
def test_factories(name):
    def prog(torch):
        r = FACTORIES[name](torch)
        return (r, r.shape, r.dtype, r.is_leaf, r.requires_grad) if isinstance(r, torch.Tensor) else r
    same(prog)


@pytest.mark.parametrize("fn", ["rand", "randn"])
def test_random_shapes_and_dtypes(fn):
    def prog(torch):
        f = getattr(torch, fn)
        a, b, c = f(2, 3), f((4,)), f(3, dtype=torch.float64)
        d = f(2, requires_grad=True)
        return [(x.shape, x.dtype, x.requires_grad, x.is_leaf) for x in (a, b, c, d)] + \
            [f(()).shape, f(0).shape]
    same(prog)


def test_rand_range_and_randn_stats():
    x = autograd_core.rand(10000)
    assert 0 <= x.min().item() and x.max().item() < 1
    y = autograd_core.randn(20000, dtype=autograd_core.float64)
    assert abs(y.mean().item()) < 0.05
    assert abs((y * y).mean().item() - 1) < 0.05


def test_randint():
    def prog(torch):
        x = torch.randint(0, 5, (100,))
        y = torch.randint(3, (2, 2))
        return x.dtype, x.shape, y.shape, x.min().item() >= 0, x.max().item() < 5
    same(prog)
    x = autograd_core.randint(2, 5, (1000,))
    assert set(x.tolist()) == {2, 3, 4}


def test_manual_seed_reproducible():
    for mod in (torch, autograd_core):
        mod.manual_seed(1234)
        a = (mod.rand(5).tolist(), mod.randn(2, 3).tolist(), mod.randint(0, 100, (4,)).tolist())
        mod.manual_seed(1234)
        b = (mod.rand(5).tolist(), mod.randn(2, 3).tolist(), mod.randint(0, 100, (4,)).tolist())
        mod.manual_seed(99)
        c = mod.rand(5).tolist()
        assert a == b, mod.__name__
        assert c != a[0], mod.__name__


def test_from_numpy_shares_memory():
    def prog(torch):
        a = np.array([1., 2., 3.], dtype=np.float32)
        t = torch.from_numpy(a)
        a[0] = 10.
        t[1] = 20.
        b = np.array([[1, 2]], dtype=np.int32)
        u = torch.from_numpy(b)
        return t, a.tolist(), t.dtype, u.dtype, u.shape, t.requires_grad, \
            np.shares_memory(t.numpy(), a)
    same(prog)


def test_as_tensor():
    def prog(torch):
        a = np.array([1., 2.])
        t = torch.as_tensor(a)
        a[0] = 5.
        u = torch.as_tensor(a, dtype=torch.float32)
        a[1] = 7.
        s = torch.tensor([1., 2.])
        return t, u, torch.as_tensor(s) is s, torch.as_tensor([1, 2]), torch.as_tensor(3.5), \
            torch.as_tensor(s, dtype=torch.float64)
    same(prog)


def test_numpy_shares_memory():
    def prog(torch):
        t = torch.tensor([1., 2.])
        a = t.numpy()
        a[0] = 9.
        d = torch.tensor([1., 2.], requires_grad=True)
        return t, a.dtype.name, d.detach().numpy().tolist(), type(a).__name__
    same(prog)


# ---------------------------------------------------------------- Size, dtype, attributes

def test_size_repr_and_behaviour():
    def prog(torch):
        s = torch.zeros(2, 3).shape
        e = torch.tensor(1.).shape
        return [repr(s), str(s), repr(e), repr(torch.Size([2, 3])), s == (2, 3), s[0], s[-1],
                repr(s[1:]), type(s[1:]).__name__, len(s), s.numel(), list(s), tuple(s),
                isinstance(s, tuple), repr(s + (4,)), s == torch.Size([2, 3]), hash(s) == hash((2, 3))]
    same(prog)


def test_dtype_reprs():
    def prog(torch):
        names = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool",
                 "float", "double", "half", "long", "int", "short"]
        ds = [getattr(torch, n) for n in names]
        return [repr(d) for d in ds] + [str(d) for d in ds] + \
            [d.is_floating_point for d in ds] + [d.is_signed for d in ds] + \
            [torch.float is torch.float32, torch.long is torch.int64, torch.double == torch.float64,
             torch.int is torch.int32, torch.half is torch.float16]
    same(prog)


def test_attributes():
    def prog(torch):
        t = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
        r = [t.shape, t.size(), t.size(0), t.size(-1), t.size(dim=1), t.dim(), t.ndim,
             t.ndimension(), t.numel(), t.nelement(), t.dtype, t.T, t.mT, t.is_leaf,
             t.requires_grad, t.grad, t.grad_fn, t.is_floating_point(), t.element_size(),
             t.is_contiguous(), t.t().is_contiguous(), t.stride(), t.t().stride(), t.stride(1),
             str(t.device), t.is_cuda, t.output_nr, t._version]
        z = torch.tensor(5)
        r += [z.shape, z.dim(), z.numel(), z.T, z.is_floating_point(), z.item(), type(z.item()).__name__]
        return r
    same(prog)


def test_item_and_tolist():
    def prog(torch):
        return [torch.tensor(2.5).item(), type(torch.tensor(2.5).item()).__name__,
                torch.tensor([7]).item(), type(torch.tensor([7]).item()).__name__,
                torch.tensor(True).item(), type(torch.tensor(True).item()).__name__,
                torch.tensor([[1.5]]).item(), torch.tensor([[1, 2], [3, 4]]).tolist(),
                torch.tensor(3.).tolist(), torch.tensor([True]).tolist(),
                type(torch.tensor([1.]).tolist()[0]).__name__, torch.zeros(0).tolist(),
                torch.tensor([0.1]).tolist(), torch.tensor([0.1], dtype=torch.float16).tolist(),
                torch.tensor([1., 2.], requires_grad=True).tolist(),
                torch.tensor(2.5, requires_grad=True).item()]
    same(prog)


def test_numpy_conversion():
    def prog(torch):
        t = torch.tensor([[1, 2]], dtype=torch.int32)
        a = t.numpy()
        return [a.dtype.name, a.shape, a.tolist(), torch.tensor(2.).numpy().shape,
                torch.tensor([True]).numpy().dtype.name,
                torch.tensor([1.], requires_grad=True).detach().numpy().tolist(),
                np.asarray(torch.tensor([1., 2.])).tolist(),
                torch.tensor([1., 2.], requires_grad=True).numpy(force=True).tolist()]
    same(prog)


# ---------------------------------------------------------------- conversions and copies

def test_clone():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        c = a.clone()
        d = torch.tensor([1., 2.]).clone()
        d[0] = 5.
        c.sum().backward()
        return c, c.grad_fn.name(), c.is_leaf, d, a.grad
    same(prog)


def test_clone_is_a_copy():
    def prog(torch):
        a = torch.tensor([1., 2.])
        c = a.clone()
        a[0] = 100.
        return c, c._version, a._version
    same(prog)


DTYPE_CONVERSIONS = {
    "float": lambda t: t.tensor([1, 2]).float(),
    "double": lambda t: t.tensor([1.5, 2.]).double(),
    "half": lambda t: t.tensor([1.5]).half(),
    "long": lambda t: t.tensor([1.7, -1.7]).long(),
    "int": lambda t: t.tensor([2.9]).int(),
    "bool": lambda t: t.tensor([0., 1.5]).bool(),
    "to_dtype": lambda t: t.tensor([1, 2]).to(t.float64),
    "to_dtype_kw": lambda t: t.tensor([1, 2]).to(dtype=t.float16),
    "to_same_dtype": lambda t: t.tensor([1., 2.]).to(t.float32),
    "to_int": lambda t: t.tensor([-1.5, 2.5]).to(t.int64),
    "to_uint8": lambda t: t.tensor([1, 300]).to(t.uint8),
    "to_cpu": lambda t: t.tensor([1.]).to("cpu"),
    "float_grad": lambda t: t.tensor([1., 2.], dtype=t.float64, requires_grad=True).float(),
    "to_grad": lambda t: t.tensor([1., 2.], requires_grad=True).to(t.float64),
    "type_str": lambda t: t.tensor([1., 2.]).type(),
}


@pytest.mark.parametrize("name", list(DTYPE_CONVERSIONS))
def test_dtype_conversions(name):
    def prog(torch):
        r = DTYPE_CONVERSIONS[name](torch)
        if isinstance(r, str):
            return r
        return r, r.dtype, r.is_leaf, r.requires_grad
    same(prog)


def test_same_dtype_conversion_returns_self():
    def prog(torch):
        a = torch.tensor([1., 2.])
        return a.float() is a, a.to(torch.float32) is a, a.to(torch.float32, copy=True) is a, \
            a.cpu() is a, a.contiguous() is a
    same(prog)


def test_to_backward():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        b = a.double() * 3
        b.sum().backward()
        return a.grad, a.grad.dtype
    same(prog)


# ---------------------------------------------------------------- in-place methods

def test_inplace_methods():
    def prog(torch):
        t = torch.tensor([1., 2., 3.])
        r = []
        for op, args in [("add_", (1,)), ("add_", (torch.tensor([1., 1., 2.]),)),
                         ("sub_", (0.5,)), ("mul_", (2,)), ("div_", (4,)),
                         ("mul_", (torch.tensor([1., -1., 2.]),)), ("fill_", (7.,)), ("zero_", ()),
                         ("copy_", (torch.tensor([4., 5., 6.]),)), ("copy_", (torch.tensor(9),)),
                         ("copy_", (torch.tensor([1, 2, 3]),))]:
            ret = getattr(t, op)(*args)
            r.append((op, ret is t, t.tolist(), t._version))
        t.add_(torch.tensor([1., 1., 1.]), alpha=2)
        t.sub_(torch.tensor([1., 1., 1.]), alpha=0.5)
        r.append(t)
        i = torch.tensor([1, 2, 3])
        i.add_(1)
        i.mul_(3)
        i.fill_(2.7)
        r.append(i)
        b = torch.tensor([1., 2.])
        b.fill_(torch.tensor(4.))
        r.append(b)
        return r
    same(prog)


def test_inplace_augmented_assignment():
    def prog(torch):
        t = torch.tensor([1., 2.])
        ident = id(t)
        t += 1
        t *= 3
        t -= 1
        t /= 2
        i = torch.tensor([4, 6])
        i //= 2
        return t, id(t) == ident, t._version, i
    same(prog)


def test_inplace_dtype_promotion_rules():
    def prog(torch):
        f = torch.tensor([1., 2.])
        f.add_(torch.tensor([1, 1]))
        f.mul_(torch.tensor(2, dtype=torch.float64))
        return f, f.dtype, catch(torch.tensor([1, 2]).add_, 0.5), \
            catch(torch.tensor([True]).add_, 1)
    same(prog)


def test_zero_grad_pattern():
    def prog(torch):
        w = torch.tensor([1., 2.], requires_grad=True)
        (w * w).sum().backward()
        w.grad.zero_()
        (w * 3).sum().backward()
        g = w.grad
        with torch.no_grad():
            w.sub_(0.1 * w.grad)
        return g, w, w.requires_grad, w.is_leaf
    same(prog)


# ---------------------------------------------------------------- protocols

def test_len_and_iter():
    def prog(torch):
        t = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
        rows = list(t)
        return [len(t), len(torch.zeros(0)), len(torch.zeros(4, 0)), rows,
                [r.shape for r in rows], [x.item() for x in torch.tensor([1, 2, 3])],
                [type(x).__name__ for x in torch.tensor([1, 2])][0] == "Tensor",
                list(torch.zeros(0))]
    same(prog)


def test_iter_of_requires_grad_tensor():
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        parts = list(a * 2)
        s = parts[0] + parts[2] * 3
        s.backward()
        return [p.grad_fn.name() for p in parts], a.grad
    same(prog)


def test_scalar_conversions():
    def prog(torch):
        return [float(torch.tensor(2.5)), int(torch.tensor(3.9)), int(torch.tensor([-3.9])),
                bool(torch.tensor(0.)), bool(torch.tensor([1])), float(torch.tensor([7])),
                [10, 20, 30][torch.tensor(1)], complex(torch.tensor(1.5)),
                round(float(torch.tensor(1.25)), 1), catch(lambda: bool(torch.zeros(0)))]
    same(prog)


def test_hash_and_identity():
    def prog(torch):
        a = torch.tensor([1.])
        b = torch.tensor([1.])
        return hash(a) == id(a), hash(a) != hash(b), len({a, b, a}), a in [a], (a is a.detach())
    same(prog)


COMPARISONS = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons(op):
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        b = torch.tensor([3., 2., 1.])
        rs = [getattr(a, op)(b), getattr(a, op)(2), getattr(a * 2, op)(b),
              getattr(torch.tensor([1, 2]), op)(torch.tensor([1.5, 2.])),
              getattr(torch.tensor([[1.], [2.]]), op)(torch.tensor([1., 2.])),
              getattr(torch.tensor(1.), op)(1)]
        return [(r, r.dtype, r.requires_grad, r.grad_fn is None, r.is_leaf) for r in rs]
    same(prog)


def test_comparison_with_python_on_left():
    def prog(torch):
        a = torch.tensor([1., 2., 3.])
        return [2 < a, 2 == a, 2.5 >= a, a == None, a != None]  # noqa: E711
    same(prog)


def test_logical_ops_on_bool():
    def prog(torch):
        m = torch.tensor([True, False, True])
        n = torch.tensor([True, True, False])
        return [m & n, m | n, m ^ n, ~m, ~torch.tensor([1, 2])]
    same(prog)


# ---------------------------------------------------------------- printing

REPRS = {
    "float_1d": lambda t: t.tensor([1., 2., 3.]),
    "float_mixed": lambda t: t.tensor([1.5, -2.25, 1e-3]),
    "float_big": lambda t: t.tensor([1e10, 1.]),
    "float_small": lambda t: t.tensor([1e-10, 1.]),
    "float_int_valued": lambda t: t.tensor([100., 2000.]),
    "float_nan_inf": lambda t: t.tensor([float("nan"), float("inf"), -float("inf"), 1.]),
    "float_0d": lambda t: t.tensor(3.),
    "float_0d_frac": lambda t: t.tensor(3.14159),
    "float64": lambda t: t.tensor([1., 2.], dtype=t.float64),
    "float64_0d": lambda t: t.tensor(2.5, dtype=t.float64),
    "float16": lambda t: t.tensor([1., 2.5], dtype=t.float16),
    "int": lambda t: t.tensor([1, -2, 300]),
    "int_0d": lambda t: t.tensor(5),
    "int32": lambda t: t.tensor([1, 2], dtype=t.int32),
    "uint8": lambda t: t.tensor([1, 255], dtype=t.uint8),
    "int8": lambda t: t.tensor([-1], dtype=t.int8),
    "int16": lambda t: t.tensor([7], dtype=t.int16),
    "bool": lambda t: t.tensor([True, False]),
    "bool_0d": lambda t: t.tensor(True),
    "empty": lambda t: t.zeros(0),
    "empty_2d": lambda t: t.zeros(2, 0),
    "empty_int": lambda t: t.zeros(0, dtype=t.int64),
    "empty_f64": lambda t: t.zeros(0, 3, dtype=t.float64),
    "matrix": lambda t: t.tensor([[1., 2.], [3., 4.]]),
    "matrix_int": lambda t: t.arange(12).reshape(3, 4),
    "cube": lambda t: t.arange(24.).reshape(2, 3, 4),
    "long_1d": lambda t: t.arange(1000.),
    "long_int": lambda t: t.arange(2000),
    "wide_rows": lambda t: t.arange(60.).reshape(3, 20) / 7,
    "big_matrix": lambda t: t.arange(10000.).reshape(100, 100),
    "requires_grad": lambda t: t.tensor([1., 2.], requires_grad=True),
    "requires_grad_0d": lambda t: t.tensor(1., requires_grad=True),
    "requires_grad_f64": lambda t: t.tensor([1., 2.], dtype=t.float64, requires_grad=True),
    "grad_fn_add": lambda t: t.tensor([1., 2.], requires_grad=True) + 1,
    "grad_fn_sum": lambda t: t.tensor([1., 2.], requires_grad=True).sum(),
    "grad_fn_f64": lambda t: t.tensor([1.], dtype=t.float64, requires_grad=True) * 2,
    "grad_fn_matrix": lambda t: t.ones(2, 2, requires_grad=True).exp(),
    "grad_fn_view": lambda t: t.ones(2, 2, requires_grad=True).t(),
    "grad_fn_empty": lambda t: t.zeros(0, requires_grad=True) * 2,
    "detached": lambda t: t.tensor([1., 2.], requires_grad=True).detach(),
    "no_grad_result": lambda t: _no_grad(t, lambda: t.tensor([1.], requires_grad=True) * 2),
    "negative_zero": lambda t: t.tensor([-0., 0.]),
    "sci_mixed": lambda t: t.tensor([1e-5, 1e5, 1.]),
    "neg": lambda t: t.tensor([-1., -2.5]),
    "comparison": lambda t: t.tensor([1., 2.]) > 1,
    "rand_shape": lambda t: t.zeros(3, 1, 2),
    "transposed": lambda t: t.arange(6.).reshape(2, 3).t(),
    "one_elem_2d": lambda t: t.tensor([[0.5]]),
}


def _no_grad(t, fn):
    with t.no_grad():
        return fn()


@pytest.mark.parametrize("name", list(REPRS))
def test_repr_matches_torch(name):
    want = sub_name(repr(REPRS[name](torch)))
    got = repr(REPRS[name](autograd_core))
    assert got == want, f"\n--- torch ---\n{want}\n--- autograd_core ---\n{got}"


@pytest.mark.parametrize("name", ["float_1d", "int", "bool", "requires_grad", "grad_fn_add", "matrix"])
def test_str_and_print(name, capsys):
    print(REPRS[name](torch))
    want = sub_name(capsys.readouterr().out)
    print(REPRS[name](autograd_core))
    got = capsys.readouterr().out
    assert got == want
    assert str(REPRS[name](autograd_core)) == sub_name(str(REPRS[name](torch)))
    assert f"{REPRS[name](autograd_core)}" == sub_name(f"{REPRS[name](torch)}")


def test_is_tensor_and_type():
    def prog(torch):
        t = torch.ones(2)
        return [torch.is_tensor(t), torch.is_tensor([1]), isinstance(t, torch.Tensor),
                type(t).__name__, torch.numel(t)]
    same(prog)


# ------------------------------------------------------- Tensor.set_
@pytest.mark.parametrize("form", ["tensor", "empty", "strided", "strided_default_stride",
                                  "offset_from_view", "view_target"])
def test_set_(form):
    def prog(torch):
        y = torch.arange(6.0)
        b = torch.ones(2)
        if form == "tensor":
            r = b.set_(y[2:])
        elif form == "empty":
            r = b.set_()
        elif form == "strided":
            r = b.set_(y, 1, (2, 2), (2, 1))
        elif form == "strided_default_stride":
            r = b.set_(y, 0, (2, 3))
        elif form == "offset_from_view":
            r = b.set_(y[2:], 1, (2,))
        else:
            x = torch.ones(4)
            b = x[1:3]
            r = b.set_(y)
        assert r is b
        out = [b.clone(), b.shape, b.stride(), b._version, y._version]
        y[3] = 9.0   # the memory is shared
        return out + [b.clone()]
    same(prog)


def test_set_autograd():
    def prog(torch):
        r = []
        x = torch.ones(2, requires_grad=True)
        try:
            x.set_(torch.zeros(2))
        except RuntimeError as e:
            r.append(str(e))
        with torch.no_grad():
            x.set_(torch.arange(3.0))
        r += [x, x.requires_grad, x.is_leaf, x._version]
        a = torch.ones(2, requires_grad=True).clone()
        a.set_(torch.arange(3.0))
        r += [type(a.grad_fn).__name__, a.grad_fn.name(), a.requires_grad, a.is_leaf]
        try:
            a.sum().backward()
        except RuntimeError as e:
            r.append(str(e))
        b = torch.ones(2)
        b.set_(torch.zeros(3, requires_grad=True))
        r += [type(b.grad_fn).__name__, b.requires_grad]
        return r
    same(prog)


def test_set_errors():
    def prog(torch, which):
        b = torch.ones(2)
        if which == "dtype":
            b.set_(torch.ones(2, dtype=torch.float64))
        elif which == "type":
            b.set_(3)
        elif which == "offset":
            b.set_(torch.arange(6.0), -1, (2,))
    for which in ("dtype", "offset"):
        same(prog, which, must_raise=True)
    same_error(prog, "type", message="prefix")  # (PyTorch also lists Storage overloads)


# -------------------------------- float() of a tensor requiring grad
def test_float_of_tensor_requiring_grad_warns_once_per_process():
    import subprocess
    import sys
    from _subprocess import CWD, child_env
    code = ("import warnings, {m} as torch\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    x = torch.tensor(2., requires_grad=True)\n"
            "    with torch.no_grad():\n"
            "        float(x)\n"
            "    float(torch.tensor(2.)); int(x)\n"
            "    print(float(x * 2), float(x))\n"
            "print([(i.category.__name__, str(i.message).split(' (Triggered')[0]) for i in w])\n")
    outs = [subprocess.run([sys.executable, "-c", code.format(m=m)], cwd=CWD, env=child_env(),
                           capture_output=True, text=True, timeout=120) for m in ("torch", "autograd_core")]
    assert outs[1].returncode == 0, outs[1].stderr
    assert outs[1].stdout == outs[0].stdout
    assert "Converting a tensor with requires_grad=True" in outs[1].stdout
