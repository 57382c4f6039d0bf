"""torch.func's forward-mode transforms (jvp, jacfwd, linearize) compared with torch.func:
cases of pytorch/pytorch test/functorch/test_eager_transforms.py (TestJvp, TestJac's
jacfwd variants, TestLinearize), each a program run under both modules."""
import pytest

from _diff import data, same

torch = pytest.importorskip("torch")


def F(mod):
    return mod.func


def test_jvp_inplace_op_and_simple():
    def prog(m):
        x, t = data(m, 3, seed=1), data(m, 3, seed=2)
        return F(m).jvp(m.sin, (x,), (t,)), F(m).jvp(lambda x: x.clone().mul_(2), (x,), (t,))
    same(prog)


def test_jvp_several_inputs_outputs_and_pytrees():
    def prog(m):
        x, y = data(m, 2, 3, seed=1), data(m, 3, seed=2)
        tx, ty = data(m, 2, 3, seed=3), data(m, 3, seed=4)

        def f(a, b):
            return {"s": (a * b).sum(1), "p": (a.exp() @ b, a.tanh())}
        return F(m).jvp(f, (x, y), (tx, ty))
    same(prog)


def test_jvp_has_aux_and_independent_output():
    def prog(m):
        x, t = data(m, 3, seed=1), data(m, 3, seed=2)
        r = F(m).jvp(lambda x: (x.sin(), {"aux": x.cos()}), (x,), (t,), has_aux=True)
        const = F(m).jvp(lambda x: m.ones(2), (x,), (t,))
        return r, const
    same(prog)


def test_jvp_of_nn_layer_and_loss():
    def prog(m):
        m.manual_seed(0)
        lin = m.nn.Linear(3, 2).double()
        x, t = data(m, 4, 3, seed=1), data(m, 4, 3, seed=2)
        f = lambda x: m.nn.functional.mse_loss(m.relu(lin(x)), m.zeros(4, 2, dtype=m.float64))
        return F(m).jvp(f, (x,), (t,))
    same(prog)


@pytest.mark.parametrize("case", ["not-tuple", "structure", "non-tensor", "empty",
                                  "strict", "aux-not-pair", "out-not-tensor"])
def test_jvp_errors(case):
    def prog(m):
        x, t = data(m, 3, seed=1), data(m, 3, seed=2)
        jvp = F(m).jvp
        return {"not-tuple": lambda: jvp(m.sin, x, (t,)),
                "structure": lambda: jvp(m.sin, (x,), [t]),
                "non-tensor": lambda: jvp(m.sin, (1.0,), (1.0,)),
                "empty": lambda: jvp(m.sin, (), ()),
                "strict": lambda: jvp(lambda x: m.ones(2), (x,), (t,), strict=True),
                "aux-not-pair": lambda: jvp(m.sin, (x,), (t,), has_aux=True),
                "out-not-tensor": lambda: jvp(lambda x: 1.0, (x,), (t,))}[case]()
    same(prog, must_raise=True)


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1,)])
def test_jacfwd_argnums(argnums):
    def prog(m):
        x, y = data(m, 3, seed=1), data(m, 2, 3, seed=2)
        return F(m).jacfwd(lambda a, b: (a * b).sin(), argnums=argnums)(x, y)
    same(prog)


def test_jacfwd_matches_jacrev_and_has_aux():
    def prog(m):
        x = data(m, 2, 2, seed=3)
        f = lambda x: (x.exp() @ x, x.sum())
        jf, aux = F(m).jacfwd(f, has_aux=True)(x)
        return jf, aux, F(m).jacrev(lambda x: f(x)[0])(x), F(m).jacfwd(lambda x: x.sum())(x)
    same(prog)


def test_jacfwd_of_multiple_outputs_and_scalar_input():
    def prog(m):
        x = data(m, seed=5)
        return F(m).jacfwd(lambda x: (x.sin(), m.stack([x, x * 2])))(x)
    same(prog)


def test_linearize():
    def prog(m):
        x, t = data(m, 3, 2, seed=1), data(m, 3, 2, seed=2)
        out, jvp_fn = F(m).linearize(lambda x: x.sin().sum(0), x)
        return out, jvp_fn(t), jvp_fn(t * 2)
    same(prog)


@pytest.mark.parametrize("case", ["shape", "dtype", "structure"])
def test_linearize_errors(case):
    def prog(m):
        x = data(m, 3, seed=1)
        _, jvp_fn = F(m).linearize(m.sin, x)
        return {"shape": lambda: jvp_fn(m.ones(4, dtype=m.float64)),
                "dtype": lambda: jvp_fn(m.ones(3)),
                "structure": lambda: jvp_fn(m.ones(3, dtype=m.float64),
                                            m.ones(3, dtype=m.float64))}[case]()
    same(prog, must_raise=True)


@pytest.mark.parametrize("compose", ["jacfwd(jacrev)", "jacfwd(grad)", "jvp(grad)",
                                     "jacfwd(jacrev, argnums=1)", "jacfwd(vjp)"])
def test_forward_over_reverse(compose):
    # PyTorch's hessian is jacfwd(jacrev(f)): the tangents must flow through the
    # reverse transform's backward (a dropped tangent gives a silent zero Hessian)
    def prog(m):
        fn = m.func
        x, y = data(m, 3, seed=1), data(m, 3, seed=2)
        f = lambda x, y: (x.sin() * y.exp()).sum() + x[0] * x[1] * y[2]
        if compose == "jacfwd(jacrev)":
            return fn.jacfwd(fn.jacrev(f))(x, y)
        if compose == "jacfwd(grad)":
            return fn.jacfwd(fn.grad(f))(x, y)
        if compose == "jvp(grad)":
            return fn.jvp(lambda x: fn.grad(f)(x, y), (x,), (data(m, 3, seed=3),))
        if compose == "jacfwd(jacrev, argnums=1)":
            return fn.jacfwd(fn.jacrev(f, argnums=1), argnums=0)(x, y)
        return fn.jacfwd(lambda x: fn.vjp(lambda x: x.exp() * y, x)[1](m.ones_like(x))[0])(x)
    same(prog)


@pytest.mark.parametrize("compose", ["jvp(vmap)", "vmap(jvp)", "vmap(jacfwd)", "jacfwd(vmap)",
                                     "vmap(jacfwd(grad))", "vmap(jvp, in_dims)"])
def test_forward_transforms_with_vmap(compose):
    # under vmap a jvp runs once over the batch on physical dual tensors (Note [jvp under
    # vmap] in func/_vmap.py)
    def prog(m):
        fn = m.func
        x, t = data(m, 2, 3, seed=1), data(m, 2, 3, seed=2)
        g = lambda v: (v.sin() * v).sum()
        return {"jvp(vmap)": lambda: fn.jvp(fn.vmap(m.sin), (x,), (t,)),
                "vmap(jvp)": lambda: fn.vmap(lambda a, b: fn.jvp(m.sin, (a,), (b,)))(x, t),
                "vmap(jacfwd)": lambda: fn.vmap(fn.jacfwd(m.sin))(x),
                "jacfwd(vmap)": lambda: fn.jacfwd(fn.vmap(m.sin))(x),
                "vmap(jacfwd(grad))": lambda: fn.vmap(fn.jacfwd(fn.grad(g)))(x),
                "vmap(jvp, in_dims)": lambda: fn.vmap(
                    lambda a, b: fn.jvp(lambda u: u * b, (a,), (b,)), in_dims=(1, None))(
                        x, t[0, :2])}[compose]()
    same(prog)
