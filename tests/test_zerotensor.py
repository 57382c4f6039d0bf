"""Gradients PyTorch keeps as immutable ZeroTensors (Note [ZeroTensor]): sgn's
derivative of a real input, the formulas it flows through, writes into such a gradient,
reading it, and the empty case. Each program runs under torch and autograd_core
(tests/_diff.py compares values, flags and exceptions)."""
import pytest
from _diff import same



def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


_SGN_CHAINS = {
    "leaf": lambda torch, x: torch.sgn(x), "mul": lambda torch, x: torch.sgn(x * 2),
    "exp": lambda torch, x: torch.sgn(x.exp()), "neg": lambda torch, x: torch.sgn(-x),
    "sum": lambda torch, x: torch.sgn(x.sum()), "mean": lambda torch, x: torch.sgn(x.mean()),
    "sum_dim": lambda torch, x: torch.sgn(x.reshape(2, 1).sum(1)),
    "select": lambda torch, x: torch.sgn(x[0]), "view": lambda torch, x: torch.sgn(x.view(2)),
    "t": lambda torch, x: torch.sgn(x.reshape(2, 1).t()),
    "expand": lambda torch, x: torch.sgn(x.expand(3, 2)),
    "twice": lambda torch, x: torch.sgn(x) + torch.sgn(x), "plus_x": lambda torch, x: torch.sgn(x) + x,
    "sub_alpha": lambda torch, x: torch.sgn(torch.sub(x, x, alpha=0.5)),
    "add_alpha": lambda torch, x: torch.sgn(torch.add(x, x, alpha=2.0)),
    "tanh": lambda torch, x: torch.sgn(x.tanh()), "where": lambda torch, x: torch.sgn(
        torch.where(x > 0, x, x * 2)),
}


def test_sgn_grad_is_a_zerotensor_then_second_backward_raises():
    # sgn's gradient for real inputs is PyTorch's immutable ZeroTensor: stolen into .grad,
    # so a second backward accumulating into it raises
    def prog(torch):
        t0 = torch.tensor(1.0, dtype=torch.float32, requires_grad=True)
        t2 = _t(torch, 1.5)
        t3 = torch.sgn(t2)
        t3.sum().backward(retain_graph=True)
        assert t2.grad._is_zerotensor()
        (t0.sum() + (t2 * t2).sum() + t3.sum()).backward()
    same(prog, must_raise=True)


@pytest.mark.parametrize("chain", sorted(_SGN_CHAINS))
def test_sgn_zerotensor_through_formulas(chain):
    # whether .grad is a ZeroTensor after sgn of a function of x: PyTorch's ZeroTensor
    # kernels (mul, div, add/sub of two) keep it, other ops and a stride-0 result
    # (refused by AccumulateGrad's layout contract) do not
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        y = _SGN_CHAINS[chain](torch, x)
        y.sum().backward()
        r = [x.grad, x.grad._is_zerotensor()]
        try:
            (x * 3).sum().backward()
        except RuntimeError as e:
            r.append(str(e))
        return r + [x.grad]
    same(prog)


def test_zerotensor_grad_is_immutable():
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        torch.sgn(x).sum().backward()
        g = x.grad
        r = [g.clone()._is_zerotensor(), g.detach()._is_zerotensor(), g[0]._is_zerotensor(),
             (g + 1)._is_zerotensor(), g.stride(), repr(g).replace("autograd_core", "torch")]
        for f in (lambda: g.add_(1), lambda: g.zero_(), lambda: g.view(2).mul_(2),
                  lambda: g.numpy()):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_std_backward_of_a_zerotensor_raises():
    # PyTorch's std_backward masks grad / (2 std) in place: with sgn's ZeroTensor it raises
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        torch.sgn(x.std()).backward()
    same(prog, must_raise=True)


@pytest.mark.parametrize("write", ["copy_", "copy_view", "set_int", "set_int_pair",
                                   "set_slice_scalar", "set_slice_0d", "set_ellipsis_full",
                                   "set_mask", "set_index", "add_", "fill_"])
def test_write_into_zerotensor_gradient_wording(write):
    """copy_ (and a basic setitem that is copy_ rather than fill_) words the ZeroTensor
    error differently from the other in-place ops, as PyTorch."""
    def prog(torch):
        x = torch.tensor([[1.5, -2.0], [1.0, 2.0]], requires_grad=True)
        torch.sgn(x).sum().backward()
        g = x.grad
        if write == "copy_":
            g.copy_(torch.ones(2, 2))
        elif write == "copy_view":
            g[0].copy_(torch.ones(2))
        elif write == "set_int":
            g[0] = 1.0
        elif write == "set_int_pair":
            g[0, 0] = 1.0
        elif write == "set_slice_scalar":
            g[:] = 1.0
        elif write == "set_slice_0d":
            g[0] = torch.ones(1)
        elif write == "set_ellipsis_full":
            g[...] = torch.ones(2, 2)
        elif write == "set_mask":
            g[g == 0] = torch.tensor(1.0)
        elif write == "set_index":
            g[[0]] = torch.ones(2)
        elif write == "add_":
            g.add_(1)
        else:
            g.fill_(1)
    same(prog, must_raise=True)


# (not g[1:].tolist(): PyTorch 2.13 crashes reading a ZeroTensor view at an offset)
@pytest.mark.parametrize("read", ["tolist", "tolist-0d", "tolist-empty", "array", "item",
                                  "numpy-force", "list"])
def test_reading_a_zerotensor_gradient(read):
    # sgn's ZeroTensor gradient has no storage in PyTorch: tolist and numpy conversion
    # raise (an empty one converts), item and iteration read zeros
    def prog(m):
        x = m.zeros(0 if read == "tolist-empty" else 3, requires_grad=True)
        x.sgn().sum().backward()
        g = x.grad
        return {"tolist": lambda: g.tolist(), "tolist-0d": lambda: g[0].tolist(),
                "tolist-empty": lambda: g.tolist(),
                "array": lambda: __import__("numpy").asarray(g).tolist(),
                "item": lambda: g[0].item(), "numpy-force": lambda: g.numpy(force=True).tolist(),
                "list": lambda: [float(e) for e in g]}[read]()

    same(prog, may_raise=True)


@pytest.mark.parametrize("shape", [(0, 4), (0,), (2, 0, 3)])
def test_empty_zerotensor_gradient(shape):
    # sgn's gradient of an empty real tensor is a ZeroTensor as well: a second backward
    # into the leaf, and in-place writes into it, raise (fuzzer seeds 13004558, 14012283)
    def prog(m):
        x = m.zeros(*shape, dtype=m.float64, requires_grad=True)
        m.sgn(x).sum().backward()
        r = [x.grad, x.grad._is_zerotensor(), x.grad[None]._is_zerotensor()]
        for write in (lambda: (x * 2).sum().backward(), lambda: x.grad.add_(1),
                      lambda: x.grad.zero_()):
            try:
                write()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        return r

    same(prog)
