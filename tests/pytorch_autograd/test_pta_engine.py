"""The engine, backward() and autograd.grad: PyTorch's test/test_autograd.py tests of
them, each rewritten here as a differential program (run under torch and autograd_core,
results compared by tests/_diff.py).  Each test is named after the PyTorch test it
follows."""
import gc
import warnings

from _diff import data, same


def test_accumulate_grad():
    def prog(torch):
        grad_output = torch.ones(5, 5, dtype=torch.float64)
        r = []
        for create_graph in (False, True):
            x = data(torch, 5, 5, requires_grad=True)
            y = x + 2
            y.backward(grad_output, retain_graph=True)
            x_grad = x.grad
            x_grad_clone = x.grad.clone()
            y.backward(grad_output, create_graph=create_graph)
            # in place when create_graph is False, out of place when it is True
            r += [x_grad, x_grad_clone, x.grad, x.grad is x_grad]
        return r
    same(prog, quiet=True)


def test_accumulate_grad_tensor_reference():
    # the dense-gradient cases (the sparse ones are not followed: no sparse tensors)
    def prog(torch):
        r = []
        for create_graph in (False, True):
            params = torch.tensor([1.5, 1.5]).requires_grad_()
            params.grad = torch.tensor([1.5, 1.5])
            grad_saved = params.grad
            params.backward(torch.tensor([1.5, 1.5]), create_graph=create_graph)
            r += [id(grad_saved) == id(params.grad), params.grad]
        return r
    same(prog, quiet=True)


def test_accumulate_grad_with_zero_numel_grad():
    def prog(torch):
        a = data(torch, 4, 0, requires_grad=True)
        b = data(torch, 4, 1, requires_grad=True)
        c = a + b
        c.sum().backward()
        return c.shape, b.grad, a.grad
    same(prog)


def test_hessian_vector():
    def prog(torch):
        x = data(torch, 2, 2, seed=1, requires_grad=True)
        y = data(torch, 2, 2, seed=2, requires_grad=True)
        z = x ** 2 + y * x + y ** 2
        z.backward(torch.ones(2, 2, dtype=torch.float64), create_graph=True)
        r = [x.grad.detach().clone(), y.grad.detach().clone()]
        grad_sum = 2 * x.grad + y.grad
        grad_sum.backward(torch.ones(2, 2, dtype=torch.float64))
        r += [x.grad, y.grad]
        x.grad = None
        y.grad = None
        return r
    same(prog, quiet=True)


def test_grad():
    def prog(torch):
        x = data(torch, 2, 2, seed=1, requires_grad=True)
        y = data(torch, 2, 2, seed=2, requires_grad=True)
        z = x ** 2 + y * x + y ** 2
        z.backward(torch.ones(2, 2, dtype=torch.float64), create_graph=True)
        r = [x.grad, y.grad]
        grad_sum = 2 * x.grad + y.grad
        x_hv = torch.autograd.grad(outputs=[grad_sum],
                                   grad_outputs=[torch.ones(2, 2, dtype=torch.float64)],
                                   inputs=[x], create_graph=True)
        r += [x_hv, x.grad, y.grad]
        try:
            torch.autograd.grad(outputs=[grad_sum], grad_outputs=[torch.ones(2)],
                                inputs=[x], create_graph=True)
        except RuntimeError as e:
            r.append(str(e))
        x.grad = None
        y.grad = None
        return r
    same(prog, quiet=True)


def test_grad_nonleaf():
    def prog(torch):
        x_init = data(torch, 2, 2, seed=1, requires_grad=True)
        x = x_init
        y = data(torch, 2, 2, seed=2, requires_grad=True)
        grad_output = torch.ones(2, 2, dtype=torch.float64)

        def fn(x):
            return x ** 2 + y * x + y ** 2

        r = []
        for _ in range(5):
            (grad_x,) = torch.autograd.grad(fn(x), x, grad_outputs=grad_output,
                                            create_graph=True)
            r += [grad_x, y.grad, x.grad]
            x = x + 0.05 * grad_x
        r += [fn(x_init).sum(), fn(x).sum()]
        x.backward(grad_output)
        return r + [y.grad, x_init.grad]
    same(prog, quiet=True)


def test_grad_nonleaf_many_outputs():
    def prog(torch):
        x = data(torch, 4, 2, requires_grad=True)
        a, b = x.chunk(2)
        hook_called = [False]

        def hook(*grads):
            hook_called[0] = True

        x.register_hook(hook)
        go = data(torch, 2, 2, seed=3)
        grad_a, grad_b = torch.autograd.grad((a + 2 * b), [a, b], grad_outputs=go,
                                             create_graph=True)
        return grad_a, grad_b, hook_called[0], x.grad
    same(prog)


def test_grad_materialize_grads():
    def prog(torch):
        x = torch.tensor(0.5, requires_grad=True)
        a = torch.tensor(1.0, requires_grad=True)
        y = x * a
        dydx = torch.autograd.grad(y, x, create_graph=True)
        d2ydx2_none = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True)
        d2ydx2 = torch.autograd.grad(dydx, x, create_graph=True, allow_unused=True,
                                     materialize_grads=True)
        d3ydx3 = torch.autograd.grad(d2ydx2, x, materialize_grads=True)
        r = [d2ydx2_none, d2ydx2[0].item(), d3ydx3[0].item()]
        try:
            torch.autograd.grad(y, x, allow_unused=False, materialize_grads=True)
        except ValueError as e:
            r.append(("ValueError", str(e)))
        return r
    same(prog)


def test_sharded_grad():
    def prog(torch):
        leaves = [torch.zeros(5, 5, dtype=torch.float64, requires_grad=True)
                  for _ in range(10)]
        intermediates = [l * i + l * l for i, l in enumerate(leaves)]
        loss = sum(v * i for i, v in enumerate(intermediates)).sum()

        def group(l, group_size):
            return (l[i:i + group_size] for i in range(0, len(l), group_size))

        d_intermediates = [d_i for batch in group(intermediates, 2)
                           for d_i in torch.autograd.grad(loss, batch)]
        torch.autograd.backward(intermediates, d_intermediates)
        return [l.grad for l in leaves]
    same(prog)


def test_backward_badcalls():
    def prog(torch):
        torch.ones(1).backward()
    same(prog, must_raise=True)


def test_grad_badcalls():
    def prog(torch):
        r = []
        x = torch.ones(1)
        y = x ** 2
        for a, b in ((x, y), (y, x)):
            try:
                torch.autograd.grad(a, b)
            except RuntimeError as e:
                r.append(str(e))
        x = torch.ones(1, requires_grad=True)
        y = x ** 2
        r.append(torch.autograd.grad(y, x))
        return r
    same(prog)


def test_grad_empty_inputs():
    # (PyTorch's test expects a ValueError; torch 2.13, the oracle, raises RuntimeError)
    def prog(torch):
        x = torch.tensor([1.0], requires_grad=True)
        torch.autograd.grad(2 * x, [], grad_outputs=torch.tensor([1.0]))
    same(prog, must_raise=True)


def test_grad_fn_badcalls():
    def prog(torch):
        x = torch.ones(1, requires_grad=True)
        y = x ** 2
        r = []
        for args in ((x.detach(), x.detach()), ()):
            try:
                y.grad_fn(*args)
            except TypeError as e:
                r.append(("TypeError", str(e)))
        r.append(y.grad_fn(x.detach()))
        return r
    same(prog)


def test_grad_unreachable():
    def prog(torch):
        x = torch.ones(1, requires_grad=True)
        y = torch.ones(1, requires_grad=True)
        z = x * 2  # noqa: F841  (x and y get grad accumulators)
        w = y * 2  # noqa: F841
        r = [torch.autograd.grad(x * 2, [x, y], allow_unused=True)]
        z = torch.ones(1, requires_grad=True)
        r.append(torch.autograd.grad(x * 2, [x, z], allow_unused=True))
        try:
            torch.autograd.grad(x * 2, [x, y], allow_unused=False)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_grad_unreachable_discovery():
    def prog(torch):
        ran = []

        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, x):
                ran.append("executed")
                return x

        r = []
        x = MyFunc.apply(data(torch, 1, requires_grad=True) * 2)
        y = data(torch, 1, seed=1, requires_grad=True)
        r.append(torch.autograd.grad(x, (y,), allow_unused=True))
        x = MyFunc.apply(data(torch, 1, requires_grad=True) * 2)
        y = data(torch, 1, seed=1, requires_grad=True)
        z = data(torch, 1, seed=2, requires_grad=True)
        r.append(torch.autograd.grad(x + z, (y, z), allow_unused=True))
        x = MyFunc.apply(data(torch, 1, requires_grad=True) * 2)
        y = data(torch, 1, seed=1, requires_grad=True)
        torch.autograd.backward(x, inputs=(y,))
        r.append(y.grad)
        return r, ran
    same(prog)


def test_backward():
    def prog(torch):
        v = data(torch, 5, 5, seed=1, requires_grad=True)
        x = data(torch, 5, 5, seed=2, requires_grad=True)
        y = data(torch, 5, 5, seed=3, lo=0.1, hi=1.1, requires_grad=True)
        z = data(torch, 5, 5, seed=4, requires_grad=True)
        grad_output = data(torch, 5, 5, seed=5)
        v.backward(grad_output)
        a = x + (y * z) + 4 * z ** 2 * x / y
        a.backward(grad_output)
        return v.grad, x.grad, y.grad, z.grad
    same(prog)


def test_multi_backward():
    def prog(torch):
        x, y, q, a, b = (data(torch, 5, 5, seed=i, requires_grad=True) for i in range(5))
        q2 = q * 2
        z = x + y + q2
        c = a * b + q2
        grad_z = data(torch, 5, 5, seed=6)
        grad_c = data(torch, 5, 5, seed=7)
        torch.autograd.backward([z, c], [grad_z, grad_c])
        return x.grad, y.grad, a.grad, b.grad, q.grad
    same(prog)


def test_multi_backward_no_grad():
    def prog(torch):
        x = data(torch, 5, 5, requires_grad=True)
        y = data(torch, 5, 5, seed=1)
        z = x + y
        q = y * 2
        torch.autograd.backward([z, q], [torch.ones(5, 5, dtype=torch.float64),
                                         torch.ones(5, 5, dtype=torch.float64)])
    same(prog, must_raise=True)


def test_backward_with_inputs():
    def prog(torch):
        x = data(torch, 2, 2, seed=1, requires_grad=True)
        y = data(torch, 2, 2, seed=2, requires_grad=True)

        def fn():
            return x ** 2 + y * x + y ** 2

        gradient = torch.ones(2, 2, dtype=torch.float64)

        @torch.no_grad()
        def reset_grad():
            x.grad.zero_()
            y.grad.zero_()

        r = []
        torch.autograd.backward(fn(), gradient, inputs=[x, y])
        r += [x.grad.clone(), y.grad.clone()]
        for inputs in ([x], [y], y):
            reset_grad()
            torch.autograd.backward(fn(), gradient, inputs=inputs)
            r += [x.grad.clone(), y.grad.clone()]
        reset_grad()
        try:
            torch.autograd.backward(fn(), gradient, inputs=[])
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_backward_with_scalar_input():
    def prog(torch):
        x = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
        out = x ** 2
        out.backward(inputs=x)
        return x.grad
    same(prog)


def test_backward_with_nonleaf_inputs():
    def prog(torch):
        x = data(torch, 2, 2, seed=1, requires_grad=True)
        x_nonleaf = x * 1
        y = data(torch, 2, 2, seed=2, requires_grad=True)
        z = data(torch, 2, 2, seed=3, requires_grad=True)
        out = x_nonleaf ** 2 + y * x_nonleaf + y ** 2
        out.backward(torch.ones(2, 2, dtype=torch.float64), create_graph=True,
                     inputs=[x, y, x_nonleaf])
        r = [y.grad, x.grad, x_nonleaf.grad]
        out.backward(torch.ones(2, 2, dtype=torch.float64), create_graph=True, inputs=[z])
        r.append(z.grad)
        x.grad = None
        y.grad = None
        x_nonleaf.grad = None
        return r
    same(prog, quiet=True)


def test_dependent_backward():
    def prog(torch):
        x = data(torch, 10, requires_grad=True)
        y = x ** 2
        z = y ** 3
        go_y = data(torch, 10, seed=1)
        go_z = data(torch, 10, seed=2)
        torch.autograd.backward([y, z], [go_y, go_z])
        return x.grad
    same(prog)


def _deep_chain(torch, depth):
    x = torch.ones(1, dtype=torch.float64, requires_grad=True)
    y = x.clone()
    for _ in range(depth):
        y = y + y * 0.000001
    return x, y


def test_free_deep_graph():
    def prog(torch):
        def scope():
            x, y = _deep_chain(torch, 150000)
            return y.detach()
        return scope()
    same(prog)


def test_free_deep_graph_complicated():
    def prog(torch):
        def scope():
            depth = 100000
            x = torch.ones(1, dtype=torch.float64, requires_grad=True)
            y = x.clone()
            prev_values = [None, None]
            for i in range(depth):
                prev_tensors = [t for t in prev_values[:-1] if t is not None]
                prev_values.append(y)
                prev_values.pop(0)
                y += y * 0.000001
                if len(prev_tensors) == 2:
                    y += float(i % 2) * torch.cat(prev_tensors).sum()
            return y.detach()
        scope()
        return "no overflow"
    same(prog)


def test_free_deep_graph_pyfunction():
    def prog(torch):
        class MyOp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, tensor1, tensor2):
                return tensor1 + tensor2

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, grad_output

        def scope():
            x = torch.ones(1, dtype=torch.float64, requires_grad=True)
            y = x.clone()
            for _ in range(20000):  # PyTorch: 150000 (time: 20 s for the two libraries here)
                y = MyOp.apply(y, y * 0)
            return y.detach()
        return scope()
    same(prog)


def test_no_unnecessary_save():
    def prog(torch):
        mu = torch.ones(1, requires_grad=True)
        x = torch.empty(1)
        loss = 0
        for i in range(3):
            x.detach_()
            x.copy_(mu + i)
            ft = torch.tensor([float(i)])
            multiplied = x * ft
            s = multiplied.sum()
            loss += s
        loss.backward()
        return mu.grad, loss
    same(prog)


def test_duplicate_backward_root():
    def prog(torch):
        a = data(torch, 5, 5, seed=1, requires_grad=True)
        b = data(torch, 5, 5, seed=2, requires_grad=True)
        x = a * b
        grad_output = data(torch, 5, 5, seed=3)
        torch.autograd.backward([x, x], [grad_output, grad_output])
        return a.grad, b.grad
    same(prog)


def test_backward_no_grad():
    def prog(torch):
        a = data(torch, 5, 5, requires_grad=True)
        b = a + 2
        torch.autograd.backward([b], [None])
    same(prog, must_raise=True)


def _index_put_program(torch):
    b = data(torch, 3, requires_grad=True)
    c = torch.zeros(3, dtype=torch.float64)
    c[[1, 2]] = b[[1, 1]]
    return b, c


def test_backward_twice_with_saved_values():
    def prog(torch):
        b, c = _index_put_program(torch)
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
    same(prog, must_raise=True)


def test_backward_twice_retained_graph_with_saved_values():
    def prog(torch):
        b, c = _index_put_program(torch)
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double), retain_graph=True)
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
        return b.grad
    same(prog)


def test_backward_twice_without_saved_values():
    def prog(torch):
        b = data(torch, 3, requires_grad=True)
        c = b + 1
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
        return b.grad
    same(prog)


def test_backward_twice_retained_graph_without_saved_values():
    def prog(torch):
        b, c = _index_put_program(torch)
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double), retain_graph=True)
        c.backward(torch.tensor([1, 1, 1], dtype=torch.double))
        return b.grad, c
    same(prog)


def test_backward_create_graph_warns():
    def prog(torch):
        b = data(torch, 3, requires_grad=True)
        c = b * b
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            c.backward(torch.ones_like(c), create_graph=True)
        b.grad = None
        r = [any("Using backward() with create_graph=True" in str(w.message) for w in ws)]
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            torch.autograd.grad(c, b, torch.ones_like(c), create_graph=True)
        r.append(any("Using backward() with create_graph=True" in str(w.message)
                     for w in ws))
        return r
    same(prog)


def test_next_functions():
    def prog(torch):
        x = data(torch, 5, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        a = x + y
        nf = a.grad_fn.next_functions
        r = [len(nf), type(nf[0][0]).__name__, nf[0][1], type(nf[1][0]).__name__, nf[1][1]]
        b = a + 5
        nf = b.grad_fn.next_functions
        r += [len(nf), nf[0][0] is a.grad_fn, nf[1][0] is None]
        return r
    same(prog)


def test_isolated_node():
    def prog(torch):
        x = data(torch, 5, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        a = x + y
        b = torch.max(a, 1, True)[1].repeat(1, 5).double()
        o = (b + a).sum()
        o.backward()
        return x.grad, y.grad, b
    same(prog)


def test_backward_copy():
    def prog(torch):
        x = torch.ones(5, 5, requires_grad=True)
        y = torch.ones(5, 5, requires_grad=True)
        a = x + 2
        b = y + 2
        c = x + 2
        add1 = a + b
        add2 = add1 + c
        for _ in range(4):
            a = a * 2
            b = b * 2
            c = c * 2
        branch = a + b + c
        out = add2 + branch
        out.backward(torch.ones(5, 5))
        return x.grad, y.grad
    same(prog)


def test_variable_traverse():
    def prog(torch):
        def get_out_and_unrefed_cycle():
            inp = data(torch, 10, requires_grad=True)
            tmp = inp.view(10, 1)
            out = tmp.view(10)
            my_list = []
            my_list.append(tmp)
            my_list.append(my_list)
            return out
        out = get_out_and_unrefed_cycle()
        gc.collect()
        out.backward(data(torch, *out.size(), seed=4))
        return out
    same(prog)


def test_pow_zero_tensor_gradient():
    def prog(torch):
        r = []
        for input_size, exponent in (((10,), torch.zeros(10)), ((10, 10), torch.zeros(10, 10)),
                                     ((10,), 0)):
            input = torch.zeros(*input_size, requires_grad=True)
            input.pow(exponent).sum().backward()
            r.append(input.grad.abs().sum())
        return r
    same(prog)


def test_var_mean_differentiable():
    def prog(torch):
        dim = [2, 4]
        input1 = data(torch, 3, 4, 5, 6, 2, 3, requires_grad=True)
        input2 = input1.detach().clone().requires_grad_()
        var1, mean1 = torch.var_mean(input1, dim=dim, keepdim=False)
        var2 = input2.var(dim=dim, keepdim=False)
        mean2 = input2.mean(dim=dim, keepdim=False)
        grad = data(torch, 3, 4, 6, 3, seed=2)
        r1 = var1 * var1 * mean1 * mean1
        r2 = var2 * var2 * mean2 * mean2
        torch.autograd.backward(r1, grad)
        torch.autograd.backward(r2, grad)
        return r1, r2, input1.grad, input2.grad
    same(prog)


# ----------------------------------------------------------------- GradientEdge



def test_grad_to_node():
    # PyTorch also checks a private Resize Function's node; here clone, a non-leaf and
    # a custom Function's node
    def prog(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g

        def check(out, inp):
            ref = torch.autograd.grad(out.sum(), inp, retain_graph=True)
            edge = torch.autograd.graph.get_gradient_edge(inp)
            new = torch.autograd.grad(out.sum(), edge)
            return ref, new

        x = data(torch, 2, requires_grad=True)
        r = [check(x.clone(), x)]
        x = x.clone()
        r.append(check(x.clone(), x))
        x = Id.apply(x)
        r.append(check(x.clone(), x))
        return r
    same(prog)


def test_grad_to_node_set():
    def prog(torch):
        x = data(torch, 2, requires_grad=True)
        x_edge = torch.autograd.graph.get_gradient_edge(x)
        out = x.clone()
        with torch.no_grad():
            x.set_(data(torch, 2, seed=3))
        r = []
        try:
            torch.autograd.grad(out.sum(), x, retain_graph=True)
        except RuntimeError as e:
            r.append(str(e))
        r.append(torch.autograd.grad(out.sum(), x_edge))
        return r
    same(prog)


def test_grad_to_node_inplace():
    def prog(torch):
        x = data(torch, 2, requires_grad=True).clone()
        x_edge = torch.autograd.graph.get_gradient_edge(x)
        x *= 2
        return torch.autograd.grad(x.sum(), (x_edge, x))
    same(prog)


def test_grad_to_node_multi():
    def prog(torch):
        GradientEdge = torch.autograd.graph.GradientEdge
        x = data(torch, 2, seed=1, requires_grad=True).clone()
        y = data(torch, 2, seed=2, requires_grad=True).clone()
        out = x + y
        ref = torch.autograd.grad(out.sum(), (x, y), retain_graph=True)
        edges = (GradientEdge(x.grad_fn, x.output_nr), GradientEdge(y.grad_fn, y.output_nr))
        return ref, torch.autograd.grad(out.sum(), edges)
    same(prog)


def test_grad_to_node_materialize():
    def prog(torch):
        GradientEdge = torch.autograd.graph.GradientEdge
        x = data(torch, 2, seed=1, requires_grad=True).clone()
        edge_x = GradientEdge(x.grad_fn, x.output_nr)
        y = data(torch, 2, seed=2, requires_grad=True).clone()
        edge_y = GradientEdge(y.grad_fn, y.output_nr)
        out = x.clone()
        r = [torch.autograd.grad(out.sum(), (edge_x, y), allow_unused=True,
                                 materialize_grads=True, retain_graph=True),
             torch.autograd.grad(out.sum(), (x, y), allow_unused=True,
                                 materialize_grads=True, retain_graph=True),
             torch.autograd.grad(out.sum(), (x, edge_y), allow_unused=True,
                                 retain_graph=True)]
        try:
            torch.autograd.grad(out.sum(), (x, edge_y), allow_unused=True,
                                materialize_grads=True)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_backward_to_node():
    def prog(torch):
        GradientEdge = torch.autograd.graph.GradientEdge
        x = data(torch, 2, seed=1, requires_grad=True).clone()
        edge_x = GradientEdge(x.grad_fn, x.output_nr)
        y = data(torch, 2, seed=2, requires_grad=True).clone()
        edge_y = GradientEdge(y.grad_fn, y.output_nr)
        out = x.clone()
        for inputs in ((edge_x, y), (x, y), (x, edge_y), (edge_x, edge_y)):
            torch.autograd.backward(out.sum(), inputs=inputs)
        return "ok"
    same(prog)


def test_gradient_edge_output():
    def prog(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)

        def fn(x, reduce=True):
            tmp = x.sin().cos()
            if reduce:
                tmp = tmp.sum()
            out = tmp.exp().clone().sin().sum()
            return out, torch.autograd.graph.get_gradient_edge(tmp)

        r = []
        out, tmp_edge = fn(x)
        (tmp_grad,) = torch.autograd.grad(out, (tmp_edge,))
        r.append(torch.autograd.grad(tmp_edge, (x,), grad_outputs=(tmp_grad,)))
        out, _ = fn(x)
        r.append(torch.autograd.grad(out, (x,)))
        out, tmp_edge = fn(x, reduce=False)
        try:
            torch.autograd.grad(tmp_edge, (x,))
        except RuntimeError as e:
            r.append(str(e))
        out, tmp_edge = fn(x, reduce=True)
        r.append(torch.autograd.grad(tmp_edge, (x,)))
        out, tmp_edge = fn(x)
        try:
            torch.autograd.grad(tmp_edge, (x,), grad_outputs=torch.tensor([1.0, 2.0, 3.0, 4.0]))
        except RuntimeError as e:
            r.append(str(e))
        out, tmp_edge = fn(x)
        torch.autograd.backward(tmp_edge, retain_graph=True)
        r.append(torch.autograd.grad(tmp_edge, (x,), retain_graph=True))
        r.append(x.grad)
        x.grad = None
        torch.autograd.backward((tmp_edge,), retain_graph=True)
        r.append(x.grad)
        return r
    same(prog)


def test_gradient_edge_graph_ownership():
    def prog(torch):
        class Clone(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, gX):
                return gX.clone()

        inp = data(torch, 1, requires_grad=True)
        leaf = inp
        inp = inp.clone()
        out = inp.clone()
        edge = torch.autograd.graph.get_gradient_edge(out)
        torch.autograd.backward(edge)
        del out
        torch.autograd.backward(edge)
        out = Clone.apply(inp)
        edge = torch.autograd.graph.get_gradient_edge(out)
        torch.autograd.backward(edge)
        del out
        torch.autograd.backward(edge)
        return leaf.grad
    same(prog)


def test_deep_reentrant():
    def prog(torch):
        class DeepReentrant(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with torch.enable_grad():
                    ctx.x = torch.autograd.Variable(x.detach(), requires_grad=True)
                    ctx.x = ctx.x - 1
                return ctx.x.detach()

            @staticmethod
            def backward(ctx, x):
                if ctx.x < 0:
                    return x
                with torch.enable_grad():
                    DeepReentrant.apply(ctx.x).sum().backward()
                return x

        v = torch.tensor(2000.0, requires_grad=True)
        DeepReentrant.apply(v).sum().backward()
        v2 = torch.tensor(200.0, requires_grad=True)
        DeepReentrant.apply(v2).sum().backward()
        return v.grad, v2.grad
    same(prog)


def test_reentrant_priority():
    def prog(torch):
        order = []

        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, x):
                order.append("MyFunction")
                return x

        class Reentrant(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with torch.enable_grad():
                    ctx.x = torch.autograd.Variable(x.detach(), requires_grad=True)
                    ctx.x = ctx.x - 1
                return ctx.x.detach()

            @staticmethod
            def backward(ctx, x):
                order.append("Reentrant")
                if ctx.x < 0:
                    return x
                with torch.enable_grad():
                    Reentrant.apply(ctx.x).backward()
                return x

        a = MyFunction.apply(torch.tensor(6.0, requires_grad=True))
        b = Reentrant.apply(torch.tensor(9.0, requires_grad=True))
        v = a * b
        v.backward()
        return order
    same(prog)


def test_callback_adds_callback():
    def prog(torch):
        called = []
        engine = torch.autograd.Variable._execution_engine

        def callback_final():
            called.append("final")

        def callback_adds_callback():
            called.append("adds")
            engine.queue_callback(callback_final)

        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                return input

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, grad):
                engine.queue_callback(callback_adds_callback)
                called.append("backward")
                return grad

        a = data(torch, 3, 3, requires_grad=True)
        MyFunc.apply(a).sum().backward()
        try:
            engine.queue_callback(callback_final)   # outside a backward pass
        except RuntimeError as e:
            called.append(str(e))
        return called, a.grad
    assert same(prog)[0][:3] == ["backward", "adds", "final"]


def _reentrant_with_callbacks(torch, install_callbacks_in_depths):
    counter = {"inner": 0, "outer": 0}
    engine = torch.autograd.Variable._execution_engine

    def inc_inner_counter():
        counter["inner"] += 1

    def inc_outer_counter():
        counter["outer"] += 1

    class MyFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            return input

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, input):
            if 1 in install_callbacks_in_depths:
                engine.queue_callback(inc_inner_counter)
            return input

    class MyReentrantFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            return input

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, input):
            if 0 in install_callbacks_in_depths:
                engine.queue_callback(inc_outer_counter)
            tmp_inp = input.detach().requires_grad_()
            with torch.enable_grad():
                tmp_out = (MyFunc.apply(tmp_inp)).sum()
            tmp_out.backward()
            return input

    t1 = data(torch, 3, 3, requires_grad=True)
    torch.autograd.backward([MyReentrantFunc.apply(t1).sum()])
    return counter, t1.grad


def test_reentrant_with_callbacks_depth_0():
    assert same(_reentrant_with_callbacks, [0])[0] == {"inner": 0, "outer": 1}


def test_reentrant_with_callbacks_depth_1():
    assert same(_reentrant_with_callbacks, [1])[0] == {"inner": 1, "outer": 0}


def test_reentrant_with_callbacks_both_depths():
    assert same(_reentrant_with_callbacks, [0, 1])[0] == {"inner": 1, "outer": 1}


def test_reentrant_with_leaf_variable_hook():
    def prog(torch):
        handle = None
        param = data(torch, 10, requires_grad=True)

        def add_gradient_penalty_to_grad(grad):
            handle.remove()
            old_param_grad = grad
            param.grad = None
            with torch.enable_grad():
                g = grad.detach().requires_grad_()
                new_param = param.detach().requires_grad_()
                out = ((g * 2) + new_param).sum()
                out.backward()
            res = g.grad + grad
            param.grad = old_param_grad
            return res

        handle = param.register_hook(add_gradient_penalty_to_grad)
        tmp = param * param
        tmp.sum().backward()
        return param.grad
    same(prog)


def test_reentrant_with_non_leaf_variable_hook():
    def prog(torch):
        handle = None
        param = data(torch, 10, requires_grad=True)

        def manual_increase_gradient(grad):
            handle.remove()
            with torch.enable_grad():
                g = grad.detach().requires_grad_()
                out = ((g * 2) + 5).sum()
                out.backward()
            return g.grad + grad

        tmp = param * param
        handle = tmp.register_hook(manual_increase_gradient)
        tmp.sum().backward()
        return param.grad
    same(prog)


def test_input_buffer_accum():
    # PyTorch's test makes one gradient sparse (gather with sparse_grad=True); here
    # dense: the given gradients must not be modified in place
    def prog(torch):
        leaf = data(torch, 2, 2, requires_grad=True)
        ind = torch.tensor([[0, 0]], dtype=torch.long)
        out2 = leaf.gather(0, ind)
        out1 = leaf.clone()
        grad_out1_original = data(torch, 2, 2, seed=2)
        grad_out1 = grad_out1_original.clone()
        grad_out2 = data(torch, 1, 2, seed=3)
        torch.autograd.backward((out1, out2), (grad_out1, grad_out2))
        return grad_out1, grad_out1_original, leaf.grad
    same(prog)


def test_integer_outputs():
    # integer (and bool-count) results never require grad; unique/unique_consecutive
    # (with and without dim) make only their values differentiable. PyTorch's test also
    # calls the private torch._unique, torch._VF.unique_dim and torch._unique2, the
    # kernels behind torch.unique, which autograd_core's public API has no need for
    def prog(torch):
        inp = data(torch, 4, requires_grad=True)
        r = []
        val = data(torch, seed=1, requires_grad=True)  # a 0-d value
        bins = torch.linspace(0, 1.0, steps=100, requires_grad=True)
        vals = data(torch, 5, 5, seed=2, lo=0.0, hi=1.0, requires_grad=True)
        for out in (inp.argmax(), inp.argmin(), torch.max(inp, 0).indices,
                    torch.min(inp, 0)[1], inp.argsort(),
                    torch.searchsorted(inp.detach().sort().values.requires_grad_(), val),
                    torch.bucketize(vals, bins),
                    torch.empty(5).requires_grad_().count_nonzero()):
            r.append((out.dtype, out.dtype.is_floating_point, out.requires_grad))

        def only_first_requires_grad(res):
            res = res if isinstance(res, tuple) else (res,)
            return [res[0].requires_grad] + [o is None or o.requires_grad for o in res[1:]]

        for sort in (True, False):
            for return_inverse in (True, False):
                for return_counts in (True, False):
                    kw = dict(return_inverse=return_inverse, return_counts=return_counts)
                    r.append([only_first_requires_grad(res) for res in (
                        torch.unique(inp, sorted=sort, **kw),
                        torch.unique(inp, sorted=sort, dim=0, **kw),
                        torch.unique_consecutive(inp, **kw),
                        torch.unique_consecutive(inp, dim=0, **kw))])
        return r
    same(prog)


def test_pynode_destruction_deadlock():
    import subprocess
    import sys

    from _subprocess import CWD, child_env
    script = """
import {mod} as torch

class Foo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def forward(ctx, gO):
        return gO.clone()

def get_out():
    inp = torch.ones(2, requires_grad=True)
    right = Foo.apply(inp)
    left1 = inp.clone()
    left2 = left1 ** 2
    left1 += 1
    out = left2 + right
    return out

get_out().sum().backward()
"""
    results = []
    for mod in ("torch", "autograd_core"):
        p = subprocess.run([sys.executable, "-c", script.format(mod=mod)], cwd=CWD,
                           env=child_env(), capture_output=True, text=True, timeout=60)
        results.append((p.returncode, "RuntimeError: one of the variables needed for "
                        "gradient computation" in p.stderr))
    assert results[1] == results[0], results


def test_grad_thread_safety():
    def prog(torch):
        import threading
        import weakref as wr
        from concurrent.futures import ThreadPoolExecutor

        r = []
        for _ in range(3):
            tensor = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
            (tensor ** 2).sum().backward()
            barrier = threading.Barrier(4)

            def access_grad(t, barrier):
                barrier.wait()
                return wr.ref(t.grad)

            with ThreadPoolExecutor(max_workers=4) as executor:
                futures = [executor.submit(access_grad, tensor, barrier) for _ in range(4)]
                r.append([f.result()() is tensor.grad for f in futures])
        return r
    same(prog)


def test_atan2_zero_gradient():
    def prog(torch):
        x = torch.tensor([0.0], requires_grad=True)
        y = torch.tensor([0.0], requires_grad=True)
        z = torch.atan2(x, y)
        z.backward()
        return x.grad, y.grad
    same(prog)


def test_trace_backward_nonsquare_171704():
    def prog(torch):
        r = []
        for i, shape in enumerate([(5, 2), (7, 3), (4, 1), (1, 5), (2, 5)]):
            x = data(torch, *shape, seed=i, requires_grad=True)
            torch.trace(x).backward()
            r.append(x.grad)
        return r
    same(prog)


def test_no_grad_copy():
    def prog(torch):
        ptrs = {}

        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp1, inp2):
                return inp1 + inp2

            @staticmethod
            def backward(ctx, grad):
                ptrs["grad"] = grad.data_ptr()
                return grad, grad

        class NonContGradFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp1):
                ctx.size = inp1.size()
                return torch.tensor([1.0])

            @staticmethod
            def backward(ctx, grad):
                return torch.ones(1).expand(ctx.size)

        a = data(torch, 5, 6, seed=1, dtype="float32", requires_grad=True)
        b = data(torch, 5, 6, seed=2, dtype="float32", requires_grad=True)
        NonContGradFunc.apply(MyFunc.apply(a, b)).backward()
        r = [a.grad.data_ptr() == ptrs["grad"], b.grad.data_ptr() == ptrs["grad"]]
        a.grad = b.grad = None
        MyFunc.apply(a, b)[1][0].backward()
        p_g, p_a, p_b = ptrs["grad"], a.grad.data_ptr(), b.grad.data_ptr()
        return r + [p_a == p_b, p_a == p_g or p_b == p_g]
    same(prog)


# ----------------------------------------------- PyTorch's TestMultithreadAutograd

def _run_threads(fn, args=(), num_threads=10):
    import threading
    errors = []

    def target():
        try:
            fn(*args)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=target) for _ in range(num_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


class TestMultithreadAutograd:
    def test_simple_backward(self):
        def prog(torch):
            grads = []

            def train_fn():
                x = torch.ones(5, 5, requires_grad=True)
                y = (x + 3) * (x + 4) * 0.5
                y.sum().backward()
                grads.append(x.grad)

            errors = _run_threads(train_fn)
            return [repr(e) for e in errors], grads
        same(prog)

    def test_simple_backward_same_input(self):
        def prog(torch):
            def train_fn_backward(x):
                y = (x + 3) * (x + 4) * 0.5
                y.sum().backward()

            x = torch.ones(5, 5, requires_grad=True)
            e1 = _run_threads(train_fn_backward, (x,))
            grads = []

            def train_fn_grad(x):
                y = (x + 3) * (x + 4) * 0.5
                grads.append(torch.autograd.grad(y.sum(), x))

            e2 = _run_threads(train_fn_grad, (x,))
            return [repr(e) for e in e1 + e2], x.grad, grads
        same(prog)

    def test_python_thread_in_middle(self):
        def prog(torch):
            import threading
            lock = threading.Lock()
            outcomes = []

            def train_fn_no_retain_graph(x):
                y = x + x ** 2
                try:
                    y.sum().backward()
                    with lock:
                        outcomes.append("ok")
                except RuntimeError as error:
                    with lock:
                        outcomes.append("Specify retain_graph=True" in str(error))

            x_no_retain = torch.ones(5, 5, requires_grad=True)
            y_no_retain = x_no_retain + x_no_retain ** 2
            _run_threads(train_fn_no_retain_graph, (y_no_retain,), num_threads=5)

            def train_fn_retain_graph(x):
                y = x + x ** 2
                y.sum().backward(retain_graph=True)

            x_retain = torch.ones(5, 5, requires_grad=True)
            y_retain = x_retain + x_retain ** 2
            errors = _run_threads(train_fn_retain_graph, (y_retain,), num_threads=5)
            # at least one thread succeeds; the others fail asking for retain_graph
            return ("ok" in outcomes, all(o in ("ok", True) for o in outcomes),
                    [repr(e) for e in errors], x_retain.grad)
        same(prog)

    def test_set_multithreading_enabled_as_context_manager_and_function(self):
        def prog(torch):
            ag = torch.autograd
            r = []
            with ag.set_multithreading_enabled(False):
                r.append(ag.is_multithreading_enabled())
            r.append(ag.is_multithreading_enabled())
            with ag.set_multithreading_enabled(True):
                r.append(ag.is_multithreading_enabled())
            r.append(ag.is_multithreading_enabled())
            with ag.set_multithreading_enabled(False):
                ag.set_multithreading_enabled(True)
                r.append(ag.is_multithreading_enabled())
            r.append(ag.is_multithreading_enabled())
            ag.set_multithreading_enabled(False)
            r.append(ag.is_multithreading_enabled())
            ag.set_multithreading_enabled(True)
            return r + [ag.is_multithreading_enabled()]
        same(prog)

    def test_multi_grad_all_hooks(self):
        # a multi-grad hook fires once per backward run, concurrent runs on threads
        # included; a run whose backward raises (one of five) does not fire it
        def prog(torch):
            import threading
            t1, t2, t3, t4 = (data(torch, 2, seed=i, requires_grad=True) for i in range(4))
            res = []
            lock = threading.Lock()

            def hook(grads):
                with lock:
                    res.append([g is not None for g in grads])

            handle = torch.autograd.graph.register_multi_grad_hook((t1, t2, t3, t4), hook)
            out = (t2 * t3).sum()

            def backward_retain_graph(out, t2, t3):
                out.backward(inputs=(t2, t3), retain_graph=True)

            errors = _run_threads(backward_retain_graph, (out, t2, t3), num_threads=5)
            r = [list(res), [repr(e) for e in errors]]
            res.clear()
            bw_count = [0]

            class Func(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x

                @staticmethod
                def backward(ctx, gO):
                    with lock:
                        bw_count[0] += 1
                        if bw_count[0] == 1:
                            raise RuntimeError("error message")
                    return gO

            out = (Func.apply(t2) * t3).sum()
            errors = _run_threads(backward_retain_graph, (out, t2, t3), num_threads=5)
            handle.remove()
            return r + [res, [str(e) for e in errors]]
        same(prog)

    def test_multi_grad_any_hooks(self):
        # an "any" hook fires once per run, before the nodes run: all five runs fire it,
        # also the one whose custom backward raises
        def prog(torch):
            import threading
            t1, t2, t3, t4 = (data(torch, 2, seed=i, requires_grad=True) for i in range(4))
            count = [0]
            lock = threading.Lock()

            def hook(grad):
                with lock:
                    count[0] += 1

            torch.autograd.graph.register_multi_grad_hook((t1, t2, t3, t4), hook, mode="any")
            out = (t2 * t3).sum()

            def backward_retain_graph(out, t2, t3):
                out.backward(inputs=(t2, t3), retain_graph=True)

            errors = _run_threads(backward_retain_graph, (out, t2, t3), num_threads=5)
            r = [count[0], [repr(e) for e in errors]]
            count[0] = 0
            bw_count = [0]

            class Func(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x

                @staticmethod
                def backward(ctx, gO):
                    with lock:
                        bw_count[0] += 1
                        if bw_count[0] == 1:
                            raise RuntimeError("error message")
                    return gO

            out = (Func.apply(t2) * t3).sum()
            errors = _run_threads(backward_retain_graph, (out, t2, t3), num_threads=5)
            return r + [count[0], [str(e) for e in errors]]
        same(prog)

    def test_dataparallel_saved_tensors_hooks(self):
        # saved_tensors_hooks reach a forward run through nn.DataParallel: on CPU (no
        # two CUDA devices) it runs the module in the calling thread, so the pack hook
        # warns there, and again for an op after it
        def prog(torch):
            import warnings

            def pack(x):
                warnings.warn("pack")
                return x

            seen = []

            class Model(torch.nn.Module):
                def forward(self, x):
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        x * x
                    seen.append([str(m.message) for m in w])

            x = torch.ones(5, 5, requires_grad=True)
            model = torch.nn.DataParallel(Model())
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
                model(x)
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    x * x
                seen.append([str(m.message) for m in w])
            return seen, torch.cuda.device_count()
        same(prog)


def test_power_function():
    def prog(torch):
        a = torch.tensor([0.0, 0.0, 0.0])
        b = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
        torch.sum(a ** b).backward()
        r = [b.grad]
        b = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
        torch.sum(0 ** b).backward()
        return r + [b.grad]
    same(prog)


def test_grad_batched_grad():
    def prog(torch):
        r = []
        x = data(torch, 2, 2, requires_grad=True)
        out = x.clone()
        batched_grad = torch.arange(3).expand(2, 2, 3).transpose(0, 2).double()
        r.append(torch.autograd.grad(out, (x,), (batched_grad,), is_grads_batched=True))
        try:
            torch.autograd.grad(outputs=out, grad_outputs=(torch.ones(2, 2),), inputs=(x,),
                                is_grads_batched=True)
        except RuntimeError as e:
            r.append(str(e))
        out = x.sum()
        r.append(torch.autograd.grad(out, (x,), (torch.arange(3).double(),),
                                     is_grads_batched=True))
        try:
            torch.autograd.grad(outputs=out, grad_outputs=(torch.ones(2).unsqueeze(1),),
                                inputs=(x,), is_grads_batched=True)
        except RuntimeError as e:
            r.append(str(e))
        # create_graph: the batched gradient is differentiable again
        y = (x ** 3).sum()
        (g,) = torch.autograd.grad(y, x, torch.tensor([1., 2.], dtype=torch.float64),
                                   create_graph=True, is_grads_batched=True)
        r += [g, torch.autograd.grad(g.sum(), x)]
        return r
    same(prog)
