"""torch.func.functionalize in eager mode, compared with torch.func: the CPU cases of
pytorch/pytorch test/functorch/test_eager_transforms.py's TestFunctionalize that need
no make_fx tracing (values equal; inputs mutated as func mutates them), plus its
composition with grad / vmap / jacrev and its errors."""
import pytest

from _diff import data, same, same_error

torch = pytest.importorskip("torch")


def F(mod):
    return mod.func


def check_correctness(f, make_input, skip_vmap=False):
    """TestFunctionalize._check_functionalize_correctness as a program: f on a clone,
    functionalize(f) (under vmap too) and its mutations_and_views flavour; the outputs
    and the mutated inputs."""
    def prog(m):
        inpt = make_input(m)
        i1, i2, i3 = inpt.clone(), inpt.clone(), inpt.clone()
        expected = f(m, i1)
        if skip_vmap:
            actual = F(m).functionalize(lambda x: f(m, x))(i2)
        else:
            actual = F(m).vmap(F(m).functionalize(lambda x: f(m, x)))(i2.unsqueeze(0))[0]
            actual = actual.squeeze()
        copy_views = F(m).functionalize(lambda x: f(m, x), remove="mutations_and_views")(i3)
        return expected, actual, copy_views, i1, i2, i3
    got = same(prog)
    expected, actual, copy_views, i1, i2, i3 = got
    assert actual.tolist() == expected.tolist() == copy_views.tolist()
    assert i1.tolist() == i2.tolist() == i3.tolist()


def test_simple_view():
    def f(m, x):
        tmp = m.ones(2)
        y = x.view(4, 2)
        y.add_(tmp)
        return x
    check_correctness(f, lambda m: m.zeros(4, 2))


def test_multioutput_view():
    def f(m, x):
        tmp = m.ones(2)
        y1, y2 = x.split(2)
        y1_view = y1.diagonal()
        y1_view.add_(tmp)
        return x
    check_correctness(f, lambda m: m.zeros(4, 2))


def test_inplace_view():
    def f(m, x):
        tmp = m.ones(4)
        y = x + x
        y2 = y.transpose(1, 0)
        z = y2[0]
        z.add_(tmp)
        return y
    check_correctness(f, lambda m: m.zeros(4, 2), skip_vmap=True)


def test_multioutput_inplace_slice_view():
    def f(m, x):
        tmp = m.ones(2, 2)
        y = x.view(8)
        z0 = y.reshape(2, 4)
        z1 = z0.transpose(1, 0)
        z1.unsqueeze_(0)
        z1.squeeze_()
        z2, z3 = z1.split(2)
        z2.add_(tmp)
        return x
    check_correctness(f, lambda m: m.zeros(4, 2), skip_vmap=True)


def test_multioutput_view_preserves_autograd_metadata():
    def prog(m):
        def f(x):
            base = x.clone()
            out = base.unbind(0)[0]
            base.add_(1)
            return out
        out = F(m).functionalize(f)(m.ones(2, 3, requires_grad=True))
        out.mul_(2)
    same_error(prog, message="prefix")


def test_multioutput_view_regeneration_matches_eager():
    def prog(m):
        def f(x):
            base = x.clone()
            outs = base.split(2)
            base.add_(1)
            return tuple(o.clone() for o in outs)
        x = m.arange(15.0).reshape(5, 3)
        return F(m).functionalize(f)(x), f(x)
    got, eager = same(prog)
    assert [t.tolist() for t in got] == [t.tolist() for t in eager]


def test_linear():
    same(lambda m: F(m).functionalize(m.nn.functional.linear)(
        data(m, 14, 1, 38, seed=1), data(m, 9, 38, seed=2), data(m, 9, seed=3)))


def test_functionalize_opt_tensor_list():
    same(lambda m: F(m).functionalize(lambda x, i: x[i])(m.ones(4), m.arange(2)))


def test_functionalize_grad():
    def prog(m):
        def f(x):
            tmp = m.ones(2)
            y = x + x
            z = y.view(4, 2)
            y.add_(tmp)
            return z.sum()
        inpt1, inpt2 = m.ones(4, 2), m.ones(4, 2)
        return F(m).grad(f)(inpt1), F(m).grad(F(m).functionalize(f))(inpt2), inpt1, inpt2
    same(prog)


def test_vmap_functionalize_jvp():
    def prog(m):
        def f(x):
            y = x + x
            z = y.view(-1)
            y.add_(1)
            return z

        def jvp_wrapper(x, t):
            return F(m).jvp(f, (x,), (t,))
        x, t = data(m, 2, 3, seed=4), data(m, 2, 3, seed=5)
        return F(m).vmap(jvp_wrapper)(x, t), F(m).vmap(F(m).functionalize(jvp_wrapper))(x, t)
    same(prog)


# ---------------------------------------------------------------- beyond PyTorch's tests

def test_input_mutation_copied_back_with_version():
    def prog(m):
        x = m.ones(2, 2)
        out = F(m).functionalize(lambda a: a[0].fill_(5).sum())(x)
        y = m.ones(2)
        untouched = F(m).functionalize(lambda a: a + 1)(y)
        return out, x, x._version, untouched, y._version
    same(prog)


def test_kwargs_and_pytree_outputs():
    def prog(m):
        def k(a, *, b):
            b.add_(a)
            return a, a.view(-1), [a.t()], {"k": 1}
        b = m.zeros(2, 2)
        return F(m).functionalize(k)(m.ones(2, 2), b=b), b
    same(prog)


def test_out_argument_into_an_input():
    def prog(m):
        def f(a, o):
            m.add(a, 1, out=o)
            return o
        o = m.zeros(2)
        return F(m).functionalize(f)(m.ones(2), o), o
    same(prog)


def test_mutations_and_views_outputs_own_memory():
    def prog(m):
        x = m.ones(2, 2)
        kept = F(m).functionalize(lambda a: a.view(-1))(x)
        copied = F(m).functionalize(lambda a: a.view(-1), remove="mutations_and_views")(x)
        return kept._base is not None, copied._base is None, copied
    same(prog)


def test_non_leaf_input_mutation_recorded_by_autograd():
    def prog(m):
        x = m.ones(2, requires_grad=True)
        y = x * 1

        def w(a):
            a.mul_(2)
            return a * 3
        o = F(m).functionalize(w)(y)
        o.sum().backward()
        return o, y, type(y.grad_fn).__name__, x.grad
    same(prog)


def test_leaf_requiring_grad_refuses_the_mutation():
    def prog(m):
        def g(a):
            a.mul_(2)
            return a * 3
        F(m).functionalize(g)(m.ones(2, requires_grad=True))
    same_error(prog)


def test_composes_with_jacrev_grad_vmap():
    def prog(m):
        def h(a):
            b = a.clone()
            b.mul_(2)
            return b.sin()

        def g(a):
            a.mul_(2)
            return a * 3
        x = data(m, 3, seed=7)
        batch = m.ones(3, 2)
        return (F(m).jacrev(F(m).functionalize(h))(x),
                F(m).grad(lambda a: F(m).functionalize(h)(a).sum())(x),
                F(m).functionalize(F(m).grad(lambda a: (a * a).sum()))(x),
                F(m).vmap(F(m).functionalize(g))(batch), batch)
    same(prog)


def test_grad_of_input_mutation_refused_as_pytorch():
    def prog(m):
        def g(a):
            a.mul_(2)
            return a * 3
        F(m).grad(lambda a: F(m).functionalize(g)(a).sum())(m.ones(2))
    same_error(prog)


def test_bad_remove():
    same_error(lambda m: F(m).functionalize(lambda a: a, remove="views"))


def test_keeps_the_name():
    def sl(a):
        return a
    same(lambda m: F(m).functionalize(sl).__name__)
