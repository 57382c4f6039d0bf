"""torch.autograd.NestedIOFunction (the legacy nested-IO Function base) and
torch.autograd.enforce_grad_layout_policy, compared with PyTorch 2.13: the nest helpers
flatten and regroup as there, and running a NestedIOFunction fails as it does there
(its legacy call path is gone)."""
import warnings

import pytest

from _diff import same, same_error

torch = pytest.importorskip("torch")


def _nested(m):
    class Scale(m.autograd.NestedIOFunction):
        def forward_extended(self, a, pair):
            self.save_for_backward(a, pair)
            return a * pair[0], (pair[1],)

        def backward_extended(self, g, rest):
            return g, (g, rest[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Scale, Scale()


def test_helpers_flatten_and_regroup_nests():
    def prog(m):
        _, f = _nested(m)
        x, y = m.ones(2), m.zeros(3)
        f.save_for_backward(x, [y, (x,), None], {"k": y})
        f.mark_dirty(x, [y], k=(x,))
        f.mark_non_differentiable(y, None)
        return (f.to_save, f._to_save_nested, f.dirty_tensors, f.non_differentiable,
                issubclass(type(f), m.autograd.Function))
    same(prog)


def test_instantiation_warns_deprecation():
    def prog(m):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m.autograd.NestedIOFunction()
        return [(x.category.__name__, str(x.message).split("'")[0]) for x in w]
    same(prog)


@pytest.mark.parametrize("case", ["int", "str", "dict_int"])
def test_auto_nesting_errors(case):
    bad = {"int": (3,), "str": ("s",), "dict_int": ({"a": 1.5},)}[case]
    same_error(lambda m: _nested(m)[1].save_for_backward(m.ones(1), *bad))
    same_error(lambda m: _nested(m)[1].mark_dirty(m.ones(1), *bad))


def test_saved_tensors_without_a_run():
    def prog(m):
        _, f = _nested(m)
        f.save_for_backward(m.ones(2))
        return f.saved_tensors
    same_error(prog)


@pytest.mark.parametrize("how", ["call", "apply", "forward", "backward", "extended"])
def test_running_fails_as_in_pytorch(how):
    def prog(m):
        cls, f = _nested(m)
        x = m.ones(2, requires_grad=True)
        if how == "call":
            return f(x, (x, x))
        if how == "apply":
            return cls.apply(x, (x, x))
        if how == "forward":
            return f.forward(x)
        if how == "backward":
            return f.backward(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return m.autograd.NestedIOFunction().forward_extended(x)
    same_error(prog)
