"""Issue 13: the misuse catalogue.  Each case is one deliberate misuse of the public API,
run under torch and under autograd_core: both must raise, with the same exception type
(the builtin class a user's ``except`` names, as tests/_diff.py's ``Raised`` sees it),
with a message that says what was wrong, and no numpy exception or numpy wording may
reach the user.  After each call a small computation must still be right (the process
is healthy: grad mode, default dtype and the engine unharmed).

A case is ``(id, f(mod), check)``; check is True (torch's message exactly, through
``sub_name``), "prefix" (torch's message up to its first colon), a string (a key phrase
both messages contain: torch's message is the specification of what must be said), or
None (the type only: torch's message names C++ internals or CPython classes).
Run ``python tests/test_misuse.py`` for a table of every divergence."""
import copy
import math
import pickle
import re
import sys

import numpy as np
import pytest

import autograd_core
from _diff import Raised, catch, sub_name, torch

# ------------------------------------------------------------------ helpers


def leaf(m, data=(1., 2., 3.)):
    return m.tensor(list(data), requires_grad=True)


def _set(obj, name, value):
    setattr(obj, name, value)


def _setitem(obj, key, value):
    obj[key] = value


def _backward_twice(m):
    a = leaf(m)
    y = (a * a).sum()
    y.backward()
    y.backward()


def _grad_twice(m):
    a = leaf(m)
    y = a.exp().sum()
    m.autograd.grad(y, a)
    m.autograd.grad(y, a)


def _modified_saved(m, op):
    a = leaf(m)
    b = op(a * 1)
    b.mul_(2)
    b.sum().backward()


def _modified_input(m, op):
    a = leaf(m)
    x = a * 1
    y = op(x)
    x.add_(1)
    y.sum().backward()


def _hook(m, fn, out=lambda a: a.exp().sum()):
    a = leaf(m)
    a.register_hook(fn)
    out(a).backward()


def _nonleaf_hook(m, fn):
    a = leaf(m)
    b = a * 2
    b.register_hook(fn)
    b.sum().backward()


def _node_hook(m, fn, pre=False):
    a = leaf(m)
    b = a * 2
    (b.grad_fn.register_prehook if pre else b.grad_fn.register_hook)(fn)
    b.sum().backward()


def _fn_class(m, forward, backward, **extra):
    def fwd(ctx, *args):
        return forward(m, ctx, *args)

    def bwd(ctx, *grads):
        return backward(m, ctx, *grads)
    ns = {"forward": staticmethod(fwd), "backward": staticmethod(bwd)}
    ns.update(extra)
    return type("F", (m.autograd.Function,), ns)


def _function(m, forward, backward, inputs=None, reduce=True):
    F = _fn_class(m, forward, backward)
    xs = inputs(m) if inputs is not None else (leaf(m),)
    out = F.apply(*xs)
    if reduce:
        if isinstance(out, tuple):
            out = out[0]
        out.sum().backward()
    return out


def _id_fwd(m, ctx, x):
    return x * 2


def _grad_bwd(m, ctx, g):
    return g


def _dirty_not_returned(m, ctx, x):
    x.add_(1)
    ctx.mark_dirty(x)
    return x * 2


def _dirty_leaf_view(m):
    F = _fn_class(m, lambda m, ctx, x: (x.add_(1), ctx.mark_dirty(x))[0], _grad_bwd)
    a = leaf(m)
    F.apply(a[:2])


def _dirty_leaf(m):
    F = _fn_class(m, lambda m, ctx, x: (x.add_(1), ctx.mark_dirty(x))[0], _grad_bwd)
    F.apply(leaf(m))


def _saved_after_backward(m):
    def fwd(m, ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    def bwd(m, ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2
    F = _fn_class(m, fwd, bwd)
    y = F.apply(leaf(m)).sum()
    y.backward()
    y.backward()


def _save_non_tensor(m):
    def fwd(m, ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    _function(m, fwd, _grad_bwd)


def _non_differentiable_input(m):
    def fwd(m, ctx, x):
        ctx.mark_non_differentiable(x)
        return x * 2
    _function(m, fwd, _grad_bwd)


def _function_no_forward(m):
    F = type("F", (m.autograd.Function,), {})
    F.apply(leaf(m))


def _function_no_backward(m):
    F = type("F", (m.autograd.Function,),
             {"forward": staticmethod(lambda ctx, x: x * 2)})
    F.apply(leaf(m)).sum().backward()


def _function_instance_call(m):
    F = _fn_class(m, _id_fwd, _grad_bwd)
    F()(leaf(m))


def _two_inputs(m):
    return leaf(m), leaf(m, (4., 5., 6.))


def _grad_fn_call_bad(m):
    a = leaf(m)
    (a * 2).grad_fn(m.ones(3), m.ones(3))


def _read_only(m):
    arr = np.arange(3.)
    arr.flags.writeable = False
    return arr


def _from_ro(m):
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return m.from_numpy(_read_only(m))


def _opt(m, cls, **kw):
    p = m.nn.Parameter(m.ones(2))
    return getattr(m.optim, cls)([p], **kw)


def _opt_step_bad_closure(m):
    p = m.nn.Parameter(m.ones(2))
    o = m.optim.LBFGS([p])
    o.step()


def _opt_load_state_mismatch(m):
    p = m.nn.Parameter(m.ones(2))
    o = m.optim.SGD([p], lr=0.1, momentum=0.9)
    sd = o.state_dict()
    o2 = m.optim.SGD([m.nn.Parameter(m.ones(2)), m.nn.Parameter(m.ones(2))], lr=0.1)
    o2.load_state_dict(sd)


def _opt_dup_group(m):
    p = m.nn.Parameter(m.ones(2))
    o = m.optim.SGD([p], lr=0.1)
    o.add_param_group({"params": [p]})


def _opt_group_no_params(m):
    o = m.optim.SGD([m.nn.Parameter(m.ones(2))], lr=0.1)
    o.add_param_group({"lr": 0.1})


def _module_load_state(m, strict=True):
    lin = m.nn.Linear(2, 3)
    lin.load_state_dict({"weight": m.ones(3, 2)}, strict=strict)


def _module_load_state_shape(m):
    lin = m.nn.Linear(2, 3)
    lin.load_state_dict({"weight": m.ones(2, 2), "bias": m.ones(3)})


def _module_set_param_tensor(m):
    lin = m.nn.Linear(2, 3)
    lin.weight = m.ones(3, 2)


def _scheduler(m, cls, *args, **kw):
    o = _opt(m, "SGD", lr=0.1)
    return getattr(m.optim.lr_scheduler, cls)(o, *args, **kw)


def _huge(m, fn):
    return fn(m)


def _big_endian(m):
    return np.arange(3, dtype=">f4")


def _neg_stride(m):
    return np.arange(4.)[::-1]


def _accumulate_into_int_grad(m):
    a = leaf(m)
    a.grad = m.ones(3, dtype=m.float64)


def _inference_inplace(m):
    with m.inference_mode():
        t = m.ones(2)
    t.add_(1)


def _inference_save(m):
    with m.inference_mode():
        t = m.ones(2)
    (leaf(m, (1., 2.)) * t).sum().backward()
    return (leaf(m, (1., 2.)) * t).exp()


def _detach_then_modify(m):
    a = leaf(m)
    b = a.exp()
    b.detach().zero_()
    b.sum().backward()


def _expanded_inplace(m):
    m.ones(1).expand(3).add_(1)


def _grad_outputs(m, outputs, grad_outputs):
    a = leaf(m)
    outs = outputs(m, a)
    return m.autograd.grad(outs, a, grad_outputs=grad_outputs(m))


def _backward_gradient(m, gradient, out=lambda a: a * 2, **kw):
    a = leaf(m)
    out(a).backward(gradient(m), **kw)


def _autograd_backward(m, tensors, **kw):
    a = leaf(m)
    m.autograd.backward(tensors(m, a), **kw)


def _nn_call(m, module, x):
    return module(m)(x(m))


# ------------------------------------------------------------------ the cases

T = True
P = "prefix"
DTYPE = "argument 'dtype' must be autograd_core.dtype, not %s"
CASES = [
    # --- creation: data, sizes, dtypes
    ("tensor_ragged", lambda m: m.tensor([[1., 2.], [3.]]), "expected sequence of length 2 at dim 1"),
    ("tensor_ragged_deep", lambda m: m.tensor([[[1.]], [[1., 2.]]]), "expected sequence of length"),
    ("tensor_string", lambda m: m.tensor("abc"), T),
    ("tensor_none", lambda m: m.tensor(None), T),
    ("tensor_list_of_str", lambda m: m.tensor(["a", "b"]), T),
    ("tensor_object", lambda m: m.tensor(object()), None),
    ("tensor_mixed_tensor_list", lambda m: m.tensor([m.ones(2), 1.]), None),
    ("tensor_dict", lambda m: m.tensor({1: 2}), None),
    ("tensor_dtype_str", lambda m: m.tensor([1.], dtype="float32"), DTYPE % "str"),
    ("tensor_dtype_numpy", lambda m: m.tensor([1.], dtype=np.float32), DTYPE % "type"),
    ("tensor_dtype_python_type", lambda m: m.tensor([1.], dtype=3), DTYPE % "int"),
    ("tensor_overflow_int64", lambda m: m.tensor([2 ** 64]), T),
    ("tensor_overflow_scalar", lambda m: m.tensor(2 ** 63), T),
    ("tensor_overflow_negative", lambda m: m.tensor([-2 ** 63 - 1]), T),
    ("tensor_int8_overflow", lambda m: m.tensor([300], dtype=m.int8), None),
    ("tensor_requires_grad_int", lambda m: m.tensor([1, 2], requires_grad=True), T),
    ("tensor_requires_grad_str", lambda m: m.tensor([1.], requires_grad="yes"), T),
    ("as_tensor_string", lambda m: m.as_tensor("abc"), T),
    ("as_tensor_dtype_str", lambda m: m.as_tensor([1.], dtype="float64"), DTYPE % "str"),
    ("zeros_negative", lambda m: m.zeros(-1), T),
    ("zeros_negative_2d", lambda m: m.zeros(2, -3), T),
    ("zeros_float_size", lambda m: m.zeros(2.5), T),
    ("zeros_str_size", lambda m: m.zeros("a"), None),
    ("zeros_none_size", lambda m: m.zeros(None), None),
    ("zeros_list_float", lambda m: m.zeros([2, 2.0]), T),
    ("zeros_dtype_str", lambda m: m.zeros(2, dtype="float32"), DTYPE % "str"),
    ("zeros_dtype_numpy", lambda m: m.zeros(2, dtype=np.float64), DTYPE % "type"),
    ("zeros_huge", lambda m: m.zeros(2 ** 62), T),
    ("zeros_huge_2d", lambda m: m.zeros(2 ** 31, 2 ** 31), T),
    ("empty_huge", lambda m: m.empty(2 ** 61), T),
    ("ones_huge_overflow", lambda m: m.ones(2 ** 40, 2 ** 40), T),
    ("zeros_size_overflow", lambda m: m.zeros(2 ** 64), "Overflow when unpacking long long"),
    ("ones_negative", lambda m: m.ones(-2), T),
    ("empty_negative", lambda m: m.empty(3, -1), T),
    ("full_negative", lambda m: m.full((-1,), 2.), T),
    ("full_fill_str", lambda m: m.full((2,), "a"), None),
    ("full_no_fill", lambda m: m.full((2,)), None),
    ("full_int_overflow", lambda m: m.full((2,), 2 ** 70), None),
    ("rand_negative", lambda m: m.rand(-1), T),
    ("randn_negative", lambda m: m.randn(2, -2), T),
    ("rand_int_dtype", lambda m: m.rand(2, dtype=m.int64), T),
    ("randn_int_dtype", lambda m: m.randn(2, dtype=m.int32), T),
    ("randint_empty_range", lambda m: m.randint(5, 1, (2,)), T),
    ("randint_no_size", lambda m: m.randint(5), None),
    ("randint_negative_size", lambda m: m.randint(0, 5, (-1,)), T),
    ("randperm_negative", lambda m: m.randperm(-1), T),
    ("arange_zero_step", lambda m: m.arange(0, 3, 0), T),
    ("arange_wrong_sign", lambda m: m.arange(0, 3, -1), T),
    ("arange_nan", lambda m: m.arange(0, float("nan")), T),
    ("arange_inf", lambda m: m.arange(0, float("inf")), T),
    ("arange_str", lambda m: m.arange("a"), None),
    ("arange_huge", lambda m: m.arange(0, 2 ** 62), T),
    ("linspace_negative", lambda m: m.linspace(0, 1, -1), T),
    ("linspace_float_steps", lambda m: m.linspace(0, 1, 2.5), None),
    ("eye_negative", lambda m: m.eye(-1), T),
    ("eye_negative_cols", lambda m: m.eye(2, -1), T),
    ("eye_float", lambda m: m.eye(2.5), None),
    ("zeros_like_not_tensor", lambda m: m.zeros_like([1, 2]), T),
    ("ones_like_dtype_str", lambda m: m.ones_like(m.ones(2), dtype="float32"), DTYPE % "str"),
    ("full_like_str", lambda m: m.full_like(m.ones(2), "x"), None),
    ("empty_like_list", lambda m: m.empty_like((1, 2)), T),
    ("rand_like_int", lambda m: m.rand_like(m.ones(2, dtype=m.int64)), T),
    ("randn_like_not_tensor", lambda m: m.randn_like(3), T),
    # --- numpy inputs
    ("from_numpy_list", lambda m: m.from_numpy([1, 2]), T),
    ("from_numpy_tensor", lambda m: m.from_numpy(m.ones(2)), None),
    ("from_numpy_object", lambda m: m.from_numpy(np.array([object()])), T),
    ("from_numpy_str", lambda m: m.from_numpy(np.array(["a"])), T),
    ("from_numpy_big_endian", lambda m: m.from_numpy(_big_endian(m)), T),
    ("from_numpy_big_endian_2d", lambda m: m.from_numpy(np.ones((2, 2), dtype=">f8")), T),
    ("from_numpy_negative_stride", lambda m: m.from_numpy(_neg_stride(m)), T),
    ("from_numpy_negative_stride_2d", lambda m: m.from_numpy(np.ones((3, 3))[:, ::-1]), T),
    ("as_tensor_big_endian", lambda m: m.as_tensor(_big_endian(m)), T),
    ("as_tensor_negative_stride", lambda m: m.as_tensor(_neg_stride(m)), T),
    ("tensor_big_endian", lambda m: m.tensor(_big_endian(m)), T),
    ("tensor_numpy_object", lambda m: m.tensor(np.array([object()])), None),
    ("tensor_numpy_str", lambda m: m.tensor(np.array(["a"])), None),
    ("from_numpy_datetime", lambda m: m.from_numpy(np.array(["2020-01-01"], dtype="datetime64[D]")), T),
    ("from_numpy_void", lambda m: m.from_numpy(np.zeros(2, dtype=[("a", "f4")])), T),
    ("add_numpy_object", lambda m: m.ones(2) + np.array([object(), object()]), None),
    ("numpy_requires_grad", lambda m: leaf(m).numpy(), T),
    ("numpy_nonleaf", lambda m: (leaf(m) * 2).numpy(), T),
    ("read_only_setitem_numpy_wording", lambda m: _setitem(m.ones(2), 0, np.array([object()])), None),
    # --- dtype misuse
    ("to_dtype_str", lambda m: m.ones(2).to(dtype="float32"), None),
    ("to_str_not_device", lambda m: m.ones(2).to("float32"), T),
    ("to_numpy_dtype", lambda m: m.ones(2).to(np.float64), None),
    ("to_int", lambda m: m.ones(2).to(3), None),
    ("type_bad_str", lambda m: m.ones(2).type("torch.NoSuchTensor"), None),
    ("type_bad_arg", lambda m: m.ones(2).type(3), None),
    ("mm_dtype_mismatch", lambda m: m.mm(m.ones(2, 2), m.ones(2, 2, dtype=m.float64)), T),
    ("matmul_dtype_mismatch", lambda m: m.ones(2, 2) @ m.ones(2, 2, dtype=m.float64), T),
    ("mv_dtype_mismatch", lambda m: m.mv(m.ones(2, 2), m.ones(2, dtype=m.float64)), T),
    ("dot_dtype_mismatch", lambda m: m.dot(m.ones(2), m.ones(2, dtype=m.float64)), T),
    ("dot_int_float", lambda m: m.dot(m.ones(2), m.ones(2, dtype=m.int64)), T),
    ("mm_int_float", lambda m: m.mm(m.ones(2, 2, dtype=m.int64), m.ones(2, 2)), T),
    ("bmm_dtype_mismatch", lambda m: m.bmm(m.ones(1, 2, 2), m.ones(1, 2, 2, dtype=m.float64)), T),
    ("add_inplace_int_float", lambda m: m.ones(2, dtype=m.int64).add_(m.ones(2)), T),
    ("mul_inplace_int_float_scalar", lambda m: m.tensor([1, 2]).mul_(1.5), T),
    ("div_inplace_int", lambda m: m.tensor([1, 2]).div_(2), T),
    ("sub_inplace_bool", lambda m: m.tensor([True]).sub_(m.tensor([True])), T),
    ("sub_bool", lambda m: m.tensor([True]) - m.tensor([False]), T),
    ("neg_bool", lambda m: -m.tensor([True]), T),
    ("bitwise_and_float", lambda m: m.ones(2) & m.ones(2), T),
    ("bitwise_or_float", lambda m: m.ones(2) | m.ones(2), T),
    ("bitwise_xor_float", lambda m: m.ones(2) ^ m.ones(2), T),
    ("invert_float", lambda m: ~m.ones(2), T),
    ("lshift_float", lambda m: m.ones(2) << m.ones(2), None),
    ("pow_int_negative", lambda m: m.tensor([2]) ** -1, T),
    ("pow_int_negative_tensor_scalar", lambda m: m.pow(m.tensor([2, 3]), -2), T),
    ("remainder_int_zero", lambda m: m.tensor([1]) % 0, T),
    ("floordiv_int_zero", lambda m: m.tensor([1]) // 0, T),
    ("floordiv_int_zero_tensor", lambda m: m.tensor([1]) // m.tensor([0]), T),
    ("fmod_int_zero", lambda m: m.fmod(m.tensor([1]), 0), T),
    ("mean_int", lambda m: m.tensor([1, 2]).mean(), T),
    ("mean_dtype_int", lambda m: m.ones(2).mean(dtype=m.int64), None),
    ("std_int", lambda m: m.tensor([1, 2]).std(), T),
    ("var_int", lambda m: m.tensor([1, 2]).var(), T),
    ("sum_dtype_str", lambda m: m.ones(2).sum(dtype="float64"), None),
    ("softmax_int", lambda m: m.softmax(m.tensor([1, 2]), 0), T),
    ("log_softmax_int", lambda m: m.log_softmax(m.tensor([1, 2]), 0), T),
    ("lerp_dtype_mismatch", lambda m: m.lerp(m.ones(2), m.ones(2, dtype=m.float64), 0.5), T),
    ("where_non_bool", lambda m: m.where(m.ones(2), m.ones(2), m.ones(2)), T),
    ("masked_fill_float_mask", lambda m: m.ones(2).masked_fill(m.ones(2), 0.), T),
    ("masked_fill_tensor_value_2d", lambda m: m.ones(2).masked_fill(m.tensor([True, False]), m.ones(2)), T),
    ("masked_select_float_mask", lambda m: m.ones(2).masked_select(m.ones(2)), T),
    ("masked_scatter_float_mask", lambda m: m.ones(2).masked_scatter(m.ones(2), m.ones(2)), T),
    ("index_select_float_index", lambda m: m.ones(3).index_select(0, m.tensor([0.])), T),
    ("gather_float_index", lambda m: m.ones(3).gather(0, m.tensor([0.])), T),
    ("scatter_float_index", lambda m: m.zeros(3).scatter(0, m.tensor([0.]), m.ones(1)), T),
    ("scatter_src_dtype", lambda m: m.zeros(3).scatter(0, m.tensor([0]), m.ones(1, dtype=m.float64)), T),
    ("index_add_dtype", lambda m: m.zeros(3).index_add(0, m.tensor([0]), m.ones(1, dtype=m.float64)), T),
    ("take_float_index", lambda m: m.ones(3).take(m.tensor([0.])), T),
    ("embedding_float_index", lambda m: m.nn.functional.embedding(m.tensor([0.5]), m.ones(3, 2)), T),
    ("bincount_float", lambda m: m.bincount(m.tensor([1.])), T),
    ("bincount_negative", lambda m: m.bincount(m.tensor([-1])), T),
    ("bincount_2d", lambda m: m.bincount(m.tensor([[1]])), T),
    ("cumsum_dtype_str", lambda m: m.ones(2).cumsum(0, dtype="float32"), DTYPE % "str"),
    ("set_default_dtype_int", lambda m: m.set_default_dtype(m.int64), T),
    ("set_default_dtype_str", lambda m: m.set_default_dtype("float64"), None),
    ("requires_grad_int_setter", lambda m: _set(m.tensor([1, 2]), "requires_grad", True), T),
    ("requires_grad__bool_tensor", lambda m: m.tensor([True]).requires_grad_(), T),
    ("ones_int_requires_grad", lambda m: m.ones(2, dtype=m.int64, requires_grad=True), T),
    ("arange_requires_grad", lambda m: m.arange(3, requires_grad=True), T),
    ("isin_mixed", lambda m: m.isin(m.ones(2), "a"), None),
    # --- shapes and views
    ("add_broadcast", lambda m: m.ones(2, 3) + m.ones(4), T),
    ("mul_broadcast", lambda m: m.ones(2, 3) * m.ones(3, 2), T),
    ("sub_broadcast_3d", lambda m: m.ones(2, 3, 4) - m.ones(3, 3, 4), T),
    ("div_broadcast", lambda m: m.ones(5) / m.ones(4), T),
    ("pow_broadcast", lambda m: m.ones(5) ** m.ones(4), T),
    ("maximum_broadcast", lambda m: m.maximum(m.ones(2), m.ones(3)), T),
    ("atan2_broadcast", lambda m: m.atan2(m.ones(2), m.ones(3)), T),
    ("eq_broadcast", lambda m: m.ones(2) == m.ones(3), T),
    ("lt_broadcast", lambda m: m.ones(2) < m.ones(3), T),
    ("add_inplace_broadcast_self", lambda m: m.ones(3).add_(m.ones(2, 3)), T),
    ("mul_inplace_broadcast", lambda m: m.ones(1).mul_(m.ones(3)), T),
    ("copy_broadcast", lambda m: m.ones(2).copy_(m.ones(3)), T),
    ("where_broadcast", lambda m: m.where(m.tensor([True, False]), m.ones(2), m.ones(3)), T),
    ("lerp_broadcast", lambda m: m.lerp(m.ones(2), m.ones(3), 0.5), T),
    ("addcmul_broadcast", lambda m: m.addcmul(m.ones(2), m.ones(3), m.ones(3)), T),
    ("clamp_tensor_broadcast", lambda m: m.clamp(m.ones(2), min=m.ones(3)), T),
    ("matmul_mismatch", lambda m: m.ones(2, 3) @ m.ones(2, 3), T),
    ("matmul_vec", lambda m: m.ones(3) @ m.ones(4), T),
    ("matmul_0d", lambda m: m.matmul(m.tensor(1.), m.ones(2)), T),
    ("matmul_batch_mismatch", lambda m: m.ones(2, 2, 3) @ m.ones(3, 3, 2), T),
    ("mm_1d", lambda m: m.mm(m.ones(3), m.ones(3)), T),
    ("mm_mismatch", lambda m: m.mm(m.ones(2, 3), m.ones(4, 2)), T),
    ("bmm_2d", lambda m: m.bmm(m.ones(2, 2), m.ones(2, 2)), T),
    ("bmm_batch_mismatch", lambda m: m.bmm(m.ones(2, 2, 2), m.ones(3, 2, 2)), T),
    ("mv_mismatch", lambda m: m.mv(m.ones(2, 3), m.ones(2)), T),
    ("mv_2d_vec", lambda m: m.mv(m.ones(2, 3), m.ones(3, 1)), T),
    ("dot_2d", lambda m: m.dot(m.ones(2, 2), m.ones(2, 2)), T),
    ("dot_mismatch", lambda m: m.dot(m.ones(2), m.ones(3)), T),
    ("outer_2d", lambda m: m.outer(m.ones(2, 2), m.ones(2)), None),
    ("addmm_mismatch", lambda m: m.addmm(m.ones(2, 2), m.ones(2, 3), m.ones(2, 2)), T),
    ("einsum_mismatch", lambda m: m.einsum("ij,jk->ik", m.ones(2, 3), m.ones(2, 3)), None),
    ("einsum_bad_eq", lambda m: m.einsum("ij->k", m.ones(2, 3)), None),
    ("einsum_wrong_count", lambda m: m.einsum("ij,jk->ik", m.ones(2, 3)), None),
    ("view_noncontiguous", lambda m: m.ones(2, 3).t().view(6), T),
    ("view_bad_size", lambda m: m.ones(2, 2).view(3), T),
    ("view_two_minus_one", lambda m: m.ones(2, 2).view(-1, -1), T),
    ("view_negative", lambda m: m.ones(4).view(-2, 2), T),
    ("view_float", lambda m: m.ones(4).view(2.0, 2), None),
    ("view_str", lambda m: m.ones(4).view("a"), None),
    ("reshape_bad", lambda m: m.ones(2, 3).reshape(4, 2), T),
    ("reshape_minus_one_bad", lambda m: m.ones(2, 2).reshape(-1, 3), T),
    ("reshape_empty_minus_one", lambda m: m.ones(0, 2).reshape(-1, 0), T),
    ("reshape_none", lambda m: m.ones(4).reshape(None), None),
    ("expand_bad", lambda m: m.ones(2, 3).expand(3, 3), T),
    ("expand_fewer_dims", lambda m: m.ones(2, 3).expand(3), T),
    ("expand_minus_one_new", lambda m: m.ones(3).expand(-1, 3), T),
    ("expand_negative", lambda m: m.ones(1).expand(-2), T),
    ("expand_as_bad", lambda m: m.ones(2).expand_as(m.ones(3)), T),
    ("broadcast_to_bad", lambda m: m.broadcast_to(m.ones(2), (3,)), T),
    ("permute_short", lambda m: m.ones(2, 3).permute(0), T),
    ("permute_repeat", lambda m: m.ones(2, 3).permute(0, 0), T),
    ("permute_out_of_range", lambda m: m.ones(2, 3).permute(0, 2), T),
    ("transpose_out_of_range", lambda m: m.ones(2, 3).transpose(0, 2), T),
    ("t_3d", lambda m: m.ones(2, 3, 4).t(), T),
    ("squeeze_out_of_range", lambda m: m.ones(2).squeeze(2), T),
    ("unsqueeze_out_of_range", lambda m: m.ones(2).unsqueeze(3), T),
    ("unsqueeze_str", lambda m: m.ones(2).unsqueeze("a"), None),
    ("flatten_reversed", lambda m: m.ones(2, 3).flatten(1, 0), T),
    ("unflatten_bad", lambda m: m.ones(6).unflatten(0, (4, 2)), T),
    ("movedim_repeat", lambda m: m.movedim(m.ones(2, 3), (0, 0), (0, 1)), T),
    ("movedim_len", lambda m: m.movedim(m.ones(2, 3), (0, 1), (0,)), T),
    ("cat_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(3, 2)]), T),
    ("cat_ndim_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(3)]), T),
    ("cat_empty_list", lambda m: m.cat([]), T),
    ("cat_dim", lambda m: m.cat([m.ones(2), m.ones(2)], dim=1), T),
    ("cat_0d", lambda m: m.cat([m.tensor(1.), m.tensor(2.)]), T),
    ("cat_not_list", lambda m: m.cat(m.ones(2)), None),
    ("cat_list_of_lists", lambda m: m.cat([[1.], [2.]]), None),
    ("stack_mismatch", lambda m: m.stack([m.ones(2), m.ones(3)]), T),
    ("stack_empty", lambda m: m.stack([]), T),
    ("stack_dim", lambda m: m.stack([m.ones(2)], dim=3), T),
    ("hstack_empty", lambda m: m.hstack([]), T),
    ("split_zero", lambda m: m.ones(4).split(0), T),
    ("split_sizes_sum", lambda m: m.ones(4).split([1, 2]), T),
    ("split_negative", lambda m: m.ones(4).split(-1), T),
    ("chunk_zero", lambda m: m.ones(4).chunk(0), T),
    ("chunk_negative", lambda m: m.ones(4).chunk(-2), T),
    ("tensor_split_zero", lambda m: m.tensor_split(m.ones(4), 0), T),
    ("narrow_too_long", lambda m: m.ones(4).narrow(0, 2, 3), T),
    ("narrow_negative_length", lambda m: m.ones(4).narrow(0, 0, -1), T),
    ("narrow_start", lambda m: m.ones(4).narrow(0, 5, 0), T),
    ("select_out_of_range", lambda m: m.ones(2, 3).select(1, 3), T),
    ("select_dim", lambda m: m.ones(2, 3).select(2, 0), T),
    ("unbind_dim", lambda m: m.ones(2).unbind(1), T),
    ("repeat_fewer", lambda m: m.ones(2, 3).repeat(2), T),
    ("repeat_negative", lambda m: m.ones(2).repeat(-1), T),
    ("repeat_interleave_negative", lambda m: m.ones(2).repeat_interleave(-1), T),
    ("repeat_interleave_mismatch", lambda m: m.ones(2).repeat_interleave(m.tensor([1, 2, 3])), T),
    ("tile_negative", lambda m: m.ones(2).tile((-1,)), T),
    ("flip_repeat", lambda m: m.ones(2, 3).flip((0, 0)), T),
    ("flip_out_of_range", lambda m: m.ones(2).flip(1), None),
    ("roll_mismatch", lambda m: m.roll(m.ones(2, 2), (1, 2), (0,)), T),
    ("rot90_same_dims", lambda m: m.rot90(m.ones(2, 2), 1, (0, 0)), T),
    ("diag_3d", lambda m: m.diag(m.ones(2, 2, 2)), T),
    ("diagonal_same_dims", lambda m: m.ones(2, 2).diagonal(0, 0, 0), T),
    ("tril_1d", lambda m: m.tril(m.ones(3)), T),
    ("triu_1d", lambda m: m.triu(m.ones(3)), T),
    ("trace_3d", lambda m: m.trace(m.ones(2, 2, 2)), T),
    ("as_strided_oob", lambda m: m.ones(4).as_strided((3,), (2,)), T),
    ("unfold_size", lambda m: m.ones(4).unfold(0, 5, 1), T),
    ("unfold_step", lambda m: m.ones(4).unfold(0, 2, 0), T),
    ("meshgrid_2d", lambda m: m.meshgrid(m.ones(2, 2), m.ones(2), indexing="ij"), None),
    ("meshgrid_bad_indexing", lambda m: m.meshgrid(m.ones(2), m.ones(2), indexing="zz"), T),
    ("cross_size", lambda m: m.linalg.cross(m.ones(2), m.ones(2)), T),
    ("kron_not_tensor", lambda m: m.kron(m.ones(2), [1., 2.]), None),
    # --- dims and argument types
    ("sum_dim_out_of_range", lambda m: m.ones(2).sum(3), T),
    ("sum_dim_negative", lambda m: m.ones(2, 3).sum(-3), T),
    ("sum_dim_0d", lambda m: m.tensor(1.).sum(1), T),
    ("sum_dim_float", lambda m: m.ones(2).sum(0.5), None),
    ("sum_dim_str", lambda m: m.ones(2).sum("a"), None),
    ("sum_dim_repeat", lambda m: m.ones(2, 2).sum((0, 0)), T),
    ("sum_keepdim_str", lambda m: m.ones(2).sum(0, keepdim="x"), "must be bool, not str"),
    ("mean_keepdim_str", lambda m: m.ones(2).mean(0, keepdim="x"), "must be bool, not str"),
    ("max_keepdim_str", lambda m: m.ones(2).max(0, keepdim="x"), None),
    ("amax_keepdim_int", lambda m: m.ones(2).amax(0, keepdim=2), "must be bool, not int"),
    ("prod_keepdim_str", lambda m: m.ones(2).prod(0, keepdim="x"), None),
    ("std_unbiased_str", lambda m: m.ones(2).std(0, unbiased="no"), None),
    ("mean_dim", lambda m: m.ones(2, 3).mean(2), T),
    ("max_dim", lambda m: m.ones(2, 3).max(5), T),
    ("argmax_dim", lambda m: m.ones(2, 3).argmax(4), T),
    ("max_empty", lambda m: m.zeros(0).max(), T),
    ("min_empty", lambda m: m.zeros(0).min(), T),
    ("argmax_empty", lambda m: m.zeros(0).argmax(), T),
    ("amax_empty", lambda m: m.zeros(0).amax(), T),
    ("max_dim_empty", lambda m: m.zeros(2, 0).max(1), T),
    ("median_empty_dim", lambda m: m.zeros(0, 2).median(0), None),
    ("cumsum_dim", lambda m: m.ones(2).cumsum(1), T),
    ("cumsum_no_dim", lambda m: m.ones(2).cumsum(), None),
    ("cumprod_dim_str", lambda m: m.ones(2).cumprod("x"), None),
    ("softmax_dim", lambda m: m.softmax(m.ones(2), 1), T),
    ("logsumexp_dim", lambda m: m.logsumexp(m.ones(2), 2), T),
    ("norm_bad_p", lambda m: m.ones(2).norm(p="nuc"), None),
    ("norm_dim", lambda m: m.ones(2).norm(dim=3), T),
    ("topk_too_big", lambda m: m.ones(3).topk(5), T),
    ("topk_negative", lambda m: m.ones(3).topk(-1), T),
    ("kthvalue_out_of_range", lambda m: m.ones(3).kthvalue(4), T),
    ("kthvalue_zero", lambda m: m.ones(3).kthvalue(0), T),
    ("sort_dim", lambda m: m.ones(3).sort(1), T),
    ("argsort_str", lambda m: m.ones(3).argsort("x"), None),
    ("quantile_out_of_range", lambda m: m.quantile(m.ones(3), 1.5), T),
    ("quantile_int", lambda m: m.quantile(m.tensor([1, 2]), 0.5), T),
    ("clamp_no_bounds", lambda m: m.clamp(m.ones(2)), T),
    ("clamp_str", lambda m: m.clamp(m.ones(2), min="a"), None),
    ("pow_str", lambda m: m.ones(2) ** "a", None),
    ("add_str", lambda m: m.ones(2) + "a", T),
    ("add_none", lambda m: m.add(m.ones(2), None), None),
    ("add_list", lambda m: m.add(m.ones(2), [1, 2]), None),
    ("add_alpha_str", lambda m: m.add(m.ones(2), m.ones(2), alpha="x"), None),
    ("add_alpha_float_int", lambda m: m.add(m.tensor([1]), m.tensor([1]), alpha=0.5), T),
    ("mul_dict", lambda m: m.ones(2) * {}, T),
    ("rfloordiv_none", lambda m: None // m.ones(2), T),
    ("matmul_list", lambda m: m.ones(2) @ [1., 2.], None),
    ("exp_list", lambda m: m.exp([1., 2.]), None),
    ("exp_str", lambda m: m.exp("a"), None),
    ("sum_list", lambda m: m.sum([1, 2]), None),
    ("abs_none", lambda m: m.abs(None), None),
    ("relu_int_list", lambda m: m.relu([1]), None),
    ("tanh_extra_arg", lambda m: m.tanh(m.ones(2), 3), None),
    ("exp_unknown_kwarg", lambda m: m.exp(m.ones(2), foo=1), None),
    ("sum_unknown_kwarg", lambda m: m.ones(2).sum(axiss=0), None),
    ("transpose_missing", lambda m: m.ones(2, 2).transpose(0), None),
    ("size_dim", lambda m: m.ones(2, 3).size(2), T),
    ("size_str", lambda m: m.ones(2).size("a"), None),
    ("stride_dim", lambda m: m.ones(2).stride(3), T),
    ("item_multi", lambda m: m.ones(2, 3).item(), T),
    ("item_empty", lambda m: m.zeros(0).item(), T),
    ("bool_multi", lambda m: bool(m.ones(2)), T),
    ("float_multi", lambda m: float(m.ones(2)), T),
    ("int_multi", lambda m: int(m.ones(2)), T),
    ("index_dunder_float", lambda m: [0, 1][m.tensor(1.)], T),
    ("index_dunder_multi", lambda m: [0, 1][m.tensor([1, 0])], T),
    ("len_0d", lambda m: len(m.tensor(1.)), T),
    ("iter_0d", lambda m: iter(m.tensor(1.)), T),
    ("set_grad_enabled_int", lambda m: m.set_grad_enabled(1), T),
    ("manual_seed_str", lambda m: m.manual_seed("a"), None),
    ("multinomial_negative", lambda m: m.multinomial(m.tensor([-1., 1.]), 1), T),
    ("multinomial_too_many", lambda m: m.multinomial(m.tensor([1., 1.]), 3), T),
    ("multinomial_zero_sum", lambda m: m.multinomial(m.tensor([0., 0.]), 1), T),
    ("bernoulli_out_of_range", lambda m: m.bernoulli(m.tensor([1.5])), None),
    ("normal_negative_std", lambda m: m.normal(0., -1., (2,)), T),
    ("uniform_bad_range", lambda m: m.ones(2).uniform_(1., 0.), T),
    # --- indexing
    ("index_out_of_range", lambda m: m.ones(3)[5], T),
    ("index_negative_out_of_range", lambda m: m.ones(3)[-4], T),
    ("index_2d_out_of_range", lambda m: m.ones(2, 3)[1, 3], T),
    ("index_tensor_out_of_range", lambda m: m.ones(3)[m.tensor([0, 5])], T),
    ("index_list_out_of_range", lambda m: m.ones(3)[[0, 3]], T),
    ("index_too_many", lambda m: m.ones(3)[0, 0], T),
    ("index_0d", lambda m: m.tensor(1.)[0], T),
    ("index_float", lambda m: m.ones(3)[1.5], T),
    ("index_str", lambda m: m.ones(3)["a"], None),
    ("index_float_tensor", lambda m: m.ones(3)[m.tensor([1.])], T),
    ("index_mask_shape", lambda m: m.ones(3)[m.tensor([True, False])], T),
    ("index_mask_2d_shape", lambda m: m.ones(2, 2)[m.tensor([[True, False, True]])], None),
    ("index_slice_negative_step", lambda m: m.ones(3)[::-1], T),
    ("index_slice_zero_step", lambda m: m.ones(3)[::0], None),
    ("index_tensors_broadcast", lambda m: m.ones(3, 3)[m.tensor([0, 1]), m.tensor([0, 1, 2])], None),
    ("setitem_out_of_range", lambda m: _setitem(m.ones(3), 3, 1.), T),
    ("setitem_shape", lambda m: _setitem(m.ones(3), slice(None), m.ones(2)), T),
    ("setitem_sequence_wrong_len", lambda m: _setitem(m.ones(3), slice(None), [1., 2.]), None),
    ("setitem_str", lambda m: _setitem(m.ones(3), 0, "a"), None),
    ("setitem_ragged", lambda m: _setitem(m.ones(2, 2), slice(None), [[1.], [1., 2.]]), None),
    ("setitem_none_value", lambda m: _setitem(m.ones(3), 0, None), None),
    ("setitem_tensor_index_oob", lambda m: _setitem(m.ones(3), m.tensor([4]), 1.), T),
    ("setitem_mask_shape", lambda m: _setitem(m.ones(3), m.tensor([True]), 1.), None),
    ("index_select_out_of_range", lambda m: m.ones(3).index_select(0, m.tensor([3])), T),
    ("index_select_negative", lambda m: m.ones(3).index_select(0, m.tensor([-4])), None),
    ("index_select_2d_index", lambda m: m.ones(3).index_select(0, m.tensor([[0]])), T),
    ("index_select_dim", lambda m: m.ones(3).index_select(1, m.tensor([0])), T),
    ("gather_out_of_range", lambda m: m.ones(3).gather(0, m.tensor([3])), T),
    ("gather_ndim", lambda m: m.ones(3, 2).gather(0, m.tensor([0])), T),
    ("scatter_out_of_range", lambda m: m.zeros(3).scatter(0, m.tensor([5]), m.ones(1)), T),
    ("scatter_add_out_of_range", lambda m: m.zeros(3).scatter_add(0, m.tensor([5]), m.ones(1)), T),
    ("index_add_out_of_range", lambda m: m.zeros(3).index_add(0, m.tensor([5]), m.ones(1)), None),
    ("index_add_shape", lambda m: m.zeros(3).index_add(0, m.tensor([0, 1]), m.ones(3)), None),
    ("index_copy_out_of_range", lambda m: m.zeros(3).index_copy(0, m.tensor([7]), m.ones(1)), None),
    ("index_fill_out_of_range", lambda m: m.zeros(3).index_fill(0, m.tensor([7]), 1.), None),
    ("take_out_of_range", lambda m: m.ones(3).take(m.tensor([3])), None),
    ("put_out_of_range", lambda m: m.ones(3).put(m.tensor([3]), m.ones(1)), None),
    ("masked_fill_shape", lambda m: m.ones(3).masked_fill(m.tensor([True, False]), 0.), T),
    ("masked_select_shape", lambda m: m.ones(3).masked_select(m.tensor([True, False])), T),
    ("index_put_out_of_range", lambda m: m.ones(3).index_put((m.tensor([5]),), m.tensor(1.)), None),
    ("embedding_out_of_range", lambda m: m.nn.functional.embedding(m.tensor([5]), m.ones(3, 2)), T),
    ("embedding_negative", lambda m: m.nn.functional.embedding(m.tensor([-1]), m.ones(3, 2)), T),
    ("one_hot_out_of_range", lambda m: m.nn.functional.one_hot(m.tensor([3]), 3), T),
    ("one_hot_negative", lambda m: m.nn.functional.one_hot(m.tensor([-1])), T),
    ("one_hot_float", lambda m: m.nn.functional.one_hot(m.tensor([1.])), T),
    # --- NaN, inf, empty
    ("multinomial_nan", lambda m: m.multinomial(m.tensor([float("nan"), 1.]), 1), T),
    ("multinomial_inf", lambda m: m.multinomial(m.tensor([float("inf"), 1.]), 1), T),
    ("int_of_nan", lambda m: int(m.tensor(float("nan"))), T),
    ("int_of_inf", lambda m: int(m.tensor(float("inf"))), T),
    ("histc_nan_range", lambda m: m.histc(m.tensor([1., float("nan")])), "is not finite"),
    ("histc_bad_range", lambda m: m.histc(m.ones(2), bins=3, min=2, max=1), T),
    ("histc_negative_bins", lambda m: m.histc(m.ones(2), bins=-1), T),
    ("cholesky_nan", lambda m: m.linalg.cholesky(m.full((2, 2), float("nan"))), None),
    ("inverse_singular", lambda m: m.linalg.inv(m.zeros(2, 2)), P),
    ("inverse_nonsquare", lambda m: m.linalg.inv(m.ones(2, 3)), T),
    ("inverse_1d", lambda m: m.linalg.inv(m.ones(3)), T),
    ("inverse_int", lambda m: m.linalg.inv(m.eye(2, dtype=m.int64)), T),
    ("det_nonsquare", lambda m: m.linalg.det(m.ones(2, 3)), T),
    ("solve_singular", lambda m: m.linalg.solve(m.zeros(2, 2), m.ones(2)), P),
    ("solve_shape", lambda m: m.linalg.solve(m.eye(2), m.ones(3)), None),
    ("cholesky_not_pd", lambda m: m.linalg.cholesky(-m.eye(2)), P),
    ("cholesky_nonsquare", lambda m: m.linalg.cholesky(m.ones(2, 3)), T),
    ("eigh_nonsquare", lambda m: m.linalg.eigh(m.ones(2, 3)), T),
    ("qr_1d", lambda m: m.linalg.qr(m.ones(3)), T),
    ("svd_1d", lambda m: m.linalg.svd(m.ones(3)), T),
    ("norm_ord_str", lambda m: m.linalg.norm(m.ones(2), ord="x"), None),
    ("matrix_norm_1d", lambda m: m.linalg.matrix_norm(m.ones(3)), T),
    ("vector_norm_int", lambda m: m.linalg.vector_norm(m.tensor([1, 2])), T),
    ("pinv_1d", lambda m: m.linalg.pinv(m.ones(3)), T),
    ("matrix_power_nonsquare", lambda m: m.linalg.matrix_power(m.ones(2, 3), 2), T),
    ("matrix_power_singular_negative", lambda m: m.linalg.matrix_power(m.zeros(2, 2), -1), P),
    # --- backward and autograd.grad
    ("backward_non_scalar", lambda m: leaf(m).mul(2).backward(), T),
    ("backward_non_scalar_2d", lambda m: (m.ones(2, 2, requires_grad=True) * 2).backward(), T),
    ("backward_no_grad", lambda m: m.tensor([1., 2.]).sum().backward(), T),
    ("backward_scalar_leaf_no_grad", lambda m: m.tensor(1.).backward(), T),
    ("backward_twice", _backward_twice, T),
    ("grad_twice", _grad_twice, T),
    ("backward_gradient_shape", lambda m: _backward_gradient(m, lambda m: m.ones(2)), T),
    ("backward_gradient_shape_2d", lambda m: _backward_gradient(m, lambda m: m.ones(3, 1)), T),
    ("backward_gradient_list", lambda m: _backward_gradient(m, lambda m: [1., 2., 3.]), None),
    ("backward_gradient_str", lambda m: _backward_gradient(m, lambda m: "x"), None),
    ("backward_retain_graph_str", lambda m: _backward_gradient(m, lambda m: m.ones(3), retain_graph="yes"), None),
    ("backward_create_graph_str", lambda m: _backward_gradient(m, lambda m: m.ones(3), create_graph="yes"), None),
    ("backward_inputs_empty", lambda m: leaf(m).sum().backward(inputs=[]), T),
    ("backward_inputs_not_tensor", lambda m: leaf(m).sum().backward(inputs=[1.]), None),
    ("backward_inputs_no_grad", lambda m: leaf(m).sum().backward(inputs=[m.ones(2)]), None),
    ("autograd_backward_none", lambda m: _autograd_backward(m, lambda m, a: None), None),
    ("autograd_backward_str", lambda m: _autograd_backward(m, lambda m, a: "x"), None),
    ("autograd_backward_list_non_tensor", lambda m: _autograd_backward(m, lambda m, a: [a.sum(), 3]), None),
    ("autograd_backward_retain_str", lambda m: _autograd_backward(m, lambda m, a: a.sum(), retain_graph="yes"), None),
    ("grad_unused", lambda m: (lambda a, u: m.autograd.grad((a * 2).sum(), [a, u]))(leaf(m), leaf(m)), T),
    ("grad_no_requires", lambda m: (lambda a: m.autograd.grad(a.sum(), a))(m.tensor([1., 2.])), T),
    ("grad_input_not_tensor", lambda m: m.autograd.grad(leaf(m).sum(), [1.]), None),
    ("grad_inputs_empty", lambda m: m.autograd.grad(leaf(m).sum(), []), T),
    ("grad_outputs_none", lambda m: m.autograd.grad(None, leaf(m)), None),
    ("grad_non_scalar", lambda m: (lambda a: m.autograd.grad(a * 2, a))(leaf(m)), T),
    ("grad_outputs_shape", lambda m: _grad_outputs(m, lambda m, a: a * 2, lambda m: m.ones(2)), T),
    ("grad_outputs_list_of_floats", lambda m: _grad_outputs(m, lambda m, a: a * 2, lambda m: [1., 2., 3.]), None),
    ("grad_outputs_str", lambda m: _grad_outputs(m, lambda m, a: a * 2, lambda m: "x"), None),
    ("grad_create_graph_str", lambda m: (lambda a: m.autograd.grad(a.sum(), a, create_graph="yes"))(leaf(m)), None),
    ("grad_allow_unused_str", lambda m: (lambda a: m.autograd.grad(a.sum(), a, allow_unused="x"))(leaf(m)), None),
    ("grad_setter_shape", lambda m: _set(leaf(m), "grad", m.ones(2)), T),
    ("grad_setter_list", lambda m: _set(leaf(m), "grad", [1., 2., 3.]), T),
    ("grad_setter_dtype", lambda m: _set(leaf(m), "grad", m.ones(3, dtype=m.int64)), T),
    ("data_setter_list", lambda m: _set(leaf(m), "data", [1.]), T),
    ("grad_fn_setter", lambda m: _set(m.ones(2), "grad_fn", None), None),
    ("is_leaf_setter", lambda m: _set(m.ones(2), "is_leaf", True), None),
    ("shape_setter", lambda m: _set(m.ones(2), "shape", (2,)), None),
    ("requires_grad_false_nonleaf", lambda m: leaf(m).mul(2).requires_grad_(False), T),
    ("requires_grad_setattr_nonleaf", lambda m: _set(leaf(m) * 2, "requires_grad", False), T),
    ("requires_grad__str", lambda m: m.ones(2).requires_grad_("yes"), None),
    ("retain_grad_no_requires", lambda m: m.tensor([1.]).retain_grad(), T),
    ("register_hook_no_requires", lambda m: m.ones(2).register_hook(lambda g: g), T),
    ("post_accumulate_hook_nonleaf", lambda m: (leaf(m) * 2).register_post_accumulate_grad_hook(lambda t: None), T),
    ("post_accumulate_hook_no_requires", lambda m: m.ones(2).register_post_accumulate_grad_hook(lambda t: None), T),
    ("hook_wrong_shape", lambda m: _hook(m, lambda g: g[:2]), T),
    ("hook_wrong_type", lambda m: _hook(m, lambda g: [1., 2., 3.]), None),
    ("hook_returns_str", lambda m: _hook(m, lambda g: "x"), None),
    ("hook_raises_value_error", lambda m: _hook(m, lambda g: int("x")), T),
    ("hook_raises_key_error", lambda m: _hook(m, lambda g: {}["k"]), T),
    ("hook_wrong_dtype", lambda m: _hook(m, lambda g: g.int()), None),
    ("nonleaf_hook_wrong_shape", lambda m: _nonleaf_hook(m, lambda g: g.sum()), T),
    ("nonleaf_hook_raises", lambda m: _nonleaf_hook(m, lambda g: 1 / 0), T),
    ("node_hook_wrong_count", lambda m: _node_hook(m, lambda gi, go: (gi[0], gi[0])), None),
    ("node_hook_wrong_type", lambda m: _node_hook(m, lambda gi, go: "x"), None),
    ("node_hook_raises", lambda m: _node_hook(m, lambda gi, go: [][1]), T),
    ("node_prehook_str", lambda m: _node_hook(m, lambda go: "x", pre=True), None),
    ("node_prehook_wrong_count", lambda m: _node_hook(m, lambda go: (go[0], go[0]), pre=True), None),
    ("node_prehook_wrong_shape", lambda m: _node_hook(m, lambda go: (go[0][:1],), pre=True), None),
    ("node_prehook_raises", lambda m: _node_hook(m, lambda go: int("y"), pre=True), T),
    ("grad_fn_call_args", _grad_fn_call_bad, None),
    ("detach_nonleaf_view_inplace", lambda m: (lambda b: b.detach_())(leaf(m)[1:] * 1)[0:1].detach_(), None),
    # --- in-place on leaves, views and saved tensors
    ("inplace_leaf_add_", lambda m: leaf(m).add_(1), T),
    ("inplace_leaf_mul_", lambda m: leaf(m).mul_(2), T),
    ("inplace_leaf_zero_", lambda m: leaf(m).zero_(), T),
    ("inplace_leaf_fill_", lambda m: leaf(m).fill_(1.), T),
    ("inplace_leaf_copy_", lambda m: leaf(m).copy_(m.ones(3)), T),
    ("inplace_leaf_exp_", lambda m: leaf(m).exp_(), T),
    ("inplace_leaf_clamp_", lambda m: leaf(m).clamp_(0, 1), T),
    ("inplace_leaf_relu_", lambda m: leaf(m).relu_(), T),
    ("inplace_leaf_sigmoid_", lambda m: leaf(m).sigmoid_(), T),
    ("inplace_leaf_uniform_", lambda m: leaf(m).uniform_(), T),
    ("inplace_leaf_normal_", lambda m: leaf(m).normal_(), T),
    ("inplace_leaf_masked_fill_", lambda m: leaf(m).masked_fill_(m.tensor([True, False, True]), 0.), T),
    ("inplace_leaf_index_fill_", lambda m: leaf(m).index_fill_(0, m.tensor([0]), 0.), T),
    ("inplace_leaf_scatter_", lambda m: leaf(m).scatter_(0, m.tensor([0]), m.ones(1)), T),
    ("inplace_leaf_iadd", lambda m: (lambda a: a.__iadd__(1))(leaf(m)), T),
    ("inplace_leaf_setitem", lambda m: _setitem(leaf(m), 0, 5.), T),
    ("inplace_view_of_leaf", lambda m: leaf(m)[1:].add_(1), T),
    ("inplace_view_of_leaf_setitem", lambda m: _setitem(leaf(m)[1:], 0, 3.), T),
    ("inplace_view_of_leaf_reshape", lambda m: leaf(m).view(3, 1).mul_(2), T),
    ("inplace_view_of_leaf_t", lambda m: m.ones(2, 2, requires_grad=True).t().zero_(), T),
    ("inplace_leaf_functional_relu", lambda m: m.nn.functional.relu(leaf(m), inplace=True), T),
    ("inplace_leaf_functional_dropout", lambda m: m.nn.functional.dropout(leaf(m), 0.5, True, True), T),
    ("modified_saved_sigmoid", lambda m: _modified_saved(m, lambda x: x.sigmoid()), P),
    ("modified_saved_exp", lambda m: _modified_saved(m, lambda x: x.exp()), P),
    ("modified_saved_tanh", lambda m: _modified_saved(m, lambda x: x.tanh()), P),
    ("modified_saved_sqrt", lambda m: _modified_saved(m, lambda x: x.sqrt()), P),
    ("modified_input_mul", lambda m: _modified_input(m, lambda x: x * x), P),
    ("modified_input_pow", lambda m: _modified_input(m, lambda x: x ** 2), P),
    ("modified_input_sin", lambda m: _modified_input(m, lambda x: x.sin()), P),
    ("modified_input_log", lambda m: _modified_input(m, lambda x: x.log()), P),
    ("modified_input_matmul", lambda m: _modified_input(m, lambda x: x @ x), P),
    ("modified_detached", _detach_then_modify, P),
    ("inplace_expanded", _expanded_inplace, T),
    ("inplace_overlap_copy", lambda m: (lambda a: a[1:].copy_(a[:2]))(m.arange(3.)), None),
    ("inference_inplace", _inference_inplace, T),
    ("inference_save", _inference_save, T),
    ("inplace_int_from_float", lambda m: m.ones(2, dtype=m.int32).copy_(m.ones(2)).add_(0.5), T),
    ("inplace_bool_arith", lambda m: m.tensor([True]).add_(2), T),
    # --- custom autograd.Function
    ("fn_backward_too_many", lambda m: _function(m, _id_fwd, lambda m, ctx, g: (g, g)), T),
    ("fn_backward_too_few", lambda m: _function(m, lambda m, ctx, a, b: a * b, lambda m, ctx, g: g, _two_inputs), T),
    ("fn_backward_wrong_shape", lambda m: _function(m, _id_fwd, lambda m, ctx, g: g[:2]), T),
    ("fn_backward_wrong_shape_2d", lambda m: _function(m, _id_fwd, lambda m, ctx, g: g.reshape(3, 1)), T),
    ("fn_backward_returns_str", lambda m: _function(m, _id_fwd, lambda m, ctx, g: "x"), None),
    ("fn_backward_returns_list_of_floats", lambda m: _function(m, _id_fwd, lambda m, ctx, g: [1., 2., 3.]), None),
    ("fn_backward_raises", lambda m: _function(m, _id_fwd, lambda m, ctx, g: 1 / 0), T),
    ("fn_forward_raises", lambda m: _function(m, lambda m, ctx, x: {}["a"], _grad_bwd), T),
    ("fn_forward_returns_list", lambda m: _function(m, lambda m, ctx, x: [x * 2], _grad_bwd), None),
    ("fn_mark_dirty_not_returned", lambda m: _function(m, _dirty_not_returned, _grad_bwd, lambda m: (leaf(m) * 1,)), T),
    ("fn_mark_dirty_leaf", _dirty_leaf, T),
    ("fn_mark_dirty_view_of_leaf", _dirty_leaf_view, T),
    ("fn_saved_after_backward", _saved_after_backward, T),
    ("fn_save_non_tensor", _save_non_tensor, None),
    ("fn_no_forward", _function_no_forward, None),
    ("fn_no_backward", _function_no_backward, None),
    ("fn_instance_call", _function_instance_call, None),
    ("fn_apply_kwargs", lambda m: _fn_class(m, _id_fwd, _grad_bwd).apply(x=leaf(m)), None),
    ("fn_apply_missing_arg", lambda m: _fn_class(m, _id_fwd, _grad_bwd).apply(), None),
    # --- nn modules and functional
    ("linear_in_features", lambda m: m.nn.Linear(3, 2)(m.ones(4, 2)), T),
    ("linear_negative_features", lambda m: m.nn.Linear(-1, 2), T),
    ("linear_float_features", lambda m: m.nn.Linear(2.5, 2), None),
    ("linear_int_input", lambda m: m.nn.Linear(2, 2)(m.ones(1, 2, dtype=m.int64)), None),
    ("linear_dtype_mismatch", lambda m: m.nn.Linear(2, 2)(m.ones(1, 2, dtype=m.float64)), T),
    ("linear_0d", lambda m: m.nn.Linear(2, 2)(m.tensor(1.)), None),
    ("linear_list_input", lambda m: m.nn.Linear(2, 2)([1., 2.]), None),
    ("functional_linear_shape", lambda m: m.nn.functional.linear(m.ones(2), m.ones(3, 3)), T),
    ("conv2d_channels", lambda m: m.nn.Conv2d(3, 4, 3)(m.ones(1, 2, 5, 5)), T),
    ("conv2d_2d_input", lambda m: m.nn.Conv2d(1, 1, 3)(m.ones(5, 5)), T),
    ("conv2d_kernel_too_big", lambda m: m.nn.Conv2d(1, 1, 7)(m.ones(1, 1, 5, 5)), T),
    ("conv2d_groups", lambda m: m.nn.Conv2d(3, 4, 3, groups=2), T),
    ("conv2d_zero_stride", lambda m: m.nn.functional.conv2d(m.ones(1, 1, 5, 5), m.ones(1, 1, 3, 3), stride=0), T),
    ("conv2d_negative_padding", lambda m: m.nn.functional.conv2d(m.ones(1, 1, 5, 5), m.ones(1, 1, 3, 3), padding=-1), T),
    ("conv2d_bad_padding_str", lambda m: m.nn.Conv2d(1, 1, 3, padding="big"), T),
    ("conv1d_channels", lambda m: m.nn.Conv1d(2, 4, 3)(m.ones(1, 3, 8)), T),
    ("conv1d_4d", lambda m: m.nn.functional.conv1d(m.ones(1, 1, 2, 8), m.ones(1, 1, 3)), T),
    ("max_pool2d_too_big", lambda m: m.nn.functional.max_pool2d(m.ones(1, 1, 2, 2), 3), None),
    ("max_pool2d_pad_too_big", lambda m: m.nn.functional.max_pool2d(m.ones(1, 1, 4, 4), 2, padding=2), T),
    ("avg_pool2d_zero_kernel", lambda m: m.nn.functional.avg_pool2d(m.ones(1, 1, 4, 4), 0), None),
    ("batchnorm_channels", lambda m: m.nn.BatchNorm1d(3)(m.ones(4, 2)), None),
    ("batchnorm_single_value", lambda m: m.nn.BatchNorm1d(3)(m.ones(1, 3)), T),
    ("batchnorm2d_3d_input", lambda m: m.nn.BatchNorm2d(3)(m.ones(3, 4, 4)), T),
    ("layernorm_shape", lambda m: m.nn.LayerNorm(4)(m.ones(2, 3)), T),
    ("groupnorm_divisible", lambda m: m.nn.GroupNorm(3, 4), T),
    ("embedding_module_out_of_range", lambda m: m.nn.Embedding(3, 2)(m.tensor([3])), T),
    ("embedding_module_float", lambda m: m.nn.Embedding(3, 2)(m.tensor([1.])), T),
    ("embedding_negative_size", lambda m: m.nn.Embedding(-1, 2), T),
    ("dropout_p", lambda m: m.nn.Dropout(1.5), T),
    ("dropout_p_negative", lambda m: m.nn.functional.dropout(m.ones(2), -0.1), T),
    ("softmax_dim_module", lambda m: m.nn.Softmax(dim=2)(m.ones(2)), T),
    ("flatten_bad_dims", lambda m: m.nn.Flatten(2, 5)(m.ones(2, 3)), T),
    ("unflatten_module", lambda m: m.nn.Unflatten(1, (2, 2))(m.ones(2, 3)), T),
    ("pad_odd_length", lambda m: m.nn.functional.pad(m.ones(2, 2), (1,)), T),
    ("pad_too_long", lambda m: m.nn.functional.pad(m.ones(2), (1, 1, 1, 1)), T),
    ("pad_bad_mode", lambda m: m.nn.functional.pad(m.ones(1, 2, 2), (1, 1), mode="xx"), None),
    ("pad_reflect_too_big", lambda m: m.nn.functional.pad(m.ones(1, 1, 2), (3, 3), mode="reflect"), None),
    ("cross_entropy_target_oob", lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.tensor([0, 3])), T),
    ("cross_entropy_target_shape", lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.tensor([0, 1, 2])), T),
    ("cross_entropy_target_float_shape", lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.ones(2)), None),
    ("cross_entropy_bad_reduction", lambda m: m.nn.functional.cross_entropy(m.ones(2, 3), m.tensor([0, 1]), reduction="avg"), T),
    ("nll_loss_target_oob", lambda m: m.nn.functional.nll_loss(m.ones(2, 3), m.tensor([0, 5])), T),
    ("nll_loss_float_target", lambda m: m.nn.functional.nll_loss(m.ones(2, 3), m.tensor([0., 1.])), None),
    ("nll_loss_1d_input_2d_target", lambda m: m.nn.functional.nll_loss(m.ones(3), m.tensor([[0]])), None),
    ("mse_loss_shape", lambda m: m.nn.functional.mse_loss(m.ones(2), m.ones(3)), T),
    ("mse_loss_bad_reduction", lambda m: m.nn.functional.mse_loss(m.ones(2), m.ones(2), reduction="x"), T),
    ("l1_loss_shape", lambda m: m.nn.functional.l1_loss(m.ones(2), m.ones(3)), T),
    ("bce_out_of_range", lambda m: m.nn.functional.binary_cross_entropy(m.tensor([1.5]), m.tensor([1.])), T),
    ("bce_shape", lambda m: m.nn.functional.binary_cross_entropy(m.tensor([.5, .5]), m.tensor([1.])), T),
    ("bce_logits_shape", lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.ones(2), m.ones(3)), T),
    ("kl_div_shape", lambda m: m.nn.functional.kl_div(m.ones(2), m.ones(3), reduction="sum"), T),
    ("smooth_l1_negative_beta", lambda m: m.nn.functional.smooth_l1_loss(m.ones(2), m.ones(2), beta=-1.), T),
    ("sequential_index", lambda m: m.nn.Sequential(m.nn.ReLU())[3], T),
    ("sequential_bad_module", lambda m: m.nn.Sequential(3), None),
    ("modulelist_append_int", lambda m: m.nn.ModuleList().append(3), None),
    ("module_add_bad_name", lambda m: m.nn.Module().add_module("a.b", m.nn.ReLU()), T),
    ("module_add_not_module", lambda m: m.nn.Module().add_module("a", 3), None),
    ("module_register_param_tensor", lambda m: m.nn.Module().register_parameter("w", m.ones(2)), None),
    ("module_set_param_tensor", _module_set_param_tensor, T),
    ("module_missing_attr", lambda m: m.nn.Linear(2, 2).weightt, T),
    ("module_load_state_missing", _module_load_state, P),
    ("module_load_state_shape", _module_load_state_shape, P),
    ("module_forward_not_implemented", lambda m: m.nn.Module()(m.ones(2)), None),
    ("module_to_cuda", lambda m: m.nn.Linear(2, 2).to("cuda"), "not compiled with CUDA"),
    ("module_to_bad_device", lambda m: m.nn.Linear(2, 2).to("gpu"), P),
    ("parameter_int", lambda m: m.nn.Parameter(m.ones(2, dtype=m.int64)), T),
    ("clip_grad_norm_bad_type", lambda m: m.nn.utils.clip_grad_norm_([m.nn.Parameter(m.ones(2))], "x"), None),
    ("init_fan_1d", lambda m: m.nn.init.xavier_uniform_(m.ones(3)), T),
    ("init_kaiming_0d", lambda m: m.nn.init.kaiming_uniform_(m.tensor(1.)), None),
    ("init_orthogonal_1d", lambda m: m.nn.init.orthogonal_(m.ones(3)), T),
    ("init_bad_nonlinearity", lambda m: m.nn.init.calculate_gain("nope"), T),
    # --- optimizers and schedulers
    ("sgd_negative_lr", lambda m: _opt(m, "SGD", lr=-1.), T),
    ("sgd_negative_momentum", lambda m: _opt(m, "SGD", lr=0.1, momentum=-1.), T),
    ("sgd_negative_weight_decay", lambda m: _opt(m, "SGD", lr=0.1, weight_decay=-1.), T),
    ("sgd_nesterov_no_momentum", lambda m: _opt(m, "SGD", lr=0.1, nesterov=True), T),
    ("sgd_empty_params", lambda m: m.optim.SGD([], lr=0.1), T),
    ("sgd_params_tensor", lambda m: m.optim.SGD(m.nn.Parameter(m.ones(2)), lr=0.1), None),
    ("sgd_params_int", lambda m: m.optim.SGD([3], lr=0.1), None),
    ("sgd_non_leaf", lambda m: m.optim.SGD([leaf(m) * 2], lr=0.1), T),
    ("sgd_lr_str", lambda m: _opt(m, "SGD", lr="x"), None),
    ("adam_negative_lr", lambda m: _opt(m, "Adam", lr=-1.), T),
    ("adam_beta1", lambda m: _opt(m, "Adam", betas=(1.5, 0.9)), T),
    ("adam_beta2", lambda m: _opt(m, "Adam", betas=(0.9, -0.1)), T),
    ("adam_eps", lambda m: _opt(m, "Adam", eps=-1.), T),
    ("adam_weight_decay", lambda m: _opt(m, "Adam", weight_decay=-1.), T),
    ("adamw_beta", lambda m: _opt(m, "AdamW", betas=(2., 0.9)), T),
    ("rmsprop_alpha", lambda m: _opt(m, "RMSprop", alpha=-1.), T),
    ("adagrad_lr_decay", lambda m: _opt(m, "Adagrad", lr_decay=-1.), T),
    ("rprop_etas", lambda m: _opt(m, "Rprop", etas=(1.5, 0.5)), T),
    ("optimizer_dup_group", _opt_dup_group, T),
    ("optimizer_group_no_params", _opt_group_no_params, None),
    ("optimizer_load_state_mismatch", _opt_load_state_mismatch, T),
    ("lbfgs_no_closure", _opt_step_bad_closure, None),
    ("scheduler_not_optimizer", lambda m: m.optim.lr_scheduler.StepLR(3, 1), None),
    ("scheduler_gamma_str", lambda m: _scheduler(m, "StepLR", 1, gamma="x").step(), None),
    ("multistep_not_list", lambda m: _scheduler(m, "MultiStepLR", 3), None),
    ("onecycle_no_total", lambda m: _scheduler(m, "OneCycleLR", max_lr=0.1), T),
    ("reduce_on_plateau_mode", lambda m: _scheduler(m, "ReduceLROnPlateau", mode="middle"), T),
    ("reduce_on_plateau_factor", lambda m: _scheduler(m, "ReduceLROnPlateau", factor=1.5), T),
    ("cosine_negative_t_max", lambda m: _scheduler(m, "CosineAnnealingWarmRestarts", T_0=-1), T),
    # --- devices, pickling and misc
    ("cuda", lambda m: m.ones(2).cuda(), "not compiled with CUDA"),
    ("to_cuda", lambda m: m.ones(2).to("cuda"), "not compiled with CUDA"),
    ("to_cuda_device", lambda m: m.ones(2).to(m.device("cuda")), "not compiled with CUDA"),
    ("zeros_device_cuda", lambda m: m.zeros(2, device="cuda"), "not compiled with CUDA"),
    ("tensor_device_cuda", lambda m: m.tensor([1.], device="cuda"), "not compiled with CUDA"),
    ("device_bad_string", lambda m: m.device("gpu"), P),
    ("device_bad_index", lambda m: m.device("cpu:x"), P),
    ("to_bad_device", lambda m: m.ones(2).to("gpu:0"), P),
    ("zeros_bad_device", lambda m: m.zeros(2, device="tpu"), P),
    ("deepcopy_nonleaf", lambda m: copy.deepcopy(leaf(m) * 2), T),
    ("load_missing_file", lambda m: m.load("/nonexistent/dir/x.pt"), None),
    ("save_bad_path", lambda m: m.save(m.ones(2), "/nonexistent/dir/x.pt"), None),
    ("detect_anomaly_nan", lambda m: _anomaly_nan(m), P),
]


def _anomaly_nan(m):
    a = leaf(m, (0., 1.))
    with m.autograd.detect_anomaly():
        (a.sqrt() * 0).sum().backward()
        (a / a).sum().backward()


# ------------------------------------------------------------------ checking

_NUMPY_WORDS = re.compile(
    r"ufunc|ndarray|numpy|\bnp\.|broadcast together|array is too big|setting an array element|"
    r"assignment destination|Unable to allocate|casting rule|operands could not|"
    r"Cannot cast|array of sample points|axis \d+ is out of bounds|"
    r"only integer scalar arrays|integer scalar arrays|'same_kind'|object arrays")


def _numpy_leak(exc):
    """A description of numpy leaking through exc (its type or message), else None.
    (PyTorch's own messages may name numpy arrays: a case only fails on wording torch's
    message for the same call does not have.)"""
    if type(exc).__module__.split(".")[0] == "numpy":
        return f"numpy exception type {type(exc).__module__}.{type(exc).__qualname__}"
    if isinstance(exc, np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        return "numpy AxisError"
    m = _NUMPY_WORDS.search(str(exc))
    return f"numpy wording {m.group(0)!r}" if m else None


def _healthy(m):
    """A small computation whose value and gradient are known: the process (grad mode,
    default dtype, engine, random state machinery) survived the misuse."""
    assert m.is_grad_enabled()
    assert m.get_default_dtype() == m.float32
    a = m.tensor([1., 2., 3.], requires_grad=True)
    y = (a * a).sum() + a.exp().sum()
    y.backward()
    want = [2 * v + math.exp(v) for v in (1., 2., 3.)]
    assert all(abs(g - w) < 1e-4 * w for g, w in zip(a.grad.tolist(), want))
    assert m.ones(2, 3).sum().item() == 6.


def _restore(m):
    """Undo what a failed case may have left behind, so one failure stays one."""
    m.set_default_dtype(m.float32)
    m.set_grad_enabled(True)


@pytest.fixture(autouse=True)
def _restored():
    yield
    _restore(autograd_core)
    _restore(torch)


def check(fn, compare):
    """(ok, description): fn raises under torch and autograd_core alike."""
    want = catch(fn, torch, quiet=True)
    if not isinstance(want, Raised):
        return False, f"BROKEN CASE: torch does not raise (returns {type(want).__name__})"
    got = catch(fn, autograd_core, quiet=True)
    if not isinstance(got, Raised):
        return False, f"no error; torch {want.type}: {want.message}"
    problems = []
    if got.type != want.type:
        problems.append(f"type {got.type}, torch {want.type}")
    leak = _numpy_leak(got.exc)
    if leak and not _numpy_leak(want.exc):
        problems.append(leak)
    expected = sub_name(want.message)
    if compare is True and got.message != expected:
        problems.append("message differs")
    elif compare == "prefix" and not got.message.startswith(expected.split(":")[0]):
        problems.append("message prefix differs")
    elif isinstance(compare, str) and compare != "prefix":
        if compare not in expected:
            problems.append(f"BROKEN CASE: torch's message lacks {compare!r}")
        elif compare not in got.message:
            problems.append(f"message lacks {compare!r}")
    if problems:
        return False, "; ".join(problems) + f"\n   torch: {want.type}: {expected[:300]}" \
            f"\n    ours: {got.type}: {got.message[:300]}"
    return True, ""


@pytest.mark.parametrize("name,fn,compare", CASES, ids=[c[0] for c in CASES])
def test_misuse_raises_as_torch(name, fn, compare):
    ok, why = check(fn, compare)
    assert ok, why
    _healthy(autograd_core)


def test_catalogue_size_and_ids():
    ids = [c[0] for c in CASES]
    assert len(set(ids)) == len(ids), "duplicate case ids"
    assert len(CASES) >= 300


def test_write_into_read_only_numpy_memory_says_so():
    """PyTorch writes into memory numpy marked read-only (undefined behaviour it warns
    about at from_numpy); here the write is refused, naming the cause and the fix rather
    than an overlap that does not exist."""
    for write in (lambda t: t.add_(1), lambda t: t.zero_(), lambda t: _setitem(t, 0, 5.),
                  lambda t: t.copy_(autograd_core.ones(3, dtype=autograd_core.float64))):
        t = _from_ro(autograd_core)
        e = catch(write, t)
        assert isinstance(e, Raised) and e.type == "RuntimeError", e
        assert "read-only NumPy array" in e.message and "clone()" in e.message, e.message
        assert type(e.exc) is RuntimeError
        assert t.tolist() == [0., 1., 2.]
    _healthy(autograd_core)


def test_expanded_write_still_reports_overlap():
    e = catch(lambda: autograd_core.ones(1).expand(3).add_(1))
    assert isinstance(e, Raised) and "more than one element" in e.message, e


def test_generator_shared_by_threads_draws_whole_streams():
    """The samplers run without the GIL, under the generator's lock (Note [Generator
    lock]): threads sharing one generator each get a run of the stream a single thread
    would draw, never numbers from a state two loops advanced at once."""
    import threading
    n, k = 200_000, 4
    ref = autograd_core.Generator().manual_seed(7)
    want = [autograd_core.randn(n, generator=ref) for _ in range(k)]
    g = autograd_core.Generator().manual_seed(7)
    got, start = [None] * k, threading.Barrier(k)

    def draw(i):
        start.wait()
        got[i] = autograd_core.randn(n, generator=g)
    threads = [threading.Thread(target=draw, args=(i,)) for i in range(k)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    firsts = sorted(w[0].item() for w in want)
    assert sorted(t[0].item() for t in got) == firsts
    by_first = {w[0].item(): w for w in want}
    for t in got:
        assert autograd_core.equal(t, by_first[t[0].item()])


def test_device_names_follow_pytorch():
    """Any device PyTorch can name is a device here too; only using a non-CPU one fails,
    with PyTorch's error (AssertionError for CUDA, as a CPU-only PyTorch raises)."""
    for m in (torch, autograd_core):
        assert str(m.device("cuda:1")) == "cuda:1"
        assert m.device("cuda", 0).index == 0
        assert m.device("cpu") == m.device("cpu")
        assert m.device("cuda:0") != m.device("cpu")
        assert m.ones(2).to("cpu").device == m.device("cpu")


if __name__ == "__main__":
    bad = 0
    only = sys.argv[1:]
    for name, fn, compare in CASES:
        if only and not any(o in name for o in only):
            continue
        ok, why = check(fn, compare)
        try:
            _healthy(autograd_core)
        except Exception as e:  # noqa: BLE001
            ok, why = False, why + f"\n   UNHEALTHY after: {e!r}"
        _restore(autograd_core)
        if not ok:
            bad += 1
            print(f"{name}: {why}")
    print(f"{bad} divergent of {len(CASES)}")


# ---------------------------------------------------------------- issue 27, point 1
# PyTorch's Python wrappers (torch/functional.py and Tensor's Python methods) check
# their arguments in their own order and words: compute_mode before the tensors
# (ValueError), split's int / sequence dispatch, _VF.stft's overload error, istft's
# binding, unique's and lu's boolean dispatch, meshgrid's list argument.

def _x(m):
    return m.ones(2, 3)


def _sig(m):
    return m.ones(64)


def _win(m):
    return m.hann_window(16)


def _spec(m):
    return m.ones(9, 5, dtype=m.complex64)


_WRAPPER_ERRORS = [
    ("cdist_mode_bad", lambda m: m.cdist(_x(m), _x(m), compute_mode="foo")),
    ("cdist_mode_none", lambda m: m.cdist(_x(m), _x(m), compute_mode=None)),
    ("cdist_mode_none_positional", lambda m: m.cdist(_x(m), _x(m), 2.0, None)),
    ("aten_cdist_mode_range", lambda m: m.ops.aten.cdist(_x(m), _x(m), 2.0, 3)),
    ("aten_cdist_mode_negative", lambda m: m.ops.aten.cdist(_x(m), _x(m), 2.0, -1)),
    ("cdist_mode_int", lambda m: m.cdist(_x(m), _x(m), compute_mode=3)),
    ("cdist_mode_bytes", lambda m: m.cdist(_x(m), _x(m), compute_mode=b"use_mm_for_euclid_dist")),
    ("cdist_mode_positional", lambda m: m.cdist(_x(m), _x(m), 2.0, "bad")),
    ("cdist_mode_before_tensor", lambda m: m.cdist([[1.0]], _x(m), compute_mode="bad")),
    ("cdist_p_str", lambda m: m.cdist(_x(m), _x(m), p="a")),
    ("split_str", lambda m: m.split(_x(m), "a")),
    ("split_float", lambda m: m.split(_x(m), 1.5)),
    ("split_none", lambda m: m.split(_x(m), None)),
    ("split_bool", lambda m: m.split(_x(m), True)),
    ("split_dim_str", lambda m: m.split(_x(m), 1, dim="a")),
    ("split_dim_float", lambda m: m.split(_x(m), 1, 1.0)),
    ("split_dim_none", lambda m: m.split(_x(m), 1, dim=None)),
    ("split_sizes_dim_str", lambda m: m.split(_x(m), [1, 2], dim="a")),
    ("split_sizes_floats", lambda m: m.split(_x(m), [1.0, 2.0], dim=1)),
    ("split_sizes_tensor", lambda m: m.split(_x(m), m.tensor([1, 2]), dim=1)),
    ("split_not_tensor", lambda m: m.split([1, 2], 1)),
    ("split_method_str", lambda m: _x(m).split("a")),
    ("split_method_dim_str", lambda m: _x(m).split(1, "a")),
    ("stft_n_fft_float", lambda m: m.stft(_sig(m), 16.0, return_complex=True)),
    ("stft_hop_str", lambda m: m.stft(_sig(m), 16, hop_length="a", return_complex=True)),
    ("stft_win_length_str", lambda m: m.stft(_sig(m), 16, win_length="a", return_complex=True)),
    ("stft_window_list", lambda m: m.stft(_sig(m), 16, window=[1.0] * 16, return_complex=True)),
    ("stft_window_str", lambda m: m.stft(_sig(m), 16, window="hann", return_complex=True)),
    ("stft_return_complex_str", lambda m: m.stft(_sig(m), 16, window=_win(m), return_complex="a")),
    ("stft_return_complex_int", lambda m: m.stft(_sig(m), 16, window=_win(m), return_complex=1)),
    ("stft_return_complex_missing", lambda m: m.stft(_sig(m), 16, window=_win(m))),
    ("stft_normalized_str", lambda m: m.stft(_sig(m), 16, window=_win(m), normalized="a",
                                             return_complex=True)),
    ("stft_onesided_str", lambda m: m.stft(_sig(m), 16, window=_win(m), onesided="a",
                                           return_complex=True)),
    ("stft_pad_mode_int", lambda m: m.stft(_sig(m), 16, window=_win(m), pad_mode=3,
                                           return_complex=True)),
    ("stft_input_list", lambda m: m.stft([1.0] * 64, 16, return_complex=True)),
    ("stft_input_list_no_center", lambda m: m.stft([1.0] * 64, 16, center=False,
                                                   return_complex=True)),
    ("istft_n_fft_str", lambda m: m.istft(_spec(m), "a")),
    ("istft_n_fft_float", lambda m: m.istft(_spec(m), 16.0)),
    ("istft_hop_str", lambda m: m.istft(_spec(m), 16, hop_length="a")),
    ("istft_hop_positional", lambda m: m.istft(_spec(m), 16, "a")),
    ("istft_window_list", lambda m: m.istft(_spec(m), 16, window=[1.0] * 16)),
    ("istft_return_complex_str", lambda m: m.istft(_spec(m), 16, window=_win(m),
                                                   return_complex="a")),
    ("istft_length_str", lambda m: m.istft(_spec(m), 16, window=_win(m), length="a")),
    ("istft_method_n_fft_str", lambda m: _spec(m).istft("a")),
    ("unique_sorted_str", lambda m: m.unique(m.tensor([2, 1, 2]), sorted="a")),
    ("unique_sorted_int", lambda m: m.unique(m.tensor([2, 1, 2]), sorted=1)),
    ("unique_sorted_none", lambda m: m.unique(m.tensor([2, 1, 2]), sorted=None)),
    ("unique_inverse_int", lambda m: m.unique(m.tensor([2, 1, 2]), return_inverse=1)),
    ("unique_counts_str", lambda m: m.unique(m.tensor([2, 1, 2]), return_counts="a")),
    ("unique_dim_str", lambda m: m.unique(m.tensor([2, 1, 2]), dim="a")),
    ("unique_dim_sorted_str", lambda m: m.unique(m.tensor([2, 1, 2]), sorted="a", dim=0)),
    ("unique_list", lambda m: m.unique([2, 1, 2])),
    ("unique_method_sorted_str", lambda m: m.tensor([2, 1, 2]).unique(sorted="a")),
    ("unique_consecutive_inverse_str",
     lambda m: m.unique_consecutive(m.tensor([2, 1, 2]), return_inverse="a")),
    ("unique_consecutive_dim_str", lambda m: m.unique_consecutive(m.tensor([2, 1, 2]), dim="a")),
    ("meshgrid_indexing_bad", lambda m: m.meshgrid(m.ones(2), m.ones(3), indexing="foo")),
    ("meshgrid_indexing_int", lambda m: m.meshgrid(m.ones(2), m.ones(3), indexing=1)),
    ("meshgrid_not_tensor", lambda m: m.meshgrid([1, 2], indexing="ij")),
    ("meshgrid_second_not_tensor", lambda m: m.meshgrid(m.ones(2), 3, indexing="ij")),
    ("lu_no_pivot", lambda m: m.lu(m.eye(3), pivot=False)),
    ("lu_no_pivot_infos", lambda m: m.lu(m.eye(3), pivot=False, get_infos=True)),
    ("lu_pivot_str", lambda m: m.lu(m.eye(3), pivot="a")),
    ("lu_pivot_none", lambda m: m.lu(m.eye(3), pivot=None)),
    ("lu_1d", lambda m: m.lu(m.ones(3))),
    ("lu_int", lambda m: m.lu(m.eye(3, dtype=m.int64))),
    ("lu_int_no_pivot", lambda m: m.lu(m.eye(3, dtype=m.int64), pivot=False)),
    ("lu_list", lambda m: m.lu([[1.0]])),
    ("lu_method_no_pivot", lambda m: m.eye(3).lu(pivot=False)),
    ("lu_factor_1d", lambda m: m.linalg.lu_factor(m.ones(3))),
    ("lu_factor_ex_bool", lambda m: m.linalg.lu_factor_ex(m.eye(3, dtype=m.bool))),
    ("linalg_lu_int", lambda m: m.linalg.lu(m.eye(3, dtype=m.int64))),
]


@pytest.mark.parametrize("fn", [c[1] for c in _WRAPPER_ERRORS], ids=[c[0] for c in _WRAPPER_ERRORS])
def test_functional_wrapper_argument_errors(fn):
    from _diff import same_error
    same_error(fn)


def test_split_method_keyword_is_split_size():
    """Tensor.split names its argument split_size (torch.split: split_size_or_sections);
    the TypeError's function name is Cython's here, its words Python's."""
    from _diff import same_error
    want, got = same_error(lambda m: _x(m).split(split_size_or_sections=1), message=False)
    tail = "got an unexpected keyword argument 'split_size_or_sections'"
    assert want.message.endswith(tail) and got.message.endswith(tail)


_WRAPPER_RESULTS = [
    ("split_keywords", lambda m: m.split(tensor=_x(m), split_size_or_sections=1, dim=1)),
    ("split_method_keywords", lambda m: _x(m).split(split_size=2, dim=1)),
    ("split_tensor_size", lambda m: _x(m).split(m.tensor(2), 1)),
    ("split_float_tensor_size", lambda m: m.ones(4).split(m.tensor(2.7))),
    ("cdist_modes", lambda m: [m.cdist(_x(m), 2 * _x(m), compute_mode=c) for c in (
        "use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
        "donot_use_mm_for_euclid_dist")]),
    ("lu_get_infos_named", lambda m: m.lu(m.tensor([[1.0, 2.0], [3.0, 4.0]]), get_infos=True)),
    ("lu_get_infos_truthy", lambda m: m.lu(m.tensor([[1.0, 2.0], [3.0, 4.0]]), True, "a")),
    ("lu_get_infos_none", lambda m: m.lu(m.tensor([[1.0, 2.0], [3.0, 4.0]]), get_infos=None)),
    ("lu_singular_infos", lambda m: m.lu(m.zeros(3, 3), get_infos=True)),
    ("lu_method_infos", lambda m: m.tensor([[1.0, 2.0], [3.0, 4.0]]).lu(get_infos=True)),
    ("meshgrid_bytes", lambda m: m.meshgrid(m.ones(2), m.ones(3), indexing=b"xy")),
    ("meshgrid_list", lambda m: m.meshgrid([m.ones(2), m.ones(3)], indexing="xy")),
    ("aten_cdist_modes", lambda m: [m.ops.aten.cdist(_x(m), 2 * _x(m), 2.0, c)
                                    for c in (None, 0, 1, 2)]),
]


def _cdist_autocast(m, mode, rows):
    # (bfloat16 operands: autocast casts them to float32, then runs aten::cdist again)
    a = (m.arange(rows * 3, dtype=m.float32).reshape(rows, 3) / 7).to(m.bfloat16)
    with m.autocast("cpu"):
        r = m.cdist(a, a.flip(0), compute_mode=mode) if mode else m.cdist(a, a.flip(0))
    return r, r.dtype


@pytest.mark.parametrize("rows", [3, 30])   # (30: past the mm threshold of the default)
@pytest.mark.parametrize("mode", [None, "use_mm_for_euclid_dist_if_necessary",
                                  "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"])
def test_cdist_under_autocast(mode, rows):
    """CPU autocast runs cdist in float32 through aten::cdist, whose compute_mode is
    ATen's int? (None included) though torch.cdist refuses an explicit None."""
    from _diff import same
    same(_cdist_autocast, mode, rows, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("fn", [c[1] for c in _WRAPPER_RESULTS], ids=[c[0] for c in _WRAPPER_RESULTS])
def test_functional_wrapper_results(fn):
    from _diff import same
    same(fn, quiet=True)


# issue 27, point 8: misuse found by a sweep of small programs (indexing, shapes,
# reductions, linalg, nn.functional) whose error differed from PyTorch's, or which
# computed (silently wrong) or leaked a numpy / Python exception
def _x23(m):
    return m.arange(6.).reshape(2, 3) / 7 - 0.3


_HUNT_ERRORS = [
    # index_copy's meta checks (the first computed a wrong result, a negative index wrote)
    ("index_copy_count", lambda m: _x23(m).index_copy(0, m.tensor([0, 1]), m.ones(1, 3))),
    ("index_copy_count_dim1", lambda m: _x23(m).index_copy(1, m.tensor([0, 1]), m.ones(2, 1))),
    ("index_copy_slice", lambda m: m.zeros(2, 3, 4).index_copy(0, m.tensor([0]), m.ones(1, 2, 5))),
    ("index_copy_rank", lambda m: m.zeros(2, 3, 4).index_copy(0, m.tensor([0]), m.ones(1, 3))),
    ("index_copy_rank_before_dtype", lambda m: m.zeros(2, 3, 4).index_copy(
        0, m.tensor([0.]), m.ones(1, 3))),
    ("index_copy_index_2d", lambda m: _x23(m).index_copy(0, m.tensor([[0]]), m.ones(1, 3))),
    ("index_copy_index_float", lambda m: _x23(m).index_copy(0, m.tensor([0.]), m.ones(1, 3))),
    ("index_copy_index_int32", lambda m: _x23(m).index_copy(
        0, m.tensor([0], dtype=m.int32), m.ones(1, 3))),
    ("index_copy_negative", lambda m: _x23(m).index_copy(0, m.tensor([-1]), m.ones(1, 3))),
    ("index_copy_out_of_range", lambda m: _x23(m).index_copy(0, m.tensor([5]), m.ones(1, 3))),
    ("index_copy_scalar_source", lambda m: m.zeros(3).index_copy(0, m.tensor([0, 1]),
                                                                 m.tensor(1.))),
    ("index_copy_dtype_before_count", lambda m: _x23(m).index_copy(
        0, m.tensor([0, 0]), m.ones(1, 3, dtype=m.float64))),
    ("index_copy_0d_out_of_range", lambda m: m.zeros(()).index_copy(0, m.tensor([1]),
                                                                    m.ones(()))),
    # where broadcasts condition, input, other in turn
    ("where_condition_shape", lambda m: m.where(m.ones(2) > 0, _x23(m), _x23(m))),
    ("where_input_shape", lambda m: m.where(_x23(m) > 0, m.ones(2), _x23(m))),
    ("where_other_shape", lambda m: m.where(_x23(m) > 0, _x23(m), m.ones(4))),
    # pooling's checks (a negative padding computed, or leaked numpy's error)
    ("max_pool2d_kernel_zero", lambda m: m.nn.functional.max_pool2d(m.ones(1, 1, 4, 4), 0)),
    ("max_pool2d_kernel_zero_stride", lambda m: m.nn.functional.max_pool2d(
        m.ones(1, 1, 4, 4), 0, stride=1)),
    ("max_pool2d_stride_negative", lambda m: m.nn.functional.max_pool2d(
        m.ones(1, 1, 4, 4), 2, stride=-1)),
    ("max_pool2d_stride_zero_w", lambda m: m.nn.functional.max_pool2d(
        m.ones(1, 1, 4, 4), 2, stride=(1, 0))),
    ("max_pool2d_dilation_zero", lambda m: m.nn.functional.max_pool2d(
        m.ones(1, 1, 4, 4), 2, dilation=0)),
    ("max_pool2d_padding_negative", lambda m: m.nn.functional.max_pool2d(
        m.ones(1, 1, 4, 4), 2, padding=-1)),
    ("max_pool2d_empty_channels", lambda m: m.nn.functional.max_pool2d(m.ones(1, 0, 4, 4), 2)),
    ("avg_pool2d_padding_negative", lambda m: m.nn.functional.avg_pool2d(
        m.ones(1, 1, 4, 4), 2, padding=-1)),
    ("avg_pool2d_stride_zero", lambda m: m.nn.functional.avg_pool2d(
        m.ones(1, 1, 4, 4), 2, stride=0)),
    ("avg_pool2d_divisor_first", lambda m: m.nn.functional.avg_pool2d(
        m.ones(1, 1, 4, 4), 2, stride=0, divisor_override=0)),
    ("max_pool1d_1d", lambda m: m.nn.functional.max_pool1d(m.ones(4), 2)),
    ("max_pool1d_4d", lambda m: m.nn.functional.max_pool1d(m.ones(1, 1, 1, 4), 2)),
    ("max_pool1d_empty", lambda m: m.nn.functional.max_pool1d(m.ones(1, 0, 4), 2)),
    ("avg_pool1d_1d", lambda m: m.nn.functional.avg_pool1d(m.ones(4), 2)),
    ("max_pool3d_2d", lambda m: m.nn.functional.max_pool3d(m.ones(4, 4), 2)),
    ("avg_pool3d_2d", lambda m: m.nn.functional.avg_pool3d(m.ones(4, 4), 2)),
    ("adaptive_max_pool2d_negative", lambda m: m.nn.functional.adaptive_max_pool2d(
        m.ones(1, 1, 4, 4), -1)),
    ("adaptive_max_pool2d_negative_w", lambda m: m.nn.functional.adaptive_max_pool2d(
        m.ones(1, 1, 4, 4), (2, -1))),
    # convolution
    ("conv2d_groups_above_out_channels", lambda m: m.nn.functional.conv2d(
        m.ones(1, 1, 4, 4), m.ones(1, 1, 2, 2), groups=2)),
    ("conv2d_groups_not_dividing", lambda m: m.nn.functional.conv2d(
        m.ones(1, 2, 4, 4), m.ones(3, 1, 2, 2), groups=2)),
    ("conv2d_dilation_zero", lambda m: m.nn.functional.conv2d(
        m.ones(1, 1, 4, 4), m.ones(1, 1, 2, 2), dilation=0)),
    ("conv2d_dilation_zero_w", lambda m: m.nn.functional.conv2d(
        m.ones(1, 1, 4, 4), m.ones(1, 1, 2, 2), dilation=(1, 0))),
    ("conv1d_dilation_zero", lambda m: m.nn.functional.conv1d(
        m.ones(1, 1, 4), m.ones(1, 1, 2), dilation=0)),
    ("conv1d_dilation_negative", lambda m: m.nn.functional.conv1d(
        m.ones(1, 1, 4), m.ones(1, 1, 2), dilation=-1)),
    ("conv3d_dilation_zero", lambda m: m.nn.functional.conv3d(
        m.ones(1, 1, 4, 4, 4), m.ones(1, 1, 2, 2, 2), dilation=0)),
    ("conv_transpose2d_dilation_zero", lambda m: m.nn.functional.conv_transpose2d(
        m.ones(1, 1, 4, 4), m.ones(1, 1, 2, 2), dilation=0)),
    # losses
    ("bce_logits_pos_weight_shape", lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        _x23(m), m.ones(2, 3), pos_weight=m.ones(2))),
    ("bce_logits_pos_weight_grows", lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        _x23(m), m.ones(2, 3), pos_weight=m.ones(4, 1, 1))),
    ("bce_logits_weight_shape", lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        _x23(m), m.ones(2, 3), weight=m.ones(2))),
    ("cross_entropy_multi_target", lambda m: m.nn.functional.cross_entropy(
        _x23(m), m.ones(2, 4))),
    ("cross_entropy_multi_target_long", lambda m: m.nn.functional.cross_entropy(
        _x23(m), m.ones(2, 2, dtype=m.int64))),
    ("nll_loss_1d_target_size", lambda m: m.nn.functional.nll_loss(m.ones(3), m.tensor([0, 1]))),
    ("cross_entropy_1d_target_size", lambda m: m.nn.functional.cross_entropy(
        m.ones(3), m.tensor([0, 1]))),
    ("nll_loss_multi_target", lambda m: m.nn.functional.nll_loss(_x23(m), m.ones(2, 2).long())),
    ("nll_loss_float_target", lambda m: m.nn.functional.nll_loss(_x23(m), m.ones(2))),
    # others
    ("interpolate_size_zero", lambda m: m.nn.functional.interpolate(m.ones(1, 1, 4), size=0)),
    ("interpolate_size_negative", lambda m: m.nn.functional.interpolate(m.ones(1, 1, 4), size=-1)),
    ("interpolate_empty_input", lambda m: m.nn.functional.interpolate(m.ones(1, 1, 0), size=2)),
    ("interpolate_small_scale", lambda m: m.nn.functional.interpolate(
        m.ones(1, 1, 4), scale_factor=0.1)),
    ("interpolate_2d_zero", lambda m: m.nn.functional.interpolate(
        m.ones(1, 1, 4, 4), size=(0, 2), mode="bilinear")),
    ("interpolate_3d_zero", lambda m: m.nn.functional.interpolate(
        m.ones(1, 1, 4, 4, 4), size=(2, 0, 1), mode="trilinear")),
    ("celu_alpha_zero", lambda m: m.nn.functional.celu(_x23(m), alpha=0.)),
    ("celu_inplace_alpha_zero", lambda m: m.nn.functional.celu(_x23(m), 0., inplace=True)),
    ("embedding_bag_first_offset", lambda m: m.nn.functional.embedding_bag(
        m.tensor([0, 1]), m.ones(5, 2), m.tensor([1]))),
    ("embedding_bag_last_offset", lambda m: m.nn.functional.embedding_bag(
        m.tensor([0, 1]), m.ones(5, 2), m.tensor([0, 3]))),
    ("searchsorted_sorter_range", lambda m: m.searchsorted(
        m.tensor([3., 1.]), m.tensor([2.]), sorter=m.tensor([2, 0]))),
    ("searchsorted_sorter_negative", lambda m: m.searchsorted(
        m.tensor([3., 1.]), m.tensor([2.]), sorter=m.tensor([-1, 0]))),
    ("diff_prepend_rank", lambda m: m.diff(_x23(m), prepend=m.ones(3))),
    ("diff_append_rank", lambda m: m.diff(_x23(m), append=m.tensor(1.))),
    ("diff_prepend_shape", lambda m: m.diff(_x23(m), prepend=m.ones(3, 3))),
    ("diff_prepend_shape_dim0", lambda m: m.diff(_x23(m), dim=0, prepend=m.ones(2, 2))),
    ("diff_order_first", lambda m: m.diff(_x23(m), n=-1, prepend=m.ones(3))),
    ("matrix_rank_1d", lambda m: m.linalg.matrix_rank(m.ones(3))),
    ("lu_unpack_pivots_dtype", lambda m: m.lu_unpack(m.ones(2, 2), m.ones(2))),
    ("exponential_lambda", lambda m: m.zeros(3).exponential_(-1)),
    ("exponential_lambda_frac", lambda m: m.zeros(3).exponential_(-0.08)),
    ("geometric_p", lambda m: m.zeros(3).geometric_(2)),
    ("bernoulli_p", lambda m: m.zeros(3).bernoulli_(2.)),
    ("bernoulli_p_close", lambda m: m.zeros(3).bernoulli_(1.0000001)),
    ("log_normal_std", lambda m: m.zeros(3).log_normal_(std=-1.5000001)),
    # index_add (a negative index added into the last row, a bad source shape leaked numpy's)
    ("index_add_negative", lambda m: _x23(m).index_add(0, m.tensor([-1]), m.ones(1, 3))),
    ("index_add_out_of_range", lambda m: _x23(m).index_add(0, m.tensor([5]), m.ones(1, 3))),
    ("index_add_vector_negative", lambda m: m.zeros(3).index_add(0, m.tensor([-1]), m.ones(1))),
    ("index_add_source_shape", lambda m: _x23(m).index_add(0, m.tensor([0]), m.ones(1, 2))),
    ("index_add_source_rank", lambda m: _x23(m).index_add(0, m.tensor([0]), m.ones(1, 3, 1))),
    ("index_add_scalar_source", lambda m: m.zeros(3).index_add(0, m.tensor([0]), m.tensor(1.))),
    # binary_cross_entropy's element checks (a target past 1 computed)
    ("bce_target_range", lambda m: m.nn.functional.binary_cross_entropy(
        m.full((2, 3), 0.5), m.full((2, 3), 1.5))),
    ("bce_target_negative", lambda m: m.nn.functional.binary_cross_entropy(
        m.full((2, 3), 0.5), m.full((2, 3), -0.5))),
    ("bce_target_nan", lambda m: m.nn.functional.binary_cross_entropy(
        m.full((2, 3), 0.5), m.full((2, 3), float("nan")))),
    ("bce_input_nan", lambda m: m.nn.functional.binary_cross_entropy(
        m.full((2, 3), float("nan")), m.full((2, 3), 0.5))),
    ("bce_input_first", lambda m: m.nn.functional.binary_cross_entropy(
        m.full((2, 3), 1.5), m.full((2, 3), 1.5))),
    ("cosine_similarity_eps", lambda m: m.nn.functional.cosine_similarity(
        _x23(m), _x23(m), eps=-1)),
    ("cosine_similarity_eps_first", lambda m: m.nn.functional.cosine_similarity(
        _x23(m), _x23(m), dim=5, eps=-1)),
    ("triplet_margin_negative", lambda m: m.nn.functional.triplet_margin_loss(
        _x23(m), _x23(m), _x23(m), margin=-1)),
    ("triplet_margin_zero", lambda m: m.nn.functional.triplet_margin_loss(
        _x23(m), _x23(m), _x23(m), margin=0)),
    ("triplet_distance_margin", lambda m: m.nn.functional.triplet_margin_with_distance_loss(
        _x23(m), _x23(m), _x23(m), margin=-1)),
    ("unique_dim_0d", lambda m: m.tensor(1.).unique(dim=0)),
    ("unique_dim_0d_negative", lambda m: m.unique(m.tensor(1.), dim=-1)),
    ("unique_consecutive_dim_0d", lambda m: m.unique_consecutive(m.tensor(1.), dim=0)),
    ("unique_dim_range", lambda m: m.tensor([1.]).unique(dim=1)),
    ("unfold_stride_zero", lambda m: m.nn.functional.unfold(m.ones(1, 1, 3, 3), 2, stride=0)),
    ("unfold_kernel_zero", lambda m: m.nn.functional.unfold(m.ones(1, 1, 3, 3), 0)),
    ("unfold_dilation_zero", lambda m: m.nn.functional.unfold(m.ones(1, 1, 3, 3), 2, dilation=0)),
    ("unfold_padding_negative", lambda m: m.nn.functional.unfold(
        m.ones(1, 1, 3, 3), 2, padding=-1)),
    ("unfold_order", lambda m: m.nn.functional.unfold(
        m.ones(1, 1, 3, 3), 1, stride=0, dilation=0, padding=-1)),
    ("fold_stride_zero", lambda m: m.nn.functional.fold(m.ones(1, 4, 4), (3, 3), 2, stride=0)),
    ("fold_kernel_zero", lambda m: m.nn.functional.fold(m.ones(1, 4, 4), (3, 3), 0)),
    ("fold_order", lambda m: m.nn.functional.fold(
        m.ones(1, 4, 4), (3, 3), 1, stride=0, dilation=0, padding=-1)),
]


@pytest.mark.parametrize("fn", [c[1] for c in _HUNT_ERRORS], ids=[c[0] for c in _HUNT_ERRORS])
def test_misuse_sweep_errors(fn):
    from _diff import same_error
    same_error(fn)


_HUNT_RESULTS = [
    ("index_copy_0d", lambda m: m.zeros(()).index_copy(0, m.tensor([0]), m.ones(1))),
    ("index_copy_ok", lambda m: _x23(m).index_copy(1, m.tensor([2, 0]), m.ones(2, 2))),
    ("interpolate_area_zero", lambda m: m.nn.functional.interpolate(m.ones(1, 1, 4), size=0,
                                                                    mode="area")),
    ("embedding_bag_offsets", lambda m: m.nn.functional.embedding_bag(
        m.tensor([0, 1, 2]), m.arange(10.).reshape(5, 2), m.tensor([0, 2]))),
    ("bce_logits_pos_weight_ok", lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        _x23(m), m.ones(2, 3), pos_weight=m.ones(3))),
    ("celu_alpha", lambda m: m.nn.functional.celu(_x23(m), alpha=0.5)),
    ("max_pool2d_empty_batch", lambda m: m.nn.functional.max_pool2d(m.ones(0, 1, 4, 4), 2)),
    ("diff_prepend_ok", lambda m: m.diff(_x23(m), prepend=m.ones(2, 1))),
    ("searchsorted_sorter_ok", lambda m: m.searchsorted(
        m.tensor([3., 1.]), m.tensor([2.]), sorter=m.tensor([1, 0]))),
    ("nll_loss_1d", lambda m: m.nn.functional.nll_loss(m.tensor([0.2, 0.8]), m.tensor([1]))),
]


@pytest.mark.parametrize("fn", [c[1] for c in _HUNT_RESULTS], ids=[c[0] for c in _HUNT_RESULTS])
def test_misuse_sweep_results(fn):
    from _diff import same
    same(fn, quiet=True)
