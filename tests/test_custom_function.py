"""Custom autograd.Function corner cases: backward writing through a view, once_differentiable
under create_graph, an input returned under no_grad, setup_context's defaults, ctx
cycles freed, mark_dirty of a non-input, saved inputs detached in place. Each program
runs under torch and autograd_core (tests/_diff.py compares the results)."""
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


def test_function_backward_writes_through_select():
    def prog(torch):
        class ComplexView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a.select(0, 1)

            @staticmethod
            def backward(ctx, g):
                res = torch.zeros(2)
                res.select(0, 1).copy_(g)
                return res

        a = torch.ones(2, requires_grad=True)
        ComplexView.apply(a.clone()).sum().backward()
        return a.grad
    same(prog)


def test_once_differentiable_create_graph():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, g):
                return g * 2

        x = _t(torch, [1.0, 2.0])
        go = torch.ones((), dtype=torch.float64, requires_grad=True)
        F.apply(x).sum().backward(go, create_graph=True)
        return x.grad
    same(prog, quiet=True)


def test_function_returns_input_under_no_grad():
    def prog(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g

        x = _t(torch, [1.0])
        with torch.no_grad():
            y = Id.apply(x)
        return y.requires_grad, y is x
    same(prog)


def test_setup_context_default_args():
    def prog(torch):
        class Pow(torch.autograd.Function):
            @staticmethod
            def forward(x, y=3):
                return x ** y

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, y = inputs
                ctx.save_for_backward(x)
                ctx.y = y

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * ctx.y * x ** (ctx.y - 1), None

        x = torch.tensor(2.0, requires_grad=True)
        return torch.autograd.grad(Pow.apply(x), x)
    same(prog)


def test_function_ctx_cycle_freed():
    def prog(torch):
        import gc
        import weakref

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, meta):
                ctx.meta = meta
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g, None

        meta = {}
        out = F.apply(torch.tensor(1.0, requires_grad=True), meta)
        meta["out"] = out
        ref = weakref.ref(out)
        del out, meta
        gc.collect()
        return ref() is None
    same(prog)


def test_mark_dirty_non_input():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                out = inp.clone().view_as(inp)
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx, g):
                return g

        F.apply(torch.tensor([1.0], requires_grad=True).clone())
    same(prog, must_raise=True)


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
