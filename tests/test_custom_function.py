"""Custom autograd.Function corner cases no PyTorch test covers: an input saved by a
Function and detached in place before backward (a built-in op's saved input raises
instead). Each program runs under torch and autograd_core (tests/_diff.py compares the
results). Programs that follow a PyTorch test live in
tests/pytorch_autograd/test_pta_function.py, under that test's name."""
from _diff import same, same_error


def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


def _square_function(torch):
    """x * x as a custom Function that saves its input."""
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g
    return Square


def test_function_saved_input_detached_in_place():
    # fuzzer seed 900103: ctx.saved_tensors unpacks with the node as saved_for, so an
    # input detach_()ed after the call comes back as it is (a built-in op's raises)
    def prog(torch):
        Square = _square_function(torch)
        t0 = _t(torch, [[0.75], [0.5], [-0.5]])
        t8 = t0 * 1
        y = Square.apply(t8)
        t8.detach_()
        y.sum().backward()
        return t0.grad
    same(prog)


def test_builtin_saved_input_detached_in_place_raises():
    def prog(torch):
        t0 = _t(torch, [0.75, 0.5])
        t8 = t0 * 1
        y = t8.sin()
        t8.detach_()
        y.sum().backward()
    same_error(prog)
