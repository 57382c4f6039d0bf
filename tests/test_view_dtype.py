"""Tensor.view(dtype) against PyTorch: sizes and strides, its errors (in PyTorch's order),
the shared memory and version counter, and its autograd rule (no history: a leaf that
does not require grad, as detach())."""
import pytest

from _diff import same, same_error

import autograd_core as ag

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64"]


def _described(t):
    # (not compared: storage_offset(), which is 0 here for a detach()/view(dtype) of a
    # view with an offset, PyTorch's being the view's)
    return t, tuple(t.shape), t.stride(), t.requires_grad, t.is_leaf, t._is_view(), \
        t.grad_fn is None


@pytest.mark.parametrize("dst", DTYPES)
def test_sizes_and_strides(dst):
    def prog(m):
        x = m.arange(24, dtype=m.int8).reshape(2, 12)
        return [_described(x.view(getattr(m, dst))),
                _described(x[:, 8:].view(getattr(m, dst))),
                _described(x.view(m.int16).view(getattr(m, dst)))]
    same(prog, may_raise=True)


@pytest.mark.parametrize("case", [
    lambda m: m.arange(12.).reshape(3, 4).t().view(m.float64),        # stride(-1) != 1
    lambda m: m.arange(12.).reshape(3, 4).t().view(m.int8),
    lambda m: m.arange(12.).reshape(3, 4)[:, 1:].view(m.float64),      # size(-1)
    lambda m: m.arange(12.).reshape(3, 4)[:, 1:3].view(m.float64),     # storage offset
    lambda m: m.tensor(1.).view(m.float16),                            # 0-d
    lambda m: m.tensor(1.).view(m.float64),
    lambda m: m.ones(4, 4)[:, ::2].view(m.float64),
    lambda m: m.ones(2, 4, dtype=m.int8)[:, ::2].view(m.int16),
    lambda m: m.ones(3, 0, dtype=m.int8).view(m.int16),                # stride(0)
    lambda m: m.ones(4).view(m.float32, 2),
    lambda m: m.ones(4).view("float32"),
])
def test_errors(case):
    same_error(case)


def test_values_and_sharing():
    def prog(m):
        x = m.arange(4.)
        v = x.view(m.int32)
        v[0] = 5
        x.add_(1)
        return x, v, x._version, v._version, v._base is None, \
            m.ones(4, dtype=m.bool).view(m.uint8), m.tensor(1.).view(m.int32), \
            m.ones(4, dtype=m.float16).view(m.float32), m.zeros(0, dtype=m.int8).view(m.int16)
    same(prog)


def test_no_autograd_history():
    def prog(m):
        y = m.ones(4, requires_grad=True)
        outs = [y.view(m.float32), y.view(m.int32), (y * 2).view(m.float16),
                (y * 2).view(m.bfloat16), y.view(m.float64)]
        k = y.detach().clone().requires_grad_()
        k.view(m.float32).mul_(2)       # an in-place write through it is allowed
        return [_described(o) for o in outs], k
    same(prog)


def test_dtype_keyword():
    same(lambda m: m.arange(12.).reshape(3, 4).view(dtype=m.int32).shape)


def test_result_is_not_self():
    x = ag.ones(3)
    assert x.view(ag.float32) is not x
