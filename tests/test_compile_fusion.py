"""Fused blocks of compiled mode (Note [Fused blocks]): replay against eager (bitwise where
eager runs the same C kernels) and against PyTorch's torch.compile (values, gradients,
grad_fn names)."""
import tracemalloc

import numpy as np
import pytest

import autograd_core

torch = pytest.importorskip("torch")

UNARY = ["neg", "exp", "tanh", "sigmoid", "relu"]
BINARY = ["add", "sub", "mul", "div"]


def _prog(lib, op, scalar):
    def f(x, w):
        y = x * 0.5 + 0.25
        if op in UNARY:
            z = getattr(lib, op)(y)
        else:
            z = getattr(lib, op)(y, 1.5 if scalar else w + 2.0)
        return (z * 1.25 - 0.5).sum(), z
    return f


def _run(lib, fn, xs, ws, compiled, backend="inductor"):
    x = lib.tensor(xs, requires_grad=True)
    w = lib.tensor(ws, requires_grad=True)
    f = lib.compile(fn, backend=backend) if compiled else fn
    out = None
    for _ in range(3):   # record, first replay (plans), replay
        x.grad = w.grad = None
        s, z = f(x, w)
        s.backward()
        out = (s.detach().numpy().copy(), z.detach().numpy().copy(), x.grad.numpy().copy(),
               None if w.grad is None else w.grad.numpy().copy(), z.grad_fn.name())
    return out


@pytest.mark.parametrize("op", UNARY + BINARY)
@pytest.mark.parametrize("scalar", [False, True])
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 16, 100, 129, 1000])
def test_fused_op_matches_eager_bitwise_and_torch(op, scalar, dt, n):
    if scalar and op in UNARY:
        pytest.skip("no scalar operand")
    rng = np.random.default_rng(n)
    xs, ws = rng.standard_normal(n).astype(dt), rng.standard_normal(n).astype(dt)
    autograd_core._dynamo.reset()
    got = _run(autograd_core, _prog(autograd_core, op, scalar), xs, ws, True)
    eager = _run(autograd_core, _prog(autograd_core, op, scalar), xs, ws, False)
    # (n <= 128: the same libm calls and operation order as eager's kernels; above,
    # numpy's loops eager calls, Note [numpy's loops in a block])
    for a, b in zip(got[:4], eager[:4]):
        if a is None or b is None:
            assert a is b
        else:
            assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    assert got[4] == "CompiledFunctionBackward"
    torch._dynamo.reset()
    ref = _run(torch, _prog(torch, op, scalar), xs, ws, True, backend="aot_eager")
    assert ref[4] == got[4]
    tol = dict(rtol=1.3e-6, atol=1e-5) if dt == "float32" else dict(rtol=1e-7, atol=1e-7)
    for a, b in zip(got[:4], ref[:4]):
        if a is not None and b is not None:
            np.testing.assert_allclose(a, b, **tol)


def test_eager_backend_keeps_per_op_nodes():
    f = autograd_core.compile(lambda x: (x * 2).tanh() + 1, backend="eager")
    x = autograd_core.ones(3, requires_grad=True)
    for _ in range(3):
        r = f(x)
    assert r.grad_fn.name() == "AddBackward0"


def test_no_grad_and_no_requires_grad_make_no_node():
    f = autograd_core.compile(lambda x: (x * 2).tanh() + 1)
    x = autograd_core.ones(3)
    for _ in range(3):
        r = f(x)
    assert r.grad_fn is None and r.tolist() == ((autograd_core.ones(3) * 2).tanh() + 1).tolist()


def test_intermediate_outputs_get_their_own_gradients():
    def fn(x):
        a = x.exp() * 2.0
        b = a.tanh() - a
        return a, b
    xs = np.linspace(-1, 1, 7).astype("float32")
    res = []
    for lib, comp in ((autograd_core, True), (autograd_core, False)):
        x = lib.tensor(xs, requires_grad=True)
        f = lib.compile(fn) if comp else fn
        for _ in range(3):
            x.grad = None
            a, b = f(x)
            (a.sum() * 3 + b.sum()).backward()
        res.append((a.detach().numpy(), b.detach().numpy(), x.grad.numpy()))
    for u, v in zip(*res):
        np.testing.assert_allclose(u, v, rtol=1e-6)


def test_double_backward_raises_pytorchs_error():
    f = autograd_core.compile(lambda x: (x * 2).tanh() * 3)
    x = autograd_core.ones(3, requires_grad=True)
    for _ in range(3):
        y = f(x)
    (g,) = autograd_core.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 6 * (1 - np.tanh(2.0) ** 2) * np.ones(3),
                               rtol=1e-6)
    with pytest.raises(RuntimeError, match="does not currently support double backward"):
        g.sum().backward()


@pytest.mark.parametrize("shape", [(), (4,), (3, 3)])
def test_second_order_gradient_of_an_input_raises_not_silently_none(shape):
    # PyTorch's CompiledFunctionBackwardBackward has edges to the block's inputs: a
    # second pass asking for the input's gradient raises (fuzzer seed 27002257: here it
    # gave None, a silently missing second-order term)
    f = autograd_core.compile(lambda u: (-u) * u + -0.75, backend="aot_eager")
    x = autograd_core.full(shape, -0.3, dtype=autograd_core.float64, requires_grad=True)
    for _ in range(3):
        y = f(x)
    assert type(y.grad_fn).__name__ == "CompiledFunctionBackward"
    (g,) = autograd_core.autograd.grad(y.sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), np.full(shape, 0.6), rtol=1e-12)
    with pytest.raises(RuntimeError, match="does not currently support double backward"):
        autograd_core.autograd.grad(g.sum(), [x], allow_unused=True)
    with pytest.raises(RuntimeError, match="does not currently support double backward"):
        (g.pow(2).sum() + y.sum()).backward()



@pytest.mark.parametrize("body", [
    lambda m, u: ((m.neg(u)) + u) / -2.0,     # linear: the backward reads nothing
    lambda m, u: (m.neg(u)) * u + -0.75,      # reads its input: a second pass raises
    lambda m, u: m.tanh(u) * u,               # reads its input and an intermediate
    lambda m, u: m.sigmoid(u + -0.6),         # reads its output: saved detached
    lambda m, u: m.relu(u * 3.0),             # (fuzzer seed 33101845)
    lambda m, u: m.tanh(m.tanh(u)),
    lambda m, u: m.exp(u) + 1.0,              # reads an intermediate only
], ids=["linear", "reads_input", "input_and_intermediate", "sigmoid_output",
        "relu_output", "tanh_tanh_output", "intermediate"])
@pytest.mark.parametrize("leaf", [True, False], ids=["leaf", "indexed"])
def test_second_order_through_a_block_as_pytorch(body, leaf):
    # PyTorch's gradients' node has edges to the compiled backward's saved tensors only,
    # and the values its forward made are saved detached: a block whose backward reads
    # none of its inputs gives None when a second pass asks for an input's gradient,
    # where a block that reads its input raises (fuzzer seeds 29004638, 33101845)
    def prog(m):
        m._dynamo.reset()
        x = m.tensor([[-0.75], [1.5], [1.25]], dtype=m.float64, requires_grad=True)
        c = m.tensor([[0.6, -0.3, 1.7], [0.25, 0.25, 0.5], [-0.3, -2.0, -1.0]],
                     dtype=m.float64)
        f = m.compile(lambda u: body(m, u), backend="aot_eager")
        v = m.add(x, c, alpha=2.0)
        if not leaf:
            v = v[[2, 0, 1]]
        for _ in range(3):
            y = f(v)
        (g,) = m.autograd.grad(y, [x], m.ones_like(y), create_graph=True)
        res = [g.detach().numpy()]
        for wrt in (x, v):
            try:
                (g2,) = m.autograd.grad(g.sum(), [wrt], allow_unused=True, retain_graph=True)
                res.append(g2)
            except RuntimeError as e:
                res.append((type(e).__name__, str(e)))
        return res
    want, got = prog(torch), prog(autograd_core)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[1:] == want[1:]

def test_backward_twice_without_retain_graph_raises():
    f = autograd_core.compile(lambda x: (x * 2).tanh() * 3)
    x = autograd_core.ones(3, requires_grad=True)
    for _ in range(3):
        y = f(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [1000, 40_000])
def test_large_libm_block_fuses_with_numpys_loops_and_equals_eager(dt, n):
    # a chain like benchmarks/compile.py's chain100k: exp/tanh/sigmoid over more than 128
    # elements call numpy's loops on the tiles (Note [numpy's loops in a block]); 40,000
    # elements (not a whole number of tiles): the saved rows are arrays of their own
    # (_ROW_APART_BYTES), and the run of 35 steps is one block
    def fn(x):
        y = x
        for _ in range(10):
            y = (y * 1.01 + 0.01).tanh()
        return (y.sigmoid() * 2 - y.exp()) * 0.5
    rng = np.random.default_rng(n)
    xs = np.concatenate([rng.standard_normal(n - 6) * 4,
                         [0.0, -0.0, 30.0, -30.0, 1e-30, 12.0]]).astype(dt)
    x = autograd_core.tensor(xs, requires_grad=True)
    autograd_core._dynamo.reset()
    f = autograd_core.compile(fn)
    for _ in range(3):
        x.grad = None
        r = f(x)
        r.sum().backward()
    assert r.grad_fn.name() == "CompiledFunctionBackward"
    # one block, one node: its edge leads to x's AccumulateGrad
    assert r.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    g = x.grad.numpy().copy()
    x.grad = None
    re = fn(x)
    re.sum().backward()
    _assert_bitwise(r.detach().numpy(), re.detach().numpy())
    _assert_bitwise(g, x.grad.numpy())


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("bias", [False, True], ids=["plain", "broadcast_bias"])
def test_block_with_large_saved_rows_recomputes_and_equals_eager(dt, bias):
    # Note [Recomputed in backward]: 40 steps over 80,000 elements would save 40 rows
    # (12.8 MB in float32) above _REMAT_BYTES: the backward recomputes the forward on
    # short tiles instead; values and gradients are eager's bit for bit, also with a
    # broadcast operand, on the replay after a backward handed the input copies back
    def fn(x, b):
        y = x
        for _ in range(40):
            y = ((y * b if bias else y * 1.01) + 0.01).tanh()
        return y.sigmoid() * 2
    rng = np.random.default_rng(7)
    xs = (rng.standard_normal((400, 200)) * 3).astype(dt)
    x = autograd_core.tensor(xs, requires_grad=True)
    b = autograd_core.tensor(rng.uniform(0.9, 1.1, 200).astype(dt), requires_grad=bias)
    x.grad = None
    re = fn(x, b)
    re.backward(autograd_core.ones_like(re))
    want = [re.detach().numpy(), x.grad.numpy().copy()] + \
        ([b.grad.numpy().copy()] if bias else [])
    autograd_core._dynamo.reset()
    f = autograd_core.compile(fn)
    for _ in range(4):
        x.grad = b.grad = None
        r = f(x, b)
        r.backward(autograd_core.ones_like(r))
        got = [r.detach().numpy(), x.grad.numpy()] + ([b.grad.numpy()] if bias else [])
        for u, v in zip(got, want):
            _assert_bitwise(u, v)
    assert r.grad_fn.name() == "CompiledFunctionBackward"


def test_recomputing_block_uses_the_forwards_inputs_after_an_inplace_change():
    # the backward of a recomputing block reads its copy of the inputs: x changed in
    # place (no_grad) between forward and backward gives eager's gradient (eager's tanh
    # nodes saved their outputs, not x); its output changed in place is refused as
    # eager's TanhBackward0 refuses it
    def fn(x):
        y = x
        for _ in range(40):
            y = (y * 1.01 + 0.01).tanh()
        return y
    xs = np.random.default_rng(1).standard_normal(80_000).astype("float32")
    grads = []
    for comp in (False, True):
        autograd_core._dynamo.reset()
        f = autograd_core.compile(fn) if comp else fn
        for _ in range(3):
            x = autograd_core.tensor(xs, requires_grad=True)
            y = f(x)
        with autograd_core.no_grad():
            x.mul_(-3.0)
        y.sum().backward()
        grads.append(x.grad.numpy())
        x = autograd_core.tensor(xs, requires_grad=True)
        y = f(x)
        y.add_(1.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()
    _assert_bitwise(grads[1], grads[0])


def test_recomputing_block_retain_graph_and_create_graph():
    # a retained graph keeps its input copies for a second backward; under create_graph
    # the gradients' node raises on a second pass through it, as with saved rows
    def fn(x):
        y = x
        for _ in range(40):
            y = (y * 1.01 + 0.01).tanh()
        return y.sum()
    x = autograd_core.tensor(np.linspace(-2, 2, 80_000, dtype="float32"), requires_grad=True)
    autograd_core._dynamo.reset()
    f = autograd_core.compile(fn)
    tracemalloc.start()
    for _ in range(3):
        x.grad = None
        y = f(x)
    # what the block keeps between calls is a copy of x (320 KB), not 40 rows of it
    # (12.8 MB, Note [Saved rows reused])
    y.backward()
    x.grad = None
    y = f(x)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert held < 4 << 20, held
    x.grad = None
    y.backward(retain_graph=True)
    g1 = x.grad.numpy().copy()
    y.backward()
    _assert_bitwise(x.grad.numpy(), 2 * g1)
    for _ in range(3):   # (x.grad set: the call records again, then replays)
        y = f(x)
    (g,) = autograd_core.autograd.grad(y, [x], create_graph=True)
    _assert_bitwise(g.detach().numpy(), g1)
    assert g.grad_fn.name() == "CompiledFunctionBackwardBackward"


def test_shape_change_recompiles_and_still_fuses():
    f = autograd_core.compile(lambda x: (x * 2 + 1).relu())
    for n in (3, 5):
        x = autograd_core.ones(n, requires_grad=True)
        for _ in range(3):
            r = f(x)
        assert r.shape == (n,) and r.grad_fn.name() == "CompiledFunctionBackward"


@pytest.mark.parametrize("which", ["output", "input"])
def test_inplace_change_of_a_saved_value_is_refused_at_backward(which):
    # eager's nodes save the tanh output and mul's other operand: a block saves copies,
    # and checks their versions as eager's SavedTensors do
    results = []
    for lib, comp in ((torch, True), (autograd_core, True), (autograd_core, False)):
        x = lib.tensor([-0.5, 0.6], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([1.5, 2.0], dtype=lib.float64)

        def fn(u, v):
            return lib.tanh(u * v + 1.0)
        f = lib.compile(fn, backend="aot_eager") if comp else fn
        for _ in range(3):
            y = f(x, w)
        if which == "output":
            y.copy_(x.detach() * 2)
        else:
            w.add_(1)
        try:
            y.sum().backward()
            results.append(None)
        except RuntimeError as e:
            results.append(str(e).split(":")[0])
    assert results[0] == results[1] == results[2] is not None


# ------------------------------------------------------------------ broadcast operands

def _bcast_run(lib, fn, args, compiled, create_graph=False, backend="inductor"):
    """(value, per-input gradients, grad_fn name) of fn's third call (record, first
    replay planning the blocks, replay), the gradients by autograd.grad."""
    ts = [lib.tensor(a, requires_grad=rg) for a, rg in args]
    f = lib.compile(fn, backend=backend) if compiled else fn
    for _ in range(3):
        y = f(*ts)
    wrt = [t for t in ts if t.requires_grad]
    gs = lib.autograd.grad((y * y).sum() if create_graph else y.sum(), wrt,
                           create_graph=create_graph)
    return y, gs, type(y.grad_fn).__name__


def _assert_bitwise(got, eager):
    assert got.dtype == eager.dtype and got.shape == eager.shape
    assert np.array_equal(got, eager, equal_nan=True)


BCAST_PROGS = {
    # a bias then an activation: nn.Linear's x @ W + b, then relu
    "bias_relu": lambda x, b: (x + b).relu() * 2.0,
    "bias_first": lambda x, b: (b + x).relu() - 0.5,
    "sub_first": lambda x, b: (b - x) * x,
    "sub_second": lambda x, b: (x * 0.5 - b).neg(),
    "mul": lambda x, b: (x * b + 1.0).relu(),
    "div_second": lambda x, b: (x + 1.0) / b,
    "div_first": lambda x, b: b / (x * x + 1.0),
    "libm": lambda x, b: (x * b).tanh() + (x * 0.5).sigmoid() * (x * 0.5).exp(),
}


@pytest.mark.parametrize("prog", list(BCAST_PROGS))
@pytest.mark.parametrize("shapes", [((4, 5), (5,)), ((4, 5), (1, 5)), ((4, 5), ()),
                                    ((2, 3, 4), (3, 4)), ((2, 3, 4), (1,)),
                                    ((40, 30), (30,))])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_broadcast_operand_fuses_and_equals_eager_bitwise(prog, shapes, dt):
    xshape, bshape = shapes
    fn = BCAST_PROGS[prog]
    rng = np.random.default_rng(len(xshape) * 7 + len(bshape))
    xs = rng.standard_normal(xshape).astype(dt)
    bs = (rng.uniform(0.5, 2.0, bshape) * rng.choice([-1, 1], bshape)).astype(dt)
    for bgrad in (True, False):
        args = [(xs, True), (bs, bgrad)]
        autograd_core._dynamo.reset()
        y, gs, name = _bcast_run(autograd_core, fn, args, True)
        ye, gse, _ = _bcast_run(autograd_core, fn, args, False)
        # (a libm op over more than 128 elements calls numpy's loop eager calls)
        assert name == "CompiledFunctionBackward"
        _assert_bitwise(y.detach().numpy(), ye.detach().numpy())
        assert len(gs) == len(gse)
        for g, ge in zip(gs, gse):
            _assert_bitwise(g.numpy(), ge.numpy())
        torch._dynamo.reset()
        yt, gst, namet = _bcast_run(torch, BCAST_PROGS[prog], args, True, backend="aot_eager")
        assert namet == "CompiledFunctionBackward"
        tol = dict(rtol=2e-6, atol=1e-5) if dt == "float32" else dict(rtol=1e-7, atol=1e-7)
        np.testing.assert_allclose(y.detach().numpy(), yt.detach().numpy(), **tol)
        for g, gt in zip(gs, gst):
            np.testing.assert_allclose(g.numpy(), gt.numpy(), **tol)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_broadcast_operand_gradients_under_create_graph(dt):
    fn = BCAST_PROGS["mul"]
    rng = np.random.default_rng(3)
    args = [(rng.standard_normal((6, 7)).astype(dt), True),
            (rng.standard_normal(7).astype(dt), True)]
    y, gs, name = _bcast_run(autograd_core, fn, args, True, create_graph=True)
    ye, gse, _ = _bcast_run(autograd_core, fn, args, False, create_graph=True)
    assert name == "CompiledFunctionBackward"
    for g, ge in zip(gs, gse):
        assert g.requires_grad and g.shape == ge.shape
        _assert_bitwise(g.detach().numpy(), ge.detach().numpy())
    # the bias's gradient is the engine's sum over the block's unreduced one, as eager's
    assert type(gs[1].grad_fn).__name__ == type(gse[1].grad_fn).__name__
    assert type(gs[0].grad_fn).__name__ == "CompiledFunctionBackwardBackward"
    with pytest.raises(RuntimeError, match="does not currently support double backward"):
        gs[1].sum().backward()


@pytest.mark.parametrize("case", ["non_contiguous", "column", "twice", "other_dtype",
                                  "both_broadcast"])
def test_broadcast_operand_refused_runs_unfused_and_equals_eager(case):
    # what a block does not take (Note [Fused blocks]): a broadcast operand that is not
    # C-contiguous, not a suffix of the block's shape (a column), of another dtype, or two
    # broadcasts; and one it takes: a broadcast operand read twice
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6))
    base = rng.standard_normal(12)

    def fn(x, b):
        if case == "non_contiguous":
            b = b[::2]                      # a view, made in the function
        if case == "twice":
            return ((x + b) * b).relu()
        if case == "both_broadcast":
            return (x[:1] + b).relu()
        return (x + b).relu()         # (the add refused, relu alone is no block)
    b = {"non_contiguous": base, "column": base[:4].reshape(4, 1), "twice": base[:6],
         "other_dtype": base[:6].astype("float32"),
         "both_broadcast": base[:4].reshape(4, 1)}[case]
    args = [(x, True), (b, True)]
    y, gs, name = _bcast_run(autograd_core, fn, args, True)
    ye, gse, namee = _bcast_run(autograd_core, fn, args, False)
    # (a broadcast operand read twice fuses: each use's gradient is its own edge)
    assert namee == "ReluBackward0"
    assert name == ("CompiledFunctionBackward" if case == "twice" else "ReluBackward0")
    _assert_bitwise(y.detach().numpy(), ye.detach().numpy())
    for g, ge in zip(gs, gse):
        _assert_bitwise(g.numpy(), ge.numpy())


def test_broadcast_input_changing_shape_at_a_replay_recompiles():
    # the guard key holds the shapes: a (5,) bias then a (4, 5) one records again, and
    # each recording fuses with its own inputs' layout
    f = autograd_core.compile(lambda x, b: (x + b).relu())
    x = autograd_core.ones(4, 5, requires_grad=True)
    for b in (autograd_core.ones(5, requires_grad=True),
              autograd_core.ones(4, 5, requires_grad=True)):
        for _ in range(3):
            y = f(x, b)
        assert y.grad_fn.name() == "CompiledFunctionBackward"
        (gb,) = autograd_core.autograd.grad(y.sum(), [b])
        assert gb.shape == b.shape and gb.tolist() == (np.ones(b.shape) * (4 if
                                                       b.dim() == 1 else 1)).tolist()


@pytest.mark.parametrize("create_graph", [False, True])
def test_inputs_sharing_one_gradient_get_independent_grads(create_graph):
    # add's two inputs have one gradient: the block stores it once and returns it for
    # both (as eager's AddBackward0 returns grad twice); the leaves' .grad stay apart
    def f(x, w):
        return ((x + w) * 2.0).relu()
    res = []
    for comp in (True, False):
        g = autograd_core.compile(f) if comp else f
        x = autograd_core.tensor([0.5, -1.0, 2.0], requires_grad=True)
        w = autograd_core.tensor([1.0, 0.5, -3.0], requires_grad=True)
        for _ in range(3):
            x.grad = w.grad = None
            y = g(x, w)
            y.sum().backward(create_graph=create_graph)
        assert x.grad is not w.grad
        x.grad.data.add_(1)
        res.append((type(y.grad_fn).__name__, x.grad.tolist(), w.grad.tolist()))
    assert res[0][0] == "CompiledFunctionBackward" and res[1][0] == "ReluBackward0"
    assert res[0][1:] == res[1][1:] == ([3.0, 1.0, 1.0], [2.0, 0.0, 0.0])


def _random_chain(rng, nsteps, names):
    """A random straight-line program over the tensors `names` (the first of the block's
    shape, the rest possibly broadcast) of the ops a block takes, as source text."""
    vals = list(names)
    lines = []
    for i in range(nsteps):
        op = rng.choice(["add", "sub", "mul", "div", "neg", "exp", "tanh", "sigmoid", "relu",
                         "rnum"])
        a = vals[-1] if rng.random() < 0.7 else vals[rng.integers(len(vals))]
        if a in names[1:]:
            a = vals[-1] if vals[-1] not in names[1:] else names[0]
        if op in ("add", "sub", "mul", "div"):
            b = vals[rng.integers(len(vals))]
            if op == "div":
                b = f"({b} * {b} + 1.0)"
            expr = f"{a} {'+-*/'[['add', 'sub', 'mul', 'div'].index(op)]} {b}"
            if rng.random() < 0.5:
                expr = f"{b} {'+-*/'[['add', 'sub', 'mul', 'div'].index(op)]} {a}"
        elif op == "rnum":
            expr = f"{a} * {rng.uniform(-2, 2):.3f} + {rng.uniform(-1, 1):.3f}"
        elif op == "exp":
            expr = f"({a} * 0.1).exp()"
        else:
            expr = f"{a}.{op}()"
        lines.append(f"    v{i} = {expr}")
        vals.append(f"v{i}")
    outs = ", ".join(vals[len(names):][-2:])
    return "def fn({}):\n{}\n    return ({},)\n".format(", ".join(names), "\n".join(lines), outs)


@pytest.mark.parametrize("seed", range(200))
def test_random_chains_with_broadcast_operands_equal_eager_bitwise(seed):
    # random programs of the fused ops over a block operand x and broadcast operands b, c
    # (each a row, a scalar tensor or of x's shape): compiled (record, plan, replay) and
    # eager give the same values and gradients, bit for bit
    rng = np.random.default_rng(seed)
    dt = ["float32", "float64"][seed % 2]
    xshape = [(3, 4), (2, 3, 5), (50, 20)][seed % 3]
    src = _random_chain(rng, int(rng.integers(2, 9)), ["x", "b", "c"])
    env = {}
    exec(src, env)
    fn = env["fn"]
    shapes = [xshape] + [[xshape[-1:], (), (1,) + xshape[-1:], xshape][rng.integers(4)]
                         for _ in range(2)]
    data = [rng.uniform(0.5, 1.5, s).astype(dt) * rng.choice([-1, 1], s) for s in shapes]
    rgs = [True] + [bool(rng.integers(2)) for _ in range(2)]
    res = []
    for comp in (True, False):
        autograd_core._dynamo.reset()
        ts = [autograd_core.tensor(d, requires_grad=rg) for d, rg in zip(data, rgs)]
        f = autograd_core.compile(fn) if comp else fn
        for _ in range(3):
            outs = f(*ts)
        live = [o for o in outs if o.requires_grad]
        wrt = [t for t in ts if t.requires_grad]
        gs = autograd_core.autograd.grad(sum((o * o).sum() for o in live), wrt,
                                         allow_unused=True) if live else []
        res.append(([o.detach().numpy() for o in outs],
                    [None if g is None else g.numpy() for g in gs]))
    for u, v in zip(res[0][0] + res[0][1], res[1][0] + res[1][1]):
        if u is None or v is None:
            assert u is v, src
        else:
            assert u.dtype == v.dtype and np.array_equal(u, v, equal_nan=True), src


def test_input_read_twice_shows_one_edge_per_input_as_pytorch():
    # its further uses' edges (each use's gradient apart, for eager's summation order)
    # are not shown: next_functions has one entry per input, as PyTorch's
    descs = []
    for lib in (torch, autograd_core):
        u = lib.tensor([0.5, -1.0], requires_grad=True)
        w = lib.tensor([1.5, 2.0])
        f = lib.compile(lambda u, w: ((u * 2.0) * u + w) * w, backend="aot_eager")
        for _ in range(3):
            y = f(u, w)
        descs.append([None if n is None else type(n).__name__
                      for n, _ in y.grad_fn.next_functions])
        y.sum().backward()
        descs.append(u.grad.tolist())
    assert descs[0] == descs[2] == ["AccumulateGrad", None]
    np.testing.assert_allclose(descs[1], descs[3], rtol=1e-6)


def _traced_peak(fn):
    import tracemalloc
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_replay_frees_temporaries_as_eager():
    # set_frees: each unfused step releases the slots nothing later reads, so a replay
    # holds no more temporaries than eager (without the frees, all 40 intermediates of
    # 2 MB would be alive at the end: ~80 MB)
    def fn(x):
        for _ in range(20):
            x = x.abs().sqrt()    # (not fusible: every step runs as recorded)
        return x
    x = autograd_core.tensor(np.linspace(-1, 1, 500_000).astype("float32"))
    autograd_core._dynamo.reset()
    f = autograd_core.compile(fn)
    for _ in range(3):
        f(x)
    eager = _traced_peak(lambda: fn(x))
    compiled = _traced_peak(lambda: f(x))
    assert compiled <= eager + (1 << 20), (compiled, eager)
    _assert_bitwise(f(x).numpy(), fn(x).numpy())


def test_long_large_libm_chain_is_one_block_with_eagers_memory():
    # chain100k's shape, smaller: a 3-op step repeated 60 times over 50,000 floats fuses
    # into ONE block (one node, one pass over memory forward and backward) that keeps
    # only what its backward reads (tanh's outputs, as eager's nodes do), bitwise equal
    # to eager's values and gradient
    def fn(x):
        for _ in range(60):
            x = (x * 1.01 + 0.01).tanh()
        return x.sum()
    x = autograd_core.tensor(np.random.default_rng(5).standard_normal(50_000)
                             .astype("float32"), requires_grad=True)
    autograd_core._dynamo.reset()
    f = autograd_core.compile(fn)

    def step(g):
        x.grad = None
        g(x).backward()
        return x.grad.numpy().copy()
    for _ in range(3):
        got = step(f)
    x.grad = None
    r = f(x)
    node = r.grad_fn.next_functions[0][0]
    assert node.name() == "CompiledFunctionBackward"
    assert node.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    r.backward()
    _assert_bitwise(got, step(fn))
    eager = _traced_peak(lambda: step(fn))
    compiled = _traced_peak(lambda: step(f))
    assert compiled <= eager * 1.1, (compiled, eager)


# ------------------------------------------------------------------ tiles and stores
# A block whose broadcast period is not a multiple of the tile runs in tiles that divide
# it (Note [Tiles of a broadcast block]); an instruction whose value is stored next is
# made in the output (or saved row) itself (csrc/agc_fuse.c). Neither may change a value:
# periods below the shortest such tile, primes above the tile, multiples of it, a last
# tile shorter than the others, and programs with saved rows (div_first, sub_first)
# against eager bit for bit.

@pytest.mark.parametrize("prog", ["bias_relu", "bias_first", "sub_first", "mul",
                                  "div_first", "libm"])
@pytest.mark.parametrize("shapes", [((64, 256), (256,)), ((8, 784), (784,)),
                                    ((6, 640), (640,)), ((3, 1000), (1000,)),
                                    ((5, 130), (130,)), ((4, 2048), (2048,)),
                                    ((2, 3, 300), (3, 300)), ((9, 97), (97,)),
                                    ((3, 1031), (1031,))])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_broadcast_periods_of_any_length_equal_eager_bitwise(prog, shapes, dt):
    xshape, bshape = shapes
    fn = BCAST_PROGS[prog]
    rng = np.random.default_rng(sum(xshape))
    xs = rng.standard_normal(xshape).astype(dt)
    bs = (rng.uniform(0.5, 2.0, bshape) * rng.choice([-1, 1], bshape)).astype(dt)
    args = [(xs, True), (bs, True)]
    autograd_core._dynamo.reset()
    y, gs, name = _bcast_run(autograd_core, fn, args, True)
    ye, gse, _ = _bcast_run(autograd_core, fn, args, False)
    assert name == "CompiledFunctionBackward"
    _assert_bitwise(y.detach().numpy(), ye.detach().numpy())
    for g, ge in zip(gs, gse):
        _assert_bitwise(g.numpy(), ge.numpy())
    # and under create_graph (the backward's program run with grad mode on)
    y, gs, _ = _bcast_run(autograd_core, fn, args, True, create_graph=True)
    ye, gse, _ = _bcast_run(autograd_core, fn, args, False, create_graph=True)
    for g, ge in zip(gs, gse):
        assert g.requires_grad
        _assert_bitwise(g.detach().numpy(), ge.detach().numpy())


def _mlp(lib):
    F = lib.nn.functional

    def fwd(X, labels, W1, b1, W2, b2):
        h = (X @ W1 + b1).relu()
        return F.cross_entropy(h @ W2 + b2, labels), h
    return fwd


def _mlp_data(n, d_in, d_h, d_out, dt="float32", seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, d_in)).astype(dt), rng.integers(0, d_out, n),
            [(rng.standard_normal((d_in, d_h)) * np.sqrt(2 / d_in)).astype(dt),
             (rng.standard_normal(d_h) * 0.1).astype(dt),
             (rng.standard_normal((d_h, d_out)) * np.sqrt(1 / d_h)).astype(dt),
             (rng.standard_normal(d_out) * 0.1).astype(dt)])


def _mlp_steps(lib, data, compiled, calls=3, retain=False):
    """The gradients after each of `calls` training steps of benchmarks/compile.py's MLP
    (grads reset per step; with retain, each step's backward runs twice)."""
    X, labels, ps = data
    X, labels = lib.tensor(X), lib.tensor(labels)
    params = [lib.tensor(p, requires_grad=True) for p in ps]
    f = lib.compile(_mlp(lib)) if compiled else _mlp(lib)
    out = []
    for _ in range(calls):
        for p in params:
            p.grad = None
        loss, h = f(X, labels, *params)
        loss.backward(retain_graph=retain)
        if retain:
            loss.backward()
        out.append((loss.detach().numpy().copy(), h.grad_fn.name(),
                    [p.grad.numpy().copy() for p in params]))
    return out


@pytest.mark.parametrize("dims", [(64, 784, 256, 10), (16, 30, 130, 7), (4, 9, 100, 3)])
@pytest.mark.parametrize("retain", [False, True])
def test_mlp_training_step_equals_eager_bitwise(dims, retain):
    # the benchmark's step: matmul, a bias block (a period of 256: tiles that divide it),
    # matmul, bias, cross_entropy; every call's loss and gradients are eager's bit for
    # bit (retain_graph: a second backward through the same block accumulates as eager)
    data = _mlp_data(*dims)
    autograd_core._dynamo.reset()
    got = _mlp_steps(autograd_core, data, True, retain=retain)
    want = _mlp_steps(autograd_core, data, False, retain=retain)
    for (l, name, gs), (le, _, gse) in zip(got, want):
        _assert_bitwise(l, le)
        for g, ge in zip(gs, gse):
            _assert_bitwise(g, ge)
    assert got[-1][1] == "CompiledFunctionBackward"
    (lt, _, gst), = _mlp_steps(torch, data, False, calls=1, retain=retain)
    np.testing.assert_allclose(got[-1][0], lt, rtol=1e-5, atol=1e-6)
    for g, gt in zip(got[-1][2], gst):
        np.testing.assert_allclose(g, gt, rtol=1e-4, atol=1e-5)


def test_mlp_block_output_changed_in_place_before_backward_is_refused():
    # relu's output is what the block's backward reads (eager's ReluBackward0 saves
    # it): changed in place, the backward raises eager's error, at every replay
    X, labels, ps = _mlp_data(8, 12, 256, 4)
    msgs = []
    for compiled in (False, True):
        autograd_core._dynamo.reset()
        f = autograd_core.compile(_mlp(autograd_core)) if compiled else _mlp(autograd_core)
        params = [autograd_core.tensor(p, requires_grad=True) for p in ps]
        for _ in range(3):
            for p in params:
                p.grad = None
            loss, h = f(autograd_core.tensor(X), autograd_core.tensor(labels), *params)
        with autograd_core.no_grad():
            h.mul_(2.0)
        with pytest.raises(RuntimeError) as e:
            loss.backward()
        msgs.append(str(e.value))
    # (the tensor is named by its node: eager's Relu, a block's CompiledFunction, as
    # PyTorch names an output of its compiled graphs)
    assert "modified by an inplace operation" in msgs[0] and "output 0 of Relu," in msgs[0]
    assert msgs[1] == msgs[0].replace("of Relu,", "of CompiledFunction,")


def test_mlp_guard_failure_recompiles_with_its_own_tiles():
    # another hidden width (period 256 -> 384 -> 100) fails the shape guards: each
    # recording plans its own blocks and still equals eager bit for bit
    autograd_core._dynamo.reset()
    fwd = autograd_core.compile(_mlp(autograd_core))
    for d_h in (256, 384, 100):
        X, labels, ps = _mlp_data(8, 20, d_h, 5, seed=d_h)
        for compiled in (True, False):
            f = fwd if compiled else _mlp(autograd_core)
            params = [autograd_core.tensor(p, requires_grad=True) for p in ps]
            for _ in range(3):
                for p in params:
                    p.grad = None
                loss, h = f(autograd_core.tensor(X), autograd_core.tensor(labels), *params)
                loss.backward()
            if compiled:
                assert h.grad_fn.name() == "CompiledFunctionBackward"
                got = [p.grad.numpy().copy() for p in params]
            else:
                for g, p in zip(got, params):
                    _assert_bitwise(g, p.grad.numpy())
