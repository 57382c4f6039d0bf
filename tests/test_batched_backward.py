"""autograd.grad(is_grads_batched=True) runs one batched backward pass (Note [Batched
backward], autograd/_batched_backward.py): its gradients against PyTorch's over the op
table, and the mechanisms it meets (create_graph, hooks, custom Functions, errors,
autograd.functional's vectorized jacobian/hessian, gradcheck's batched check)."""
import warnings

import numpy as np
import pytest

import autograd_core as ac
from _diff import assert_same, catch, no_warnings, norm, torch
from op_spec import case_args, case_id, case_seed, make_arrays, make_leaves
from op_table import OPS

B = 3
# per dtype: the tolerance of the comparison with PyTorch (float32 rounds differently)
TOL = {"float64": (1e-6, 1e-8), "float32": (2e-4, 1e-5)}


def _cases():
    out = []
    for dtype in TOL:
        for spec in OPS:
            for i, case in enumerate(spec.cases):
                out.append(pytest.param(spec, i, dtype, id=f"{dtype}-{case_id(spec, i)}"))
    return out


def _first_diff_output(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for k, o in enumerate(outs):
        if hasattr(o, "requires_grad") and o.requires_grad and o.dtype.is_floating_point:
            return k, o
    return None, None


def _batched_grads(mod, spec, case, arrays, cot):
    leaves = make_leaves(mod, arrays, case)
    with no_warnings():
        out = spec.fn(mod, *case_args(case, leaves))
    k, o = _first_diff_output(out)
    if o is None:
        return None
    diff = [x for x in leaves if x.requires_grad]
    v = mod.tensor(cot.reshape((B,) + tuple(o.shape)))
    with no_warnings():
        return mod.autograd.grad(o, diff, v, is_grads_batched=True, allow_unused=True,
                                 retain_graph=True)


def _loop_grads(spec, case, arrays, cot):
    """The gradients one backward per entry (what the batched pass must equal)."""
    leaves = make_leaves(ac, arrays, case)
    with no_warnings():
        out = spec.fn(ac, *case_args(case, leaves))
    k, o = _first_diff_output(out)
    diff = [x for x in leaves if x.requires_grad]
    v = cot.reshape((B,) + tuple(o.shape))
    per = []
    for b in range(B):
        with no_warnings():
            per.append(ac.autograd.grad(o, diff, ac.tensor(v[b]), allow_unused=True,
                                        retain_graph=True))
    return tuple(None if per[0][j] is None else ac.stack([p[j] for p in per])
                 for j in range(len(diff)))


@pytest.mark.parametrize("spec,i,dtype", _cases())
def test_op_table_is_grads_batched(spec, i, dtype):
    """Every differentiable op-table case: the batched gradients equal PyTorch's (or,
    where PyTorch's vmap has no rule and raises, the per-entry loop's)."""
    case = spec.cases[i]
    arrays = make_arrays(spec, case, dtype, case_seed(spec.name, i, "batched"))
    leaves = make_leaves(ac, arrays, case)
    with no_warnings():
        r = catch(lambda: spec.fn(ac, *case_args(case, leaves)), quiet=True)
    if not isinstance(r, (ac.Tensor, tuple, list)):
        pytest.skip("the op raises")
    k, o = _first_diff_output(r)
    if o is None:
        pytest.skip("no differentiable output")
    rng = np.random.default_rng(case_seed(spec.name, i, "cot"))
    cot = rng.standard_normal((B,) + tuple(o.shape))
    got = catch(lambda: _batched_grads(ac, spec, case, arrays, cot), quiet=True)
    want = catch(lambda: _batched_grads(torch, spec, case, arrays, cot), quiet=True)
    if type(want).__name__ == "Raised":
        want = _loop_grads(spec, case, arrays, cot)
    rtol, atol = TOL[dtype]
    assert_same(want, got, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- the mechanisms it meets

from _diff import same, same_error  # noqa: E402
from autograd_core.autograd import _batched_backward  # noqa: E402


def _x(m):
    return m.tensor([1., 2., 3.], requires_grad=True)


def test_tensor_hook_sees_per_sample_gradient():
    """A tensor hook sees the per-sample gradient (PyTorch's sees a BatchedTensor of
    the output's shape) and what it returns replaces every entry's."""
    def prog(m):
        x = _x(m)
        y = x * 3
        seen = []
        y.register_hook(lambda g: seen.append(tuple(g.shape)))
        z = x.exp()
        z.register_hook(lambda g: g * 2)
        return (m.autograd.grad(y, x, m.eye(3), is_grads_batched=True), seen,
                m.autograd.grad(z, x, m.eye(3), is_grads_batched=True))
    same(prog)


def test_node_hooks_see_per_sample_gradients():
    def prog(m):
        x = _x(m)
        y = x.sin()
        seen = []
        y.grad_fn.register_prehook(lambda go: seen.append(tuple(go[0].shape)))
        y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))
        return m.autograd.grad(y, x, m.eye(3), is_grads_batched=True), seen
    same(prog)


def test_custom_function_backward():
    """A custom Function's backward sees per-sample gradients (it runs once per entry
    here, once under vmap in PyTorch: the values and shapes it sees are the same)."""
    def prog(m):
        class Sq(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                seen.append(tuple(g.shape))
                x, = ctx.saved_tensors
                return 2 * x * g
        seen = []
        x = _x(m)
        r = m.autograd.grad(Sq.apply(x).sin(), x, m.eye(3), is_grads_batched=True)
        return r, sorted(set(seen))
    same(prog)


def test_errors():
    same_error(lambda m: m.autograd.grad(_x(m) * 2, _x(m), m.ones(3, 2), is_grads_batched=True))

    def two_sizes(m):
        x = _x(m)
        return m.autograd.grad((x * 2, x * 3), x, (m.ones(2, 3), m.ones(3, 3)),
                               is_grads_batched=True)
    same_error(two_sizes)

    def twice(m):
        x = _x(m)
        y = x * x
        m.autograd.grad(y, x, m.eye(3), is_grads_batched=True)
        return m.autograd.grad(y, x, m.eye(3), is_grads_batched=True)
    same_error(twice, message="prefix")


def test_retain_graph_allow_unused_materialize_grads():
    def prog(m):
        x = _x(m)
        z = m.tensor([1., 2.], requires_grad=True)
        y = x * x
        a = m.autograd.grad(y, x, m.eye(3), is_grads_batched=True, retain_graph=True)
        b = m.autograd.grad(y, x, m.eye(3), is_grads_batched=True)
        c = m.autograd.grad(x * 2, (x, z), m.eye(3), is_grads_batched=True, allow_unused=True)
        d = m.autograd.grad(x * 2, (x, z), m.eye(3), is_grads_batched=True,
                            materialize_grads=True)
        return a, b, c, d
    same(prog)


def test_create_graph_double_backward():
    def prog(m):
        x = _x(m)
        g, = m.autograd.grad((x ** 3).sum(), x, create_graph=True)
        h = m.autograd.grad(g, x, m.eye(3), is_grads_batched=True)
        g2, = m.autograd.grad(x ** 3 * x.sin(), x, m.eye(3), is_grads_batched=True,
                              create_graph=True)
        return h, g2.requires_grad, m.autograd.grad((g2 * g2).sum(), x)
    same(prog)


def _mlp(m, seed=0):
    rng = np.random.default_rng(seed)
    w1, b1 = m.tensor(rng.standard_normal((8, 5))), m.tensor(rng.standard_normal(8))
    w2, b2 = m.tensor(rng.standard_normal((4, 8))), m.tensor(rng.standard_normal(4))
    return lambda x: m.nn.functional.linear(m.tanh(m.nn.functional.linear(x, w1, b1)), w2, b2)


def test_functional_jacobian_hessian_vectorize():
    def prog(m):
        f = _mlp(m)
        x = m.tensor(np.linspace(-1, 1, 10).reshape(2, 5))
        j = m.autograd.functional.jacobian(f, x, vectorize=True)
        j2 = m.autograd.functional.jacobian(f, x, vectorize=True, strategy="reverse-mode")
        h = m.autograd.functional.hessian(lambda x: f(x).pow(2).sum(), x[0], vectorize=True)
        jc = m.autograd.functional.jacobian(lambda a, b: (a * b, a.sum() * b), (x[0], x[1]),
                                            vectorize=True, create_graph=True)
        return j, j2, h, jc
    same(prog)


def test_batched_pass_is_one_pass():
    """The batch runs in one backward pass: a node's derivative runs once for the whole
    batch (the loop ran it once per entry)."""
    x = ac.randn(4, 5, requires_grad=True)
    y = ac.tanh(x @ ac.randn(5, 3)).sum(0)
    calls = []
    y.grad_fn.register_prehook(lambda go: calls.append(1))
    ac.autograd.grad(y, x, ac.randn(7, 3), is_grads_batched=True)
    assert len(calls) == 1


def test_gradcheck_check_batched_grad():
    x = ac.randn(3, 4, dtype=ac.float64, requires_grad=True)
    w = ac.randn(4, 2, dtype=ac.float64, requires_grad=True)
    assert ac.autograd.gradcheck(lambda x, w: ac.tanh(x @ w).cumsum(0), (x, w),
                                 check_batched_grad=True)
    assert ac.autograd.gradgradcheck(lambda x, w: ac.tanh(x @ w), (x, w),
                                     check_batched_grad=True)


def test_normal_pass_unaffected_after_batched():
    """The op hook and the engine flag are off once the batched pass ends (also when
    it raises)."""
    x = _x(ac)
    with pytest.raises(RuntimeError):
        ac.autograd.grad(x * 2, x, ac.ones(3, 2), is_grads_batched=True)
    y = x * x
    ac.autograd.grad(y, x, ac.eye(3), is_grads_batched=True)
    assert not ac._core.tensor._op_hooks_active()
    assert _batched_backward.current() is None
    assert ac.autograd.grad((x * x).sum(), x)[0].tolist() == [2., 4., 6.]


def test_ordinary_backward_inside_a_hook_and_on_another_thread():
    """A hook of the batched pass that runs its own (ordinary) backward, and an
    ordinary backward on another thread meanwhile, are not batched."""
    import threading

    def prog(m):
        x = _x(m)
        w = m.tensor([2., -1.], requires_grad=True)
        inner = []

        def hook(g):
            with m.enable_grad():
                inner.append(m.autograd.grad((w * w * w).sum(), w)[0])
        y = x.sin()
        y.register_hook(hook)
        return m.autograd.grad(y, x, m.eye(3), is_grads_batched=True), inner
    same(prog)

    results = []
    x = _x(ac)
    y = x.sin()
    start, done = threading.Event(), threading.Event()

    def other():
        start.wait()
        w = ac.tensor([2., -1.], requires_grad=True)
        results.append(ac.autograd.grad((w * w * w).sum(), w)[0].tolist())
        done.set()

    def hook(g):
        start.set()
        done.wait(10)
    y.register_hook(hook)
    t = threading.Thread(target=other)
    t.start()
    ac.autograd.grad(y, x, ac.eye(3), is_grads_batched=True)
    t.join()
    assert results == [[12., 3.]]


# ------------------------------------------------------------------ in-place ops in a pass
# A formula's in-place op on a batched tensor writes each entry into it (the op table's
# in-place ops, INPLACE_OPS); an unbatched one that a batched operand would write into
# sends the node per entry. Checked at the op hook a pass installs, against torch.func's
# vmap of the same in-place call.

_IDX = [0, 2, 0, 1]
_MASK = [True, False, True]
# op: (the per-sample call, the table op's arguments, a per-sample operand's shape)
_INPLACE_CASES = {
    "scatter_reduce_": (lambda m, t, s: t.scatter_reduce_(0, m.tensor(_IDX), s, "sum"),
                        lambda m, t, s: (t, 0, m.tensor(_IDX), s, "sum", True), (4,)),
    "index_reduce_": (lambda m, t, s: t.index_reduce_(0, m.tensor(_IDX), s, "prod"),
                      lambda m, t, s: (t, 0, m.tensor(_IDX), s, "prod", True), (4,)),
    "nan_to_num_": (lambda m, t, s: t.nan_to_num_(1.5, 2.0, -2.0),
                    lambda m, t, s: (t, 1.5, 2.0, -2.0), (3,)),
    "float_power_": (lambda m, t, s: t.float_power_(s), lambda m, t, s: (t, s), (3,)),
    "masked_fill_": (lambda m, t, s: t.masked_fill_(m.tensor(_MASK), s),
                     lambda m, t, s: (t, m.tensor(_MASK), s), ()),
}


def _inplace_data(op):
    rng = np.random.default_rng(7)
    self_ = rng.uniform(0.5, 2.0, (B, 3))
    src = rng.uniform(0.5, 2.0, (B,) + _INPLACE_CASES[op][2])
    if op == "nan_to_num_":
        self_[0, 1], self_[1, 0], self_[2, 2] = np.nan, np.inf, -np.inf
    return self_, src


@pytest.mark.parametrize("op", sorted(_INPLACE_CASES))
def test_inplace_op_of_a_batched_pass_writes_into_its_batched_tensor(op):
    self_, src = _inplace_data(op)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (vmap's fallback, index_reduce's beta warning)
        want = torch.func.vmap(lambda t, s: _INPLACE_CASES[op][0](torch, t, s))(
            torch.tensor(self_), torch.tensor(src))
    bp = _batched_backward.BatchedBackward(B)
    x, s = bp.mark(ac.tensor(self_)), bp.mark(ac.tensor(src))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (index_reduce's beta warning)
        out = bp.op_enter("aten::" + op, _INPLACE_CASES[op][1](ac, x, s)).value
    assert out is x
    assert_same(want, x)


@pytest.mark.parametrize("op", ["scatter_reduce_", "index_reduce_", "masked_fill_"])
def test_inplace_op_of_a_batched_pass_into_an_unbatched_tensor_runs_per_entry(op):
    # (PyTorch's vmap refuses to write a batched operand into an unbatched tensor; the
    # pass runs the node once per batch entry instead, and the op must not have
    # written into the tensor B times first)
    self_, src = _inplace_data(op)
    bp = _batched_backward.BatchedBackward(B)
    x, s = ac.tensor(self_[0]), bp.mark(ac.tensor(src))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(_batched_backward._PerEntry):
            bp.op_enter("aten::" + op, _INPLACE_CASES[op][1](ac, x, s))
    np.testing.assert_array_equal(x.numpy(), self_[0])
