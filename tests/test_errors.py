"""Differential error cases: the same call under torch and autograd_core must raise the
same exception type with the same message (torch's message with ``torch.`` spelled
``autograd_core.``).  One case is one line of CASES: ``(id, f(mod), compare_message)``.
Each f must raise under torch (checked), so no case can pass vacuously."""
import numpy as np
import pytest

import autograd_core
from _diff import Raised, catch, same_error, torch


def leaf(mod, data=(1., 2., 3.)):
    return mod.tensor(list(data), requires_grad=True)


def _set(obj, name, value):
    setattr(obj, name, value)


def _inplace_view_of_leaf(mod):
    a = leaf(mod)
    a[1:].add_(1)


def _backward_twice(mod):
    a = leaf(mod)
    y = (a * a).sum()
    y.backward()
    y.backward()


def _modified_saved(mod):
    a = leaf(mod)
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()


def _grad_unused(mod):
    a, u = leaf(mod), leaf(mod)
    mod.autograd.grad((a * 2).sum(), [a, u])


def _grad_of_non_requiring(mod):
    a = mod.tensor([1., 2.])
    mod.autograd.grad(a.sum(), a)


def _setitem_leaf(mod):
    a = leaf(mod)
    a[0] = 5.


def _iadd_leaf(mod):
    a = leaf(mod)
    a += 1


CASES = [
    # --- backward
    ("implicit_grad_non_scalar", lambda m: leaf(m).mul(2).backward(), True),
    ("implicit_grad_non_scalar_2d", lambda m: (m.ones(2, 2, requires_grad=True) * 2).backward(), True),
    ("backward_no_grad_tensor", lambda m: m.tensor([1., 2.]).sum().backward(), True),
    ("backward_no_grad_scalar_leaf", lambda m: m.tensor(1.).backward(), True),
    ("backward_under_no_grad_result", lambda m: _under_no_grad(m, lambda: leaf(m).sum()).backward(), True),
    ("autograd_grad_no_grad_tensor", _grad_of_non_requiring, True),
    ("autograd_grad_unused", _grad_unused, True),
    ("backward_twice", _backward_twice, True),
    ("modified_saved_tensor_prefix", _modified_saved, "prefix"),
    ("backward_gradient_shape", lambda m: leaf(m).exp().backward(m.ones(2)), True),
    ("backward_gradient_shape_2d", lambda m: (m.ones(2, 3, requires_grad=True) * 2).backward(m.ones(3, 2)), True),
    ("backward_gradient_not_tensor", lambda m: leaf(m).exp().backward([1., 2., 3.]), False),
    ("backward_inputs_empty", lambda m: leaf(m).sum().backward(inputs=[]), True),
    # --- requires_grad on non-float
    ("tensor_int_requires_grad", lambda m: m.tensor([1, 2], requires_grad=True), True),
    ("tensor_bool_requires_grad", lambda m: m.tensor([True], requires_grad=True), True),
    ("tensor_int_scalar_requires_grad", lambda m: m.tensor(3, requires_grad=True), True),
    ("zeros_int_requires_grad", lambda m: m.zeros(2, dtype=m.int64, requires_grad=True), True),
    ("ones_bool_requires_grad", lambda m: m.ones(2, dtype=m.bool, requires_grad=True), True),
    ("arange_requires_grad", lambda m: m.arange(3, requires_grad=True), True),
    ("requires_grad__int", lambda m: m.tensor([1, 2]).requires_grad_(), True),
    ("requires_grad_setattr_int", lambda m: _set(m.tensor([1, 2]), "requires_grad", True), True),
    ("requires_grad__bool", lambda m: m.tensor([True]).requires_grad_(True), True),
    # --- non-leaf requires_grad
    ("nonleaf_requires_grad_false", lambda m: leaf(m).mul(2).requires_grad_(False), True),
    ("nonleaf_setattr_requires_grad", lambda m: _set(leaf(m) * 2, "requires_grad", False), True),
    ("retain_grad_no_requires", lambda m: m.tensor([1.]).retain_grad(), True),
    # --- in-place on leaves
    ("inplace_leaf_add_", lambda m: leaf(m).add_(1), True),
    ("inplace_leaf_mul_", lambda m: leaf(m).mul_(2), True),
    ("inplace_leaf_zero_", lambda m: leaf(m).zero_(), True),
    ("inplace_leaf_fill_", lambda m: leaf(m).fill_(1.), True),
    ("inplace_leaf_copy_", lambda m: leaf(m).copy_(m.ones(3)), True),
    ("inplace_leaf_iadd", _iadd_leaf, True),
    ("inplace_leaf_setitem", _setitem_leaf, True),
    ("inplace_view_of_leaf", _inplace_view_of_leaf, True),
    ("inplace_view_of_leaf_setitem", lambda m: leaf(m)[1:].__setitem__(0, 3.), True),
    ("inplace_view_of_leaf_reshape", lambda m: leaf(m).view(3, 1).mul_(2), True),
    # --- numpy
    ("numpy_requires_grad", lambda m: leaf(m).numpy(), True),
    ("numpy_nonleaf", lambda m: (leaf(m) * 2).numpy(), True),
    # --- shapes
    ("broadcast_mismatch", lambda m: m.ones(2, 3) + m.ones(4), True),
    ("broadcast_mismatch_mul", lambda m: m.ones(2, 3) * m.ones(3, 2), True),
    ("broadcast_mismatch_grad", lambda m: leaf(m) - m.ones(2), True),
    ("broadcast_inplace", lambda m: m.ones(3).add_(m.ones(2, 3)), True),
    ("matmul_mismatch", lambda m: m.ones(2, 3) @ m.ones(2, 3), True),
    ("matmul_vec_mismatch", lambda m: m.ones(3) @ m.ones(4), True),
    ("matmul_mat_vec_mismatch", lambda m: m.ones(2, 3) @ m.ones(4), True),
    ("mm_mismatch", lambda m: m.mm(m.ones(2, 3), m.ones(4, 2)), True),
    ("mm_1d", lambda m: m.mm(m.ones(3), m.ones(3)), True),
    ("matmul_0d", lambda m: m.matmul(m.tensor(1.), m.ones(2)), True),
    ("view_noncontiguous", lambda m: m.ones(2, 3).t().view(6), True),
    ("view_invalid_size", lambda m: m.ones(2, 2).view(3), True),
    ("view_two_minus_one", lambda m: m.ones(2, 2).view(-1, -1), True),
    ("reshape_invalid", lambda m: m.ones(2, 3).reshape(4, 2), True),
    ("reshape_minus_one_invalid", lambda m: m.ones(2, 2).reshape(-1, 3), True),
    ("reshape_negative", lambda m: m.ones(4).reshape(-2, 2), True),
    ("expand_invalid", lambda m: m.ones(2, 3).expand(3, 3), True),
    ("expand_fewer_dims", lambda m: m.ones(2, 3).expand(3), True),
    ("expand_minus_one_new_dim", lambda m: m.ones(3).expand(-1, 3), True),
    ("permute_wrong_length", lambda m: m.ones(2, 3).permute(0), True),
    ("permute_repeated", lambda m: m.ones(2, 3).permute(0, 0), True),
    ("permute_out_of_range", lambda m: m.ones(2, 3).permute(0, 2), True),
    ("cat_shape_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(3, 2)]), True),
    ("cat_dim_mismatch", lambda m: m.cat([m.ones(2, 3), m.ones(3)]), True),
    ("cat_empty", lambda m: m.cat([]), True),
    ("cat_dim_out_of_range", lambda m: m.cat([m.ones(2), m.ones(2)], dim=1), True),
    ("cat_0d", lambda m: m.cat([m.tensor(1.), m.tensor(2.)]), True),
    ("stack_mismatch", lambda m: m.stack([m.ones(2), m.ones(3)]), True),
    ("stack_empty", lambda m: m.stack([]), True),
    ("stack_dim_out_of_range", lambda m: m.stack([m.ones(2), m.ones(2)], dim=3), True),
    # --- indexing
    ("index_out_of_range", lambda m: m.ones(3)[5], True),
    ("index_negative_out_of_range", lambda m: m.ones(3)[-4], True),
    ("index_2d_out_of_range", lambda m: m.ones(2, 3)[1, 3], True),
    ("index_tensor_out_of_range", lambda m: m.ones(3)[m.tensor([0, 5])], True),
    ("index_tensor_negative_out_of_range", lambda m: m.ones(3)[m.tensor([-4])], True),
    ("index_too_many", lambda m: m.ones(3)[0, 0], True),
    ("index_0d", lambda m: m.tensor(1.)[0], True),
    ("index_float", lambda m: m.ones(3)[1.5], True),
    ("index_float_tensor", lambda m: m.ones(3)[m.tensor([1.])], True),
    ("index_bool_mask_shape", lambda m: m.ones(3)[m.tensor([True, False])], True),
    ("setitem_out_of_range", lambda m: m.ones(3).__setitem__(3, 1.), True),
    ("setitem_shape_mismatch", lambda m: m.ones(3).__setitem__(slice(None), m.ones(2)), True),
    ("select_on_leaf_slice_step_negative", lambda m: m.ones(3)[::-1], True),
    # --- dims
    ("sum_dim", lambda m: m.ones(2).sum(3), True),
    ("sum_dim_negative", lambda m: m.ones(2, 3).sum(-3), True),
    ("sum_dim_0d", lambda m: m.tensor(1.).sum(1), True),
    ("mean_dim", lambda m: m.ones(2, 3).mean(2), True),
    ("mean_int", lambda m: m.tensor([1, 2]).mean(), True),
    ("squeeze_dim", lambda m: m.ones(2).squeeze(2), True),
    ("unsqueeze_dim", lambda m: m.ones(2).unsqueeze(3), True),
    ("unsqueeze_dim_negative", lambda m: m.ones(2).unsqueeze(-3), True),
    ("transpose_dim", lambda m: m.ones(2, 3).transpose(0, 2), True),
    ("transpose_dim_negative", lambda m: m.ones(2, 3).transpose(-3, 0), True),
    ("t_3d", lambda m: m.ones(2, 3, 4).t(), True),
    ("max_dim", lambda m: m.ones(2, 3).max(5), True),
    ("max_empty", lambda m: m.zeros(0).max(), True),
    ("min_dim", lambda m: m.ones(2, 3).min(-3), True),
    ("unbind_dim", lambda m: m.ones(2).unbind(1), True),
    ("flatten_dims", lambda m: m.ones(2, 3).flatten(1, 0), True),
    ("size_dim", lambda m: m.ones(2, 3).size(2), True),
    # --- scalars
    ("item_multi", lambda m: m.ones(2, 3).item(), True),
    ("item_empty", lambda m: m.zeros(0).item(), True),
    ("bool_multi", lambda m: bool(m.ones(2)), True),
    ("float_multi", lambda m: float(m.ones(2)), True),
    ("int_multi", lambda m: int(m.ones(2)), True),
    ("index_float_tensor_dunder", lambda m: [0, 1][m.tensor(1.)], True),
    ("len_0d", lambda m: len(m.tensor(1.)), True),
    ("iter_0d", lambda m: iter(m.tensor(1.)), True),
    # --- read-only attributes (type only: the messages name CPython classes)
    ("grad_fn_not_writable", lambda m: _set(m.ones(2), "grad_fn", None), False),
    ("is_leaf_not_writable", lambda m: _set(m.ones(2), "is_leaf", True), False),
    ("shape_not_writable", lambda m: _set(m.ones(2), "shape", (2,)), False),
    ("dtype_not_writable", lambda m: _set(m.ones(2), "dtype", m.float64), False),
    ("grad_wrong_shape", lambda m: _set(leaf(m), "grad", m.ones(2)), True),
    ("grad_wrong_type", lambda m: _set(leaf(m), "grad", [1., 2., 3.]), True),
    ("data_wrong_type", lambda m: _set(leaf(m), "data", [1.]), True),
    # --- creation
    ("tensor_ragged", lambda m: m.tensor([[1., 2.], [3.]]), True),
    ("tensor_string", lambda m: m.tensor("abc"), True),
    ("tensor_none", lambda m: m.tensor(None), True),
    ("zeros_negative", lambda m: m.zeros(-1), True),
    ("ones_negative_2d", lambda m: m.ones(2, -3), True),
    ("arange_zero_step", lambda m: m.arange(0, 3, 0), True),
    ("arange_wrong_sign", lambda m: m.arange(0, 3, -1), True),
    ("linspace_negative_steps", lambda m: m.linspace(0, 1, -1), True),
    ("eye_negative", lambda m: m.eye(-1), True),
    ("full_no_fill", lambda m: m.full((2,)), False),
    ("from_numpy_list", lambda m: m.from_numpy([1, 2]), True),
    ("from_numpy_object", lambda m: m.from_numpy(np.array([object()])), True),
    ("to_bad_dtype", lambda m: m.ones(2).to("float128"), False),
    # --- grad modes
    ("set_grad_enabled_non_bool", lambda m: m.set_grad_enabled(1), True),
    # --- ops on wrong types
    ("add_string", lambda m: m.ones(2) + "a", True),
    ("add_none", lambda m: m.add(m.ones(2), None), False),
    ("rfloordiv_none", lambda m: None // m.ones(2), True),
    ("sum_of_list", lambda m: m.sum([1, 2]), False),
    ("neg_bool", lambda m: -m.tensor([True]), True),
    ("sub_bool", lambda m: m.tensor([True]) - m.tensor([False]), True),
    ("pow_int_negative", lambda m: m.tensor([2]) ** -1, True),
    ("invert_float", lambda m: ~m.ones(2), True),
    ("and_float", lambda m: m.ones(2) & m.ones(2), True),
    ("exp_int_inplace_result", lambda m: m.tensor([1, 2]).mul_(1.5), True),
    ("div_int_inplace", lambda m: m.tensor([1, 2]).div_(2), True),
    ("where_mismatch", lambda m: m.where(m.tensor([True, False]), m.ones(2), m.ones(3)), True),
    ("where_non_bool", lambda m: m.where(m.ones(2), m.ones(2), m.ones(2)), True),
]


def _under_no_grad(m, fn):
    with m.no_grad():
        return fn()


@pytest.mark.parametrize("name,fn,compare", CASES, ids=[c[0] for c in CASES])
def test_error_matches_torch(name, fn, compare):
    same_error(fn, message=compare)


def test_inplace_on_leaf_allowed_under_no_grad():
    for mod in (torch, autograd_core):
        a = leaf(mod)
        with mod.no_grad():
            a.add_(1)
            a[1:].mul_(2)
            a[0] = 0.
            a.zero_()
            a.fill_(2.)
        assert a.tolist() == [2., 2., 2.] and a.requires_grad and a.is_leaf, mod.__name__


def test_inplace_on_leaf_not_requiring_grad_allowed():
    for mod in (torch, autograd_core):
        a = mod.tensor([1., 2.])
        a.add_(1)
        a[0] = 7.
        assert a.tolist() == [7., 3.]


NOT_ERRORS = [
    ("reshape_noncontiguous", lambda m: m.ones(2, 3).t().reshape(6)),
    ("contiguous_view", lambda m: m.ones(2, 3).contiguous().view(6)),
    ("expand_minus_one", lambda m: m.ones(3).expand(2, -1)),
    ("expand_singleton", lambda m: m.ones(1, 3).expand(4, 3)),
    ("index_negative", lambda m: m.ones(3)[-3]),
    ("sum_dim_negative", lambda m: m.ones(2).sum(-1)),
    ("sum_0d_dim0", lambda m: m.tensor(1.).sum(0)),
    ("unsqueeze_0d", lambda m: m.tensor(1.).unsqueeze(-1)),
    ("squeeze_0d", lambda m: m.tensor(1.).squeeze(0)),
    ("item_one_elem", lambda m: m.ones(1).item()),
    ("squeeze_dim", lambda m: m.ones(2, 1).squeeze(1)),
    ("len_2d", lambda m: len(m.ones(2, 3))),
    ("cat_ok", lambda m: m.cat([m.ones(2, 3), m.ones(1, 3)])),
    ("int_to_float_requires_grad", lambda m: m.tensor([1, 2]).float().requires_grad_()),
    ("backward_int_gradient", lambda m: leaf(m).exp().backward(m.tensor([1, 2, 3]))),
    ("no_grad_decorates_class", lambda m: m.no_grad()(type("C", (), {}))),
    ("variable_requires_grad_int", lambda m: m.autograd.Variable(m.ones(2), requires_grad=1)),
]


@pytest.mark.parametrize("name,fn", NOT_ERRORS, ids=[c[0] for c in NOT_ERRORS])
def test_not_an_error(name, fn):
    """Calls torch accepts must not raise in autograd_core either."""
    assert not isinstance(catch(fn, torch, quiet=True), Raised), f"torch raises for {name}: a broken case"
    e = catch(fn, autograd_core, quiet=True)
    assert not isinstance(e, Raised), f"autograd_core raised {e}"
