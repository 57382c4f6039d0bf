"""Hooks (tensor hooks, Node pre/post hooks, retain_grad, post-accumulate-grad hooks):
PyTorch's test/test_autograd.py tests of them, each rewritten here as a differential
program (run under torch and autograd_core, results compared by tests/_diff.py).  Each
test is named after the PyTorch test it follows."""
import gc
import warnings
import weakref

from _diff import data, issue8, same


def test_post_accumulate_grad_hook_on_non_leaf():
    def prog(torch):
        leaf = data(torch, 3, requires_grad=True)
        non_leaf = 2.0 * leaf
        non_leaf.register_post_accumulate_grad_hook(lambda t: t.sub_(1.0))
    same(prog, must_raise=True)


def test_post_accumulate_grad_hook_multiple_hooks():
    def prog(torch):
        def hook1(tensor):
            tensor.sub_(tensor.grad)

        def hook2(tensor):
            tensor.mul_(4.0)

        tensor = data(torch, 3, requires_grad=True)
        tensor.register_post_accumulate_grad_hook(hook1)
        tensor.register_post_accumulate_grad_hook(hook2)
        tensor.sum().backward()
        return tensor, tensor.grad
    same(prog)


def test_post_accumulate_grad_hook_multiple_tensors():
    def prog(torch):
        def hook(tensor):
            tensor.sub_(tensor.grad)

        tensor1 = data(torch, 3, seed=1, requires_grad=True)
        tensor2 = data(torch, 5, seed=2, requires_grad=True)
        tensor1.register_post_accumulate_grad_hook(hook)
        tensor2.register_post_accumulate_grad_hook(hook)
        tensor1.sum().backward()
        tensor2.sum().backward()
        return tensor1, tensor2
    same(prog)


def test_post_accumulate_grad_hook_returns_not_None():
    def prog(torch):
        tensor = data(torch, 2, 3, requires_grad=True)
        tensor.register_post_accumulate_grad_hook(lambda t: t.grad)
        tensor.sum().backward()
    same(prog, must_raise=True)


def test_post_accumulate_grad_hook_e2e():
    # an optimizer stepping each parameter of an nn.Linear from its post-accumulate-grad
    # hook (torch.optim.Adam, one per parameter) against a deepcopy of the model stepped
    # after backward; after the hooks are removed the hooked model stays where it was
    def prog(torch):
        import copy

        def setup_optim_in_bwd(model):
            optims, handles = {}, []

            def optim_step_hook(param):
                optims[param].step()
                optims[param].zero_grad()

            for p in model.parameters():
                optims[p] = torch.optim.Adam([p])
                handles.append(p.register_post_accumulate_grad_hook(optim_step_hook))
            return handles

        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        inp = data(torch, 2, 3, seed=3, dtype="float32")
        handles = setup_optim_in_bwd(model)
        model_copy = copy.deepcopy(model)
        optim_copy = torch.optim.Adam(model_copy.parameters())

        def both_steps():
            model(inp).sum().backward()
            model_copy(inp).sum().backward()
            optim_copy.step()
            optim_copy.zero_grad()

        for _ in range(5):
            both_steps()
        r = [[p.detach().clone() for p in model.parameters()],
             [p.detach().clone() for p in model_copy.parameters()]]
        for h in handles:
            h.remove()
        for _ in range(5):
            both_steps()
        r += [list(model.parameters()), list(model_copy.parameters()),
              [p.grad for p in model.parameters()]]
        return r
    same(prog)


def test_post_accumulate_grad_hook_gets_cleaned_up():
    def prog(torch):
        def fun_stuff_with_hook():
            thing_to_put_in_hook = data(torch, 3, seed=2)

            def hook(tensor):
                tensor.sub_(tensor.grad)
                tensor.add_(thing_to_put_in_hook)

            tensor = data(torch, 3, requires_grad=True)
            tensor.register_post_accumulate_grad_hook(hook)
            tensor.sum().backward()
            return tensor, weakref.ref(thing_to_put_in_hook)

        gc.disable()
        try:
            tensor, ref = fun_stuff_with_hook()
            r = [ref() is not None, tensor]
            del tensor
            r.append(ref() is None)
        finally:
            gc.enable()
        return r
    same(prog)


def test_post_accumulate_grad_hook_ordering():
    def prog(torch):
        tensor = data(torch, 3, requires_grad=True)

        def pre_hook(grad):
            return grad.sub(2.0)

        def acc_grad_node_pre_hook(grad_out):
            return (grad_out[0].div(5.0),)

        def post_acc_grad_hook(tensor):
            tensor.grad.add_(0.5)

        def acc_grad_node_post_hook(grad_in, grad_out):
            tensor.grad = grad_out[0].mul(10)

        acc_grad = tensor.view_as(tensor).grad_fn.next_functions[0][0]
        tensor.register_hook(pre_hook)
        acc_grad.register_prehook(acc_grad_node_pre_hook)
        tensor.register_post_accumulate_grad_hook(post_acc_grad_hook)
        acc_grad.register_hook(acc_grad_node_post_hook)
        tensor.sum().backward()
        return tensor.grad
    same(prog)


def test_hook_with_no_name():
    def prog(torch):
        class MyHookClass:
            def __call__(self, grad):
                return grad.clone()

        x = data(torch, 5, requires_grad=True)
        y = x.clone()
        y.register_hook(MyHookClass())
        y.sum().backward()
        return x.grad
    same(prog)


def test_prehook_ordering():
    def prog(torch):
        log = []

        def hook1(g):
            log.append(1)
            return g * 3

        def hook2(gs):
            log.append(2)
            return tuple(g * 2 for g in gs)

        a = torch.tensor(1.0, requires_grad=True)
        b = a.clone()
        b.grad_fn.register_prehook(hook2)
        b.register_hook(hook1)
        b.grad_fn.register_prehook(hook2)
        acc = b.grad_fn.next_functions[0][0]
        a.register_hook(hook1)
        acc.register_prehook(hook2)
        a.register_hook(hook1)

        r = []
        b.sum().backward(retain_graph=True)
        r.append(list(log))
        log.clear()
        r.append(torch.autograd.grad(b.sum(), inputs=(a,), retain_graph=True))
        r.append(list(log))
        log.clear()
        b.sum().backward(inputs=(b,))
        r += [list(log), b.grad.item(), a.grad]
        return r
    same(prog)


def test_retains_grad_can_always_observe_tensor_prehook():
    def prog(torch):
        def tensor_prehook(g):
            return g * 2

        a = torch.tensor(1.0, requires_grad=True)
        b = a.clone()
        b.register_hook(tensor_prehook)
        b.retain_grad()
        b.register_hook(tensor_prehook)
        b.clone().backward()
        r = [b.grad.item()]
        a = torch.tensor(1.0, requires_grad=True)
        b = a.clone()
        b.retain_grad()
        b.register_hook(tensor_prehook)
        b.clone().backward()
        return r + [b.grad.item(), a.grad]
    same(prog)


def test_accumulate_grad_posthooks_can_observe_tensor_prehook():
    def prog(torch):
        a = torch.tensor(1.0, requires_grad=True)
        seen = []

        def tensor_prehook(g):
            return g * 2

        def posthook(gO, gI):
            seen.append(("post", gI[0].item(), len(gO)))

        def prehook(gI):
            seen.append(("pre", gI[0].item(), len(gI)))

        b = a.clone()
        acc = b.grad_fn.next_functions[0][0]
        acc.register_hook(posthook)
        acc.register_prehook(prehook)
        a.register_hook(tensor_prehook)
        b.backward()
        return seen, a.grad
    same(prog)


def test_accumulate_grad_posthooks_should_not_execute():
    def prog(torch):
        ran = []

        def tensor_prehook(g):
            ran.append("tensor prehook")

        def posthook(gO, gI):
            ran.append("posthook")

        a = torch.tensor(1.0, requires_grad=True)
        a.register_hook(tensor_prehook)
        b = torch.tensor(1.0, requires_grad=True)
        c = a.clone()
        acc = c.grad_fn.next_functions[0][0]
        acc.register_hook(posthook)
        out = a + b + c
        out.sum().backward(inputs=[b])
        return ran, a.grad, b.grad
    same(prog)


def test_hook_edge_case_when_called_with_grad():
    def prog(torch):
        a = torch.tensor(1.0, requires_grad=True)
        b = a * 2
        c = b * 2
        counts = {"tensor": 0, "pre": 0, "post": 0}

        def tensor_prehook(g):
            counts["tensor"] += 1

        def prehook(g):
            counts["pre"] += 1

        def posthook(gI, gO):
            counts["post"] += 1

        a.register_hook(tensor_prehook)
        b.register_hook(tensor_prehook)
        acc = b.grad_fn.next_functions[0][0]
        acc.register_hook(posthook)
        acc.register_prehook(prehook)
        b.grad_fn.register_hook(posthook)
        b.grad_fn.register_prehook(prehook)

        r = []
        for run in (lambda: torch.autograd.grad(c, inputs=(b), retain_graph=True),
                    lambda: torch.autograd.grad(c, inputs=(a, b), retain_graph=True),
                    lambda: c.backward(retain_graph=True),
                    lambda: c.backward(inputs=(a, b), retain_graph=True)):
            run()
            r.append(dict(counts))
            counts.update(tensor=0, pre=0, post=0)
        return r
    same(prog)


def test_hooks():
    def prog(torch):
        x = torch.ones(5, 5, requires_grad=True)
        y = torch.ones(5, 5) * 4
        y.requires_grad_(True)
        counter = [0]
        seen = []

        def bw_hook(inc, grad):
            seen.append(isinstance(grad, torch.Tensor))
            counter[0] += inc

        z = x ** 2 + x * 2 + x * y + y
        x.register_hook(lambda *args: bw_hook(0, *args))
        test = z.register_hook(lambda *args: bw_hook(1, *args))
        r = []
        z.backward(torch.ones(5, 5), retain_graph=True)
        r.append(counter[0])
        test2 = z.register_hook(lambda *args: bw_hook(2, *args))
        z.backward(torch.ones(5, 5), retain_graph=True)
        r.append(counter[0])
        test2.remove()
        z.backward(torch.ones(5, 5), retain_graph=True)
        r.append(counter[0])

        def bw_hook_modify(grad):
            return grad.mul(2)

        test.remove()
        z.register_hook(bw_hook_modify)
        with torch.no_grad():
            y.grad.zero_()
        z.backward(torch.ones(5, 5), retain_graph=True)
        r.append(y.grad.clone())
        y.register_hook(bw_hook_modify)
        with torch.no_grad():
            y.grad.zero_()
        z.backward(torch.ones(5, 5))
        r.append(y.grad)
        return r, seen, x.grad
    same(prog)


def _mul2(torch, use_custom_function):
    if use_custom_function:
        class Mul2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, gO):
                return gO * 2
        return Mul2.apply
    return lambda x: x * 2


def test_grad_fn_prehooks():
    def prog(torch):
        r = []
        for use_custom_function in (True, False):
            mul2 = _mul2(torch, use_custom_function)
            a = torch.tensor([1.0], requires_grad=True)
            b = mul2(a)
            post_counter = [0]
            pre_counter = [0]
            seen = []

            def posthook(grad_input, grad_output):
                seen.append((pre_counter[0], grad_output[0], grad_input[0]))
                post_counter[0] += 1
                return grad_input

            def prehook(grad_output):
                pre_counter[0] += 1
                return (grad_output[0] * 2,)

            b.grad_fn.register_hook(posthook)
            b.grad_fn.register_hook(posthook)
            b.grad_fn.register_prehook(prehook)
            b.grad_fn.register_prehook(lambda x: None)
            b.grad_fn.register_prehook(prehook)
            b.grad_fn.register_prehook(prehook)
            b.grad_fn.register_prehook(lambda x: x)
            b.grad_fn.register_prehook(lambda x: None)
            b.sum().backward()
            r += [post_counter[0], pre_counter[0], seen, a.grad]

            a = torch.ones(3, 3, requires_grad=True)
            b = mul2(a)

            def prehook2(grad_output):
                pre_counter[0] += 1
                return None

            b.grad_fn.register_prehook(prehook2)
            b.sum().backward()
            r += [pre_counter[0], a.grad]
        return r
    same(prog)


def test_grad_fn_prehooks_multiple_outputs():
    # torch.var_mean's two-output node (a prehook sees and returns both gradients), then
    # the custom Function of the test
    def prog(torch):
        b = data(torch, 3, 3, requires_grad=True)
        var, mean = torch.var_mean(b, dim=0)
        (var + mean).sum().backward()
        r = [b.grad.clone()]
        a = b.detach().requires_grad_()
        counter = [0]

        def prehook(grad_output):
            gvar, gmean = grad_output
            counter[0] += 1
            return (gvar * 2, gmean * 2)

        var, mean = torch.var_mean(a, dim=0)
        r.append(var.grad_fn is mean.grad_fn)  # one node, two outputs
        mean.grad_fn.register_prehook(prehook)
        (var + mean).sum().backward()
        r += [counter[0], a.grad, a.grad / b.grad]

        class DoubleMul2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, a, y):
                ctx.a = a
                return a * x * 2, a, a * y * 2

            @staticmethod
            def backward(ctx, g1, _a, g2):
                return ctx.a * g1 * 2, None, ctx.a * g2 * 2

        counter = [0]
        seen = []

        def prehook3(grad_output):
            g1, ga, g2 = grad_output
            seen.append(ga)
            counter[0] += 1
            return (g1 * 2, None, g2 * 2)

        a = data(torch, 3, 3, seed=1, requires_grad=True)
        b = data(torch, 3, 3, seed=2, requires_grad=True)
        c, _, d = DoubleMul2.apply(a, 3, b)
        c.grad_fn.register_prehook(prehook3)
        (c + d).sum().backward()
        return r + [counter[0], seen, a.grad, b.grad]
    same(prog)


def test_grad_fn_prehooks_remove_hooks():
    def prog(torch):
        r = []
        for use_custom_function in (True, False):
            mul2 = _mul2(torch, use_custom_function)
            a = torch.ones(3, 3, requires_grad=True)
            b = mul2(a)
            counter = [0]

            def prehook(grad_output):
                counter[0] += 1
                return None

            handle = b.grad_fn.register_prehook(prehook)
            b.grad_fn.register_prehook(prehook)
            handle.remove()
            b.sum().backward()
            r += [a.grad, counter[0]]

            a = torch.ones(3, 3, requires_grad=True)
            b = mul2(a)
            counter = [0]
            handles = {}

            def prehook1(grad_output):
                handles[2].remove()
                handles[3].remove()  # removing a removed hook is fine
                return None

            def prehook2(grad_output):
                counter[0] += 1
                return None

            b.grad_fn.register_prehook(prehook1)
            handles[2] = b.grad_fn.register_prehook(prehook2)
            handles[3] = b.grad_fn.register_prehook(prehook2)
            handles[3].remove()
            b.sum().backward()
            r += [a.grad, counter[0]]
        return r
    same(prog)


def test_hooks_cpp():
    # a hook on the output of an nn.BatchNorm1d in eval mode (in PyTorch a node
    # implemented in C++)
    def prog(torch):
        bn = torch.nn.BatchNorm1d(5, affine=False)
        bn.double()
        bn.eval()
        counter = [0]

        def bw_hook(grad):
            counter[0] += 1
            return grad * 2

        x = torch.ones(5, 5, dtype=torch.double, requires_grad=True)
        z = bn(x)
        z.register_hook(bw_hook)
        z.sum().backward()
        return counter[0], x.grad, type(z.grad_fn).__name__
    same(prog, atol=1e-5)


def test_hook_none():
    def prog(torch):
        seen = []

        class NoneGradientFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                seen.append(ctx.needs_input_grad)
                return x, y

            @staticmethod
            def backward(ctx, grad_x, grad_y):
                return grad_x, None

        was_called = [False]

        def hook(grad):
            seen.append(grad is not None)
            was_called[0] = True

        x = data(torch, 5, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, seed=2)
        rx, ry = NoneGradientFunction.apply(x, y)
        rx.register_hook(hook)
        ry.register_hook(hook)
        sum(rx, ry).sum().backward()
        return was_called[0], seen, x.grad
    same(prog)


def test_retain_grad():
    def prog(torch):
        input = data(torch, 1, 3, requires_grad=True)
        h1 = input * 3
        out = (h1 * h1).sum()
        h1.retain_grad()
        h1.retain_grad()
        out.backward(retain_graph=True)
        r = [h1.grad.clone()]
        out.backward(retain_graph=True)
        r.append(h1.grad.clone())
        with torch.no_grad():
            input.grad.zero_()
        input.retain_grad()
        input.retain_grad()
        out.backward()
        return r + [input.grad, h1.grad]
    same(prog)


def test_retain_grad_inplace():
    def prog(torch):
        r = []
        a = torch.tensor([1.0], requires_grad=True).clone()
        a.retain_grad()
        a.mul_(2)
        a.sum().backward()
        r.append(a.grad)
        a = torch.tensor([1.0], requires_grad=True).clone()
        a.retain_grad()
        a.mul_(2)
        a.mul_(2)
        a.sum().backward()
        r.append(a.grad)
        x = torch.tensor([1.0], requires_grad=True).clone()
        x.retain_grad()
        x_view = x[:]
        x_view *= 2
        x *= 2
        x.sum().backward()
        r.append(x.grad)
        x = torch.zeros(4)
        y = x.view(2, 2)
        y.add_(data(torch, 2, 2, dtype="float32", requires_grad=True))
        r += [x.requires_grad, y.requires_grad]
        return r
    same(prog)


def test_retains_grad_inplace_multiple_outputs():
    # for a custom Function and for torch.var_mean (two multi-output nodes)
    def prog(torch):
        class DoubleMul(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 * 2 + g2 * 3

        r = []
        def var_mean(t):
            return torch.var_mean(t, dim=0)

        for fn in (DoubleMul.apply, var_mean):
            b = data(torch, 3, 3, requires_grad=True)
            var, mean = fn(b)
            var.retain_grad()
            mean.retain_grad()
            var.mul_(2)
            (var + mean).sum().backward()
            gvar, gmean = var.grad, mean.grad
            a = b.detach().requires_grad_(True)
            var, mean = fn(a)
            var.mul_(2)
            out = (var + mean).sum()
            r += [gvar, gmean, torch.autograd.grad(out, inputs=(var, mean))]
        return r
    same(prog)


def test_retain_grad_inplace_over_view():
    def prog(torch):
        base = torch.tensor([1.0], requires_grad=True).clone()
        view = base[:]
        view2 = base[:]
        view.retain_grad()
        view2.retain_grad()
        view.mul_(2)
        (view + view2).sum().backward()
        return view.grad, view2.grad
    same(prog)


def test_tensor_hooks_inplace():
    def prog(torch):
        count1, count2, seen = [0], [0], []

        def fn1(grad):
            count1[0] += 1
            seen.append(("fn1", grad))
            return grad * 2

        def fn2(grad):
            count2[0] += 1
            seen.append(("fn2", grad))
            return grad * 2

        a = torch.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.register_hook(fn1)
        b.mul_(2)
        b.register_hook(fn2)
        b.sum().backward()
        r = [count1[0], count2[0], a.grad]
        count3 = [0]

        def fn3(grad):
            count3[0] += 1
            seen.append(("fn3", grad))
            return grad * 2

        a = torch.tensor([1.0], requires_grad=True)
        b = a.clone()
        b.register_hook(fn3)
        b.mul_(2)
        b.mul_(2)
        b.sum().backward()
        return r + [count3[0], a.grad, seen]
    same(prog)


def test_tensor_hooks_inplace_multiple_outputs():
    # for a custom Function and for torch.var_mean (two multi-output nodes)
    def prog(torch):
        class DoubleMul(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 * 2 + g2 * 3

        r = []
        def var_mean(t):
            return torch.var_mean(t, dim=0)

        for fn in (DoubleMul.apply, var_mean):
            counts = [0, 0, 0]
            seen = []

            def fn0(grad):
                counts[0] += 1
                seen.append(("fn0", grad))

            def fn1(grad):
                counts[1] += 1
                seen.append(("fn1", grad))

            def fn2(grad):
                counts[2] += 1
                seen.append(("fn2", grad))

            b = data(torch, 3, 3, requires_grad=True)
            out1, out2 = fn(b)
            h1 = out1.register_hook(fn0)
            h2 = out2.register_hook(fn1)
            out1.mul_(2)
            h3 = out1.register_hook(fn2)
            (out1 + out2 * 3).sum().backward()
            r += [counts, seen, b.grad]
            h1.remove()
            h2.remove()
            h3.remove()
        return r
    same(prog)


def test_tensor_hooks_inplace_over_view():
    def prog(torch):
        calls = []
        base = torch.tensor([1.0], requires_grad=True).clone()
        view = base[:]
        view2 = base[:]
        view.register_hook(lambda g: calls.append(("fn0", g)))
        view2.register_hook(lambda g: calls.append(("fn1", g)))
        view.mul_(2)
        view2.grad_fn  # noqa: B018  (regenerates view2's grad_fn)
        view2.register_hook(lambda g: calls.append(("fn2", g)))
        (view + view2).sum().backward()
        return calls
    same(prog)


def test_retain_grad_cycle():
    # PyTorch checks with a private weak tensor reference; here with weakref.ref
    def prog(torch):
        x = torch.ones(5, 5, requires_grad=True)

        def run_test():
            y = x * 2
            y.retain_grad()
            return y / 2, weakref.ref(y)

        z, ref = run_test()
        r = [ref() is None]
        z.sum().backward()
        return r + [x.grad]
    same(prog)


def test_grad_nonleaf_register_hook():
    def prog(torch):
        x = data(torch, 5, requires_grad=True)
        x_list = x.unbind()
        x0 = x_list[0]
        hook_results = [None]

        def hook(grad):
            hook_results[0] = grad

        x0.register_hook(hook)
        x_list[0].backward()
        r = [hook_results[0], x.grad.clone(), x_list[0].grad]
        for i in range(1, 5, 1):
            x_list[i].backward()
            r += [hook_results[0], x.grad.clone(), x_list[i].grad]
        return r
    same(prog, quiet=True)


def test_backward_hook_relative_ordering():
    # an nn.Linear inside an nn.Module with a full backward hook (BackwardHookFunction
    # nodes around the module): the relative order of node pre/post hooks, the module
    # hook, tensor pre-hooks and post-accumulate-grad hooks, nodes named by name()
    def prog(torch):
        order = []

        class MyModule(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = torch.nn.Linear(10, 10)

            def forward(self, x):
                return self.linear(x)

        torch.manual_seed(0)
        x = data(torch, 10, 10, seed=1, dtype="float32", requires_grad=True)
        module = MyModule()
        module.register_full_backward_hook(
            lambda _1, _2, _3: order.append(
                "module_full_backward_hook_BackwardHookFunctionBackward0"))
        count = 0

        def register_hooks_on_all_nodes(nodes):
            nonlocal count
            for node, _ in nodes:
                count += 1
                name = f"{node.name()}_{count}"
                node.register_prehook(lambda _, n=name: order.append(f"pre_hook_{n}"))
                node.register_hook(lambda _1, _2, n=name: order.append(f"post_hook_{n}"))
                register_hooks_on_all_nodes(node.next_functions)

        loss = module(x).sum()
        register_hooks_on_all_nodes(((loss.grad_fn, None),))
        for name, t in (("x", x), ("weight", module.linear.weight),
                        ("bias", module.linear.bias)):
            t.register_hook(lambda _, n=name: order.append(f"tensor_pre_hook_{n}"))
        for name, t in (("x", x), ("weight", module.linear.weight),
                        ("bias", module.linear.bias)):
            t.register_post_accumulate_grad_hook(
                lambda _, n=name: order.append(f"post_acc_grad_hook_{n}"))
        loss.backward()
        return order
    same(prog)




def test_multi_grad_all_hooks():
    # PyTorch's test also hooks a C++ custom op built with torch.utils.cpp_extension's
    # load_inline and the private torch._C._functions.UndefinedGrad node, neither of
    # which autograd_core has (no C++ extension API, no torch._C); here a built-in node
    # (mul), a custom Function and clones
    def prog(torch):
        t1, t2, t3, t4 = (data(torch, 2, seed=i, requires_grad=True) for i in range(4))
        t1 = t1.mul(2)

        class Foo(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a.clone()

            @staticmethod
            def backward(ctx, gO):
                return gO

        t2 = Foo.apply(t2)
        t3 = t3.clone()
        t4 = t4.clone()
        res = [None]
        count = [0]

        def hook(grads):
            count[0] += 1
            res[0] = [g is not None for g in grads]

        handle = torch.autograd.graph.register_multi_grad_hook((t1, t2, t3, t4), hook)
        out = t2 * t3
        r = []
        out.sum().backward(inputs=(t2, t3), retain_graph=True)
        r += [count[0], res[0]]
        out.sum().backward(inputs=(t1, t4), retain_graph=True)
        r.append(count[0])
        out.sum().backward(inputs=(t1, t3), retain_graph=True)
        r += [count[0], res[0]]

        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, gO):
                raise RuntimeError("error message")

        out = Func.apply(t2) * t3
        try:
            out.sum().backward(inputs=(t2, t3), retain_graph=True)
        except RuntimeError as e:
            r.append(str(e))
        r.append(count[0])
        handle.remove()
        out.sum().backward(inputs=(t1, t3), retain_graph=True)
        return r + [count[0]]
    same(prog)


def test_multi_grad_any_hooks():
    # nn.Modules around nn.Linear, each registering a tensor hook on its linear output
    # and an "any" multi-grad hook on its two outputs: the any-hook runs once, before the
    # module's tensor hook; removed, it does not run
    def prog(torch):
        from functools import partial
        hook_id = 0
        any_hook_handles = []
        hook_order = []

        def hook(hid, *unused):
            hook_order.append(hid)

        class MultiOutputModule(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(3, 3)

            def forward(self, x):
                nonlocal hook_id
                z = self.lin(x)
                out = torch.sin(z), torch.cos(z)
                z.register_hook(partial(hook, hook_id))
                hook_id += 1
                any_hook_handles.append(torch.autograd.graph.register_multi_grad_hook(
                    out, partial(hook, hook_id), mode="any"))
                hook_id += 1
                return out

        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.mod1 = MultiOutputModule()
                self.mod2 = MultiOutputModule()

            def forward(self, x):
                y = self.mod1(x)
                return self.mod2(y[0] + y[1])

        torch.manual_seed(0)
        model = Model()
        inp = data(torch, 2, 3, seed=9, dtype="float32")
        out = model(inp)
        (out[0] + out[1]).sum().backward()
        r = [len(any_hook_handles), list(hook_order)]
        hook_id = 0
        hook_order.clear()
        any_hook_handles.clear()
        out = model(inp)
        for handle in any_hook_handles:
            handle.remove()
        (out[0] + out[1]).sum().backward()
        return r + [hook_order]
    same(prog)


def test_multi_grad_hooks_invalid_mode():
    def prog(torch):
        t1 = data(torch, 2, seed=1, requires_grad=True)
        t2 = data(torch, 2, seed=2, requires_grad=True)
        torch.autograd.graph.register_multi_grad_hook((t1, t2), lambda _: None, mode="foo")
    same(prog, must_raise=True)


def test_create_graph_and_full_backward_hook_cycle():
    # a module's full backward hooks must not keep grad_output alive through a
    # create_graph backward (grad_output -> its grad_fn -> graph -> hook -> grad_output):
    # an object put in the graph's metadata is freed once the grads are dropped; the
    # create_graph warning is given once
    def prog(torch):
        class TestCls:
            pass

        def get_ref(input_requires_grad, nb_hooks):
            t = data(torch, 10, dtype="float32", requires_grad=input_requires_grad)
            a = torch.tensor(1.0, requires_grad=True)

            class Test(torch.nn.Module):
                def forward(self, x):
                    return x ** 2 * a ** 2

            mod = Test()
            for _ in range(nb_hooks):
                mod.register_full_backward_hook(lambda a, b, c: None)
            tmp = mod(t)
            test = TestCls()
            ref = weakref.ref(test)
            tmp.grad_fn.metadata["a"] = test
            old = torch.is_warn_always_enabled()
            torch.set_warn_always(True)
            try:
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    tmp.exp().sum().backward(create_graph=True)
            finally:
                torch.set_warn_always(old)
            found = sum("Using backward() with create_graph=True" in str(x.message)
                        for x in w)
            grads = (a.grad, t.grad)
            a.grad = None
            t.grad = None
            return ref, found, grads

        r = []
        for nb_hooks in (1, 2, 3):
            for input_requires_grad in (True, False):
                ref, found, grads = get_ref(input_requires_grad, nb_hooks)
                del grads
                gc.collect()
                r.append((nb_hooks, input_requires_grad, found, ref() is None))
        return r
    same(prog)


def test_full_backward_hook_double_backward():
    # a module's full backward hook runs in the first backward only: the second
    # derivative through the create_graph gradient does not call it (nor fail)
    def prog(torch):
        x = data(torch, 1, lo=0.0, dtype="float32", requires_grad=True)
        y = data(torch, 1, seed=1, lo=0.0, dtype="float32")
        func = torch.nn.MSELoss()
        counter = [0]

        def hook(module, grad_input, grad_output):
            counter[0] += 1

        func.register_full_backward_hook(hook)
        f = func(x, y)
        gradx_f, = torch.autograd.grad(f, x, create_graph=True)
        r = [counter[0], gradx_f]
        r.append(torch.autograd.grad(gradx_f, x))
        return r + [counter[0]]
    same(prog)
