"""PyTorch's __torch_function__ protocol (torch.overrides) on the namespace functions,
Tensor methods and nn.functional: which function the override receives, with which
overriding types, what it returns, NotImplemented's TypeError, nn.Parameter opting out,
and the public helpers; compared with torch. (The arguments an override receives are
the wrapper's full parameter list, defaults included, where PyTorch passes the user's
spelling: not compared.)"""
import pytest

from _diff import same, same_error

torch = pytest.importorskip("torch")


def _recorder(m):
    class Rec:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("called", func.__name__, [t.__name__ for t in types])
    return Rec


def _refuser(m):
    class Refuse:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented
    return Refuse


CALLS = [
    ("sin", lambda m, o: m.sin(o)),
    ("add", lambda m, o: m.add(m.ones(1), o, alpha=2)),
    ("mul method", lambda m, o: m.ones(1).mul(o)),
    ("sum", lambda m, o: m.sum(o, dim=0)),
    ("cat", lambda m, o: m.cat([m.ones(1), o])),
    ("where", lambda m, o: m.where(m.ones(1) > 0, o, m.ones(1))),
    ("div", lambda m, o: m.div(o, 2)),
    ("matmul", lambda m, o: m.matmul(m.ones(2, 2), o)),
    ("linear", lambda m, o: m.nn.functional.linear(o, m.ones(2, 2))),
    ("mse_loss", lambda m, o: m.nn.functional.mse_loss(o, m.ones(1))),
    ("cross_entropy", lambda m, o: m.nn.functional.cross_entropy(o, m.ones(1))),
    ("dropout", lambda m, o: m.nn.functional.dropout(o, 0.5)),
    ("zeros_like", lambda m, o: m.zeros_like(o)),
    ("clamp", lambda m, o: m.clamp(o, min=0)),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_override_called(name, call):
    same(lambda m: call(m, _recorder(m)()))


DECLINED = CALLS[:4] + CALLS[9:10]


@pytest.mark.parametrize("name,call", DECLINED, ids=[c[0] for c in DECLINED])
def test_not_implemented_everywhere_is_type_error(name, call):
    same_error(lambda m: call(m, _refuser(m)()))


def test_parameter_is_a_plain_tensor():
    def prog(m):
        p = m.nn.Parameter(m.ones(2))
        return m.sin(p), m.add(p, p), m.nn.Parameter.__torch_function__ is not None
    same(prog)


def test_first_overriding_type_wins_and_subclass_first():
    def prog(m):
        class Base:
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return ("base", [t.__name__ for t in types])

        class Sub(Base):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return ("sub", [t.__name__ for t in types])

        class Other:
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return NotImplemented
        return (m.add(Base(), Sub()), m.add(Other(), Base()), m.mul(Base(), Base()))
    same(prog)


def test_public_helpers():
    def prog(m):
        Rec = _recorder(m)

        def f(x):
            if m.overrides.has_torch_function((x,)):
                return m.overrides.handle_torch_function(f, (x,), x)
            return x + 1
        return (m.overrides.has_torch_function((m.ones(1),)),
                m.overrides.has_torch_function((Rec(),)),
                m.overrides.is_tensor_like(m.ones(1)), m.overrides.is_tensor_like(Rec()),
                m.overrides.is_tensor_like(3), f(Rec()), f(m.ones(1)))
    same(prog)
