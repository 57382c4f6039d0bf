"""Issue 25 ("exact in every corner"): tensors from any Python sequence, printing under
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
from _diff import catch, same, same_error, sub_name, torch
from _subprocess import CWD, child_env


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
