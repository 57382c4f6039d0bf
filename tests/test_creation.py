"""Tensor creation: tensors from any Python sequence, printing under
a non-default dtype, view(dtype), sizes and indices past int64, and backward with a
number as the gradient.  Every case runs under torch and autograd_core and compares
values, dtypes and exception types and messages (tests/_diff.py)."""
import array
import collections
import subprocess
import sys

import numpy as np
import pytest

import autograd_core
from _diff import catch, same, sub_name, torch, warns
from _subprocess import CWD, child_env
from _diff import same_error


# ------------------------------------------------------------------ tensors from sequences

class _Seq:
    """A sequence by protocol only (__len__ and __getitem__)."""

    def __init__(self, *items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class _NoLen:
    def __getitem__(self, i):
        return 1.0


class _ArrayLike:
    def __array__(self, dtype=None, copy=None):
        return np.array([1, 2], dtype=np.int32)


def _gen():
    yield 1.0


def _self_referential():
    x = []
    x.append(x)
    return x


# (id, data, dtype name or None): each is read by tensor(), as_tensor() and new_tensor()
SEQUENCES = [
    ("deque", lambda m: collections.deque([1.0, 2.0]), None),
    ("deque_int", lambda m: collections.deque([1, 2]), None),
    ("deque_of_returns", lambda m: collections.deque([0.5 * i for i in range(5)]), "float64"),
    ("range", lambda m: range(4), None),
    ("range_empty", lambda m: range(0), None),
    ("deque_empty", lambda m: collections.deque(), None),
    ("array_d", lambda m: array.array("d", [1.5, 2.5]), None),
    ("array_i", lambda m: array.array("i", [1, -2]), None),
    ("bytearray", lambda m: bytearray(b"ab"), None),
    ("memoryview", lambda m: memoryview(b"ab"), None),
    ("protocol_sequence", lambda m: _Seq(1.5, 2.5), None),
    ("nested_mixture", lambda m: [collections.deque([1, 2]), (3, 4), range(5, 7)], None),
    ("tuple_of_0d", lambda m: (m.tensor(1.), m.tensor(2.)), None),
    ("list_of_1el", lambda m: [m.tensor([1.]), m.tensor([2.])], None),
    ("deque_of_0d_int32", lambda m: collections.deque([m.tensor(1, dtype=m.int32)] * 2), None),
    ("0d_int_and_float", lambda m: [m.tensor(1), 2.5], None),
    ("0d_int16_and_float", lambda m: [m.tensor(1, dtype=m.int16), 2.0], None),
    ("0d_float64_and_int", lambda m: [m.tensor(1., dtype=m.float64), 2], None),
    ("0d_bool_and_bool", lambda m: [m.tensor(True), False], None),
    ("rows_of_tensors", lambda m: [[m.tensor(1), m.tensor(2)], [m.tensor(3), m.tensor(4)]], None),
    ("tensor_row", lambda m: [[1, 2], m.tensor([3, 4])], None),
    ("np_float64_scalars", lambda m: [np.float64(1), np.float64(2)], None),
    ("np_float32_scalars", lambda m: [np.float32(1), np.float32(2)], None),
    ("np_int32_and_float", lambda m: [np.int32(1), 2.5], None),
    ("np_float16_and_int", lambda m: [np.float16(1), 2], None),
    ("np_uint8_and_int8", lambda m: [np.uint8(1), np.int8(2)], None),
    ("np_bools", lambda m: [np.bool_(True), np.bool_(False)], None),
    ("np_arrays", lambda m: [np.array([1, 2], dtype=np.int16), np.array([3, 4], dtype=np.int16)],
     None),
    ("np_float32_array_and_list", lambda m: [np.array([1], dtype=np.float32), [2.0]], None),
    ("np_empty_array", lambda m: [np.zeros(0, dtype=np.int16)], None),
    ("empty_rows", lambda m: [[], []], None),
    ("empty_then_ragged", lambda m: [[], [1]], None),
    ("bool_and_int", lambda m: [True, 2], None),
    ("big_int_with_float", lambda m: [2 ** 70, 1.0], None),
    ("big_int_as_bool", lambda m: [2 ** 70, 0], "bool"),
    ("floats_as_int", lambda m: [2.9, -2.9], "int64"),
    ("uint8_wraps_negative_int", lambda m: [-200, 3], "uint8"),
    ("floats_to_float16", lambda m: [0.1, 65519.99, 1e-8], "float16"),
    ("numbers_as_bool", lambda m: [0.0, 2, -1, np.bool_(True)], "bool"),
    ("int_tensors_as_bool", lambda m: [m.tensor(2), m.tensor([True])], "bool"),
    ("int_tensor_as_float", lambda m: [m.tensor(3)], "float32"),
    ("np_float64_as_int", lambda m: [np.float64(1.5)], "int64"),
    # errors: PyTorch's type and message at the pass where PyTorch fails
    ("set", lambda m: {1, 2}, None),
    ("set_as_float", lambda m: {1, 2}, "float32"),
    ("set_as_int", lambda m: {1}, "int64"),
    ("set_as_bool", lambda m: {1}, "bool"),
    ("dict", lambda m: {1: 2}, None),
    ("generator", lambda m: _gen(), None),
    ("str", lambda m: "ab", None),
    ("bytes", lambda m: b"ab", None),
    ("list_of_str", lambda m: ["a"], None),
    ("list_of_str_as_float", lambda m: ["ab"], "float32"),
    ("no_len", lambda m: _NoLen(), None),
    ("object", lambda m: object(), None),
    ("none", lambda m: None, None),
    ("none_as_float", lambda m: None, "float32"),
    ("array_like", lambda m: _ArrayLike(), None),
    ("list_of_array_like", lambda m: [_ArrayLike()], None),
    ("list_of_set", lambda m: [{1}, {2}], None),
    ("list_of_set_as_float", lambda m: [{1}], "float32"),
    ("list_of_dict", lambda m: [{1: 2}], None),
    ("list_of_none", lambda m: [None], None),
    ("ragged", lambda m: [[1, 2], [3]], None),
    ("ragged_deque", lambda m: [[1, 2], collections.deque([3])], None),
    ("ragged_number_after_list", lambda m: [[1, 2], 3], None),
    ("ragged_list_after_number", lambda m: [1, [2, 3]], None),
    ("ragged_list_after_float", lambda m: [1., [2, 3]], None),
    ("ragged_list_as_bool", lambda m: [True, [2, 3]], "bool"),
    ("self_referential", lambda m: _self_referential(), None),
    ("np_0d_arrays", lambda m: [np.array(1.0), np.array(2.0)], None),
    ("np_0d_array_as_float", lambda m: [np.array(1.0)], "float32"),
    ("two_element_tensors", lambda m: [m.tensor([1., 2.]), m.tensor([3., 4.])], None),
    ("two_element_int_tensors", lambda m: [m.tensor([1, 2])], "int64"),
    ("float_tensor_as_int", lambda m: [m.tensor(1.5)], "int64"),
    ("float_tensor_as_bool", lambda m: [m.tensor(1.5)], "bool"),
    ("np_float32_as_int", lambda m: [np.float32(1.5)], "int64"),
    ("np_bool_and_int", lambda m: [np.bool_(True), 3], None),
    ("big_int", lambda m: [2 ** 70], None),
    ("int_too_big_for_float", lambda m: [2 ** 1100, 1.0], None),
    ("float_past_int64", lambda m: [1e20], "int64"),
    ("nan_as_int", lambda m: [float("nan")], "int32"),
    ("inf_as_int", lambda m: [float("inf")], "int32"),
    ("int8_overflow", lambda m: [300], "int8"),
    ("uint8_overflow_negative", lambda m: [-300], "uint8"),
    ("uint8_negative_float", lambda m: [-1.0], "uint8"),
    ("uint8_fraction_below_zero", lambda m: [1.7, -0.5], "uint8"),
]


def _dtype(m, name):
    return None if name is None else getattr(m, name)


@pytest.mark.parametrize("case", SEQUENCES, ids=[c[0] for c in SEQUENCES])
@pytest.mark.parametrize("entry", ["tensor", "as_tensor", "asarray"])
def test_data_read_as_pytorch_reads_it(case, entry):
    _, data, dtype = case
    if entry == "tensor":
        same(lambda m: m.tensor(data(m), dtype=_dtype(m, dtype)), may_raise=True, quiet=True)
    elif entry == "as_tensor":
        same(lambda m: m.as_tensor(data(m), dtype=_dtype(m, dtype)), may_raise=True, quiet=True)
    else:
        same(lambda m: m.asarray(data(m), dtype=_dtype(m, dtype)), may_raise=True, quiet=True)


@pytest.mark.parametrize("case", SEQUENCES, ids=[c[0] for c in SEQUENCES])
def test_new_tensor_reads_data_as_self_dtype(case):
    # new_tensor takes self's dtype: no inference, so non-sequences fail in the store
    _, data, dtype = case
    same(lambda m: m.zeros(1, dtype=_dtype(m, dtype or "float64")).new_tensor(data(m)),
         may_raise=True, quiet=True)


LEGACY = [
    ("Tensor", lambda m, x: m.Tensor(x)),
    ("FloatTensor", lambda m, x: m.FloatTensor(x)),
    ("LongTensor", lambda m, x: m.LongTensor(x)),
    ("DoubleTensor", lambda m, x: m.DoubleTensor(x)),
    ("new", lambda m, x: m.zeros(1).new(x)),
]


@pytest.mark.parametrize("ctor", LEGACY, ids=[c[0] for c in LEGACY])
@pytest.mark.parametrize("data", [
    lambda m: collections.deque([1, 2]), lambda m: range(3), lambda m: _Seq(1.5, 2.5),
    lambda m: array.array("d", [1.0]), lambda m: [m.tensor(1.), 2], lambda m: {1.0},
    lambda m: _gen(), lambda m: 2.5, lambda m: "ab", lambda m: [[1], [2, 3]],
    lambda m: np.array([1, 2], dtype=np.int64),
], ids=["deque", "range", "protocol", "array", "tensor_items", "set", "generator", "float",
        "str", "ragged", "ndarray"])
def test_legacy_constructors_take_any_sequence(ctor, data):
    same(lambda m: ctor[1](m, data(m)), may_raise=True, quiet=True)


def test_reinforce_returns_from_a_deque():
    # PyTorch's REINFORCE example normalises a deque of discounted returns
    def prog(m):
        returns = collections.deque()
        r = 0.0
        for reward in [1.0, 0.0, 1.0, 1.0]:
            r = reward + 0.99 * r
            returns.appendleft(r)
        t = m.tensor(returns)
        return (t - t.mean()) / (t.std() + 1e-8)
    same(prog)


def test_list_of_arrays_warns_as_pytorch():
    # both warn once per process (TORCH_WARN_ONCE), so each side is asked in a fresh one
    code = ("import warnings, numpy as np, {mod} as m\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    for _ in range(2): m.tensor([np.array([1.0]), np.array([2.0])])\n"
            "for x in w: print(x.category.__name__, x.message)\n")
    def run(mod):
        out = subprocess.run([sys.executable, "-c", code.format(mod=mod)], env=child_env(),
                             cwd=CWD, capture_output=True, text=True, check=True).stdout
        return [sub_name(line) for line in out.splitlines()]
    assert run("autograd_core") == run("torch")


def test_deep_nesting_does_not_crash():
    deep = 1.0
    for _ in range(100_000):
        deep = [deep]
    r = catch(autograd_core.tensor, [1.0, deep])
    assert isinstance(r.exc, RecursionError)


# ------------------------------------------------------------------ printing under a default dtype

def _printed(m):
    x64 = m.tensor([1.5, 2.0], dtype=m.float64)
    x32 = m.tensor([1.5, 2.0], dtype=m.float32)
    return [repr(x64), repr(x32), str(x32), repr(m.tensor([1.5, 2.0])), repr(m.tensor(3.0)),
            repr(m.tensor(2.5, dtype=m.float32)), repr(m.tensor(2.5, dtype=m.float64)),
            repr(m.tensor([], dtype=m.float64)), repr(m.tensor([], dtype=m.float32)),
            repr(m.tensor([])), repr(m.zeros(0, 2, dtype=m.float32)),
            repr(m.tensor([1, 2])), repr(m.tensor([True])), repr(m.tensor([], dtype=m.int64)),
            repr(m.tensor([1., 2.], dtype=m.float16)),
            repr(m.tensor([1.5], requires_grad=True) * 2),
            repr(x32.clone().requires_grad_() * 2), repr(x64.clone().requires_grad_()),
            repr(m.nn.Parameter(m.tensor([1.0, 2.0]))), repr(m.nn.Parameter(x32)),
            repr(m.nn.Linear(1, 1).bias.dtype), repr(m.arange(3.)),
            repr(m.ones(2, 2, dtype=m.float32).t())]


@pytest.mark.parametrize("default", ["float64", "float16", "float32"])
def test_repr_omits_the_default_dtype_only(default):
    def prog(m):
        m.set_default_dtype(getattr(m, default))
        try:
            return _printed(m)
        finally:
            m.set_default_dtype(m.float32)
    same(prog)


# ------------------------------------------------------------------ view(dtype)

def _a(m, n=4):
    return m.arange(float(n))


VIEW_DTYPE = [
    ("float_as_int32", lambda m: _a(m).view(m.int32)),
    ("float_as_float64", lambda m: _a(m).view(m.float64)),
    ("float_as_float64_odd", lambda m: _a(m, 3).view(m.float64)),
    ("float_as_float16", lambda m: _a(m, 2).view(m.float16)),
    ("float_as_uint8", lambda m: m.tensor([1.0]).view(m.uint8)),
    ("float_as_bool", lambda m: m.tensor([1.0]).view(m.bool)),
    ("bool_as_uint8", lambda m: m.tensor([True, False]).view(m.uint8)),
    ("uint8_as_bool", lambda m: m.tensor([1, 0, 1], dtype=m.uint8).view(m.bool)),
    ("int64_as_float64", lambda m: m.tensor([1, 2]).view(m.float64)),
    ("float64_as_float32", lambda m: m.tensor([1.0], dtype=m.float64).view(m.float32)),
    ("int16_as_int8", lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.int16).view(m.int8)),
    ("0d_same_size", lambda m: m.tensor(1.0).view(m.int32)),
    ("0d_larger", lambda m: m.tensor(1.0).view(m.float64)),
    ("0d_smaller", lambda m: m.tensor(1.0).view(m.int16)),
    ("2d_larger", lambda m: _a(m, 8).reshape(2, 4).view(m.float64)),
    ("2d_smaller", lambda m: _a(m).reshape(2, 2).view(m.int16)),
    ("transposed_larger", lambda m: _a(m, 8).reshape(4, 2).t().view(m.float64)),
    ("transposed_smaller", lambda m: _a(m, 8).reshape(4, 2).t().view(m.int16)),
    ("transposed_same_size", lambda m: _a(m).reshape(2, 2).t().view(m.int32)),
    ("last_dim_1_larger", lambda m: _a(m, 8).reshape(4, 2)[:, :1].view(m.float64)),
    ("last_dim_1_smaller", lambda m: _a(m, 8).reshape(4, 2)[:, :1].view(m.int16)),
    ("odd_offset", lambda m: _a(m, 8)[1:5].view(m.float64)),
    ("even_offset", lambda m: _a(m, 8)[2:6].view(m.float64)),
    ("even_row_stride", lambda m: _a(m, 12).reshape(3, 4)[:, :2].view(m.float64)),
    ("odd_row_stride", lambda m: _a(m, 12).reshape(4, 3)[:, :2].view(m.float64)),
    ("step_2_larger", lambda m: _a(m, 8)[::2].view(m.float64)),
    ("step_2_smaller", lambda m: _a(m, 8)[::2].view(m.int16)),
    ("empty", lambda m: m.zeros(0).view(m.float64)),
    ("expanded_larger", lambda m: m.zeros(1).expand(4).view(m.float64)),
    ("expanded_same_size", lambda m: m.zeros(1).expand(4).view(m.int32)),
    ("python_float", lambda m: _a(m).view(float)),
    ("python_int", lambda m: _a(m).view(int)),
    ("keyword", lambda m: _a(m).view(dtype=m.int32)),
    ("then_shape", lambda m: _a(m).view(m.int32).view(2, 2)),
    ("size_and_dtype", lambda m: _a(m).view(2, m.int32)),
    ("str", lambda m: _a(m).view("float64")),
    ("float", lambda m: _a(m).view(2.5)),
    ("none", lambda m: _a(m).view(None)),
    ("int_tensor", lambda m: _a(m).view(m.tensor(4))),
]


@pytest.mark.parametrize("case", VIEW_DTYPE, ids=[c[0] for c in VIEW_DTYPE])
def test_view_dtype(case):
    same(case[1], may_raise=True)


def _alias_facts(m, make_input, d):
    a = make_input(m)
    v = a.view(getattr(m, d))
    facts = [v.requires_grad, v.grad_fn is None, v.is_leaf, v._is_view(), v._base is None,
             v is a]
    v.add_(1)  # writes through: a sees them, and both versions move
    return facts + [a.detach().clone(), a._version, v._version]


@pytest.mark.parametrize("d", ["float32", "int32", "float64", "int16", "float16"])
@pytest.mark.parametrize("make_input", [
    lambda m: m.zeros(4),
    lambda m: m.zeros(4, requires_grad=True),
    lambda m: m.zeros(4, requires_grad=True) * 2,
    lambda m: m.zeros(6)[2:],
], ids=["plain", "leaf_requires_grad", "non_leaf", "view_of_slice"])
def test_view_dtype_shares_memory_but_no_history(make_input, d):
    # PyTorch's view.dtype is not differentiable: a leaf without grad, not an autograd
    # view, over the same memory and version counter
    same(lambda m: _alias_facts(m, make_input, d))


def test_view_dtype_output_cannot_backward():
    same(lambda m: (m.ones(2, requires_grad=True) * 2).view(m.float32).sum().backward(),
         must_raise=True)


# ------------------------------------------------------------------ ints past int64

BIG = [
    ("index_2_63", lambda m: _a(m)[2 ** 63]),
    ("index_below_int64", lambda m: _a(m)[-2 ** 63 - 1]),
    ("index_int64_max", lambda m: _a(m)[2 ** 63 - 1]),
    ("index_int64_min", lambda m: _a(m)[-2 ** 63]),
    ("index_numpy_int", lambda m: _a(m)[np.int64(2 ** 62)]),
    ("index_in_tuple", lambda m: _a(m).reshape(2, 2)[0, 2 ** 63]),
    ("index_list", lambda m: _a(m)[[2 ** 63]]),
    ("index_list_negative", lambda m: _a(m)[[0, -2 ** 63 - 1]]),
    ("setitem", lambda m: _a(m).__setitem__(2 ** 63, 1.)),
    ("slice_start", lambda m: _a(m)[2 ** 64:]),
    ("slice_both", lambda m: _a(m)[-2 ** 64:2 ** 64]),
    ("slice_in_tuple", lambda m: _a(m).reshape(2, 2)[:, -2 ** 70:2 ** 70]),
    ("reshape_product_past_int64", lambda m: _a(m).reshape(2 ** 62, 4)),
    ("reshape_2_32_squared", lambda m: _a(m).reshape(2 ** 32, 2 ** 32)),
    ("reshape_int64_max", lambda m: _a(m).reshape(2 ** 63 - 1)),
    ("reshape_2_63", lambda m: _a(m).reshape(2 ** 63)),
    ("reshape_2_64", lambda m: _a(m).reshape(2 ** 64)),
    ("reshape_minus_2_64", lambda m: _a(m).reshape(-2 ** 64)),
    ("reshape_second", lambda m: _a(m).reshape(-1, 2 ** 63)),
    ("view_2_63", lambda m: _a(m).view(2 ** 63)),
    ("view_product_past_int64", lambda m: _a(m).view(2 ** 62, 4)),
    ("zeros_2_63", lambda m: m.zeros(2 ** 63)),
    ("zeros_2_64", lambda m: m.zeros(2 ** 64)),
    ("zeros_below_int64", lambda m: m.zeros(-2 ** 63 - 1)),
    ("zeros_storage_overflow", lambda m: m.zeros(2 ** 62, 4)),
    ("ones_tuple", lambda m: m.ones((2 ** 63,))),
    ("empty", lambda m: m.empty(2 ** 63)),
    ("full", lambda m: m.full((2 ** 63,), 1.)),
    ("randn", lambda m: m.randn(2 ** 63)),
    ("expand", lambda m: m.zeros(1).expand(2 ** 63)),
    ("narrow_start", lambda m: _a(m).narrow(0, 2 ** 63, 1)),
    ("narrow_length", lambda m: _a(m).narrow(0, 0, 2 ** 63)),
    ("narrow_negative", lambda m: _a(m).narrow(0, -2 ** 63 - 1, 1)),
    ("select_index", lambda m: _a(m).select(0, 2 ** 63)),
    ("select_dim", lambda m: _a(m).select(2 ** 63, 0)),
    ("sum_dim", lambda m: _a(m).sum(2 ** 63)),
    ("unsqueeze", lambda m: _a(m).unsqueeze(2 ** 63)),
    ("transpose", lambda m: _a(m).transpose(0, 2 ** 63)),
    ("permute", lambda m: _a(m).permute(2 ** 63)),
    ("repeat", lambda m: _a(m).repeat(2 ** 63)),
    ("flatten", lambda m: _a(m).flatten(2 ** 63)),
    ("split", lambda m: _a(m).split(2 ** 63)),
    ("chunk", lambda m: _a(m).chunk(2 ** 63)),
    ("roll", lambda m: _a(m).roll(2 ** 63)),
    ("topk", lambda m: _a(m).topk(2 ** 63)),
    ("new_zeros", lambda m: _a(m).new_zeros(2 ** 63)),
    ("cat_dim", lambda m: m.cat([_a(m)], 2 ** 63)),
    ("unflatten", lambda m: _a(m).unflatten(0, (2 ** 63, -1))),
    ("as_strided", lambda m: _a(m).as_strided((2 ** 63,), (1,))),
    ("diagonal", lambda m: _a(m).reshape(2, 2).diagonal(2 ** 63)),
    ("movedim", lambda m: _a(m).movedim(0, 2 ** 63)),
    ("squeeze", lambda m: _a(m).squeeze(2 ** 63)),
    ("size", lambda m: _a(m).size(2 ** 63)),
    ("stride", lambda m: _a(m).stride(2 ** 63)),
]


@pytest.mark.parametrize("case", BIG, ids=[c[0] for c in BIG])
def test_ints_past_int64_raise_as_pytorch(case):
    same(case[1], may_raise=True)


def test_slice_past_int64_warns_as_pytorch():
    same(lambda m: warns(lambda: _a(m)[-2 ** 64:2 ** 70]))


# ------------------------------------------------------------------ a number as the gradient

GRADIENT_NUMBERS = [
    ("backward_int_nonscalar", lambda m, x: (x * 2).backward(5)),
    ("backward_float_nonscalar", lambda m, x: (x * 2).backward(5.0)),
    ("backward_int_scalar", lambda m, x: (x * 2).sum().backward(5)),
    ("backward_float_scalar", lambda m, x: (x * 2).sum().backward(5.0)),
    ("backward_bool", lambda m, x: (x * 2).sum().backward(True)),
    ("backward_keyword", lambda m, x: (x * 2).sum().backward(gradient=5)),
    ("backward_list_of_int", lambda m, x: (x * 2).sum().backward([5])),
    ("backward_str", lambda m, x: (x * 2).sum().backward("a")),
    ("autograd_backward_int", lambda m, x: m.autograd.backward(x * 2, 5)),
    ("autograd_backward_scalar", lambda m, x: m.autograd.backward((x * 2).sum(), 5)),
    ("autograd_backward_list", lambda m, x: m.autograd.backward([(x * 2).sum()], [5])),
    ("autograd_backward_str", lambda m, x: m.autograd.backward((x * 2).sum(), "ab")),
    ("grad_int", lambda m, x: m.autograd.grad(x * 2, x, 5)),
    ("grad_int_scalar", lambda m, x: m.autograd.grad((x * 2).sum(), x, 5)),
    ("grad_float_scalar", lambda m, x: m.autograd.grad((x * 2).sum(), x, 5.0)),
    ("grad_keyword", lambda m, x: m.autograd.grad((x * 2).sum(), x, grad_outputs=5)),
    ("grad_list", lambda m, x: m.autograd.grad([(x * 2).sum()], [x], [5])),
    ("grad_list_none", lambda m, x: m.autograd.grad([(x * 2).sum()], [x], [None])),
    ("grad_str", lambda m, x: m.autograd.grad((x * 2).sum(), x, "ab")),
    ("backward_none", lambda m, x: ((x * 2).sum().backward(None), x.grad)[1]),
    ("backward_tensor", lambda m, x: ((x * 2).sum().backward(m.tensor(5.)), x.grad)[1]),
    ("backward_tensor_list", lambda m, x: ((x * 2).backward([m.ones(3)]), x.grad)[1]),
]


@pytest.mark.parametrize("case", GRADIENT_NUMBERS, ids=[c[0] for c in GRADIENT_NUMBERS])
def test_number_as_gradient(case):
    same(lambda m: case[1](m, m.ones(3, requires_grad=True)), may_raise=True)


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_python_float_dtype_is_float64(default):
    def prog(m):
        m.set_default_dtype(getattr(m, default))
        try:
            return [m.zeros(1, dtype=float).dtype, m.tensor([1], dtype=float).dtype,
                    m.arange(2.).view(float).shape]
        finally:
            m.set_default_dtype(m.float32)
    same(prog)


# -------------------------------------------------- size= by keyword
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
def test_size_by_keyword(fn):
    def prog(mod):
        mod.manual_seed(0)
        t = getattr(mod, fn)(size=(2, 3), dtype=mod.float64)
        return t.shape, t.dtype, (t if fn != "empty" else None)
    same(prog)
    same_error(lambda mod: getattr(mod, fn)(2, size=(2, 3)))
