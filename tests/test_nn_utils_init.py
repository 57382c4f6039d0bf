"""nn.utils (clipping, parameter vectors, rnn packing) and nn.init against PyTorch."""
import math

import numpy as np
import pytest

from _diff import catch, same, warns

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402


def _grads(mod):
    p1 = mod.tensor([[1., -2.], [3., 0.5]], requires_grad=True)
    p2 = mod.tensor([4., -1., 2.], requires_grad=True)
    p3 = mod.tensor([1.], requires_grad=True)   # no grad
    ((p1 * p1).sum() * 0.5 + (p2 ** 3).sum()).backward()
    return [p1, p2, p3]


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, float("inf")])
def test_clip_grad_norm(norm_type):
    def prog(mod):
        ps = _grads(mod)
        total = mod.nn.utils.clip_grad_norm_(ps, 5.0, norm_type=norm_type)
        return total, [p.grad for p in ps]
    same(prog)


def test_clip_grad_norm_edges():
    def prog(mod):
        ps = _grads(mod)
        out = [mod.nn.utils.clip_grad_norm_(ps[0], 100.0), ps[0].grad]
        out.append(warns(mod.nn.utils.clip_grad_norm_, (p for p in []), 1.0))
        ps[1].grad[0] = float("inf")
        out.append(catch(mod.nn.utils.clip_grad_norm_, ps, 1.0, error_if_nonfinite=True))
        out.append(mod.nn.utils.clip_grad_norm_([mod.ones(1, requires_grad=True)], 1.0))
        return out
    same(prog)


def test_clip_grad_value_and_parameter_vectors():
    def prog(mod):
        ps = _grads(mod)
        mod.nn.utils.clip_grad_value_(ps, 1.5)
        out = [[p.grad for p in ps]]
        lin = mod.nn.Linear(3, 2)
        with mod.no_grad():
            lin.weight.copy_(mod.arange(6.).reshape(2, 3))
            lin.bias.fill_(-1.0)
        v = mod.nn.utils.parameters_to_vector(lin.parameters())
        out.append(v)
        mod.nn.utils.vector_to_parameters(v * 2, lin.parameters())
        out.append([p for p in lin.parameters()])
        out.append(catch(mod.nn.utils.vector_to_parameters, [1.0], lin.parameters()))
        return out
    same(prog)


def test_rnn_utils():
    def prog(mod):
        R = mod.nn.utils.rnn
        a = mod.tensor([[1., 1], [2, 2], [3, 3]])
        b = mod.tensor([[4., 4]])
        c = mod.tensor([[5., 5], [6, 6]])
        out = [R.pad_sequence([a, b, c]), R.pad_sequence([a, b, c], batch_first=True,
                                                          padding_value=-1),
               R.pad_sequence([a, b, c], batch_first=True, padding_side="left")]
        packed = R.pack_sequence([a, b, c], enforce_sorted=False)
        out.append(tuple(packed))
        out.append(R.pad_packed_sequence(packed))
        out.append(R.pad_packed_sequence(packed, batch_first=True, total_length=5))
        out.append(R.unpack_sequence(packed))
        out.append(R.unpad_sequence(R.pad_sequence([a, b, c]), mod.tensor([3, 1, 2])))
        padded = R.pad_sequence([a, c, b], batch_first=True)
        p2 = R.pack_padded_sequence(padded, mod.tensor([3, 2, 1]), batch_first=True)
        out.append(tuple(p2))
        out.append(catch(R.pack_padded_sequence, padded, [1, 2, 3], batch_first=True))
        out.append(catch(R.pack_padded_sequence, padded, [3, 2, 0], batch_first=True))
        out.append(catch(R.pad_packed_sequence, p2, total_length=1))
        out.append(R.invert_permutation(mod.tensor([2, 0, 1])))
        out.append(type(p2).__name__)
        out.append(tuple(p2.double()))
        return out
    same(prog)


def test_packed_sequence_gradients():
    def prog(mod):
        R = mod.nn.utils.rnn
        x = mod.arange(12.).reshape(3, 2, 2).requires_grad_()
        packed = R.pack_padded_sequence(x, [3, 1], enforce_sorted=True)
        padded, lengths = R.pad_packed_sequence(packed, padding_value=7.0)
        (padded * padded).sum().backward()
        return padded, lengths, x.grad
    same(prog)


# ------------------------------------------------------------------ init

def test_calculate_gain_and_fans():
    def prog(mod):
        init = mod.nn.init
        out = [init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu",
                                                  "leaky_relu", "selu", "conv_transpose3d")]
        out += [init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("leaky_relu", 1),
                catch(init.calculate_gain, "leaky_relu", "x"), catch(init.calculate_gain, "foo"),
                init._calculate_fan_in_and_fan_out(mod.empty(3, 4)),
                init._calculate_fan_in_and_fan_out(mod.empty(3, 4, 5, 2)),
                catch(init._calculate_fan_in_and_fan_out, mod.empty(3)),
                catch(init.kaiming_uniform_, mod.empty(3, 4), mode="fan_x"),
                catch(init.eye_, mod.empty(3)), catch(init.dirac_, mod.empty(3, 3)),
                catch(init.dirac_, mod.empty(3, 3, 3), groups=2),
                catch(init.orthogonal_, mod.empty(3)), catch(init.sparse_, mod.empty(3), 0.1),
                warns(init.kaiming_normal_, mod.empty(0, 3))[1],
                warns(init.uniform, mod.empty(2))[1],
                warns(init.trunc_normal_, mod.empty(2), mean=10.0)[1]]
        return out
    same(prog)


def test_deterministic_inits():
    def prog(mod):
        init = mod.nn.init
        return [init.constant_(mod.empty(2, 3), 0.5), init.ones_(mod.empty(2)),
                init.zeros_(mod.empty(2, 2)), init.eye_(mod.empty(2, 3)),
                init.dirac_(mod.empty(4, 2, 3)), init.dirac_(mod.empty(4, 2, 3, 3), groups=2),
                init.dirac_(mod.empty(2, 3, 1, 3, 3))]
    same(prog)


def _stats(t):
    a = t.detach().numpy().astype(np.float64).ravel()
    return a.mean(), a.std(), a.min(), a.max()


@pytest.mark.parametrize("name, kwargs, shape, law", [
    ("uniform_", dict(a=-2.0, b=3.0), (200, 100), ("uniform", -2.0, 3.0)),
    ("normal_", dict(mean=1.0, std=0.5), (200, 100), ("normal", 1.0, 0.5)),
    ("xavier_uniform_", dict(gain=2.0), (300, 100), ("uniform_sym", 2 * math.sqrt(6 / 400))),
    ("xavier_normal_", dict(), (300, 100), ("normal", 0.0, math.sqrt(2 / 400))),
    ("kaiming_uniform_", dict(a=math.sqrt(5)), (300, 100),
     ("uniform_sym", math.sqrt(3) * math.sqrt(2 / 6) / 10)),
    ("kaiming_normal_", dict(mode="fan_out", nonlinearity="relu"), (300, 100),
     ("normal", 0.0, math.sqrt(2) / math.sqrt(300))),
    ("kaiming_uniform_", dict(nonlinearity="tanh"), (100, 10, 3, 3),
     ("uniform_sym", math.sqrt(3) * (5 / 3) / math.sqrt(90))),
])
def test_random_init_statistics(name, kwargs, shape, law):
    autograd_core.manual_seed(0)
    t = getattr(autograd_core.nn.init, name)(autograd_core.empty(*shape), **kwargs)
    mean, std, lo, hi = _stats(t)
    if law[0] == "uniform":
        a, b = law[1], law[2]
        assert a <= lo and hi <= b and abs(mean - (a + b) / 2) < 0.05 * (b - a)
        assert abs(std - (b - a) / math.sqrt(12)) < 0.03 * (b - a)
    elif law[0] == "uniform_sym":
        bound = law[1]
        assert -bound <= lo and hi <= bound and hi > 0.95 * bound and lo < -0.95 * bound
        assert abs(mean) < 0.05 * bound and abs(std - bound / math.sqrt(3)) < 0.03 * bound
    else:
        m, s = law[1], law[2]
        assert abs(mean - m) < 0.05 * s + 1e-12 and abs(std - s) < 0.05 * s


def test_trunc_normal_orthogonal_sparse():
    autograd_core.manual_seed(0)
    init = autograd_core.nn.init
    t = init.trunc_normal_(autograd_core.empty(300, 100), mean=0.5, std=1.0, a=-1.0, b=2.0)
    mean, std, lo, hi = _stats(t)
    assert -1.0 <= lo and hi <= 2.0
    # the mean of N(0.5, 1) truncated to [-1.5, 1.5] standard units is 0.5 (symmetric)
    assert abs(mean - 0.5) < 0.02 and 0.7 < std < 0.8
    t = init.trunc_normal_(autograd_core.empty(10000), mean=0.0, std=1.0, a=2.0, b=2.5)
    mean, std, lo, hi = _stats(t)       # a narrow tail interval: the uniform-proposal branch
    assert 2.0 <= lo and hi <= 2.5 and 2.1 < mean < 2.3
    for shape in [(5, 8), (8, 5), (6, 2, 3)]:
        q = init.orthogonal_(autograd_core.empty(*shape), gain=2.0).detach().numpy()
        m = q.reshape(shape[0], -1)
        gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
        np.testing.assert_allclose(gram, 4 * np.eye(gram.shape[0]), atol=1e-5)
    s = init.sparse_(autograd_core.empty(10, 20), sparsity=0.3, std=0.1).detach().numpy()
    assert ((s == 0).sum(0) == 3).all()
    assert 0.05 < s[s != 0].std() < 0.2


@pytest.mark.parametrize("modname", ["autograd_core.nn", "autograd_core.nn.parameter",
                                     "autograd_core.nn.modules.module", "autograd_core.nn.init",
                                     "autograd_core.nn.utils.rnn",
                                     "autograd_core.nn.functional"])
def test_docstring_examples(modname):
    import doctest
    import importlib
    module = importlib.import_module(modname)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
