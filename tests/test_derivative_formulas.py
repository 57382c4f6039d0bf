"""Derivative formulas as PyTorch writes them.

- Masked backwards select: where PyTorch's backward picks the gradient or 0 (where,
  masked_fill, a kernel's `cond ? grad : 0`), a NaN or inf incoming gradient stays out
  of the masked-off positions; where PyTorch multiplies by a 0/1 mask, NaN spreads the
  same way here. Compared under first and second order (NaN positions included).
- A gradient has its input's dtype (einsum / bmm of a float64 and a float32 operand).
- The nodes a first-order gradient records under create_graph are the ops PyTorch's
  formula uses (MulBackward1 for a Tensor times a number, MaskedFillBackward0, ...).

Every program runs under torch and autograd_core (tests/_diff.py) and is compared."""

import pytest

from _diff import same

# (no NaN input: PyTorch's gradient at a NaN input differs between its scalar and
# vectorised loops for several of these ops)
XS = [-3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0, 0.5]
NAN, INF = float("nan"), float("inf")


def _ops(torch):
    F = torch.nn.functional
    return {
        "relu": torch.relu,
        "relu6": F.relu6,
        "hardtanh": F.hardtanh,
        "hardtanh_bounds": lambda x: F.hardtanh(x, -0.5, 2.0),
        "threshold": lambda x: F.threshold(x, 0.1, 20.0),
        "clamp": lambda x: x.clamp(-0.5, 0.5),
        "clamp_min": lambda x: x.clamp(min=-0.5),
        "clamp_max": lambda x: torch.clamp_max(x, 0.5),
        "clamp_tensors": lambda x: x.clamp(torch.full_like(x, -0.5), torch.full_like(x, 0.5)),
        "hardsigmoid": F.hardsigmoid,
        "hardswish": F.hardswish,
        "leaky_relu": lambda x: F.leaky_relu(x, 0.1),
        "leaky_relu_zero": lambda x: F.leaky_relu(x, 0.0),
        "leaky_relu_negative": lambda x: F.leaky_relu(x, -0.1),
        "elu": F.elu,
        "celu": lambda x: F.celu(x, 0.5),
        "selu": F.selu,
        "softplus": lambda x: F.softplus(x, 1, 0.5),
        "hardshrink": lambda x: F.hardshrink(x, 0.5),
        "softshrink": lambda x: F.softshrink(x, 0.5),
        "maximum": lambda x: torch.maximum(x, torch.zeros_like(x)),
        "minimum": lambda x: torch.minimum(x, torch.zeros_like(x)),
        "fmax": lambda x: torch.fmax(x, torch.zeros_like(x)),
        "fmin": lambda x: torch.fmin(x, torch.zeros_like(x)),
        "max": lambda x: x.max(),
        "max_dim": lambda x: x.view(-1, 2).max(1)[0],
        "where": lambda x: torch.where(x > 0, x, torch.zeros_like(x)),
        "masked_fill": lambda x: x.masked_fill(x > 0, 0.0),
        "nan_to_num": torch.nan_to_num,
        "abs": torch.abs,
        "max_pool1d": lambda x: F.max_pool1d(x.view(1, 1, -1), 2).view(-1),
        "mish": F.mish,
        "logsigmoid": F.logsigmoid,
        "gelu": F.gelu,
        "silu": F.silu,
        "mse_loss": lambda x: F.mse_loss(x, torch.zeros_like(x), reduction="none"),
        "smooth_l1_loss": lambda x: F.smooth_l1_loss(x, torch.zeros_like(x), reduction="none",
                                                     beta=0.5),
        "huber_loss": lambda x: F.huber_loss(x, torch.zeros_like(x), reduction="none",
                                             delta=0.5),
    }


OPS = list(_ops(__import__("torch")))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("seed", [NAN, INF])
@pytest.mark.parametrize("name", OPS)
def test_first_order_with_nan_or_inf_gradient(name, seed, dtype):
    def prog(torch):
        x = torch.tensor(XS, dtype=getattr(torch, dtype), requires_grad=True)
        y = _ops(torch)[name](x)
        y.backward(torch.full_like(y, seed))
        return x.grad
    same(prog)


# hardsigmoid_backward has no derivative in PyTorch (checked below)
@pytest.mark.parametrize("seed", [NAN, INF, 1.5])
@pytest.mark.parametrize("name", [n for n in OPS if n != "hardsigmoid"])
def test_second_order_with_nan_or_inf_gradient(name, seed):
    """The first-order gradient under create_graph, differentiated with a NaN / inf
    gradient w.r.t. the input and the first gradient's seed."""
    def prog(torch):
        x = torch.tensor(XS, dtype=torch.float64, requires_grad=True)
        y = _ops(torch)[name](x)
        go = torch.ones_like(y).requires_grad_()
        g, = torch.autograd.grad(y, x, go, create_graph=True)
        if g.grad_fn is None:
            return g
        return g, torch.autograd.grad(g, (x, go), torch.full_like(g, seed), allow_unused=True)
    same(prog)


def test_hardtanh_example_from_the_issue():
    def prog(torch):
        x = torch.tensor([-2.0, 0.5, 2.0], requires_grad=True)
        torch.nn.functional.hardtanh(x).backward(torch.tensor([NAN, NAN, NAN]))
        return x.grad                                   # torch: [0, nan, 0]
    same(prog)


@pytest.mark.parametrize("name", ["hardsigmoid", "hardswish"])
def test_hard_activations_are_ops_of_their_own(name):
    def prog(torch):
        F = torch.nn.functional
        x = torch.tensor([-4.0, -3.0, -1.0, 0.0, 2.0, 3.0, 4.0], dtype=torch.float64,
                         requires_grad=True)
        y = getattr(F, name)(x)
        go = torch.ones_like(y).requires_grad_()
        g, = torch.autograd.grad(y, x, go, create_graph=True)
        z = getattr(F, name)(x * 1, inplace=True)
        return (y, y.grad_fn.name(), g, g.grad_fn.name(), z, z.grad_fn.name(),
                [type(n).__name__ for n, _ in g.grad_fn.next_functions])
    same(prog)


def test_hardsigmoid_has_no_second_derivative():
    def prog(torch):
        x = torch.tensor([-1.0, 0.5], requires_grad=True)
        g, = torch.autograd.grad(torch.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
        torch.autograd.grad(g.sum(), x)
    same(prog, must_raise=True)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("loss", ["mse_loss", "smooth_l1_loss", "huber_loss"])
def test_loss_backwards_are_ops_of_their_own(loss, reduction):
    """Under create_graph the first gradient is the loss's backward op, whose derivatives
    w.r.t. grad_output, input and target are PyTorch's (the boundary |d| = beta too)."""
    def prog(torch):
        x = torch.tensor([-0.5, 0.5, 0.2, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
        t = torch.tensor([0.0, 0.0, 0.1, -1.0, 0.0], dtype=torch.float64, requires_grad=True)
        kw = {"smooth_l1_loss": {"beta": 0.5}, "huber_loss": {"delta": 0.5}}.get(loss, {})
        y = getattr(torch.nn.functional, loss)(x, t, reduction=reduction, **kw)
        go = torch.ones_like(y).requires_grad_()
        gx, gt = torch.autograd.grad(y, (x, t), go, create_graph=True)
        w = torch.tensor([1.0, 2.0, 3.0, 4.0, NAN], dtype=torch.float64)
        return (gx, gt, _chain(gx.grad_fn),
                torch.autograd.grad((gx * w).sum() + gt.sum(), (x, t, go)))
    same(prog)


def test_smooth_l1_loss_with_beta_zero():
    def prog(torch):
        x = torch.tensor([-0.5, 0.0, 1.0], dtype=torch.float64, requires_grad=True)
        y = torch.nn.functional.smooth_l1_loss(x, torch.zeros(3, dtype=torch.float64), beta=0.0)
        g, = torch.autograd.grad(y, x, create_graph=True)
        return y, g
    same(prog)


# ------------------------------------------------------------- gradient dtypes

@pytest.mark.parametrize("eq, s1, s2", [
    ("ij,jk->ik", (2, 0), (0, 3)), ("i,i->", (0,), (0,)), ("bij,bjk->bik", (2, 2, 0), (2, 0, 2)),
    ("i,j->ij", (2,), (3,)), ("ij,jk->ik", (2, 1), (1, 3)), ("ij,jk->ik", (2, 3), (3, 4)),
])
@pytest.mark.parametrize("swap", [False, True])
def test_mixed_dtype_einsum_gradients_have_their_inputs_dtype(eq, s1, s2, swap):
    def prog(torch):
        a = torch.ones(s1, dtype=torch.float64, requires_grad=True)
        b = torch.ones(s2, dtype=torch.float32, requires_grad=True)
        y = torch.einsum(eq, b, a) if swap and s1 == s2 else torch.einsum(eq, a, b)
        go = torch.ones_like(y).requires_grad_()
        ga, gb = torch.autograd.grad(y, (a, b), go, create_graph=True)
        h = torch.autograd.grad(ga.sum() + gb.sum(), go, allow_unused=True)
        return y, ga, gb, h
    same(prog, may_raise=True)


@pytest.mark.parametrize("fn", ["matmul", "mm", "bmm", "tensordot", "mul", "add", "linear"])
def test_mixed_dtype_products(fn):
    shapes = {"bmm": ((2, 2, 0), (2, 0, 3)), "mul": ((2, 3), (3,)), "add": ((2, 3), (3,)),
              "linear": ((2, 3), (4, 3))}.get(fn, ((2, 3), (3, 4)))

    def prog(torch):
        a = torch.ones(shapes[0], dtype=torch.float64, requires_grad=True)
        b = torch.ones(shapes[1], dtype=torch.float32, requires_grad=True)
        f = {"matmul": torch.matmul, "mm": torch.mm, "bmm": torch.bmm,
             "tensordot": lambda a, b: torch.tensordot(a, b, 1), "mul": torch.mul,
             "add": torch.add, "linear": torch.nn.functional.linear}[fn]
        y = f(a, b)
        return y, torch.autograd.grad(y.sum(), (a, b))
    same(prog, may_raise=True)


# ------------------------------------------------------------- nodes of the formulas

def _chain(fn):
    """The node names reachable from fn, breadth first."""
    out, queue, seen = [], [fn], set()
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(type(n).__name__)
        queue.extend(nxt for nxt, _ in n.next_functions)
    return out


def _programs(torch):
    F = torch.nn.functional
    return {
        "relu": torch.relu, "hardtanh": F.hardtanh, "relu6": F.relu6,
        "threshold": lambda x: F.threshold(x, 0.1, 2.0),
        "leaky_relu": lambda x: F.leaky_relu(x, 0.1), "sigmoid": torch.sigmoid,
        "tanh": torch.tanh, "pow2": lambda x: x ** 2, "pow3": lambda x: x.pow(3),
        "mul2": lambda x: x * 2, "rmul2": lambda x: 2 * x, "div2": lambda x: x / 2,
        "cross_entropy": lambda x: F.cross_entropy(x.view(2, 3), torch.tensor([1, 0])),
        "softmax": lambda x: F.softmax(x.view(2, 3), 1),
        "log_softmax": lambda x: F.log_softmax(x.view(2, 3), 1),
        "abs": torch.abs, "clamp": lambda x: x.clamp(-0.5, 0.5),
        "where": lambda x: torch.where(x > 0, x, torch.zeros_like(x)),
        "masked_fill": lambda x: (x * x).masked_fill(x > 0, 0.0),
        "max": lambda x: x.max(), "max_dim": lambda x: x.view(2, 3).max(1)[0],
        "maximum": lambda x: torch.maximum(x, torch.zeros_like(x)),
        "minimum": lambda x: torch.minimum(x, torch.zeros_like(x)),
        "sum": torch.sum, "mean": torch.mean, "exp": torch.exp,
        "log": lambda x: x.abs().log(), "sqrt": lambda x: x.abs().sqrt(),
        "hardswish": F.hardswish, "elu": F.elu, "softplus": F.softplus,
        "mish": F.mish, "logsigmoid": F.logsigmoid,
        "mse_loss": lambda x: F.mse_loss(x, torch.ones_like(x)),
        "smooth_l1_loss": lambda x: F.smooth_l1_loss(x, torch.zeros_like(x)),
        "huber_loss": lambda x: F.huber_loss(x, torch.zeros_like(x)),
    }


@pytest.mark.parametrize("seeded", [False, True])
@pytest.mark.parametrize("name", list(_programs(__import__("torch"))))
def test_create_graph_node_names(name, seeded):
    def prog(torch):
        x = torch.tensor([-2.0, -0.5, 0.25, 0.5, 1.0, 2.0], dtype=torch.float64,
                         requires_grad=True)
        y = _programs(torch)[name](x)
        if seeded:      # a seed that requires grad: the formula's nodes all show
            g, = torch.autograd.grad(y, x, torch.ones_like(y).requires_grad_(),
                                     create_graph=True)
        else:
            g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        return y.grad_fn.name(), g, None if g.grad_fn is None else _chain(g.grad_fn)
    same(prog)
