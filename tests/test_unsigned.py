"""The wide unsigned dtypes uint16, uint32, uint64 (issue 27, item 6), compared with
PyTorch: the dtype objects, promotion (and PyTorch's refusal to promote them with other
integer types), creation and conversion, printing, and the op table run on them (every
op either matches PyTorch or raises PyTorch's error: Note [Dtype guard])."""
import warnings

import numpy as np
import pytest

from _diff import Raised, assert_same, catch, same, same_error, sub_name, torch
import autograd_core
import op_table
from op_spec import case_args, case_seed, is_shape, make_arrays

UNSIGNED = ["uint16", "uint32", "uint64"]


def test_dtype_attributes():
    def prog(m):
        return [(str(d), d.is_signed, d.itemsize, d.is_floating_point, d.is_complex,
                 str(m.iinfo(d)), m.iinfo(d).max, m.iinfo(d).bits)
                for d in (m.uint16, m.uint32, m.uint64)]
    same(prog)


@pytest.mark.parametrize("a", UNSIGNED + ["uint8", "int8", "int32", "int64", "bool"])
@pytest.mark.parametrize("b", UNSIGNED + ["float16", "bfloat16", "float32", "float64",
                                          "complex64"])
def test_promote_types(a, b):
    # only a floating dtype (or the same dtype) promotes with them; PyTorch raises else
    same(lambda m: m.promote_types(getattr(m, a), getattr(m, b)), may_raise=True)
    same(lambda m: m.promote_types(getattr(m, b), getattr(m, a)), may_raise=True)


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("other", [1, True, 2.5, 1j, "t0i64", "t0b", "t1i64", "t1f32"])
def test_result_type(dt, other):
    def prog(m):
        x = m.ones(3, dtype=getattr(m, dt))
        o = {"t0i64": m.tensor(5), "t0b": m.tensor(True), "t1i64": m.ones(3, dtype=m.int64),
             "t1f32": m.ones(3)}.get(other, other) if isinstance(other, str) else other
        return m.result_type(x, o)
    same(prog, may_raise=True)


def test_result_type_bool_tensor_with_unsigned_scalar_tensor_raises():
    same_error(lambda m: m.result_type(m.tensor([True]), m.tensor(5, dtype=m.uint16)))


@pytest.mark.parametrize("dt", UNSIGNED)
def test_creation_and_conversion(dt):
    big = int(np.iinfo(dt).max)

    def prog(m):
        d = getattr(m, dt)
        x = m.tensor([[0, 1], [big, 12345]], dtype=d)
        return (x, m.zeros(2, 3, dtype=d), m.ones(2, dtype=d), m.full((2,), 7, dtype=d),
                m.empty(0, dtype=d).shape, m.zeros_like(x), x.tolist(), x[1, 0].item(),
                x.numpy(), x.to(m.float64), x.double(), m.tensor([1.5, 2.0]).to(d),
                m.tensor([3, 4]).to(d), x.to(m.int64), x.clone(), x.t().contiguous(),
                x.is_signed(), x.element_size())
    same(prog)


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("data", [
    2 ** 63, [2 ** 64 - 1, 0], (1, 2 ** 63 + 5), [[1, 2], [2 ** 63 + 5, 3]], 70000, [True, 2],
    [], -1, [-1, 3], [2 ** 64], 2 ** 40, [1.5], [np.uint64(3)], [[1], [2, 3]]])
def test_tensor_from_python_ints(dt, data):
    # values above 2**63 for uint64; PyTorch's errors for negative, too large, non-int
    same(lambda m: m.tensor(data, dtype=getattr(m, dt)), may_raise=True)


def test_uint64_tensor_cannot_require_grad():
    same_error(lambda m: m.tensor([1, 2 ** 63], dtype=m.uint64, requires_grad=True))


@pytest.mark.parametrize("dt", UNSIGNED)
def test_from_numpy_shares_memory(dt):
    a = np.array([[1, 2, 3], [4, 5, 6]], dtype=dt)
    same(lambda m: m.from_numpy(a.copy()))
    same(lambda m: m.as_tensor(a.copy()))
    same(lambda m: m.tensor(a))
    b = a.copy()
    t = autograd_core.from_numpy(b)
    t[0, 0] = 9
    assert b[0, 0] == 9 and t.dtype == getattr(autograd_core, dt)


@pytest.mark.parametrize("dt", UNSIGNED)
def test_arange_raises_as_pytorch(dt):
    same_error(lambda m: m.arange(3, dtype=getattr(m, dt)))


_PRINT_CASES = [
    lambda m: m.tensor([1, 2, 3], dtype=m.uint16),
    lambda m: m.tensor(70000, dtype=m.uint32),
    lambda m: m.tensor([[2 ** 31 + 5, 0], [1, 2]], dtype=m.uint32),
    lambda m: m.zeros(0, dtype=m.uint16),
    lambda m: m.zeros(2, 0, dtype=m.uint64),
    lambda m: m.full((3, 40), 65535, dtype=m.uint16),
]


@pytest.mark.parametrize("i", range(len(_PRINT_CASES)))
def test_printing(i):
    assert sub_name(repr(_PRINT_CASES[i](torch))) == repr(_PRINT_CASES[i](autograd_core))


_REFUSALS = [
    lambda m: m.tensor([1, 2], dtype=m.uint16) + 1,
    lambda m: m.tensor([1, 2], dtype=m.uint32) - m.tensor([1, 2], dtype=m.uint32),
    lambda m: -m.tensor([1, 2], dtype=m.uint32),
    lambda m: m.tensor([1, 2], dtype=m.uint16) < 2,
    lambda m: m.tensor([1, 2], dtype=m.uint16).max(),
    lambda m: m.tensor([1, 2], dtype=m.uint16).mean(),
    lambda m: m.tensor([1, 2], dtype=m.uint32).flip(0),
    lambda m: m.tensor([1, 2], dtype=m.uint32) ** 2,
]


@pytest.mark.parametrize("i", range(len(_REFUSALS)))
def test_refusals_with_pytorch_messages(i):
    same_error(_REFUSALS[i])


_COMPUTES = [
    lambda m: m.tensor([1, 2], dtype=m.uint16) * m.tensor([3, 4], dtype=m.uint16),
    lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.uint32).sum(0),
    lambda m: m.tensor([3, 1, 2], dtype=m.uint32).sort(),
    lambda m: m.tensor([3, 1, 2], dtype=m.uint32) == 1,
    lambda m: m.sin(m.tensor([3, 1, 2], dtype=m.uint16)),
    lambda m: m.cat([m.tensor([1], dtype=m.uint16), m.tensor([2], dtype=m.uint16)]),
    lambda m: m.tensor([1, 2], dtype=m.uint16) / 2,
    lambda m: m.tensor([1, 2], dtype=m.uint16) * 2.5,
]


@pytest.mark.parametrize("i", range(len(_COMPUTES)))
def test_supported_ops_match(i):
    same(_COMPUTES[i])


# ------------------------------------------------- ops that compute in the common dtype
# Note [Dtype guard]: PyTorch's TensorIterator ops dispatch on the operands' common
# dtype, so a floating operand (tensor of any dim, or Python float) makes them compute
# in float where integer operands raise.
def _u(m, dt="uint16", vals=(1, 2, 300)):
    return m.tensor(list(vals), dtype=getattr(m, dt))


_BIG = (0, 5, 2 ** 63 + 5)   # uint64 values past int64's range


_PROMOTING = [
    lambda m: _u(m) + 2.5,
    lambda m: 2.5 - _u(m, "uint32"),
    lambda m: m.add(_u(m, "uint64", _BIG), 0.5),
    lambda m: m.rsub(_u(m), 2.5, alpha=3),
    lambda m: _u(m) - m.ones(3, dtype=m.float64),
    lambda m: _u(m, "uint32") + m.tensor(1.5, dtype=m.float16),
    lambda m: m.tensor(7, dtype=m.uint16) + m.ones(2, dtype=m.bfloat16),
    lambda m: _u(m) + 1j,
    lambda m: _u(m) ** 0.5,
    lambda m: 2.0 ** _u(m),
    lambda m: m.pow(_u(m, "uint64"), m.tensor(2.0)),
    lambda m: _u(m) % 0.6,
    lambda m: m.fmod(_u(m, "uint32"), 0.7),
    lambda m: _u(m) // 0.5,
    lambda m: m.div(_u(m), 0.7, rounding_mode="floor"),
    lambda m: m.div(2.5, _u(m, "uint64", (1, 2, 7)), rounding_mode="trunc"),
    lambda m: m.clamp(_u(m), -0.5, 1.5),
    lambda m: _u(m, "uint32").clamp(max=0.3),
    lambda m: m.clamp_min(_u(m, "uint64", _BIG), 0.2),
    lambda m: m.clamp(_u(m), m.zeros(3), m.full((3,), 2.5)),
    lambda m: _u(m) < 1.5,
    lambda m: m.ge(_u(m, "uint64", _BIG), 4.5),
    lambda m: m.gt(_u(m, "uint32"), m.tensor(1.5)),
    lambda m: m.fmax(_u(m), m.tensor([float("nan"), 5.0, 0.5])),
    lambda m: m.maximum(_u(m), m.ones(3)),
    lambda m: m.lgamma(_u(m) - 3.5),
    lambda m: m.ones(3).mul_(_u(m)),
    lambda m: m.zeros(3, dtype=m.float64).sub_(_u(m, "uint64", _BIG)),
    lambda m: m.zeros(3).fill_(m.tensor(9, dtype=m.uint32)),
    lambda m: m.ones(3).div_(_u(m), rounding_mode="floor"),
    lambda m: m.ones(3).clamp_(min=_u(m)),
    lambda m: m.full((3,), 2.0).ge_(_u(m)),
    lambda m: m.full((3,), 2.0).lt_(_u(m)),
]


@pytest.mark.parametrize("i", range(len(_PROMOTING)))
def test_float_operand_computes_in_float(i):
    # values and result dtype as PyTorch's (uint64 above 2**63 converts exactly as its)
    same(_PROMOTING[i])


@pytest.mark.parametrize("i", [0, 2, 8, 16, 20])
def test_float_operand_result_prints(i):
    want = _PROMOTING[i](torch)
    assert sub_name(repr(want)) == repr(_PROMOTING[i](autograd_core))


_STILL_REFUSED = [
    lambda m: _u(m) + 1,
    lambda m: _u(m) + True,
    lambda m: _u(m) - m.tensor(3),
    lambda m: _u(m) < 1,
    lambda m: _u(m).lt(m.tensor(1)),
    lambda m: 2 ** _u(m),
    lambda m: _u(m) % 2,
    lambda m: m.div(_u(m), 2, rounding_mode="floor"),
    lambda m: m.fmax(_u(m), _u(m)),
    # in place: self is unsigned, so the float common dtype cannot be written back
    lambda m: _u(m).add_(2.5),
    lambda m: _u(m).pow_(0.5),
    lambda m: _u(m).fmod_(0.5),
    lambda m: _u(m).div_(0.7, rounding_mode="floor"),
    # and with unsigned operands only (the forms that computed here before)
    lambda m: _u(m).fmod_(_u(m)),
    lambda m: _u(m, "uint64").fmod_(3),
    lambda m: _u(m).div_(_u(m), rounding_mode="floor"),
    lambda m: _u(m, "uint32").div_(_u(m, "uint32"), rounding_mode="trunc"),
    lambda m: _u(m).div_(_u(m)),
    lambda m: _u(m).lt_(1),
]


@pytest.mark.parametrize("i", range(len(_STILL_REFUSED)))
def test_integer_operands_still_raise(i):
    same_error(_STILL_REFUSED[i])


# clamp's refusals on unsigned inputs: the kernel PyTorch names (clamp_scalar_cpu,
# clamp_min_scalar_cpu, ...), and an in-place clamp with number bounds whose result
# type cannot be written back, whose message names self's C++ type (short unsigned
# int, unsigned int, long unsigned int) where tensor bounds name the ScalarType.
_CLAMP_REFUSED = [
    lambda m: m.clamp(_u(m), 1, 2),
    lambda m: m.clamp(_u(m, "uint64"), max=1),
    lambda m: _u(m).clamp_min(1),
    lambda m: _u(m, "uint32").clamp_max(1),
    lambda m: _u(m, "uint32").clamp_(0.5, 1.5),
    lambda m: _u(m).clamp_min_(0.5),
    lambda m: _u(m, "uint64").clamp_max_(0.5),
    lambda m: _u(m, "uint64").clamp_(m.tensor(0.5)),
    lambda m: _u(m).clamp_(1j),
    lambda m: _u(m, "uint32").clamp_(2 + 0j),
    lambda m: m.clamp(_u(m, "uint64"), 2 + 0j),
    lambda m: m.clamp_min(_u(m), 2 + 0j),
]


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("i", range(len(_CLAMP_REFUSED)))
def test_integer_clamp_still_raises(i, dt):
    same_error(lambda m: _CLAMP_REFUSED[i](m) if dt == "uint16" else
               _CLAMP_REFUSED[i](_Retyped(m, dt)))


class _Retyped:
    """A module whose uint16 is another unsigned dtype (the forms above on each)."""

    def __init__(self, m, dt):
        self._m, self.uint16 = m, getattr(m, dt)

    def __getattr__(self, name):
        return getattr(self._m, name)


# binary_cross_entropy: the operands' dtype check (RuntimeError) comes before the
# kernel's dtype dispatch (NotImplementedError for unsigned operands only)
_BCE = [
    lambda m: m.nn.functional.binary_cross_entropy(_u(m, vals=(0, 1, 1)), m.ones(3)),
    lambda m: m.nn.functional.binary_cross_entropy(m.full((3,), 0.5), _u(m, "uint32")),
    lambda m: m.nn.functional.binary_cross_entropy(_u(m, "uint64", (0, 1, 1)),
                                                   _u(m, "uint64", (0, 1, 1))),
    lambda m: m.nn.functional.binary_cross_entropy(m.full((3,), 0.5),
                                                   m.ones(3, dtype=m.float64)),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([0, 1, 1]), m.ones(3)),
]


@pytest.mark.parametrize("i", range(len(_BCE)))
def test_binary_cross_entropy_dtype_errors(i):
    same_error(_BCE[i])


_INPLACE = [
    lambda m: _u(m).eq_(2),
    lambda m: _u(m, "uint64", _BIG).ne_(_u(m, "uint64", _BIG)),
    lambda m: _u(m).eq_(0.5),
    lambda m: _u(m, "uint32").lt_(1.5),
    lambda m: _u(m).floor_(),
    lambda m: _u(m, "uint64", _BIG).ceil_(),
    lambda m: _u(m, "uint32").round_(),
    lambda m: _u(m).trunc_(),
    lambda m: _u(m, "uint64", _BIG).nan_to_num_(),
    lambda m: m.ones(2, 3, dtype=m.uint16).t_(),
    lambda m: _u(m).fill_(7),
    lambda m: _u(m).fill_(2.75),
    lambda m: _u(m).mul_(_u(m)),             # wraps around as PyTorch's kernel: 300*300
    lambda m: _u(m, "uint64", _BIG).mul_(2),
    lambda m: m.special.log_ndtr(_u(m) * 3),
]


@pytest.mark.parametrize("i", range(len(_INPLACE)))
def test_inplace_and_unary_forms(i):
    same(_INPLACE[i])


def _flip_probe(m, shape, kind, dims, dt):
    n = int(np.prod(shape))
    x = m.arange(n).reshape(shape).to(getattr(m, dt))
    if kind == "t":
        x = x.transpose(-1, -2)
    elif kind == "step":
        x = m.arange(2 * n).reshape([2 * shape[0]] + list(shape[1:])).to(getattr(m, dt))[::2]
    elif kind == "expand":
        x = m.arange(n // shape[0]).reshape([1] + list(shape[1:])).to(getattr(m, dt)).expand(shape)
    return x.flip(dims)


_FLIP_CASES = [((3, 4), "c", [0]), ((3, 4), "c", [1]), ((3, 4), "c", [0, 1]), ((4,), "c", [0]),
               ((3, 4), "t", [0]), ((3, 4), "t", [1]), ((3, 4), "step", [0]),
               ((2, 3, 4), "c", [1]), ((2, 3, 4), "c", [0, 1]), ((2, 3, 4), "c", [0, 2]),
               ((2, 3, 4), "t", [0]), ((3, 1), "c", [0]), ((1, 4), "c", [0]), ((3, 4), "c", []),
               ((3, 4), "expand", [0]), ((3, 4), "expand", [1]), ((1,), "c", [0]),
               ((3, 2, 1, 4), "c", [1, 2]), ((3, 2, 4), "step", [0, 1])]


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("case", _FLIP_CASES, ids=str)
def test_flip_copies_where_pytorch_copies(case, dt):
    # Note [Unsigned flip]: PyTorch copies (a plain copy, or its vertical-flip memcpy)
    # on some layouts and raises on the others
    same(lambda m: _flip_probe(m, *case, dt), may_raise=True)


_FLIP_FAMILY = [
    lambda m: m.fliplr(m.ones(3, 4, dtype=m.uint16)),
    lambda m: m.fliplr(m.ones(4, 3, dtype=m.uint16).t()),
    lambda m: m.flipud(m.arange(12).reshape(3, 4).to(m.uint32)),
    lambda m: m.flipud(m.arange(4).to(m.uint32)),
    lambda m: m.rot90(m.arange(12).reshape(3, 4).to(m.uint64)),
    lambda m: m.rot90(m.arange(12).reshape(3, 4).to(m.uint64), -1),
    lambda m: m.rot90(m.arange(12).reshape(3, 4).to(m.uint64), 2),
    lambda m: m.rot90(m.arange(12).reshape(3, 4).to(m.uint16), 4),
    lambda m: m.rot90(m.arange(24).reshape(2, 3, 4).to(m.uint16), -3, [2, 0]),
    lambda m: m.rot90(m.arange(12).reshape(4, 3).to(m.uint16).t()),
]


@pytest.mark.parametrize("i", range(len(_FLIP_FAMILY)))
def test_fliplr_flipud_rot90(i):
    same(_FLIP_FAMILY[i], may_raise=True)


_EINSUM = [("ij->ji", [(2, 3)]), ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij->", [(2, 3)]),
           ("ij->j", [(2, 3)]), ("i...->...", [(3, 2, 2)]), ("iij->j", [(3, 3, 2)]),
           ("i,j->ij", [(3,), (4,)]), ("ij,ij->ij", [(2, 3), (2, 3)]),
           ("ij,ij->ij", [(2, 1), (1, 3)]), (",ij->ij", [(), (2, 3)]),
           ("i,j->", [(3,), (2,)]), ("i,i", [(1,), (1,)]), ("i,i,i->i", [(3,), (3,), (3,)]),
           ("ij,jk->ik", [(2, 0), (0, 3)]), ("ij,jk->ik", [(0, 3), (3, 2)]),
           # contractions reach bmm (raises), or mix a sum's int64 with uint (raises)
           ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i", [(4,), (4,)]), ("ij,ij->i", [(2, 3), (2, 3)]),
           ("i,j->i", [(3,), (2,)]), ("ii,ij->j", [(3, 3), (3, 2)])]


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("case", _EINSUM, ids=str)
def test_einsum(case, dt):
    eq, shapes = case

    def prog(m):
        ops = [m.arange(int(np.prod(s))).reshape(s).to(getattr(m, dt)) for s in shapes]
        return m.einsum(eq, *ops)
    same(prog, may_raise=True)


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("shape,dim,index", [
    ((3, 4), 1, [0, 2, 2]), ((3, 4), 0, []), ((4, 3), 0, [3]), ((4,), 0, [1, 1]),
    ((4,), 0, []), ((), 0, [0]), ((3, 4), 0, [7]), ((4,), 0, [9])])
def test_index_select(shape, dim, index, dt):
    # 2+ dims copy; PyTorch's 0-d and 1-d kernel has no unsigned variant
    same(lambda m: m.arange(int(np.prod(shape))).reshape(shape).to(getattr(m, dt))
         .index_select(dim, m.tensor(index, dtype=m.int64)), may_raise=True)


def _unsigned_arrays(spec, case, dtype, seed):
    # small non-negative integers (the float domain's values, rounded; non-finite -> 7)
    a = make_arrays(spec, case, "float64", seed)
    return [np.abs(np.round(np.nan_to_num(x, posinf=7, neginf=7) * 3)).astype(dtype)
            for x in a]


def _run(mod, spec, case, arrays):
    leaves = [mod.tensor(a.copy()) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return spec.fn(mod, *case_args(case, leaves))


# The forms PyTorch computes that are still refused here (none: gradient with tensor
# coordinates and edge_order=2, whose formulas only multiply the input by float
# coefficients, computes as PyTorch's, where its other forms subtract and raise).
_REFUSED_WHERE_PYTORCH_COMPUTES = []


def test_op_table_on_unsigned_inputs(capsys):
    """Every op-table entry on uint16/32/64 inputs (its first cases) under both
    libraries: where both compute, the results match; autograd_core never computes what
    PyTorch refuses; forms PyTorch computes and autograd_core refuses are counted."""
    matched, refused, both_raise, bad = [], [], [], []
    for spec in op_table.OPS:
        for ci, case in enumerate(spec.cases[:3]):
            if not any(is_shape(x) for x in case.inputs):
                continue
            for dtype in UNSIGNED:
                arrays = _unsigned_arrays(spec, case, dtype, case_seed(spec.name, ci, dtype))
                want = catch(_run, torch, spec, case, arrays)
                got = catch(_run, autograd_core, spec, case, arrays)
                form = f"{spec.name}[{ci}]/{dtype}"
                if isinstance(got, Raised):
                    (both_raise if isinstance(want, Raised) else refused).append(form)
                    continue
                if isinstance(want, Raised):
                    bad.append(f"{form}: torch raises {want.type}: {want.message}; ours "
                               f"computes")
                    continue
                try:
                    assert_same(want, got, rtol=1e-4, atol=1e-5)
                except AssertionError as e:
                    bad.append(f"{form}: {str(e)[:300]}")
                    continue
                matched.append(form)
    with capsys.disabled():
        print(f"\nunsigned op forms: {len(matched)} match PyTorch, {len(refused)} refused "
              f"where PyTorch computes, {len(both_raise)} raise in both, {len(bad)} differ")
    assert not bad, "\n".join(bad[:40])
    assert sorted(refused) == sorted(_REFUSED_WHERE_PYTORCH_COMPUTES), refused
    assert len(matched) > 1000


def test_guard_names_are_ops():
    """The unsigned allowlists name ops that exist (no stale names)."""
    from autograd_core._core import tensor as core
    names = set(core.op_table_addresses())
    F = autograd_core.nn.functional
    # (div's rounding modes are named as its kernels: div_floor, div_trunc)
    named = (core.guarded_ops("unsigned")
             | (core.float_promoting_ops("unsigned") - {"div_floor", "div_trunc"}))
    stale = sorted(n for n in named
                   if not (n in names or hasattr(autograd_core, n) or hasattr(F, n)
                           or hasattr(autograd_core.Tensor, n)))
    assert not stale, stale


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("form", ["tensor", "list", "edge1", "scalar_spacing"])
def test_gradient_with_coordinates(form, dt):
    # edge_order=2 with coordinate tensors multiplies by float coefficients: PyTorch
    # computes (float values); every other form subtracts unsigned slices and raises
    def prog(m):
        x = m.tensor([[1, 4, 9, 16], [2, 3, 50, 7], [0, 0, 5, 5]], dtype=getattr(m, dt))
        c0, c1 = m.tensor([0.0, 1.0, 3.0]), m.tensor([0.0, 0.5, 2.0, 2.5])
        if form == "tensor":
            return m.gradient(x, spacing=(c1,), dim=1, edge_order=2)
        if form == "list":
            return m.gradient(x, spacing=[c0, c1], edge_order=2)
        if form == "edge1":
            return m.gradient(x, spacing=[c0, c1], edge_order=1)
        return m.gradient(x, spacing=2.0, edge_order=2)
    if form in ("tensor", "list"):
        same(prog)
    else:
        same_error(prog)


# PyTorch promotes the operands before its kernel refuses a wide unsigned dtype: two
# integer dtypes in one promotion group raise the promotion error, a 0-d uint16 with an
# integer vector computes in the vector's dtype
_PROMOTION_FORMS = {
    "dim_plus_dim": lambda m, u0, U, i0, i: U + i,
    "dim_plus_zero_dim": lambda m, u0, U, i0, i: U + i0,
    "zero_dim_plus_dim": lambda m, u0, U, i0, i: u0 + i,
    "zero_dim_plus_zero_dim": lambda m, u0, U, i0, i: u0 + i0,
    "uint16_plus_uint32": lambda m, u0, U, i0, i: U + U.to(m.uint32),
    "lt": lambda m, u0, U, i0, i: U < i,
    "gt_reflected": lambda m, u0, U, i0, i: i < U,
    "zero_dim_lt": lambda m, u0, U, i0, i: u0 < i,
    "maximum": lambda m, u0, U, i0, i: m.maximum(i, U),
    "fmax_zero_dim": lambda m, u0, U, i0, i: m.fmax(u0, i),
    "sub": lambda m, u0, U, i0, i: U - i,
    "add_": lambda m, u0, U, i0, i: U.clone().add_(i),
    "clamp": lambda m, u0, U, i0, i: U.clamp(i, i),
    "eq": lambda m, u0, U, i0, i: U.eq(i),
    "mul_zero_dim": lambda m, u0, U, i0, i: u0 * i,
    "add_number": lambda m, u0, U, i0, i: U + 1,
    "add_float": lambda m, u0, U, i0, i: U + 2.5,
}


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64"])
@pytest.mark.parametrize("form", sorted(_PROMOTION_FORMS))
def test_promotion_before_the_kernel_refuses(form, dt):
    def prog(m):
        d = getattr(m, dt)
        return _PROMOTION_FORMS[form](m, m.tensor(1, dtype=d), m.tensor([1, 2], dtype=d),
                                      m.tensor(1), m.tensor([1, 2]))
    same(prog, may_raise=True)


# ---- the refusals of the op table on uint16/32/64 and complex64 inputs: where both
# libraries raise, the exception type and message are PyTorch's. The forms that still
# differ are strict xfails (tests/_refusal_sweep_known.py: PyTorch's words and ours for
# each; mostly a composite whose inner kernel PyTorch names, an argument check PyTorch
# makes first, or the tensor factory's error for uint64 data).
from _refusal_sweep_known import KNOWN as _REFUSAL_KNOWN  # noqa: E402

_SWEEP_DTYPES = UNSIGNED + ["complex64"]


def _sweep_arrays(spec, case, dtype, seed):
    if dtype == "complex64":
        re = make_arrays(spec, case, "float64", seed)
        im = make_arrays(spec, case, "float64", seed + 1)
        return [(a + 1j * b).astype(dtype) for a, b in zip(re, im)]
    return _unsigned_arrays(spec, case, dtype, seed)


def _refusal_forms():
    for spec in op_table.OPS:
        for ci, case in enumerate(spec.cases[:3]):
            if not any(is_shape(x) for x in case.inputs):
                continue
            for dtype in _SWEEP_DTYPES:
                form = f"{spec.name}[{ci}]/{dtype}"
                why = _REFUSAL_KNOWN.get(form)
                yield pytest.param(spec, ci, dtype, id=form, marks=[
                    pytest.mark.xfail(reason=why, strict=True)] if why else [])


@pytest.mark.parametrize("spec, ci, dtype", list(_refusal_forms()))
def test_refusal_messages(spec, ci, dtype):
    case = spec.cases[ci]
    arrays = _sweep_arrays(spec, case, dtype, case_seed(spec.name, ci, dtype))
    want = catch(_run, torch, spec, case, arrays)
    got = catch(_run, autograd_core, spec, case, arrays)
    if isinstance(want, Raised) and isinstance(got, Raised):
        assert_same(want, got, what="refusal")


# ---------------------------------------------------------------- issue 27, point 2
# Note [Empty products of kernel-less dtypes]: PyTorch's gemm/gemv have no uint16/32/64
# (nor bool) kernel, but mm, bmm, mv and the add-products return before dispatching
# when the result is empty or the inner dim is 0; dot dispatches first.

def _z(m, dt, *shape):
    return m.zeros(shape, dtype=getattr(m, dt))


def _f(m, dt, *shape):
    return m.full(shape, 3, dtype=getattr(m, dt))


_EMPTY_PRODUCTS = [
    ("mm_empty_rows", lambda m, d: m.mm(_z(m, d, 0, 3), _z(m, d, 3, 2))),
    ("mm_k0", lambda m, d: m.mm(_z(m, d, 2, 0), _z(m, d, 0, 3))),
    ("mm_empty_cols", lambda m, d: m.mm(_z(m, d, 2, 3), _z(m, d, 3, 0))),
    ("mm_k0_out", lambda m, d: m.mm(_z(m, d, 2, 0), _z(m, d, 0, 3), out=_f(m, d, 2, 3))),
    ("mm_k0_method", lambda m, d: _z(m, d, 2, 0).mm(_z(m, d, 0, 3))),
    ("mm_k0_mixed", lambda m, d: m.mm(_z(m, d, 2, 0), m.zeros(0, 3))),
    ("mm_nonempty", lambda m, d: m.mm(_z(m, d, 2, 3), _z(m, d, 3, 2))),
    ("matmul_k0", lambda m, d: _z(m, d, 2, 0) @ _z(m, d, 0, 3)),
    ("matmul_mv_empty", lambda m, d: m.matmul(_z(m, d, 0, 3), _z(m, d, 3))),
    ("matmul_vm_empty", lambda m, d: m.matmul(_z(m, d, 3), _z(m, d, 3, 0))),
    ("matmul_batched_k0", lambda m, d: m.matmul(_z(m, d, 2, 2, 0), _z(m, d, 2, 0, 3))),
    ("matmul_folded_k0", lambda m, d: m.matmul(_z(m, d, 1, 2, 0), _z(m, d, 0, 2))),
    ("matmul_dot_empty", lambda m, d: m.matmul(_z(m, d, 0), _z(m, d, 0))),
    ("linalg_matmul_k0", lambda m, d: m.linalg.matmul(_z(m, d, 2, 0), _z(m, d, 0, 3))),
    ("bmm_empty_batch", lambda m, d: m.bmm(_z(m, d, 0, 2, 3), _z(m, d, 0, 3, 2))),
    ("bmm_k0", lambda m, d: m.bmm(_z(m, d, 1, 2, 0), _z(m, d, 1, 0, 2))),
    ("bmm_k0_mixed", lambda m, d: m.bmm(m.zeros(1, 2, 0), _z(m, d, 1, 0, 3))),
    ("bmm_nonempty", lambda m, d: m.bmm(_z(m, d, 1, 2, 3), _z(m, d, 1, 3, 2))),
    ("mv_empty", lambda m, d: m.mv(_z(m, d, 0, 3), _z(m, d, 3))),
    ("mv_k0", lambda m, d: m.mv(_z(m, d, 2, 0), _z(m, d, 0))),
    ("mv_mixed", lambda m, d: m.mv(_z(m, d, 2, 0), m.zeros(0))),
    ("dot_empty", lambda m, d: m.dot(_z(m, d, 0), _z(m, d, 0))),
    ("addmm_k0_beta2", lambda m, d: m.addmm(_f(m, d, 2, 3), _z(m, d, 2, 0), _z(m, d, 0, 3), beta=2)),
    ("addmm_k0_beta0", lambda m, d: m.addmm(_f(m, d, 2, 3), _z(m, d, 2, 0), _z(m, d, 0, 3), beta=0)),
    ("addmm_k0_beta_float", lambda m, d: m.addmm(_f(m, d, 2, 3), _z(m, d, 2, 0), _z(m, d, 0, 3),
                                                 beta=1.5)),
    ("addmm_k0_broadcast", lambda m, d: m.addmm(_f(m, d, 3), _z(m, d, 2, 0), _z(m, d, 0, 3))),
    ("addmm_empty", lambda m, d: m.addmm(_f(m, d, 0, 3), _z(m, d, 0, 2), _z(m, d, 2, 3))),
    ("addmm_nonempty", lambda m, d: m.addmm(_f(m, d, 2, 2), _z(m, d, 2, 3), _z(m, d, 3, 2))),
    ("addmv_k0", lambda m, d: m.addmv(_f(m, d, 2), _z(m, d, 2, 0), _z(m, d, 0), beta=2)),
    ("addmv_empty", lambda m, d: m.addmv(_f(m, d, 0), _z(m, d, 0, 2), _z(m, d, 2))),
    ("baddbmm_k0", lambda m, d: m.baddbmm(_f(m, d, 1, 2, 3), _z(m, d, 1, 2, 0), _z(m, d, 1, 0, 3),
                                          beta=2)),
    ("baddbmm_k0_beta0", lambda m, d: m.baddbmm(_f(m, d, 1, 2, 3), _z(m, d, 1, 2, 0),
                                                _z(m, d, 1, 0, 3), beta=0)),
    ("baddbmm_empty", lambda m, d: m.baddbmm(_f(m, d, 0, 2, 3), _z(m, d, 0, 2, 2),
                                             _z(m, d, 0, 2, 3))),
    ("addbmm_k0", lambda m, d: m.addbmm(_f(m, d, 2, 3), _z(m, d, 1, 2, 0), _z(m, d, 1, 0, 3))),
    ("addbmm_no_batch", lambda m, d: m.addbmm(_f(m, d, 2, 3), _z(m, d, 0, 2, 4), _z(m, d, 0, 4, 3))),
    ("tensordot_k0", lambda m, d: m.tensordot(_z(m, d, 2, 0), _z(m, d, 0, 3), 1)),
    ("inner_k0", lambda m, d: m.inner(_z(m, d, 2, 0), _z(m, d, 3, 0))),
    ("chain_matmul_k0", lambda m, d: m.chain_matmul(_z(m, d, 2, 0), _z(m, d, 0, 3), _z(m, d, 3, 4))),
    ("multi_dot_k0", lambda m, d: m.linalg.multi_dot([_z(m, d, 2, 0), _z(m, d, 0, 3),
                                                      _z(m, d, 3, 4)])),
    ("linear_k0", lambda m, d: m.nn.functional.linear(_z(m, d, 2, 0), _z(m, d, 3, 0))),
    ("linear_k0_bias", lambda m, d: m.nn.functional.linear(_z(m, d, 2, 0), _z(m, d, 3, 0),
                                                           _z(m, d, 3))),
]


@pytest.mark.parametrize("dt", ["uint16", "uint32", "uint64", "bool"])
@pytest.mark.parametrize("fn", [c[1] for c in _EMPTY_PRODUCTS], ids=[c[0] for c in _EMPTY_PRODUCTS])
def test_empty_products_of_kernel_less_dtypes(fn, dt):
    same(fn, dt, may_raise=True)


@pytest.mark.parametrize("dt", UNSIGNED)
@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0)])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -2])
@pytest.mark.parametrize("fn", ["matrix_power", "linalg.matrix_power"])
def test_matrix_power_of_empty_unsigned_matrices(fn, n, shape, dt):
    """An empty matrix's powers n > 1 need no product kernel (mm / bmm return an empty
    result before theirs): PyTorch computes them; n = 0 (eye) and n < 0 (inv) refuse."""
    def prog(m):
        f = m.linalg.matrix_power if fn == "linalg.matrix_power" else m.matrix_power
        r = f(m.zeros(shape, dtype=getattr(m, dt)), n)
        return r, r.dtype
    same(prog, may_raise=True)
