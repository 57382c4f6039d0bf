"""Where the engine's mechanisms meet: tensor hooks seen by autograd.grad and by
backward(inputs=), captured inputs on the path to other inputs, custom Functions under
double backward, gradient stealing, on ordinary, 0-d and empty tensors. Each program
runs under torch and autograd_core (tests/_diff.py compares the results)."""
import pytest

from _diff import data, same

SHAPES = [(3,), (), (0,), (2, 0)]


def _leaf(torch, shape, seed=0):
    return data(torch, *shape, seed=seed, requires_grad=True)


# ------------------------------------------------------------- hooks and autograd.grad

@pytest.mark.parametrize("shape", SHAPES)
def test_leaf_hook_applies_to_autograd_grad(shape):
    def prog(torch):
        x = _leaf(torch, shape)
        log = []
        x.register_hook(lambda g: log.append(tuple(g.shape)) or g * 2)
        (g,) = torch.autograd.grad((x * 3).sum(), x)
        return g, log, x.grad
    same(prog)


@pytest.mark.parametrize("shape", SHAPES)
def test_leaf_hook_order_with_accumulate_grad_hooks(shape):
    def prog(torch):
        x = _leaf(torch, shape)
        log = []
        acc = (x * 1).grad_fn.next_functions[0][0]
        acc.register_prehook(lambda gs: log.append("node pre") or (gs[0] * 5,))
        x.register_hook(lambda g: log.append("tensor") or g + 1)
        acc.register_hook(lambda gi, go: log.append("node post"))
        x.register_post_accumulate_grad_hook(lambda t: log.append("post acc"))
        (x * 2).sum().backward()
        r = [log[:], x.grad]
        log.clear()
        r.append(torch.autograd.grad((x * 2).sum(), x))
        return r + [log]
    same(prog)


def test_captured_input_runs_when_it_leads_to_another_input():
    # the input `a` is on the path to `x`: its node runs, its captured gradient is the
    # one before its hooks, x's gradient sees the hooks
    def prog(torch):
        x = _leaf(torch, (2,))
        a = x * 1
        a.register_hook(lambda g: g * 10)
        b = a * 3
        r = [torch.autograd.grad((b * 2).sum(), (a, x), retain_graph=True)]
        r.append(torch.autograd.grad((a + b).sum(), (b, a)))
        return r
    same(prog)


@pytest.mark.parametrize("shape", SHAPES)
def test_non_leaf_hooks_over_repeated_passes(shape):
    def prog(torch):
        x = _leaf(torch, shape)
        y = x * 2
        log = []
        y.register_hook(lambda g: log.append("y") or g * 3)
        z = (y * y).sum()
        r = [torch.autograd.grad(z, x, retain_graph=True)]
        r.append(torch.autograd.grad(z, y, retain_graph=True))
        z.backward(retain_graph=True)
        r.append(x.grad.clone())
        z.backward(inputs=[y], retain_graph=True)
        r += [y.grad, y.retains_grad, log]
        return r
    same(prog, quiet=True)


def test_single_root_tensor_hooks_run_without_reachable_inputs():
    def prog(torch):
        x = _leaf(torch, (2,))
        other = _leaf(torch, (1,), seed=1)
        y = x * 2
        log = []
        y.retain_grad()
        y.register_hook(lambda g: log.append("y"))
        y.grad_fn.register_prehook(lambda g: log.append("pre"))
        r = [torch.autograd.grad(y, other, torch.ones(2, dtype=torch.float64),
                                 allow_unused=True), y.grad, log[:]]
        log.clear()
        y2 = x * 3
        y2.retain_grad()
        r.append(torch.autograd.grad([y, y2], other, [torch.ones(2, dtype=torch.float64)] * 2,
                                     allow_unused=True, materialize_grads=True))
        return r + [y2.grad, log]
    same(prog, quiet=True)


def test_backward_inputs_runs_the_inputs_nodes():
    def prog(torch):
        x = _leaf(torch, (3,))
        a = torch.erf(x)
        b = a * a
        b.sum().backward(inputs=[x, a], retain_graph=True)
        r = [x.grad, a.grad, a.retains_grad]
        c = _leaf(torch, (3,), seed=2)
        (b * c).sum().backward(inputs=[c])
        return r + [c.grad, x.grad]
    same(prog, quiet=True)


def test_gradient_stealing_data_ptr():
    # PyTorch's AccumulateGrad takes an unshared gradient as .grad and clones a shared one
    def prog(torch):
        ptrs = {}

        class Twice(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a + b

            @staticmethod
            def backward(ctx, g):
                out = g * 2
                ptrs["out"] = out.data_ptr()
                return out, out

        a, b = _leaf(torch, (4,)), _leaf(torch, (4,), seed=1)
        Twice.apply(a, b).sum().backward()
        kept = []
        a.grad = None
        h = a.register_hook(lambda g: kept.append(g * 1) or kept[-1])
        (a * 1).sum().backward()
        h.remove()
        return (a.grad.data_ptr() == kept[0].data_ptr(), b.grad.data_ptr() == ptrs["out"])
    same(prog)


# ---------------------------------------------------- custom Functions, double backward

@pytest.mark.parametrize("shape", SHAPES)
def test_saved_non_differentiable_output_in_double_backward(shape):
    # the saved output z is marked non-differentiable: inside create_graph it stays a
    # constant, so no gradient flows back into the Function through it
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x * x
                z = x * 3
                ctx.mark_non_differentiable(z)
                ctx.save_for_backward(x, z)
                return y, z

            @staticmethod
            def backward(ctx, gy, gz):
                x, z = ctx.saved_tensors
                return gy * z * x + gz

        x = _leaf(torch, shape)
        y, z = F.apply(x)
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        r = [g, z.requires_grad, z.grad_fn is None]
        r.append(torch.autograd.grad(g.sum(), x, allow_unused=True))
        return r
    same(prog)


def test_function_returning_intermediates_gradgradcheck():
    # PyTorch's "double backward with custom functions" pattern: intermediates returned
    # as extra outputs so that the backward graph reaches them
    def prog(torch):
        class Sinh(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                expx = torch.exp(x)
                expnegx = torch.exp(-x)
                ctx.save_for_backward(expx, expnegx)
                return (expx - expnegx) / 2, expx, expnegx

            @staticmethod
            def backward(ctx, grad_out, grad_exp, grad_negexp):
                expx, expnegx = ctx.saved_tensors
                grad_input = grad_out * (expx + expnegx) / 2
                grad_input += grad_exp * expx
                grad_input -= grad_negexp * expnegx
                return grad_input

        def sinh(x):
            return Sinh.apply(x)[0]

        x = data(torch, 3, 3, requires_grad=True)
        (g,) = torch.autograd.grad(sinh(x).sum(), x, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), x)
        return (torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x),
                g, gg)
    same(prog)


@pytest.mark.parametrize("shape", SHAPES)
def test_function_returning_input_as_is(shape):
    def prog(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * 2

        x = _leaf(torch, shape)
        y = Id.apply(x)
        r = [y is x, y._base is x, type(y.grad_fn).__name__,
             y.grad_fn.saved_tensors[0] is x]
        y.sum().backward(retain_graph=True)
        with torch.no_grad():
            z = Id.apply(x)
        return r + [x.grad, z is x, z.requires_grad]
    same(prog)


def test_once_differentiable_under_create_graph():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, g):
                return g * 2

        x = _leaf(torch, (2,))
        go = torch.ones((), dtype=torch.float64, requires_grad=True)
        (g,) = torch.autograd.grad(F.apply(x).sum(), x, go, create_graph=True)
        r = [g, g.grad_fn.name()]
        try:
            g.sum().backward()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_mark_dirty_bumps_the_version_and_must_return():
    def prog(torch):
        class AddOne(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.add_(1)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, g):
                return g * 3

        class Forgets(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.add_(1)
                ctx.mark_dirty(a)
                return a * 1

            @staticmethod
            def backward(ctx, g):
                return g

        leaf = _leaf(torch, (3,))
        a = leaf.clone()
        v0 = a._version
        out = AddOne.apply(a)
        r = [out is a, a._version - v0, type(a.grad_fn).__name__]
        out.sum().backward()
        r.append(leaf.grad)
        base = leaf.clone()
        AddOne.apply(base[1:])
        base.sum().backward()
        r.append(leaf.grad)
        try:
            Forgets.apply(leaf.clone())
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_grad_fn_called_directly():
    def prog(torch):
        x = _leaf(torch, (2,))
        y = x * x
        r = [y.grad_fn(torch.ones(2, dtype=torch.float64)), y.grad_fn(None)]
        for args in ((), (None, None)):
            try:
                y.grad_fn(*args)
            except TypeError as e:
                r.append(str(e))
        return r
    same(prog)


# --------------------------------------------- hooks and retain_grad
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


def test_leaf_hook_seen_by_autograd_grad():
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        x.register_hook(lambda g: g * 2)
        return torch.autograd.grad((x * 1).sum(), x)
    same(prog)


def test_retain_grad_then_inplace():
    def prog(torch):
        a = torch.tensor([1.0], requires_grad=True).clone()
        a.retain_grad()
        a.mul_(2)
        a.sum().backward()
        return a.grad
    same(prog)


def test_hook_on_view_before_inplace_write_through_it():
    """A tensor hook registered on a view before an in-place write through the view does
    not run: the write's gradient reaches the base past the view's old node (fuzzer seed
    601347)."""
    def prog(torch):
        Square = _square_function(torch)
        x = _t(torch, -0.5)
        y = Square.apply(x)
        v = y.view_as(y)
        calls = []
        v.register_hook(lambda g: calls.append(g.item()) or g * 2)
        v -= x
        v.sum().backward()
        return x.grad, calls
    same(prog)


def test_saved_index_tensor_hooks_and_sizes():
    """Note [Saved index keys]: an index node's saved indices are SavedTensors, whose
    hooks run in backward; its _saved_self_sym_sizes outlives backward."""
    def prog(torch):
        a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        out = a[:, torch.tensor([2, 0])]
        seen = []
        raw = out.grad_fn._raw_saved_indices
        raw[1].register_hooks(lambda t: seen.append(("pack", t.tolist())) or t,
                              lambda t: seen.append("unpack") or t)
        r = [out.grad_fn._saved_indices, [type(s).__name__ for s in raw]]
        (out * torch.tensor([1.0, 5.0])).sum().backward()
        r += [a.grad, seen, out.grad_fn._saved_self_sym_sizes]
        try:
            out.grad_fn._saved_indices
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_hooks_of_a_leaf_made_non_leaf_run_at_its_old_accumulate_grad():
    """t0 (a leaf, used by t1) is detach_()ed, then t0 *= t3 gives it a history; a hook
    registered on it then runs at its grad_fn and again at the AccumulateGrad that t1's
    graph leads to (PyTorch's reads its variable's hooks when it runs), before that node
    raises; hooks registered before the in-place op are forgotten (fuzzer seed 416870)."""
    def prog(torch, early, remove):
        log = []
        t0 = torch.tensor([[-0.25, -1.0, -1.25, 1.0]], dtype=torch.float64, requires_grad=True)
        if early:
            t0.register_hook(lambda g: log.append(('early', g.shape, g.tolist())))
        t1 = t0[:, [2, 3]]
        t0.detach_()
        t2 = t1.transpose(-1, 1)
        t3 = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
        t0 *= t3
        t4 = torch.log(t2.abs() + 0.5)
        h = t0.register_hook(lambda g: log.append(('t0', g.shape, g.tolist())))
        if remove:
            h.remove()
        try:
            (t0.sum() + (t2 * t2).sum() + t4.sum()).backward()
        except RuntimeError as e:
            log.append(str(e))
        return log, t3.grad, t0._backward_hooks is None, len(t0._backward_hooks or ())
    for early in (False, True):
        for remove in (False, True):
            same(prog, early, remove)


def test_post_accumulate_hook_runs_without_a_gradient_and_after_detach_():
    """A leaf's post-accumulate-grad hooks run whenever its AccumulateGrad does: after the
    leaf was detach_()ed (no .grad then; fuzzer seed 601304) and when a Function gives it
    no gradient, as PyTorch's."""
    def prog(torch):
        log = []
        t1 = torch.tensor([[1.7, 0.5], [1.5, -0.6]], dtype=torch.float64, requires_grad=True)
        t1.register_post_accumulate_grad_hook(
            lambda p: log.append(('t1 acc', p.grad, p.requires_grad)))
        t2 = torch.clamp(t1, -0.6, 0.7)
        t1.detach_()
        t7 = torch.zeros(0, 2, 1, dtype=torch.float64, requires_grad=True)
        (t2.sum() + (t7 * t7).sum()).backward()

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * 2 + b

            @staticmethod
            def backward(ctx, g):
                return g, None
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        b.register_post_accumulate_grad_hook(lambda p: log.append(('b acc', p.grad)))
        b.register_hook(lambda g: log.append(('b', g)))
        F.apply(a, b).sum().backward()
        return log, t1.grad, t7.grad, a.grad, b.grad
    same(prog)


# ------------------------------------- gradients a pass does not need (Note [Needed nodes])

@pytest.mark.parametrize("shape", SHAPES)
def test_node_hooks_see_none_for_inputs_the_pass_does_not_need(shape):
    # PyTorch's generated nodes compute no gradient for an edge that leads to no needed
    # node (task_should_compute_output): their post hooks see None there
    def prog(torch):
        x, w = _leaf(torch, shape), _leaf(torch, shape, seed=1)
        log = []
        m = x * w
        m.grad_fn.register_hook(lambda gi, go: log.append(("mul", [g is None for g in gi])))
        torch.autograd.grad(m.exp().sum(), [x], retain_graph=True)
        y = x * 2
        z = y.exp()
        y.grad_fn.register_hook(lambda gi, go: log.append(("y", [g is None for g in gi])))
        z.sum().backward(inputs=[y])
        a = x * 2
        b = a * w
        b.grad_fn.register_hook(lambda gi, go: log.append(("b", [g is None for g in gi])))
        (ga,) = torch.autograd.grad(b.sum(), [x])
        return log, ga, y.grad, x.grad, w.grad
    same(prog)


@pytest.mark.parametrize("shape", SHAPES)
def test_custom_function_hooks_see_every_gradient_it_returns(shape):
    # a custom Function's backward returns all its gradients (PyTorch's PyNode)
    def prog(torch):
        class Mul(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, g):
                return g * 2, g * 3

        x, w = _leaf(torch, shape), _leaf(torch, shape, seed=1)
        log = []
        y = Mul.apply(x, w)
        y.grad_fn.register_hook(lambda gi, go: log.append([g is None for g in gi]))
        (gx,) = torch.autograd.grad(y.exp().sum(), [x])
        return log, gx
    same(prog)


def test_backward_inputs_runs_and_frees_a_non_leaf_inputs_node():
    # backward(inputs=[t]) runs t's grad_fn (retain_grad fills t.grad there): its saved
    # tensors are freed, so a later pass through it raises; threshold_backward (the
    # tangent's node under jvp of relu) saves self though only grad_output's formula
    # reads it (Note [What a node saves])
    def prog(torch):
        t0 = torch.tensor([1.7, -0.6, 0.25], dtype=torch.float64, requires_grad=True)
        t1, g2 = torch.func.jvp(lambda u: torch.relu(u), (t0,), (torch.ones_like(t0),))
        saved = g2.grad_fn._saved_self
        log = []
        g2.grad_fn.register_hook(lambda gi, go: log.append([g is None for g in gi]))
        g2.sum().backward(inputs=[g2, t1])
        r = [saved, log, g2.grad, g2.retains_grad, t1.grad]
        try:
            torch.autograd.grad(g2, [t0, t1], torch.ones_like(g2), allow_unused=True)
        except RuntimeError as e:
            r.append(str(e)[:60])
        return r
    same(prog)
