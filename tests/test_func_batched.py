"""Batched derivatives compared with PyTorch: jvp under vmap (batched tangents, Note [jvp
under vmap] in func/_vmap.py), jacfwd as one vmapped jvp (and its randomness mode),
autograd.functional's vectorized jacobian/hessian, autograd.grad under vmap and with
is_grads_batched, gradcheck's check_batched_grad / check_batched_forward_grad, and
torch._vmap_internals. Cases follow pytorch/pytorch test/functorch/test_eager_transforms.py
(vmap over jvp, jacfwd), test/functorch/test_vmap.py (TestRandomness's jacfwd) and
test/test_autograd.py (gradcheck's batched checks, is_grads_batched), each a program run
under both modules."""
import pytest

from _diff import catch, data, issue8, same, warns

torch = pytest.importorskip("torch")


def F(mod):
    return mod.func


# ------------------------------------------------------------------ jvp under vmap

@pytest.mark.parametrize("case", ["batched tangent", "batched primal", "both",
                                  "in_dims", "nested vmap", "closure"])
def test_vmap_of_jvp(case):
    def prog(m):
        fn = F(m)
        x, ts = data(m, 2, 3, seed=1), data(m, 4, 2, 3, seed=2)
        xs = data(m, 4, 2, 3, seed=3)
        f = lambda v: (v.sin() * v).sum(0).exp() + v.mean()
        if case == "batched tangent":
            return fn.vmap(lambda t: fn.jvp(f, (x,), (t,)))(ts)
        if case == "batched primal":
            return fn.vmap(lambda p: fn.jvp(f, (p,), (x,)))(xs)
        if case == "both":
            return fn.vmap(lambda p, t: fn.jvp(f, (p,), (t,)))(xs, ts)
        if case == "in_dims":
            return fn.vmap(lambda p, t: fn.jvp(lambda a: a @ p.T, (p,), (t,)),
                           in_dims=(None, 1))(x, ts.transpose(0, 1))
        if case == "nested vmap":
            return fn.vmap(fn.vmap(lambda t: fn.jvp(f, (x,), (t,))))(
                data(m, 3, 4, 2, 3, seed=4))
        w = data(m, 3, seed=5)
        return fn.vmap(lambda t, s: fn.jvp(lambda a: a * w * s, (x,), (t,)),
                       in_dims=(0, 0))(ts, data(m, 4, 1, 1, seed=6))
    same(prog)


def test_vmap_of_jvp_has_aux_and_pytrees():
    def prog(m):
        fn = F(m)
        x, y = data(m, 3, seed=1), data(m, 2, seed=2)
        tx, ty = data(m, 5, 3, seed=3), data(m, 5, 2, seed=4)

        def f(a, b):
            return {"o": (a[:2] * b).tanh(), "s": a.sum() * b}, a.detach() * 2

        return fn.vmap(lambda u, v: fn.jvp(f, (x, y), (u, v), has_aux=True))(tx, ty)
    same(prog)


def test_vmap_of_jvp_of_nn_layer():
    def prog(m):
        m.manual_seed(0)
        lin = m.nn.Linear(3, 2).double()
        x, ts = data(m, 4, 3, seed=1), data(m, 6, 4, 3, seed=2)
        return F(m).vmap(lambda t: F(m).jvp(lambda a: m.nn.functional.gelu(lin(a)),
                                            (x,), (t,)))(ts)
    same(prog)


def test_make_dual_with_batched_tangent():
    # forward_ad itself under (the legacy) vmap, as autograd.functional's vectorized
    # jacobian and gradcheck use it: a plain primal, a BatchedTensor tangent
    def prog(m):
        fwAD = m.autograd.forward_ad
        x = data(m, 2, 3, seed=1)

        def push(t):
            with fwAD.dual_level():
                d = fwAD.make_dual(x, t)
                out = (d.exp() * d).sum(1)
                p, tt = fwAD.unpack_dual(out)
                return p, tt
        return m._vmap_internals._vmap(push)(data(m, 5, 2, 3, seed=2))
    same(prog)


def test_make_dual_batched_shape_mismatch():
    def prog(m):
        fwAD = m.autograd.forward_ad

        def push(t):
            with fwAD.dual_level():
                return fwAD.make_dual(m.ones(2, dtype=m.double), t)
        return m._vmap_internals._vmap(push)(m.ones(4, 3, dtype=m.double))
    same(prog, must_raise=True)


# ------------------------------------------------------------------ jacfwd

@pytest.mark.parametrize("argnums", [0, 1, (0, 1)])
def test_jacfwd_is_one_batched_jvp(argnums):
    def prog(m):
        x, y = data(m, 2, 3, seed=1), data(m, 3, seed=2)
        return F(m).jacfwd(lambda a, b: ((a * b).sin() @ b, a.sum(0).exp()),
                           argnums=argnums)(x, y)
    same(prog)


def test_jacfwd_has_aux_and_hessian():
    def prog(m):
        fn = F(m)
        x = data(m, 4, seed=1)
        f = lambda a: (a.sin() * a.cos().sum(), {"a": a.exp()})
        g = lambda a: (a ** 3).sum() * a.prod()
        return fn.jacfwd(f, has_aux=True)(x), fn.hessian(g)(x), fn.jacfwd(fn.jacrev(g))(x)
    same(prog)


def test_vmap_of_jacfwd_and_jacfwd_of_vmap():
    def prog(m):
        fn = F(m)
        xs = data(m, 3, 4, seed=1)
        f = lambda a: a.softmax(0) * a.sum()
        return fn.vmap(fn.jacfwd(f))(xs), fn.jacfwd(fn.vmap(f))(xs)
    same(prog)


@pytest.mark.parametrize("randomness", ["error", "same", "different"])
@pytest.mark.parametrize("op", ["bernoulli", "rand", "dropout"])
def test_jacfwd_with_random(randomness, op):
    # test_vmap.py TestRandomness.test_jacfwd_with_random: jacfwd runs its jvp under a
    # vmap with this randomness
    def prog(m):
        x = m.rand(3, 4, dtype=m.double) if op == "bernoulli" else data(m, 3, seed=1)
        f = {"bernoulli": m.bernoulli,
             "rand": lambda a: a * m.rand(3, dtype=m.double),
             "dropout": lambda a: m.nn.functional.dropout(a, 0.5)}[op]
        out = F(m).jacfwd(f, randomness=randomness)(x)
        return tuple(out.shape), out.dtype
    same(prog, must_raise=randomness == "error")


def test_jacfwd_randomness_value():
    def prog(m):
        fn = F(m)
        return catch(fn.jacfwd(m.sin, randomness="bad"), data(m, 2, seed=1))
    same(prog)


_JACFWD_OPS = {
    "exp/log/sqrt": lambda m, a: a.exp() + a.log() + a.sqrt(),
    "pow/div": lambda m, a: a ** 2 / (a + 1),
    "matmul": lambda m, a: a @ a.T,
    "reductions": lambda m, a: a.sum(0) + a.mean(1).sum() + a.norm(dim=1).sum(),
    "activations": lambda m, a: (a.softmax(-1) + m.relu(a) + m.sigmoid(a) + m.tanh(a) +
                                 m.nn.functional.gelu(a)),
    "indexing": lambda m, a: (a[:, 1:] * a[0, :2]).sum(0) + a.gather(
        1, m.tensor([[0], [2]])).sum(),
    "cat/where/clamp": lambda m, a: m.cat([m.where(a > 0.5, a, a * 2).clamp(0.2, 0.8),
                                          a * 2], 0).sum(0),
    "views": lambda m, a: a.reshape(3, 2).t().flatten() + a[:, :1].expand(2, 3).flatten(),
    "nn": lambda m, a: (m.nn.functional.linear(a, m.ones(4, 3, dtype=m.double)).sum() +
                        m.nn.functional.mse_loss(a, m.zeros(2, 3, dtype=m.double))),
    "max/logsumexp/cumsum": lambda m, a: (a.max(1).values + a.min() + a.logsumexp(1) +
                                          a.cumsum(1)[:, -1] + a.prod(1)),
    "einsum": lambda m, a: m.einsum("ij,kj->ik", a, a),
}


@pytest.mark.parametrize("ops", sorted(_JACFWD_OPS))
def test_jacfwd_over_ops(ops):
    # every op here has a batching rule: jacfwd runs them once over the basis, and warns
    # of no per-sample fallback
    def prog(m):
        import warnings
        x = m.linspace(0.1, 0.9, 6, dtype=m.double).view(2, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            jac = m.func.jacfwd(lambda a: _JACFWD_OPS[ops](m, a))(x)
        return jac, [str(i.message) for i in w if "performance drop" in str(i.message)]
    same(prog)


# TestJac's jacfwd variants (test_eager_transforms.py), now that jacfwd is one vmapped jvp

def test_jacfwd_aux_pytree_and_non_tensor_aux():
    def prog(m):
        x = data(m, 3, seed=1)
        f = lambda a: (a.clone(), {"a": a.cos(), "b": [a.tan()]})
        out = [m.func.jacfwd(f, has_aux=True)(x)]
        for aux in [1, 1.0, "abc"]:
            out.append(catch(m.func.jacfwd(lambda a: (a, aux), has_aux=True), x))
            out.append(catch(m.func.jacfwd(lambda a: (a, [a, aux]), has_aux=True), x))
        return out
    same(prog)


def test_jacfwd_outputs_can_be_any_pytree():
    def prog(m):
        x = data(m, 2, 3, seed=1)
        J = m.func.jacfwd
        out = [catch(J(lambda _: o), x) for o in (None, (), 1, True, 12.2, "abc")]
        out.append(J(lambda a: [a, a.sum()])(x))
        out.append(J(lambda a: {"x": a, "xsum": a.sum()})(x))
        out.append(J(lambda a: [(a.sum(), {"a": a, "out": [a, a.sum()]})])(x))
        return out
    same(prog)


def test_jacfwd_pytree_inputs_unrelated_inputs_and_outputs():
    def prog(m):
        J = m.func.jacfwd
        s = data(m, seed=1)
        f = lambda a, b, c: (a[0] + a[1] * 2, {"foo": b * 3 + c * 4})
        args = ((s, s), s, s)
        x, y = data(m, 2, 3, seed=2), data(m, 2, 3, seed=3)
        return (J(f)(*args), J(f, argnums=(0,))(*args), J(f, argnums=(0, 1))(*args),
                J(lambda d: {"c": d["a"].sin(), "d": d["b"].cos()})({"a": y[0], "b": y[1]}),
                J(lambda a, b: a, argnums=(0, 1))(x, y), J(lambda a: y)(x),
                catch(J(lambda a, b: ()), x, y), J(lambda t, i: t + i)(x, 3))
    same(prog)


def test_jacfwd_argnum_errors():
    def prog(m):
        J, x = m.func.jacfwd, data(m, 3, seed=1)
        return (catch(J(m.sin, argnums=()), x), catch(J(m.sin, argnums=2), x),
                catch(J(m.sin, argnums=-2), x), catch(J(m.sin, argnums=(0, 0)), x),
                catch(J(m.sin, argnums=0.0), x), catch(J(m.multiply, argnums=(1, 0.0)), x, x),
                J(m.multiply, argnums=(0,))(x, x), J(m.multiply, argnums=0)(x, x))
    same(prog)


def test_jacfwd_against_reference():
    def prog(m):
        J = m.func.jacfwd
        x, y = data(m, 5, 3, seed=1), data(m, 3, 5, seed=2)
        f = lambda a, b: ((a * a) @ b, a @ (a.sum(1) * b), b.sum())
        return (J(lambda i: f(*i))((x, y)), J(lambda a: m.stack([a, a, a]))(data(m, seed=3)),
                J(lambda a, b: (b.sum(), a * b), argnums=(0, 1))(data(m, seed=4),
                                                                  data(m, 1, seed=5)),
                J(lambda a: (a.softmax(-1), a.logsumexp(1), a.norm(), a.max(1).values,
                             a.cumsum(1), a[:, 1:].flip(0), a.T @ a))(x))
    same(prog)


@issue8("under vmap a dual's primal is batched (Note [jvp under vmap]), so writing it into "
        "an unbatched tensor raises vmap's in-place error; PyTorch keeps the primal "
        "unbatched and only the tangent batched")
def test_jacfwd_inplace():
    def prog(m):
        def f(a, b):
            b.copy_(a)
            return b
        return m.func.jacfwd(f, argnums=0)(data(m, 2, seed=1), data(m, 2, seed=2))
    same(prog)


@pytest.mark.parametrize("case", ["vmap(hessian)", "vmap(linearize's jvp_fn)",
                                  "vmap(jvp) chunked", "vmap(jvp(vjp))", "jacfwd(nn)"])
def test_composed_with_vmap(case):
    def prog(m):
        fn = m.func
        x, ts = data(m, 3, seed=1), data(m, 5, 3, seed=2)
        if case == "vmap(hessian)":
            return fn.vmap(fn.hessian(lambda a: (a.sin() * a).sum()))(ts)
        if case == "vmap(linearize's jvp_fn)":
            # test_eager_transforms.py TestLinearize.test_linearize_composition
            _, jvp_fn = fn.linearize(lambda a: (a.cos(), a.sum()), data(m, 3, 1, seed=3))
            return fn.vmap(jvp_fn)(data(m, 3, 3, 1, seed=4))
        if case == "vmap(jvp) chunked":
            return fn.vmap(lambda t: fn.jvp(m.sin, (x,), (t,)), chunk_size=2)(ts)
        if case == "vmap(jvp(vjp))":
            return fn.vmap(lambda t: fn.jvp(
                lambda a: fn.vjp(m.sin, a)[1](m.ones(3, dtype=m.double))[0], (x,), (t,)))(ts)
        m.manual_seed(0)
        net = m.nn.Sequential(m.nn.Linear(3, 4), m.nn.Tanh(), m.nn.Linear(4, 2)).double()
        return fn.jacfwd(net)(ts)
    same(prog)


def test_hessian_is_jacfwd_of_jacrev():
    # PyTorch's hessian is jacfwd(jacrev(f)): values, argnums, and jacfwd's randomness
    # ("error": a random op in f raises)
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        H = m.func.hessian
        f = lambda a, b: (a.sin() * b.exp()).sum() + a[0] * a[1] * b[2]
        return (H(f)(x, y), H(f, argnums=(0, 1))(x, y), H(lambda a: a.norm())(x),
                H(lambda a: m.nn.functional.softplus(a).prod())(x),
                catch(H(lambda a: (a * m.rand(3, dtype=m.double)).sum()), x))
    same(prog)


# ------------------------------------------------------------------ autograd.functional

@pytest.mark.parametrize("what", ["jacobian fwd", "jacobian fwd single", "hessian fwd",
                                  "hessian fwd single", "jacobian vectorize",
                                  "hessian vectorize"])
def test_functional_vectorized(what):
    def prog(m):
        Fn = m.autograd.functional
        x, y = data(m, 2, 3, seed=1), data(m, 3, seed=2)
        f = lambda a, b: ((a.sin() * b).sum(0).exp(), a.cos() @ b)
        g = lambda a, b: (a.sin() * b).sum() + (a ** 2).sum() * b.prod()
        return {
            "jacobian fwd": lambda: Fn.jacobian(f, (x, y), strategy="forward-mode",
                                                vectorize=True),
            "jacobian fwd single": lambda: Fn.jacobian(m.exp, x, strategy="forward-mode",
                                                       vectorize=True),
            "hessian fwd": lambda: Fn.hessian(g, (x, y), outer_jacobian_strategy="forward-mode",
                                              vectorize=True),
            "hessian fwd single": lambda: Fn.hessian(lambda a: a.pow(3).sum(), x,
                                                     outer_jacobian_strategy="forward-mode",
                                                     vectorize=True),
            "jacobian vectorize": lambda: Fn.jacobian(f, (x, y), vectorize=True),
            "hessian vectorize": lambda: Fn.hessian(g, (x, y), vectorize=True),
        }[what]()
    same(prog)


def test_functional_vectorized_custom_function_and_random():
    # PyTorch's _jacfwd vmaps with torch._vmap_internals' vmap: a custom Function runs
    # through it (its jvp), a random op raises that vmap's error
    def prog(m):
        class Cube(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                ctx.save_for_forward(a)
                return a ** 3

            @staticmethod
            def backward(ctx, g):
                a, = ctx.saved_tensors
                return g * 3 * a ** 2

            @staticmethod
            def jvp(ctx, t):
                a, = ctx.saved_tensors
                return t * 3 * a ** 2
        x = data(m, 3, seed=1)
        Fn = m.autograd.functional
        return (Fn.jacobian(Cube.apply, x, strategy="forward-mode", vectorize=True),
                catch(Fn.jacobian, lambda a: a * m.randn_like(a), x, strategy="forward-mode",
                      vectorize=True),
                Fn.hessian(lambda a: Cube.apply(a).sum(), x,
                           outer_jacobian_strategy="forward-mode", vectorize=True))
    same(prog)


# ------------------------------------------------------------------ autograd.grad batched

def test_autograd_grad_under_vmap():
    # vmap over autograd.grad with batched cotangents (what gradcheck's batched check does)
    def prog(m):
        x = data(m, 3, seed=1, requires_grad=True)
        w = data(m, 3, seed=2, requires_grad=True)
        y = (x.sin() * w).exp()
        vs = data(m, 4, 3, seed=3)
        res = F(m).vmap(lambda v: m.autograd.grad(y, (x, w), v, retain_graph=True))(vs)
        nested = F(m).vmap(F(m).vmap(lambda v: m.autograd.grad(y, x, v, retain_graph=True)))(
            data(m, 2, 4, 3, seed=4))
        return res, nested
    same(prog)


def test_autograd_grad_is_grads_batched():
    # test_autograd.py test_grad_batched_grad's cases, with a graph of several nodes
    def prog(m):
        x = data(m, 2, 2, seed=1, requires_grad=True)
        out = (x * x.exp()).sum(0)
        g = data(m, 3, 2, seed=2)
        first = m.autograd.grad(out, x, g, is_grads_batched=True, retain_graph=True)
        scalar = m.autograd.grad(x.sum(), x, m.arange(3.0, dtype=m.double),
                                 is_grads_batched=True)
        bad = catch(m.autograd.grad, out, x, m.ones(2, dtype=m.double), is_grads_batched=True)
        return first, scalar, bad
    same(prog)


# ------------------------------------------------------------------ gradcheck

@pytest.mark.parametrize("fn", ["sin", "two outputs", "matmul", "broadcast", "unused input"])
def test_gradcheck_batched_checks_pass(fn):
    def prog(m):
        x = data(m, 3, 2, seed=1, requires_grad=True)
        y = data(m, 2, seed=2, requires_grad=True)
        f = {"sin": lambda a, b: (a * b).sin(),
             "two outputs": lambda a, b: (a.exp().sum(0), a * b),
             "matmul": lambda a, b: a @ b,
             "broadcast": lambda a, b: a.sum() * b,
             "unused input": lambda a, b: a.tanh()}[fn]
        gc = m.autograd.gradcheck
        return (gc(f, (x, y), check_batched_grad=True),
                gc(f, (x, y), check_forward_ad=True, check_batched_forward_grad=True),
                m.autograd.gradgradcheck(f, (x, y), check_batched_grad=True))
    same(prog)


def test_gradcheck_batched_argument_checks():
    def prog(m):
        x = data(m, 2, seed=1, requires_grad=True)
        gc = m.autograd.gradcheck
        return (catch(gc, m.sin, (x,), check_batched_grad=True, check_backward_ad=False,
                      check_forward_ad=True),
                catch(gc, m.sin, (x,), check_batched_forward_grad=True),
                catch(gc, m.sin, (x,), check_forward_ad=False, check_backward_ad=False),
                catch(m.autograd.gradgradcheck, m.sin, (x,), check_batched_grad=True,
                      check_rev_over_rev=False, check_fwd_over_rev=True,
                      check_undefined_grad=False))
    same(prog)


@issue8("a custom Function under torch._vmap_internals' vmap runs once per sample, so "
        "its jvp sees one plain tangent and a random op there does not raise")
def test_gradcheck_batched_forward_random_in_function_jvp():
    def prog(m):
        x = data(m, 2, seed=1, requires_grad=True)

        class Fn(m.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo * 2

            @staticmethod
            def vjp(ctx, gO):
                return gO * 2

            @staticmethod
            def jvp(ctx, gI):
                m.randn_like(gI)
                return gI * 2
        return catch(m.autograd.gradcheck, Fn.apply, (x,), check_forward_ad=True,
                     check_batched_forward_grad=True)
    same(prog)


def test_gradcheck_batched_forward_custom_function():
    # a custom Function's jvp under gradcheck's batched forward check (once per sample)
    def prog(m):
        class Cube(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_forward(a)
                ctx.save_for_backward(a)
                return a ** 3

            @staticmethod
            def backward(ctx, g):
                a, = ctx.saved_tensors
                return g * 3 * a ** 2

            @staticmethod
            def jvp(ctx, t):
                a, = ctx.saved_tensors
                return t * 3 * a ** 2
        x = data(m, 3, seed=1, requires_grad=True)
        return m.autograd.gradcheck(Cube.apply, (x,), check_forward_ad=True,
                                    check_batched_forward_grad=True, check_batched_grad=True)
    same(prog)


@pytest.mark.parametrize("direction", ["backward", "forward"])
def test_gradcheck_batched_mismatch_reported(direction):
    # a formula that counts its calls: the batched product differs from the products one
    # at a time, reported with PyTorch's message (the values after "Got:" depend on how
    # often each library calls the formula, so the message is compared up to there)
    def prog(m):
        calls = [0]

        class Counting(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                calls[0] += direction == "backward"
                return g * calls[0] if direction == "backward" else g * 2

            @staticmethod
            def jvp(ctx, t):
                calls[0] += direction == "forward"
                return t * calls[0] if direction == "forward" else t * 2

        x = data(m, 2, seed=1, requires_grad=True)
        kw = dict(check_batched_grad=True, check_undefined_grad=False, atol=1e9, rtol=1e9,
                  nondet_tol=1e9) if direction == "backward" else dict(
                check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False,
                check_batched_forward_grad=True, atol=1e9, rtol=1e9)
        try:
            m.autograd.gradcheck(Counting.apply, (x,), **kw)
        except RuntimeError as e:
            msg = str(e)
            return type(e).__name__, msg[:msg.index("Got:")]
        return None
    same(prog)


# ------------------------------------------------------------------ _vmap_internals

def test_vmap_internals():
    def prog(m):
        vi = m._vmap_internals
        x = data(m, 3, 2, seed=1)
        out = vi._vmap(lambda a: (a.sin(), a.sum()), 0, (0, 0))(x)
        moved = vi._vmap(lambda a: a * 2, 1, 1)(x)
        nones = vi._vmap(lambda a: (a * 2, None), 0, 0, allow_none_pass_through=True)(x)
        bad = catch(vi._vmap(lambda a: [a]), x)
        rnd = catch(vi._vmap(lambda a: m.randn_like(a)), x)
        return out, moved, nones, bad, rnd
    same(prog)


def test_vmap_internals_vmap_warns():
    def prog(m):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = m._vmap_internals.vmap(m.neg)(m.ones(2))
        return r, [(x.category.__name__, str(x.message)) for x in w]
    same(prog)


@pytest.mark.parametrize("name", ["autograd_core._vmap_internals",
                                  "autograd_core.autograd.function",
                                  "autograd_core.func._forward"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------ batching rules PyTorch has
# (the per-sample fallback warned "performance drop" where PyTorch batches silently)

@pytest.mark.parametrize("case", ["weight", "input and weight", "weight and bias",
                                  "unbatched input", "same padding", "per-sample grads"])
def test_vmap_conv_with_batched_weight(case):
    def prog(m):
        fn, F_ = F(m), m.nn.functional
        x, w, b = data(m, 3, 2, 4, 6, 6, seed=1), data(m, 3, 6, 2, 3, 3, seed=2), data(m, 3, 6, seed=3)
        if case == "weight":
            return fn.vmap(lambda w: F_.conv2d(x[0], w, groups=2, stride=2))(w)
        if case == "input and weight":
            return fn.vmap(lambda x, w: F_.conv2d(x, w, padding=1, groups=2))(x, w)
        if case == "weight and bias":
            return fn.vmap(lambda w, b: F_.conv1d(x[0, :, :, 0], w[..., 0], b, groups=2))(w, b)
        if case == "unbatched input":
            return fn.vmap(lambda x, w: F_.conv2d(x, w, groups=2))(x[:, 0], w)
        if case == "same padding":
            return fn.vmap(lambda x, w, b: F_.conv2d(x, w, b, 1, "same", 1, 2),
                           in_dims=(0, 0, None))(x, w, b[0])
        conv = m.nn.Conv2d(4, 6, 3)
        params = {"weight": w[0].repeat(1, 2, 1, 1), "bias": b[0]}
        loss = lambda p, s: fn.functional_call(conv, p, (s.unsqueeze(0),)).square().mean()
        return fn.vmap(fn.grad(loss), in_dims=(None, 0))(params, x[:, 0])
    r, w = warns(same, prog)
    assert w == []


def test_vmap_new_filled_and_fill_are_batched():
    def prog(m):
        x = data(m, 3, 2, seed=4)

        def f(t):
            z = t.new_zeros((2,))
            z += t
            return (z, t.new_ones(2, 2).sum() * t, t.new_full((2,), 3.0, dtype=m.float64) + t,
                    t.new_empty(size=(4,)).fill_(1) * t.sum(), t.clone().fill_(t.sum()),
                    t.clone().zero_())
        return F(m).vmap(f)(x)
    r, w = warns(same, prog)
    assert w == []


@pytest.mark.parametrize("case", ["batch stats", "eval running stats", "batched running stats",
                                  "batched weight", "module refuses", "grad"])
def test_vmap_batch_norm_as_pytorchs(case):
    # each sample normalised by its own statistics; batch statistics that would be written
    # into unbatched running stats raise PyTorch's error (the per-sample fallback mixed them)
    def prog(m):
        fn, F_ = F(m), m.nn.functional
        x, w, b = data(m, 3, 5, 4, 2, seed=5), data(m, 4, seed=6), data(m, 4, seed=7)
        if case == "batch stats":
            return fn.vmap(lambda t: F_.batch_norm(t, None, None, w, b, training=True))(x)
        if case == "eval running stats":
            return fn.vmap(lambda t: F_.batch_norm(t, m.zeros(4, dtype=m.float64),
                                                   m.ones(4, dtype=m.float64) * 2, w, b))(x)
        if case == "batched running stats":
            rm, rv = m.zeros(3, 4, dtype=m.float64), m.ones(3, 4, dtype=m.float64)
            out = fn.vmap(lambda t, a, v: F_.batch_norm(t, a, v, training=True, momentum=0.5))(
                x, rm, rv)
            return out, rm, rv
        if case == "batched weight":
            return fn.vmap(lambda ww: F_.batch_norm(x[0], None, None, ww, None, training=True))(
                data(m, 2, 4, seed=8))
        if case == "module refuses":
            return fn.vmap(m.nn.BatchNorm1d(4).double())(x)
        return fn.grad(lambda t: fn.vmap(lambda s: F_.batch_norm(
            s, None, None, w, b, training=True))(t).sin().sum())(x)
    r, w = warns(same, prog, may_raise=(case == "module refuses"))
    assert w == []


def test_vmap_pad_interpolate_and_fallback_names():
    def prog(m):
        fn, F_ = F(m), m.nn.functional
        x = data(m, 2, 1, 4, seed=9)
        return (fn.vmap(F_.pad, in_dims=(0, None))(x[:, 0], (1, 2)),
                fn.vmap(lambda t: F_.pad(t, (1, 1, 2, 0), value=3.0))(x),
                [fn.vmap(lambda t: F_.interpolate(t.unsqueeze(0), size=6, mode=mode))(x)
                 for mode in ("nearest", "linear", "area")])
    r, w = warns(same, prog)
    assert w == []

    def mha(m):
        # PyTorch's per-sample fallback under MultiheadAttention names its CPU kernel
        m.manual_seed(0)
        attn = m.nn.MultiheadAttention(6, 2, batch_first=True)
        seq = data(m, 3, 2, 4, 6, seed=10, dtype="float32")
        return warns(lambda: F(m).vmap(lambda s: attn(s, s, s, need_weights=False)[0])(seq))
    same(mha)
