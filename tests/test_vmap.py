"""vmap against torch.vmap: batching rules per op family (values for in_dims on
different dims and unbatched operands), in_dims/out_dims pytrees, nesting, chunk_size,
randomness modes and their errors, the per-sample fallback's warning, and vmap of grad
(per-sample gradients). Follows a share of pytorch/pytorch test/functorch/test_vmap.py
(TestVmapAPI, TestVmapOperators, TestRandomness)."""
import warnings

import pytest

from _diff import data, same, same_error, warns

torch = pytest.importorskip("torch")


def V(m):
    return m.func.vmap


# ---------------------------------------------------------------- op families

UNARY = ["sin", "exp", "tanh", "sigmoid", "relu", "abs", "neg", "sqrt", "log1p", "floor",
         "square", "rsqrt", "erf"]


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("in_dim", [0, 1, -1])
def test_unary(op, in_dim):
    def prog(m):
        x = data(m, 3, 4, seed=1, lo=0.1, hi=2.0)
        return V(m)(getattr(m, op), in_dims=in_dim)(x)
    same(prog)


BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "eq", "lt",
          "hypot", "fmod"]


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("in_dims", [(0, 0), (1, 0), (0, None), (None, 1)])
def test_binary(op, in_dims):
    def prog(m):
        x, y = data(m, 3, 3, seed=1, lo=0.5, hi=2.0), data(m, 3, 3, seed=2, lo=0.5, hi=2.0)
        return V(m)(getattr(m, op), in_dims=in_dims)(x, y)
    same(prog)


def test_binary_broadcast_ranks():
    def prog(m):
        x, y, z = data(m, 4, 3, seed=1), data(m, 4, 2, 3, seed=2), data(m, 3, seed=3)
        return (V(m)(lambda a, b: a * b)(x, y), V(m)(lambda a, b: a + b, (None, 0))(z, y),
                V(m)(lambda a, b: b - a)(x, y), V(m)(lambda a: 2 ** a - 1 / (a + 3))(x),
                V(m)(lambda a, c: a @ c, (0, None))(y, z))
    same(prog)


def test_operators_and_methods():
    def prog(m):
        x = data(m, 4, 3, seed=1)
        return V(m)(lambda a: (-a).abs().clamp(min=0.2).pow(2).sum(0) > 0.5)(x), \
            V(m)(lambda a: a.add(1, alpha=2).mul_(3))(x.clone()), \
            V(m)(lambda a: m.where(a > 0, a, a * 0.1))(x)
    same(prog)


REDUCE = [("sum", ()), ("sum", (0,)), ("sum", (-1, True)), ("mean", ((0, 1),)),
          ("amax", (1,)), ("prod", (1,)), ("std", (0,)), ("var", ()), ("logsumexp", (1,)),
          ("softmax", (-1,)), ("log_softmax", (0,)), ("cumsum", (1,)), ("argmax", ()),
          ("argmax", (1,)), ("max", (1,)), ("min", ()), ("norm", ()), ("all", ()),
          ("mean", ())]


@pytest.mark.parametrize("op,args", REDUCE)
@pytest.mark.parametrize("in_dim", [0, 2])
def test_reductions(op, args, in_dim):
    def prog(m):
        x = data(m, 2, 3, 4, seed=1)
        if op == "all":
            x = x > -0.5
        return V(m)(lambda a: getattr(a, op)(*args), in_dims=in_dim)(x)
    same(prog)


VIEWS = [("view", (6,)), ("reshape", (3, 2)), ("view", (-1,)), ("permute", (1, 0)),
         ("transpose", (0, 1)), ("t", ()), ("unsqueeze", (0,)), ("unsqueeze", (-1,)),
         ("flatten", ()), ("expand", (4, 2, 3)), ("select", (1, 0)), ("narrow", (1, 1, 2)),
         ("unbind", (1,)), ("split", (1, 1)), ("chunk", (2, 1)), ("movedim", (0, 1)),
         ("diagonal", ()), ("flip", (0,)), ("roll", (1, 1)), ("unflatten", (1, (3, 1))),
         ("contiguous", ()), ("clone", ()), ("squeeze", ()), ("tril", ()), ("trace", ())]


@pytest.mark.parametrize("op,args", VIEWS)
@pytest.mark.parametrize("in_dim", [0, 1])
def test_views(op, args, in_dim):
    if op == "view" and in_dim == 1:
        op = "reshape"          # a view of a sample of a non-contiguous batch is refused
    def prog(m):
        x = data(m, 5, 2, 3, seed=1) if in_dim == 0 else data(m, 2, 5, 3, seed=1)
        return V(m)(lambda a: getattr(a, op)(*args), in_dims=in_dim)(x)
    same(prog)


def test_indexing():
    def prog(m):
        x = data(m, 4, 3, 5, seed=1)
        return V(m)(lambda a: (a[0], a[:, 1:3], a[..., -1], a[None, 1], a[1, ::2]))(x)
    same(prog)


def test_cat_stack():
    def prog(m):
        x, y = data(m, 4, 3, seed=1), data(m, 3, seed=2)
        return (V(m)(lambda a, b: m.cat([a, b]), (0, None))(x, y),
                V(m)(lambda a, b: m.stack([a, b], 1), (0, None))(x, y),
                V(m)(lambda a, b: m.stack([a, b]), (0, 0))(x, x * 2))
    same(prog)


MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)),
                 ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4))]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
@pytest.mark.parametrize("in_dims", [(0, 0), (0, None), (None, 0)])
def test_matmul(sa, sb, in_dims):
    def prog(m):
        a = data(m, *(((4,) if in_dims[0] is not None else ()) + sa), seed=1)
        b = data(m, *(((4,) if in_dims[1] is not None else ()) + sb), seed=2)
        return V(m)(m.matmul, in_dims=in_dims)(a, b)
    same(prog)


def test_mm_bmm_mv_dot_linear():
    def prog(m):
        a, b = data(m, 4, 2, 3, seed=1), data(m, 4, 3, 5, seed=2)
        w, bias, v = data(m, 6, 3, seed=3), data(m, 6, seed=4), data(m, 4, 3, seed=5)
        lin = m.nn.functional.linear
        return (V(m)(m.mm)(a, b), V(m)(m.mv, (0, 0))(a, v), V(m)(m.dot)(v, v),
                V(m)(lin, (0, None, None))(a, w, bias),
                V(m)(lin, (0, 0, None))(v, data(m, 4, 6, 3, seed=6), bias),
                V(m)(m.bmm, (None, 0))(data(m, 2, 5, 3, seed=7), data(m, 4, 2, 3, 2, seed=8)))
    same(prog)


def test_conv2d_and_pool():
    def prog(m):
        x, w = data(m, 3, 2, 1, 6, 6, seed=1), data(m, 4, 1, 3, 3, seed=2)
        f = m.nn.functional
        return (V(m)(lambda a: f.conv2d(a, w, padding=1))(x),
                V(m)(lambda a: f.max_pool2d(a, 2))(x),
                V(m)(lambda a: f.conv2d(a, w))(x[:, 0]))
    same(prog)


def test_losses():
    def prog(m):
        f = m.nn.functional
        x, t = data(m, 4, 5, 3, seed=1), data(m, 4, 5, 3, seed=2)
        labels = m.tensor([[0, 2, 1, 1, 0]] * 4)
        return (V(m)(f.mse_loss)(x, t), V(m)(lambda a, b: f.l1_loss(a, b, reduction="sum"))(x, t),
                V(m)(f.cross_entropy)(x, labels),
                V(m)(lambda a, b: f.cross_entropy(a[0], b[0]))(x, labels),
                V(m)(lambda a, b: f.nll_loss(f.log_softmax(a, -1), b, reduction="none"))(x, labels))
    same(prog)


def test_mlp_forward():
    def prog(m):
        m.manual_seed(0)
        net = m.nn.Sequential(m.nn.Linear(3, 4), m.nn.ReLU(), m.nn.Linear(4, 2), m.nn.Tanh())
        x = data(m, 5, 3, seed=1, dtype="float32")
        return V(m)(net)(x)
    same(prog, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- the API

def test_in_dims_pytree_and_out_dims():
    def prog(m):
        x, y = data(m, 2, 3, seed=1), data(m, 3, 2, seed=2)

        def f(d, s):
            return {"sum": d["a"] + d["b"] * s, "prod": (d["a"] * s, d["b"])}
        return (V(m)(f, in_dims=({"a": 0, "b": 1}, None))({"a": x, "b": y}, 2.0),
                V(m)(lambda a: (a, a * 2), out_dims=(1, 0))(x),
                V(m)(lambda a: a.sum(), out_dims=0)(x),
                V(m)(lambda a, b: (a, b), in_dims=(0, None), out_dims=(0, None))(x, y))
    same(prog)


def test_kwargs_are_not_mapped():
    same(lambda m: V(m)(lambda a, scale=1.0: a * scale)(data(m, 3, seed=1), scale=3.0))


def test_unbatched_output_is_expanded():
    same(lambda m: V(m)(lambda a: m.ones(2))(data(m, 3, seed=1)))


def test_nested_vmap():
    def prog(m):
        x, y = data(m, 2, 3, 4, seed=1), data(m, 3, 4, seed=2)
        return (V(m)(V(m)(m.mul))(x, x * 2),
                V(m)(V(m)(lambda a, b: a @ b, (0, None)), (0, None))(x, y.t()),
                V(m)(V(m)(lambda a: a.sum(0), in_dims=1), in_dims=2)(x),
                V(m)(V(m)(m.add, (None, 0)), (0, None))(x[:, 0], y))
    same(prog)


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 10])
def test_chunk_size(chunk_size):
    same(lambda m: V(m)(lambda a: (a.sin(), a.sum()), in_dims=1, chunk_size=chunk_size)(
        data(m, 2, 5, seed=1)))


def test_errors():
    same_error(lambda m: V(m)(m.sin, in_dims=2)(data(m, 3, 2)))
    same_error(lambda m: V(m)(m.add)(data(m, 3), data(m, 2)))
    same_error(lambda m: V(m)(lambda a: 1)(data(m, 3)))
    same_error(lambda m: V(m)(m.sin, randomness="foo")(data(m, 3)))
    same_error(lambda m: V(m)(m.sin, in_dims=(0, 0))(data(m, 3)), message="prefix")
    same_error(lambda m: V(m)(m.sin, in_dims=None)(data(m, 3)))
    same_error(lambda m: V(m)(lambda a, b: a, in_dims=(0, 0))(data(m, 3), 2.0))
    same_error(lambda m: V(m)(m.sin, in_dims="a")(data(m, 3)))
    same_error(lambda m: V(m)(m.sin)())
    same_error(lambda m: V(m)(lambda a: a, out_dims=None)(data(m, 3)))
    same_error(lambda m: V(m)(lambda a: a.item())(data(m, 3)))
    same_error(lambda m: V(m)(lambda a: 1 if a.sum() > 0 else 0)(data(m, 3)))


def test_inplace_into_unbatched_error():
    same_error(lambda m: V(m)(lambda x, y: x.add_(y), in_dims=(None, 0))(
        data(m, 3), data(m, 2, 3)))


# ---------------------------------------------------------------- randomness

@pytest.mark.parametrize("op", ["randn_like", "rand_like", "dropout", "bernoulli"])
def test_randomness_error(op):
    def prog(m):
        f = {"randn_like": m.randn_like, "rand_like": m.rand_like,
             "dropout": lambda a: m.nn.functional.dropout(a, 0.5),
             "bernoulli": lambda a: m.bernoulli(a.sigmoid())}[op]
        return V(m)(f)(data(m, 4, 3))
    same_error(prog)


@pytest.mark.parametrize("op", ["randn_like", "rand_like", "dropout"])
@pytest.mark.parametrize("randomness", ["different", "same"])
def test_randomness_draws_as_pytorch(op, randomness):
    def prog(m):
        m.manual_seed(7)
        f = {"randn_like": m.randn_like, "rand_like": m.rand_like,
             "dropout": lambda a: m.nn.functional.dropout(a, 0.5)}[op]
        x = m.ones(4, 3)
        out = V(m)(f, randomness=randomness)(x)
        return out, m.rand(2)           # and the stream's position after it
    same(prog)


def test_randomness_same_is_shared_different_differs():
    import autograd_core as ag
    x = ag.ones(5, 6)
    same_out = V(ag)(ag.randn_like, randomness="same")(x)
    diff_out = V(ag)(ag.randn_like, randomness="different")(x)
    assert bool((same_out == same_out[0]).all())
    assert not bool((diff_out == diff_out[0]).all())


def test_dropout_eval_needs_no_randomness():
    same(lambda m: V(m)(lambda a: m.nn.functional.dropout(a, 0.5, training=False))(data(m, 3, 2)))


# ---------------------------------------------------------------- fallback

def test_fallback_warns_and_is_right():
    def prog(m):
        x = data(m, 3, 4, seed=1)
        out, w = warns(V(m)(lambda a: m.nn.functional.embedding_bag(
            m.tensor([0, 1]), a.view(2, 2), m.tensor([0]))), x)
        return out, [c for c, _ in w]
    import autograd_core as ag
    got = same(prog)
    x = data(ag, 3, 4, seed=1)
    _, w = warns(V(ag)(lambda a: ag.nn.functional.embedding_bag(
        ag.tensor([0, 1]), a.view(2, 2), ag.tensor([0]))), x)
    assert w[0][1].startswith("There is a performance drop because we have not yet "
                              "implemented the batching rule for aten::embedding_bag")
    assert got[1] == ["UserWarning"]


# ---------------------------------------------------------------- vmap of grad

def test_per_sample_grads_mlp():
    def prog(m):
        m.manual_seed(0)
        net = m.nn.Sequential(m.nn.Linear(3, 8), m.nn.Tanh(), m.nn.Linear(8, 2))
        params = {k: v.detach() for k, v in net.named_parameters()}
        x, t = data(m, 6, 3, seed=1, dtype="float32"), m.tensor([0, 1, 1, 0, 1, 0])

        def loss(p, x, t):
            out = m.func.functional_call(net, p, (x.unsqueeze(0),))
            return m.nn.functional.cross_entropy(out, t.unsqueeze(0))
        return V(m)(m.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)
    same(prog, rtol=1e-4, atol=1e-6)


def test_vmap_grad_simple_and_nested():
    def prog(m):
        x = data(m, 3, 4, seed=1)
        f = lambda a: (a.sin() * a).sum()  # noqa: E731
        return (V(m)(m.func.grad(f))(x), V(m)(V(m)(m.func.grad(lambda a: a.exp() * a)))(x),
                V(m)(m.func.grad(m.func.grad(lambda a: a ** 3)))(x[0]),
                V(m)(m.func.grad_and_value(f))(x))
    same(prog)


def test_vmap_vjp_and_jacrev():
    def prog(m):
        x = data(m, 3, 4, seed=1)

        def per(a):
            out, fn = m.func.vjp(lambda b: b.sin() * 2, a)
            return fn(m.ones(4))[0]
        return V(m)(per)(x), V(m)(m.func.jacrev(lambda a: a.sin() * a.sum()))(x)
    same(prog)


def test_grad_of_vmap():
    def prog(m):
        x = data(m, 3, 4, seed=1)
        return m.func.grad(lambda a: V(m)(lambda r: (r ** 2).sum())(a).sin().sum())(x)
    same(prog)


@pytest.mark.parametrize("op", ["randn", "rand", "randint", "randperm"])
@pytest.mark.parametrize("randomness", ["different", "same"])
def test_random_creation_under_vmap(op, randomness):
    def prog(m):
        m.manual_seed(3)
        make = {"randn": lambda: m.randn(2, 3), "rand": lambda: m.rand(2),
                "randint": lambda: m.randint(0, 9, (3,)), "randperm": lambda: m.randperm(5)}[op]
        out = V(m)(lambda x: make() * 1 + x * 0, randomness=randomness)(m.zeros(4, 1))
        return out, m.rand(2)
    same(prog)


def test_random_creation_nested_levels():
    def prog(m):
        r = []
        for outer, inner in [("different", "different"), ("different", "same"),
                             ("same", "different")]:
            m.manual_seed(0)
            r.append(V(m)(V(m)(lambda x: m.rand(2) + x, randomness=inner),
                          randomness=outer)(m.zeros(2, 3, 1)))
        return r
    same(prog)


def test_random_creation_error_mode():
    same_error(lambda m: V(m)(lambda x: m.randn(2) + x)(m.zeros(3, 1)))
    same_error(lambda m: V(m)(V(m)(lambda x: m.rand(2) + x, randomness="same"))(m.zeros(2, 3, 1)))


MISC = {
    "constant_function": lambda m: V(m)(lambda x: m.tensor(1.))(m.ones(2)),
    "multiple_outputs": lambda m: V(m)(lambda x: (x * 2, x * 3))(data(m, 2, 3)),
    "out_dims_negative": lambda m: V(m)(lambda x: x * 2, out_dims=-1)(data(m, 2, 3)),
    "nested_out_dims": lambda m: V(m)(V(m)(lambda x: x.sin(), out_dims=1), out_dims=1)(
        data(m, 2, 3, 4)),
    "dict_output": lambda m: V(m)(lambda x: {"a": x, "b": [x.sum()]})(data(m, 2, 3)),
    "inplace_batched": lambda m: V(m)(lambda x: x.mul_(2).add_(1))(data(m, 2, 3).clone()),
    "inplace_through_view": lambda m: V(m)(lambda x: x[0].mul_(2))(data(m, 2, 3).clone()),
    "setitem": lambda m: V(m)(lambda x, y: (x.__setitem__(0, y), x)[1])(
        data(m, 2, 3).clone(), data(m, 2)),
    "index_with_tensor": lambda m: V(m)(lambda x: x[m.tensor([0, 2])])(data(m, 2, 3)),
    "batched_index": lambda m: V(m)(lambda x, i: x[i])(data(m, 2, 3), m.tensor([0, 2])),
    "gather": lambda m: V(m)(lambda x, i: m.gather(x, 0, i))(
        data(m, 2, 3), m.tensor([[0, 2], [1, 1]])),
    "softmax": lambda m: V(m)(lambda x: m.nn.functional.softmax(x, -1))(data(m, 2, 3)),
    "mean_keepdim": lambda m: V(m)(lambda x: x.mean(-1, keepdim=True))(data(m, 2, 3, 4)),
    "var_unbiased": lambda m: V(m)(lambda x: x.var(0, unbiased=False))(data(m, 2, 3, 4)),
    "std_correction": lambda m: V(m)(lambda x: m.std(x, dim=1, correction=0))(data(m, 2, 3, 4)),
    "clamp_tensor_bound": lambda m: V(m)(lambda x, lo: x.clamp(min=lo))(data(m, 2, 3),
                                                                      data(m, 2, 3, seed=1)),
    "where_batched_condition": lambda m: V(m)(lambda c, x: m.where(c > 0, x, 0.), (0, None))(
        data(m, 2, 3), data(m, 3, seed=1)),
    "layer_norm": lambda m: V(m)(lambda x: m.nn.functional.layer_norm(x, (3,)))(data(m, 2, 4, 3)),
    "embedding": lambda m: V(m)(lambda i: m.nn.functional.embedding(i, data(m, 5, 2)))(
        m.tensor([[0, 1], [4, 3]])),
    "dtype_conversions": lambda m: V(m)(lambda x: x.float().to(m.float64))(data(m, 2, 3)),
    "requires_grad_input": lambda m: V(m)(lambda x: x * 2)(data(m, 2, 3, requires_grad=True)),
    "backward_through_vmap": lambda m: (lambda x: (
        V(m)(lambda r: (r ** 2).sum())(x).sum().backward(), x.grad)[1])(
        data(m, 2, 3, requires_grad=True)),
    "chunks_same_randomness": lambda m: (m.manual_seed(0), V(m)(
        lambda x: m.randn_like(x), randomness="same", chunk_size=2)(m.ones(5, 2)))[1],
    "chunks_different_randomness": lambda m: (m.manual_seed(0), V(m)(
        lambda x: m.randn_like(x), randomness="different", chunk_size=2)(m.ones(5, 2)))[1],
    "outer_product_by_broadcast": lambda m: V(m)(lambda x: x.unsqueeze(-1) * x.unsqueeze(-2))(
        data(m, 2, 3)),
    "einsum": lambda m: V(m)(lambda a, b: m.einsum("i,j->ij", a, b))(data(m, 2, 3),
                                                                     data(m, 2, 4, seed=1)),
    "einsum_unbatched_operand": lambda m: V(m)(lambda a, b: m.einsum("ij,jk->ik", a, b),
                                               (0, None))(data(m, 2, 3, 4), data(m, 4, 2)),
}


@pytest.mark.parametrize("name", list(MISC))
def test_api_misc(name):
    same(MISC[name], quiet=True)


def test_ensemble_with_stack_module_state():
    def prog(m):
        m.manual_seed(0)
        models = [m.nn.Linear(3, 2) for _ in range(3)]
        params, buffers = m.func.stack_module_state(models)
        x = data(m, 4, 3, dtype="float32")

        def run(p, b, x):
            return m.func.functional_call(models[0], (p, b), (x,))
        return V(m)(run, in_dims=(0, 0, None))(params, buffers, x)
    same(prog)


def test_vmap_of_jacrev_hessian_and_grad_options():
    def prog(m):
        x, y = data(m, 2, 3), data(m, 3, seed=1)
        return (V(m)(m.func.jacrev(lambda a: a.sin().sum(0)))(data(m, 2, 3, 4)),
                V(m)(m.func.hessian(lambda a: (a ** 3).sum()))(x),
                V(m)(m.func.grad(lambda a, b: (a * b).sum(), argnums=(0, 1)), (0, None))(x, y),
                V(m)(m.func.grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True))(x))
    same(prog)


def test_vmap_of_vjp_fn_is_a_jacobian():
    def prog(m):
        x = data(m, 3)
        out, fn = m.func.vjp(lambda a: a.sin() * a.sum(), x)
        return out, V(m)(fn)(m.eye(3, dtype=m.float64))
    same(prog)


def test_inplace_rule_and_fallback_write_each_sample():
    def prog(m):
        x, y = data(m, 2, 3).clone(), data(m, 2, 3).clone()
        out = V(m)(lambda a: a.index_fill_(0, m.tensor([1]), 5.))(x)
        # (no rule: each sample written through its view of the batch)
        out2 = V(m)(lambda a: a.index_add_(0, m.tensor([1]), m.ones(1, dtype=m.float64)))(y)
        return out, x, out2, y
    same(prog, quiet=True)


def test_inplace_fallback_into_unbatched_error():
    same_error(lambda m: V(m)(lambda a, b: a.index_fill_(0, m.tensor([1]), b.sum()),
                              in_dims=(None, 0))(data(m, 3), data(m, 2, 3)), quiet=True,
               message=False)


# ---------------------------------------------------------------- torch.special's aliases

def test_special_aliases_cover_special_wrappers():
    """vmap's table of special.* aliases (func/_vmap.py, _SPECIAL_ALIASES) names exactly
    the Python wrappers of autograd_core.special (each aliasing a torch.* op), and each
    target is a function of the top-level namespace: a wrapper added or removed there
    without the table batches by the per-sample fallback, or names a missing op."""
    import inspect

    import autograd_core as ag
    import autograd_core.special as special
    from autograd_core.func import _vmap
    wrappers = {f.__name__ for n, f in vars(special).items()
                if inspect.isfunction(f) and f.__module__ == special.__name__
                and not n.startswith("_")}
    assert set(_vmap._SPECIAL_ALIASES) == wrappers
    assert all(callable(getattr(ag, t, None)) for t in _vmap._SPECIAL_ALIASES.values())


@pytest.mark.parametrize("name", ["expit", "psi", "gammaln", "log1p"])
def test_special_alias_batches_as_its_op(name):
    def prog(m):
        x = data(m, 3, 4, seed=2, lo=0.2, hi=2.0)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a rule, not the per-sample fallback
            return V(m)(getattr(m.special, name))(x)
    same(prog)
