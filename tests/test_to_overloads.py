"""Tensor.to and nn.Module.to with every overload PyTorch accepts (Note [to() overloads]):
results (self when nothing changes, unless copy=True), dtypes, graphs, and PyTorch's
errors for bad arguments, compared with torch."""
import pytest

from _diff import data, same, same_error

import autograd_core


def describe(mod, x, r):
    """What a to() call returned: self or a new tensor (its dtype, values, grad_fn)."""
    if r is x:
        return "self"
    return (r, r.dtype, None if r.grad_fn is None else type(r.grad_fn).__name__,
            r.is_contiguous())


CALLS = [
    lambda m, x: x.to(None),
    lambda m, x: x.to(),
    lambda m, x: x.to(m.float64),
    lambda m, x: x.to("cpu"),
    lambda m, x: x.to("cpu", m.float64),
    lambda m, x: x.to("cpu", m.float64, copy=True),
    lambda m, x: x.to("cpu", m.float32, True, True),
    lambda m, x: x.to("cpu", m.float32, non_blocking=True),
    lambda m, x: x.to("cpu", None, False, True),
    lambda m, x: x.to(m.float32, copy=True),
    lambda m, x: x.to(m.float32, False, True),
    lambda m, x: x.to(m.float32, False, False),
    lambda m, x: x.to(device=None),
    lambda m, x: x.to(None, None),
    lambda m, x: x.to(None, m.float64),
    lambda m, x: x.to(None, copy=True),
    lambda m, x: x.to(dtype=None),
    lambda m, x: x.to(dtype=m.int32),
    lambda m, x: x.to(m.device("cpu")),
    lambda m, x: x.to(m.device("cpu"), dtype=m.float64),
    lambda m, x: x.to(dtype=m.float32, device="cpu", copy=True),
    lambda m, x: x.to(device="cpu", dtype=m.float16),
    lambda m, x: x.to(m.ones(1, dtype=m.int64)),
    lambda m, x: x.to(m.ones(1), True, True),
    lambda m, x: x.to(tensor=m.ones(1, dtype=m.float64)),
    lambda m, x: x.to(m.float32, memory_format=m.contiguous_format),
    lambda m, x: x.to(m.float64, True, True, memory_format=m.preserve_format),
    lambda m, x: x.to(None, m.float64, False, False, memory_format=m.contiguous_format),
    lambda m, x: x.to(memory_format=None),
    lambda m, x: x.to(non_blocking=True),
    lambda m, x: x.to(copy=True),
    lambda m, x: x.to(3.0),
    lambda m, x: x.to(True),
    lambda m, x: x.to(float),
    lambda m, x: x.to(int),
    lambda m, x: x.to(bool),
]


@pytest.mark.parametrize("i", range(len(CALLS)))
def test_tensor_to(i):
    def prog(mod):
        x = data(mod, 2, 3, dtype="float32", requires_grad=True) * 1
        return describe(mod, x, CALLS[i](mod, x))
    same(prog)


def test_tensor_to_memory_format_and_gradient():
    def prog(mod):
        x = data(mod, 2, 3, 4, 5, requires_grad=True)
        y = x.to(memory_format=mod.channels_last)
        z = x.to(mod.float32, memory_format=mod.channels_last)
        w = x.to("cpu", mod.float64, copy=True)
        (y.sum() + (z * z).sum() + (w * 3).sum()).backward()
        return (y.stride(), z.stride(), z.dtype, w is x, type(w.grad_fn).__name__, x.grad,
                x.to(memory_format=mod.contiguous_format) is x)
    same(prog)


BAD = [
    lambda m, x: x.to(other=m.ones(1)),
    lambda m, x: x.to("cpu", "cpu"),
    lambda m, x: x.to(m.float32, m.float32),
    lambda m, x: x.to(m.float32, dtype=m.float64),
    lambda m, x: x.to(foo=1),
    lambda m, x: x.to(None, foo=1),
    lambda m, x: x.to(1.5, foo=2),
    lambda m, x: x.to("cpu", m.float32, False, False, False),
    lambda m, x: x.to(m.ones(1), dtype=m.float64),
    lambda m, x: x.to([1]),
    lambda m, x: x.to(m.float32, "cpu"),
    lambda m, x: x.to(m.float64, non_blocking=1),
    lambda m, x: x.to(m.float64, copy=None),
    lambda m, x: x.to(memory_format=1),
    lambda m, x: x.to(m.strided),
    lambda m, x: x.to(None, None, None),
    lambda m, x: x.to(device=3.0),
    lambda m, x: x.to(m.float64, True, True, True),
    lambda m, x: x.to(m.ones(1), True, True, True),
    lambda m, x: x.to(m.float64, False, False, m.preserve_format),
    lambda m, x: x.to(0),
    lambda m, x: x.to(-1),
    lambda m, x: x.to("cuda"),
    lambda m, x: x.to(m.ones(2), dtype=None),
    lambda m, x: x.to(memory_format=m.channels_last),
]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_tensor_to_errors(i):
    same_error(lambda m: BAD[i](m, m.ones(2, 3)))


MODULE_CALLS = [
    lambda m, net: net.to(None),
    lambda m, net: net.to(),
    lambda m, net: net.to(m.float64),
    lambda m, net: net.to("cpu", m.float64),
    lambda m, net: net.to(m.ones(1, dtype=m.float16)),
    lambda m, net: net.to(memory_format=m.channels_last),
    lambda m, net: net.to(m.float64, True),
    lambda m, net: net.to(m.float64, non_blocking=True),
    lambda m, net: net.to(dtype=None),
    lambda m, net: net.to(None, None),
    lambda m, net: net.to(device=None, dtype=None, non_blocking=False),
    lambda m, net: net.to(device="cpu", dtype=m.float64),
    lambda m, net: net.to(1.0),
]


@pytest.mark.parametrize("i", range(len(MODULE_CALLS)))
def test_module_to(i):
    def prog(mod):
        mod.manual_seed(0)
        net = mod.nn.Sequential(mod.nn.Conv2d(2, 3, 2), mod.nn.BatchNorm2d(3))
        r = MODULE_CALLS[i](mod, net)
        return (r is net, [(k, v.dtype, v.stride(), v) for k, v in net.state_dict().items()],
                [type(p).__name__ for p in net.parameters()])
    same(prog)


MODULE_BAD = [
    lambda m, net: net.to(m.int64),
    lambda m, net: net.to(foo=1),
    lambda m, net: net.to(m.float64, copy=True),
    lambda m, net: net.to(m.float64, copy=False),
    lambda m, net: net.to("cpu", m.float32, False, False),
    lambda m, net: net.to([1]),
    lambda m, net: net.to("cpu", "cpu"),
]


@pytest.mark.parametrize("i", range(len(MODULE_BAD)))
def test_module_to_errors(i):
    same_error(lambda m: MODULE_BAD[i](m, m.nn.Linear(2, 2)))


def test_module_to_keeps_parameters_and_grads():
    def prog(mod):
        mod.manual_seed(0)
        net = mod.nn.Linear(3, 2)
        w = net.weight
        net(mod.ones(1, 3)).sum().backward()
        net.to(None, mod.float64)
        return (net.weight is w, net.weight.dtype, net.weight.grad.dtype,
                net(mod.ones(1, 3, dtype=mod.float64)))
    same(prog)


def test_docstring_examples_run():
    import doctest
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    for fn in (autograd_core.Tensor.to, autograd_core.nn.Module.to):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=flags)
        tests = finder.find(fn, fn.__name__, globs={})
        assert tests and tests[0].examples
        for t in tests:
            runner.run(t)
        assert runner.failures == 0
