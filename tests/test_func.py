"""torch.func's reverse transforms (grad, grad_and_value, vjp, jacrev, hessian) and
functional_call / stack_module_state / replace_all_batch_norm_modules_, compared with
torch.func: the CPU cases of pytorch/pytorch test/functorch/test_eager_transforms.py
(TestGradTransform, TestVmapOfGrad's composition cases, TestJac, TestHessian,
TestFunctionalCall-style cases), each a program run under both modules."""
import warnings

import pytest

from _diff import data, same, same_error

torch = pytest.importorskip("torch")


def F(mod):
    return mod.func


# ---------------------------------------------------------------- TestGradTransform

def test_primitive():
    same(lambda m: F(m).grad(m.sin)(data(m, seed=1)))


def test_composite_simple():
    same(lambda m: F(m).grad(lambda x: m.sin(x).sum())(data(m, 3, seed=2)))


def test_fn_with_kwargs():
    def prog(m):
        def foo(x, y):
            return (x * y).sum()
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(foo)(x, y), F(m).grad(foo)(x, y=y)
    same(prog)


def test_composite_complicated():
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, 5, seed=2)
        return F(m).grad(lambda x, y: (x @ y).sin().sum())(x, y)
    same(prog)


def test_composite_two_ops():
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(lambda x, y: (x * y).sum())(x, y)
    same(prog)


def test_inplace_on_view():
    def prog(m):
        x = data(m, 3, seed=3)

        def foo(x):
            y = x.clone()
            y0 = y[0]
            y0.sin_()
            return y.sum()
        return F(m).grad(foo)(x)
    same(prog)


def test_nesting_simple():
    same(lambda m: F(m).grad(F(m).grad(m.sin))(data(m, seed=5)))


def test_third_order():
    same(lambda m: F(m).grad(F(m).grad(F(m).grad(lambda x: x ** 4)))(data(m, seed=5)))


def test_grad_of_vjp_composition():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)

        def foo(x, y):
            out, vjp_fn = F(m).vjp(m.sin, x)
            return vjp_fn(y)[0]
        return F(m).grad(foo)(x, y)
    same(prog)


def test_vjp_of_grad_composition():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)
        out, vjp_fn = F(m).vjp(F(m).grad(lambda x: x.sin().sum() * 3), x)
        return out, vjp_fn(y)
    same(prog)


def test_grad_of_vjp_of_grad():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)

        def foo(x, y):
            df, vjp_fn = F(m).vjp(F(m).grad(lambda x: -m.cos(x)), x)
            return vjp_fn(y)[0]
        return F(m).grad(foo)(x, y)
    same(prog)


def test_views():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)

        def silly_sin(x):
            x = x.view([])
            return x.sin()

        def foo(x, y):
            z1 = F(m).grad(silly_sin)(x)
            z2 = m.cos(y)
            return z1 + z2
        return F(m).grad(foo, argnums=(0, 1))(x, y)
    same(prog)


def test_view_inplace_simple():
    def prog(m):
        x = data(m, 3, seed=4)

        def foo(x):
            x = x.clone()
            x.view([]) if x.dim() == 0 else None
            x.mul_(2)
            return x.sum()
        return F(m).grad(foo)(x)
    same(prog)


@pytest.mark.parametrize("argnums", [-3, 2, (2,), (0, 2), "a", (), (0, 0), (0, 1.0)])
def test_invalid_argnums(argnums):
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(lambda x, y: (x * y).sum(), argnums=argnums)(x, y)
    same_error(prog)


@pytest.mark.parametrize("argnums", [0, 1, -1, (0,), (0, 1), (1, 0)])
def test_argnums(argnums):
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(lambda x, y: (x * y.sin()).sum(), argnums=argnums)(x, y)
    same(prog)


def test_out_of_order_argnums():
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(lambda x, y: (x ** 2 * y).sum(), argnums=(1, 0))(x, y)
    same(prog)


def test_pytree_argnums():
    def prog(m):
        x = (data(m, 3, seed=1), {"a": data(m, 3, seed=2), "b": [data(m, 2, seed=3)]})

        def f(x):
            return (x[0].sin() + x[1]["a"]).sum() * x[1]["b"][0].sum()
        return F(m).grad(f)(x)
    same(prog)


def test_pytree_outputs():
    def prog(m):
        x = data(m, 3, seed=1)
        out, vjp_fn = F(m).vjp(lambda x: {"s": x.sin(), "c": (x.cos(), x * 2)}, x)
        return out, vjp_fn({"s": data(m, 3, seed=2), "c": (data(m, 3, seed=3),
                                                            data(m, 3, seed=4))})
    same(prog)


def test_has_aux():
    def prog(m):
        x = data(m, seed=1)

        def f(x):
            return x.sin(), x.cos()
        return F(m).grad(f, has_aux=True)(x), F(m).grad_and_value(f, has_aux=True)(x)
    same(prog)


def test_has_aux_pytree():
    def prog(m):
        x = data(m, seed=1)

        def f(x):
            y = x.sin()
            return y, {"a": y, "b": [x.cos(), x]}
        return F(m).grad(f, has_aux=True)(x)
    same(prog)


@pytest.mark.parametrize("out", ["notuple", "three"])
def test_has_aux_errors(out):
    def prog(m):
        x = data(m, seed=1)

        def f(x):
            return x.sin() if out == "notuple" else (x.sin(), x, x)
        return F(m).grad(f, has_aux=True)(x)
    same_error(prog)


def test_zero_grad():
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).grad(lambda x, y: (x ** 2).sum(), argnums=(0, 1))(x, y)
    same(prog)


def test_unrelated_grad():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)
        return F(m).grad(lambda x: y * 1.)(x)
    same(prog)


def test_unrelated_vjp():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)
        out, vjp_fn = F(m).vjp(lambda x: y, x)
        return out, vjp_fn(data(m, seed=3))
    same(prog)


def test_grad_composes_with_autograd():
    def prog(m):
        x = data(m, 3, seed=1, requires_grad=True)
        g = F(m).grad(lambda x: (x ** 3).sum())(x)
        g.sum().backward()
        return g, x.grad
    same(prog)


def test_grad_under_no_grad():
    def prog(m):
        x = data(m, 3, seed=1)
        with m.no_grad():
            return F(m).grad(lambda x: (x.sin() * x).sum())(x)
    same(prog)


def test_no_grad_inside_grad():
    def prog(m):
        x = data(m, 3, seed=1)

        def f(x):
            with m.no_grad():
                c = x ** 2
            return (x * c).sum()
        return F(m).grad(f)(x)
    same(prog)


def test_grad_closure_over_outer_input():
    def prog(m):
        x, y = data(m, seed=1), data(m, seed=2)

        def outer(y):
            return F(m).grad(lambda x: (x * y ** 2).sin())(x)
        return F(m).grad(outer)(y)
    same(prog)


@pytest.mark.parametrize("case", ["nonscalar", "tuple", "int", "none"])
def test_grad_output_errors(case):
    def prog(m):
        x = data(m, 3, seed=1)

        def f(x):
            return {"nonscalar": x.sin(), "tuple": (x.sum(), x.sum()), "int": 1,
                    "none": None}[case]
        return F(m).grad(f)(x)
    same_error(prog)


def test_grad_non_tensor_input_error():
    same_error(lambda m: F(m).grad(lambda x: x)(1.0))


def test_grad_and_value():
    same(lambda m: F(m).grad_and_value(lambda x: (x.exp() * x).sum())(data(m, 4, seed=2)))


def test_grad_integer_output_dtype_input():
    same_error(lambda m: F(m).grad(lambda x: x.sum())(m.arange(3)))


# ---------------------------------------------------------------- vjp

def test_vjp_simple():
    def prog(m):
        x = data(m, 3, 2, seed=1)
        out, vjp_fn = F(m).vjp(m.sin, x)
        return out, vjp_fn(data(m, 3, 2, seed=2))
    same(prog)


def test_vjp_two_inputs_has_aux():
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        out, vjp_fn, aux = F(m).vjp(lambda x, y: ((x * y).sin(), y.sum()), x, y, has_aux=True)
        return out, vjp_fn(data(m, 3, seed=3)), aux
    same(prog)


def test_vjp_errors():
    def bad_cot(m):
        out, vjp_fn = F(m).vjp(lambda x: (x, x), data(m, 2, seed=1))
        return vjp_fn(data(m, 2, seed=2))
    same_error(bad_cot, message=False)
    same_error(lambda m: F(m).vjp(lambda x: 1.0, data(m, 2)))
    same_error(lambda m: F(m).vjp(lambda x: x.long(), data(m, 2)))
    same_error(lambda m: F(m).vjp(lambda x: x, data(m, 2), has_aux=True))


def test_vjp_create_graph_then_backward():
    def prog(m):
        x = data(m, 3, seed=1, requires_grad=True)
        out, vjp_fn = F(m).vjp(lambda x: x ** 3, x)
        (g,) = vjp_fn(m.ones(3))
        g.sum().backward()
        return out, g, x.grad
    same(prog)


# ---------------------------------------------------------------- jacrev / hessian

def test_jacrev_simple():
    same(lambda m: F(m).jacrev(m.sin)(data(m, 3, seed=1)))


def test_jacrev_matrix_in_out():
    same(lambda m: F(m).jacrev(lambda x: x @ x.t())(data(m, 2, 3, seed=1)))


def test_jacrev_scalar_output_and_input():
    same(lambda m: (F(m).jacrev(lambda x: (x ** 2).sum())(data(m, 3, seed=1)),
                    F(m).jacrev(lambda x: x ** 3)(data(m, seed=2))))


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0)])
def test_jacrev_argnums(argnums):
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).jacrev(lambda x, y: (x * y.exp()).cumsum(0), argnums=argnums)(x, y)
    same(prog)


def test_jacrev_multiple_outputs_pytree():
    def prog(m):
        x = data(m, 3, seed=1)
        return F(m).jacrev(lambda x: {"a": x.sin(), "b": (x * x, x.sum())})(x)
    same(prog)


def test_jacrev_pytree_input():
    def prog(m):
        x = {"u": data(m, 2, seed=1), "v": data(m, 3, seed=2)}
        return F(m).jacrev(lambda d: d["u"].sum() * d["v"])(x)
    same(prog)


def test_jacrev_has_aux():
    def prog(m):
        x = data(m, 3, seed=1)
        return F(m).jacrev(lambda x: (x.sin(), x.cos()), has_aux=True)(x)
    same(prog)


@pytest.mark.parametrize("chunk_size", [1, 2, 5, None])
def test_jacrev_chunk_size(chunk_size):
    same(lambda m: F(m).jacrev(lambda x: x.exp() * x.sum(),
                               chunk_size=chunk_size)(data(m, 4, seed=1)))


def test_jacrev_bad_chunk_size():
    same_error(lambda m: F(m).jacrev(m.sin, chunk_size=0))


def test_jacrev_of_jacrev():
    same(lambda m: F(m).jacrev(F(m).jacrev(lambda x: x.sin() * x.sum()))(data(m, 3, seed=1)))


def test_hessian_simple():
    same(lambda m: F(m).hessian(lambda x: x.sin().sum())(data(m, 4, seed=1)))


def test_hessian_argnums():
    def prog(m):
        x, y = data(m, 2, seed=1), data(m, 3, seed=2)
        f = lambda x, y: (x.sum() * y.exp()).sum()  # noqa: E731
        return F(m).hessian(f, argnums=(0, 1))(x, y), F(m).hessian(f, argnums=1)(x, y)
    same(prog)


def test_hessian_matches_autograd_functional():
    def prog(m):
        x = data(m, 3, seed=1)
        f = lambda x: (x ** 3).prod()  # noqa: E731
        return F(m).hessian(f)(x), m.autograd.functional.hessian(f, x)
    same(prog)


# ---------------------------------------------------------------- functional_call

def _mlp(m, seed=0):
    m.manual_seed(seed)
    return m.nn.Sequential(m.nn.Linear(3, 4), m.nn.Tanh(), m.nn.Linear(4, 2))


def test_functional_call_values_and_module_unchanged():
    def prog(m):
        net = _mlp(m)
        params = {k: v * 2 for k, v in net.named_parameters()}
        x = data(m, 5, 3, seed=1, dtype="float32")
        out = F(m).functional_call(net, params, (x,))
        return out, net(x), [p.shape for p in net.parameters()]
    same(prog)


def test_functional_call_grad():
    def prog(m):
        net = _mlp(m)
        params = {k: v.detach() for k, v in net.named_parameters()}
        x, t = data(m, 5, 3, seed=1, dtype="float32"), data(m, 5, 2, seed=2, dtype="float32")

        def loss(p):
            return ((F(m).functional_call(net, p, x) - t) ** 2).mean()
        return F(m).grad(loss)(params)
    same(prog)


def test_functional_call_tuple_of_dicts_and_buffers():
    def prog(m):
        net = m.nn.BatchNorm1d(3)
        params = dict(net.named_parameters())
        buffers = {k: v.clone() for k, v in net.named_buffers()}
        x = data(m, 4, 3, seed=1, dtype="float32")
        out = F(m).functional_call(net, (params, buffers), (x,))
        return out, buffers, dict(net.named_buffers())
    same(prog)


def test_functional_call_repeated_key_error():
    def prog(m):
        net = m.nn.Linear(2, 2)
        p = dict(net.named_parameters())
        return F(m).functional_call(net, (p, p), (m.ones(1, 2),))
    same_error(prog)


def test_functional_call_not_dict_error():
    same_error(lambda m: F(m).functional_call(m.nn.Linear(1, 1), 3, (m.ones(1, 1),)))
    same_error(lambda m: F(m).functional_call(m.nn.Linear(1, 1), [3], (m.ones(1, 1),)))


def test_functional_call_strict():
    def prog(m):
        net = m.nn.Linear(2, 2)
        return F(m).functional_call(net, {"weight": m.ones(2, 2), "extra": m.ones(1)},
                                    (m.ones(1, 2),), strict=True)
    same_error(prog)


def test_functional_call_kwargs_and_partial_dict():
    def prog(m):
        class M(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = m.nn.Linear(2, 2)

            def forward(self, x, scale=1.0):
                return self.lin(x) * scale
        m.manual_seed(0)
        net = M()
        return F(m).functional_call(net, {"lin.bias": m.ones(2)}, (m.ones(1, 2),),
                                    {"scale": 3.0})
    same(prog)


@pytest.mark.parametrize("tie_weights", [True, False])
def test_functional_call_tied_weights(tie_weights):
    def prog(m):
        class Tied(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = m.nn.Linear(2, 2, bias=False)
                self.b = m.nn.Linear(2, 2, bias=False)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))
        m.manual_seed(0)
        net = Tied()
        return F(m).functional_call(net, {"a.weight": m.ones(2, 2)}, (m.ones(1, 2),),
                                    tie_weights=tie_weights)
    same(prog)


def test_functional_call_tied_conflict_error():
    def prog(m):
        class Tied(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = m.nn.Linear(2, 2, bias=False)
                self.b = m.nn.Linear(2, 2, bias=False)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))
        net = Tied()
        return F(m).functional_call(net, {"a.weight": m.ones(2, 2), "b.weight": m.zeros(2, 2)},
                                    (m.ones(1, 2),))
    same_error(prog)


def test_stateless_functional_call_warns():
    def prog(m):
        net = m.nn.Linear(2, 1)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = m.nn.utils.stateless.functional_call(
                net, {"weight": m.ones(1, 2), "bias": m.zeros(1)}, (m.ones(3, 2),))
        return out, [(x.category.__name__, str(x.message)) for x in w]
    same(prog)


# ---------------------------------------------------------------- stack_module_state

def test_stack_module_state():
    def prog(m):
        m.manual_seed(0)
        models = [m.nn.Sequential(m.nn.Linear(3, 2), m.nn.BatchNorm1d(2)) for _ in range(3)]
        params, buffers = F(m).stack_module_state(models)
        return ({k: (v.shape, v.requires_grad, v.is_leaf) for k, v in params.items()},
                buffers, params["0.weight"][1], models[1][0].weight.detach())
    same(prog)


def test_stack_module_state_errors():
    same_error(lambda m: F(m).stack_module_state([]))
    same_error(lambda m: F(m).stack_module_state([m.nn.Linear(1, 1), m.nn.Linear(1, 1).eval()]))
    same_error(lambda m: F(m).stack_module_state([m.nn.Linear(1, 1), m.nn.Tanh()]))

    def mixed(m):
        a, b = m.nn.Linear(1, 1), m.nn.Linear(1, 1)
        b.weight.requires_grad_(False)
        return F(m).stack_module_state([a, b])
    same_error(mixed)


def test_replace_all_batch_norm_modules_():
    def prog(m):
        net = m.nn.Sequential(m.nn.Linear(2, 3), m.nn.BatchNorm1d(3),
                              m.nn.Sequential(m.nn.BatchNorm1d(3)))
        out = F(m).replace_all_batch_norm_modules_(net)
        return (out is net, [(b.running_mean, b.running_var, b.num_batches_tracked,
                              b.track_running_stats) for b in (net[1], net[2][0])])
    same(prog)
