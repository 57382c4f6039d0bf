"""Seeded random streams equal PyTorch's (Note [Random streams] in _core/random.pyx).

For many seeds, sizes around every path threshold (16 for the normal fill, 2**32 for a
64-bit draw) and dtypes, each sampler's values and the generator state after it equal
PyTorch's exactly: the values are the same integer draws put through the same
floating-point operations (the C library's log/sin/cos where ATen calls them, the AVX2
kernel's own float polynomials where it has them), chosen by the CPU as PyTorch chooses
(run with ATEN_CPU_CAPABILITY=default to check PyTorch's generic kernels on any CPU).
Every path is compared on every CPU: PyTorch 2.13 no longer has a vendor-specific
bernoulli_(float p) (its older MKL builds drew from MKL's MCG31 stream on Intel CPUs).
"""
import pickle

import numpy as np
import pytest
import torch

import autograd_core as ag

SEEDS = [0, 1, 7, 12345, 2 ** 32 + 5, 2 ** 63 + 11]
SIZES = [0, 1, 2, 5, 15, 16, 17, 31, 32, 33, 100, 257]


def _state_equal():
    return np.array_equal(np.asarray(ag.get_rng_state().tolist(), dtype=np.uint8),
                          torch.get_rng_state().numpy())


def _values(t):
    return np.asarray(t.detach().numpy())


def _both(fn, seed):
    torch.manual_seed(seed)
    ag.manual_seed(seed)
    expected = fn(torch)
    got = fn(ag)
    return _values(got), _values(expected)


def _linspace(m, lo, hi, n, dtype):
    """The same values in both libraries (their linspace may differ in the last bit)."""
    return m.from_numpy(np.linspace(lo, hi, n).astype(dtype))


def _assert_same(fn, seed):
    """Values and the generator state after them equal PyTorch's."""
    got, expected = _both(fn, seed)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected, equal_nan=True), (got, expected)
    assert _state_equal()


# ---------------------------------------------------------------- the generator

@pytest.mark.parametrize("seed", SEEDS + [-1, -(2 ** 63)])
def test_seeded_state_is_pytorchs(seed):
    torch.manual_seed(seed)
    ag.manual_seed(seed)
    assert _state_equal()
    assert ag.initial_seed() == torch.initial_seed()


def test_state_moves_between_libraries():
    torch.manual_seed(3)
    torch.randn(5, dtype=torch.float64)  # leaves a cached normal in the state
    ag.set_rng_state(ag.tensor(torch.get_rng_state().tolist(), dtype=ag.uint8))
    assert np.array_equal(_values(ag.randn(3, dtype=ag.float64)),
                          torch.randn(3, dtype=torch.float64).numpy())
    torch.set_rng_state(torch.tensor(ag.get_rng_state().tolist(), dtype=torch.uint8))
    assert np.array_equal(_values(ag.rand(4)), torch.rand(4).numpy())
    assert _state_equal()


def test_generator_object():
    g, tg = ag.Generator(), torch.Generator()
    assert g.initial_seed() == tg.initial_seed() == 67280421310721
    assert g.manual_seed(5) is g
    tg.manual_seed(5)
    assert np.array_equal(_values(ag.rand(3, generator=g)), torch.rand(3, generator=tg).numpy())
    assert np.array_equal(np.asarray(g.get_state().tolist()), tg.get_state().numpy())
    # a generator does not touch the default stream
    torch.manual_seed(1)
    ag.manual_seed(1)
    ag.rand(2, generator=g)
    assert _state_equal()
    h = pickle.loads(pickle.dumps(g))
    assert np.array_equal(_values(ag.rand(2, generator=h)),
                          _values(ag.rand(2, generator=g)))
    s = g.seed()
    assert g.initial_seed() == s
    assert str(g.device) == "cpu"


@pytest.mark.parametrize("bad, exc, msg", [
    (2 ** 64, ValueError, "Overflow when unpacking long long"),
    (1.5, RuntimeError, "manual_seed expected a long, but got float"),
    ("3", RuntimeError, "manual_seed expected a long, but got str"),
])
def test_manual_seed_errors(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        ag.Generator().manual_seed(bad)
    with pytest.raises(exc, match=msg):
        torch.Generator().manual_seed(bad)


def test_set_state_errors():
    g = ag.Generator()
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056 but "
                                           "found the input RNG state size to be 3"):
        g.set_state(ag.zeros(3, dtype=ag.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        g.set_state(ag.zeros(5056))
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        g.set_state(ag.zeros(5056, dtype=ag.uint8))
    with pytest.raises(TypeError, match="expected a torch.ByteTensor, but got list"):
        g.set_state([1])
    with pytest.raises(TypeError):
        ag.rand(2, generator=object())


def test_fork_rng():
    ag.manual_seed(0)
    with ag.random.fork_rng():
        ag.rand(5)
    torch.manual_seed(0)
    assert np.array_equal(_values(ag.rand(2)), torch.rand(2).numpy())


# ---------------------------------------------------------------- samplers

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_rand(seed, dtype):
    for n in SIZES:
        _assert_same(lambda m: m.rand(n, dtype=getattr(m, dtype)), seed)
    _assert_same(lambda m: m.rand(3, 4, 5, dtype=getattr(m, dtype)), seed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_and_like(seed, dtype):
    _assert_same(lambda m: m.empty(40, dtype=getattr(m, dtype)).uniform_(-3.3, 7.1), seed)
    _assert_same(lambda m: m.empty(7, dtype=getattr(m, dtype)).uniform_(2, 2), seed)
    # a transposed target is filled in memory order, as PyTorch's iterator walks it
    _assert_same(lambda m: m.zeros(5, 7, dtype=getattr(m, dtype)).t().uniform_(), seed)
    _assert_same(lambda m: m.rand_like(m.zeros(3, 6, dtype=getattr(m, dtype)).t()), seed)
    _assert_same(lambda m: m.rand_like(m.zeros(2, 3), dtype=getattr(m, dtype)), seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_randn_float64(seed):
    # below 16: Box-Muller with the cached second sample; from 16: the fill with the tail
    # redraw; non-contiguous: the serial path again
    for n in SIZES:
        _assert_same(lambda m: m.randn(n, dtype=m.float64), seed)
    _assert_same(lambda m: m.randn(3, dtype=m.float64) + m.randn(3, dtype=m.float64), seed)
    _assert_same(lambda m: m.zeros(40, dtype=m.float64).normal_(2.5, 0.3), seed)
    _assert_same(lambda m: m.zeros(6, 8, dtype=m.float64)[:, ::2].normal_(-1, 3), seed)
    _assert_same(lambda m: m.randn_like(m.zeros(4, 5, dtype=m.float64).t()), seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_randn_float32_serial_path(seed):
    for n in [1, 2, 5, 15]:
        _assert_same(lambda m: m.randn(n), seed)
        _assert_same(lambda m: m.empty(n).normal_(1.5, 0.25), seed)
    _assert_same(lambda m: m.zeros(6, 8)[:, ::2].normal_(), seed)  # non-contiguous


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_randn_vectorised_fill(seed, dtype):
    """>= 16 contiguous float32/float16 elements: PyTorch's vectorised fill (on AVX2 CPUs
    with its own float log/sin/cos, fused multiply-adds), the tail redrawn; float16 draws
    per block of 16."""
    for n in [16, 17, 31, 32, 33, 100, 1000, 4099]:
        _assert_same(lambda m: m.randn(n, dtype=getattr(m, dtype)), seed)
    _assert_same(lambda m: m.empty(4, 25, dtype=getattr(m, dtype)).normal_(2.5, 0.3), seed)
    _assert_same(lambda m: m.randn_like(m.zeros(7, 9, dtype=getattr(m, dtype))), seed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "float32",
                                   "float64"])
def test_randint_and_random_(seed, dtype):
    def dt(m):
        return getattr(m, dtype)
    hi = 100 if dtype in ("int8", "uint8") else 2 ** 40 if dtype in ("int64", "float64") else 1000
    _assert_same(lambda m: m.randint(-3 if dtype != "uint8" else 0, hi, (50,), dtype=dt(m)), seed)
    _assert_same(lambda m: m.randint(7, (4, 5), dtype=dt(m)), seed)
    _assert_same(lambda m: m.randint_like(m.zeros(6, dtype=dt(m)), 3, 9), seed)
    _assert_same(lambda m: m.zeros(30, dtype=dt(m)).random_(), seed)
    _assert_same(lambda m: m.zeros(30, dtype=dt(m)).random_(5), seed)
    _assert_same(lambda m: m.zeros(30, dtype=dt(m)).random_(2, 9), seed)


def test_random_bool_and_full_range():
    _assert_same(lambda m: m.zeros(40, dtype=m.bool).random_(), 3)
    _assert_same(lambda m: m.zeros(40, dtype=m.int64).random_(-2 ** 63, None), 3)
    _assert_same(lambda m: m.randint(-2 ** 40, 2 ** 40, (20,)), 3)


@pytest.mark.parametrize("seed", SEEDS)
def test_randperm(seed):
    for n in [0, 1, 2, 10, 1000]:
        _assert_same(lambda m: m.randperm(n), seed)
    _assert_same(lambda m: m.randperm(20, dtype=m.int32), seed)
    g, tg = ag.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
    assert ag.randperm(30, generator=g).tolist() == torch.randperm(30, generator=tg).tolist()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_multinomial(seed, dtype):
    w = np.random.default_rng(seed % 1000).random((3, 9)).astype(dtype)
    w[1, 4] = 0
    for n, replacement in [(1, True), (6, True), (50, True), (1, False), (5, False),
                           (9, False)]:
        _assert_same(lambda m: m.multinomial(m.from_numpy(w), n, replacement), seed)
        _assert_same(lambda m: m.multinomial(m.from_numpy(w[0]), n, replacement), seed)


def test_multinomial_method_and_bernoulli_p():
    w = np.array([0.2, 0.0, 0.5, 0.3], dtype=np.float32)
    _assert_same(lambda m: m.from_numpy(w).multinomial(3), 5)
    _assert_same(lambda m: m.from_numpy(w).multinomial(9, True), 5)
    _assert_same(lambda m: m.bernoulli(m.zeros(40, dtype=m.float64), 0.3), 5)
    _assert_same(lambda m: m.zeros(7, dtype=m.int64).bernoulli(0.5), 5)
    for m in (torch, ag):
        y = m.bernoulli(m.full((3,), 0.5, requires_grad=True), 0.3)
        assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="bernoulli_ expects p to be in \\[0, 1\\], "
                                               "but got p=1.5"):
            m.bernoulli(m.zeros(2), 1.5)


def test_multinomial_errors():
    for args, msg in [((ag.tensor([1., -1.]), 1), "probability tensor contains"),
                      ((ag.tensor([0., 0.]), 1), "sum of probabilities <= 0"),
                      ((ag.tensor([1., 1.]), 3), "cannot sample n_sample > prob_dist"),
                      ((ag.tensor([1., 1.]), 0), "cannot sample n_sample <= 0 samples")]:
        with pytest.raises(RuntimeError, match=msg):
            ag.multinomial(*args)
    with pytest.raises(RuntimeError, match="encountering probability entry < 0"):
        ag.multinomial(ag.tensor([1., -1.]), 3, True)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_other_inplace_samplers(seed, dtype):
    def dt(m):
        return getattr(m, dtype)
    for n in [1, 17, 100]:
        _assert_same(lambda m: m.zeros(n, dtype=dt(m)).exponential_(1.7), seed)
        _assert_same(lambda m: m.zeros(n, dtype=dt(m)).geometric_(0.3), seed)
        _assert_same(lambda m: m.zeros(n, dtype=dt(m)).log_normal_(0.2, 0.8), seed)
        _assert_same(lambda m: m.zeros(n, dtype=dt(m)).cauchy_(0.5, 2.0), seed)
    _assert_same(lambda m: m.zeros(30, dtype=m.int64).geometric_(0.6), seed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bernoulli_with_tensor_p(seed, dtype):
    _assert_same(lambda m: m.bernoulli(_linspace(m, 0, 1, 60, dtype)), seed)
    _assert_same(lambda m: m.zeros(3, 20, dtype=m.int64).bernoulli_(
        _linspace(m, 0, 1, 20, dtype)), seed)
    _assert_same(lambda m: m.zeros(4, 6, dtype=getattr(m, dtype)).t().bernoulli_(
        m.full((6, 4), 0.4, dtype=getattr(m, dtype))), seed)


def test_sampler_errors_and_nodes():
    x = ag.zeros(3)
    i = ag.zeros(3, dtype=ag.int64)
    cases = [(lambda m: m.zeros(3).exponential_(0), RuntimeError,
              "exponential_ expects lambda > 0.0, but found lambda=0"),
             (lambda m: m.zeros(3, dtype=m.int64).exponential_(), RuntimeError,
              "Exponential distribution is a continuous probability distribution"),
             (lambda m: m.zeros(3).geometric_(1.5), RuntimeError,
              "geometric_ expects p to be in \\(0, 1\\), but got p=1.5"),
             (lambda m: m.zeros(3).log_normal_(1, 0), RuntimeError,
              "log_normal_ expects std > 0.0, but found std=0"),
             (lambda m: m.zeros(3, dtype=m.int64).log_normal_(), NotImplementedError,
              "\"log_normal_cpu\" not implemented for 'Long'"),
             (lambda m: m.zeros(3).cauchy_(0, -1), RuntimeError,
              "cauchy_ expects sigma > 0.0, but found sigma=-1"),
             (lambda m: m.zeros(3).bernoulli_(1.5), RuntimeError,
              "bernoulli_ expects p to be in \\[0, 1\\], but got p=1.5"),
             (lambda m: m.bernoulli(m.tensor([1.5])), RuntimeError,
              "Expected p_in >= 0 && p_in <= 1 to be true"),
             (lambda m: m.bernoulli(m.zeros(2, dtype=m.int64)), NotImplementedError,
              "\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'"),
             (lambda m: m.rand(2, dtype=m.int64), NotImplementedError,
              "\"check_uniform_bounds\" not implemented for 'Long'"),
             (lambda m: m.randint(5, 5, (2,)), RuntimeError,
              "random_ expects 'from' to be less than 'to', but got from=5 >= to=5")]
    for fn, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            fn(torch)
        with pytest.raises(exc, match=msg):
            fn(ag)
    del x, i
    for m in (torch, ag):
        x = m.full((4,), 0.5, requires_grad=True)
        names = [type(t.grad_fn).__name__ for t in (
            m.bernoulli(x), x.clone().exponential_(), x.clone().geometric_(0.5),
            x.clone().log_normal_(), x.clone().cauchy_(), x.clone().bernoulli_(0.5),
            x.clone().bernoulli_(x.detach()), x.clone().uniform_(), x.clone().normal_())]
        assert names == ["BernoulliBackward0", "ExponentialBackward0", "GeometricBackward0",
                         "LogNormalBackward0", "CauchyBackward0", "BernoulliBackward2",
                         "BernoulliBackward1", "UniformBackward0", "NormalBackward0"]
        y = x.clone().exponential_()
        y.sum().backward()
        assert x.grad.tolist() == [0.0] * 4


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_overloads(seed, dtype):
    def dt(m):
        return getattr(m, dtype)
    for n in [3, 16, 40]:
        _assert_same(lambda m: m.normal(_linspace(m, -2, 2, n, dtype), 0.5), seed)
        _assert_same(lambda m: m.normal(1.5, _linspace(m, 0, 2, n, dtype)), seed)
        _assert_same(lambda m: m.normal(_linspace(m, -2, 2, n, dtype),
                                        _linspace(m, 0, 2, n, dtype)), seed)
    _assert_same(lambda m: m.normal(m.zeros(4, 1, dtype=dt(m)), m.ones(5, dtype=dt(m))), seed)
    _assert_same(lambda m: m.normal(2.0, 3.0, (4, 5), dtype=dt(m)), seed)
    # 0-d mean and std (Normal(0.5, 2.0).sample() in torch.distributions)
    _assert_same(lambda m: m.normal(m.tensor(0.5, dtype=dt(m)), m.tensor(2.0, dtype=dt(m))), seed)
    _assert_same(lambda m: m.normal(1.5, m.tensor(2.0, dtype=dt(m))), seed)
    _assert_same(lambda m: m.normal(m.tensor(0.5, dtype=dt(m)), 2.0), seed)
    _assert_same(lambda m: m.normal(2.0, 3.0, size=(40,), dtype=dt(m)), seed)


def test_normal_nodes_and_errors():
    for m in (torch, ag):
        mean = m.zeros(3, requires_grad=True)
        std = m.ones(3, requires_grad=True)
        a, b, c = m.normal(mean, 1.0), m.normal(0.0, std), m.normal(mean, std)
        assert [type(t.grad_fn).__name__ for t in (a, b, c)] == [
            "NormalBackward1", "NormalBackward2", "NormalBackward3"]
        (a.sum() + b.sum() + c.sum()).backward()
        assert mean.grad.tolist() == [0.0] * 3 and std.grad.tolist() == [0.0] * 3
        for fn, msg in [(lambda: m.normal(m.zeros(2), -1.0),
                         "normal expects std >= 0.0, but found std -1"),
                        (lambda: m.normal(0.0, m.tensor([-1.0, 1.0])),
                         "normal expects all elements of std >= 0.0")]:
            with pytest.raises(RuntimeError, match=msg):
                fn()
        with pytest.raises(TypeError):
            m.normal(0.0, 1.0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_poisson_and_binomial(seed, dtype):
    def rates(m):
        return m.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 25.0, 300.0] * 5, dtype=getattr(m, dtype))

    _assert_same(lambda m: m.poisson(rates(m)), seed)
    _assert_same(lambda m: m.binomial(m.tensor([0., 1., 5., 20., 60., 500.] * 4,
                                               dtype=getattr(m, dtype)),
                                      m.tensor([0.3, 0.5, 0.05, 0.5, 0.9, 0.99] * 4,
                                               dtype=getattr(m, dtype))), seed)


def test_poisson_binomial_nodes_and_errors():
    for m in (torch, ag):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.poisson(x)
        assert type(y.grad_fn).__name__ == "PoissonBackward0"
        y.sum().backward()
        assert x.grad.tolist() == [0.0, 0.0]
        b = m.binomial(x, x * 0.5)
        assert b.requires_grad and type(b.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="not implemented"):
            b.sum().backward()
        with pytest.raises(RuntimeError, match="invalid Poisson rate, expected rate to be "
                                               "non-negative"):
            m.poisson(m.tensor([-1.0]))
        with pytest.raises(NotImplementedError, match="\"poisson_cpu\" not implemented for "
                                                      "'Long'"):
            m.poisson(m.tensor([1]))
        with pytest.raises(ValueError, match="binomial only supports floating-point dtypes "
                                             "for count, got: Long"):
            m.binomial(m.tensor([1]), m.tensor([0.5]))


# ---------------------------------------------------------------- users of the streams

@pytest.mark.parametrize("seed", SEEDS)
def test_dropout_masks(seed):
    import autograd_core.nn.functional as F
    import torch.nn.functional as TF
    for fn, tfn, shape in [(F.dropout, TF.dropout, (10, 13)),
                           (F.dropout2d, TF.dropout2d, (4, 6, 3, 3)),
                           (F.dropout1d, TF.dropout1d, (4, 6, 5))]:
        for p in (0.1, 0.5, 0.9):
            torch.manual_seed(seed)
            ag.manual_seed(seed)
            expected = tfn(torch.ones(shape, dtype=torch.float64), p).numpy()
            got = _values(fn(ag.ones(shape, dtype=ag.float64), p))
            assert _state_equal()
            assert np.array_equal(got, expected)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
def test_bernoulli_scalar_p(seed, dtype):
    """bernoulli_(float p), dropout's mask: the same draws on every CPU vendor (PyTorch
    2.13 has no MKL path for it), at sizes around 800 (the grain of its old parallel
    split) and on a non-contiguous tensor."""
    for n in SIZES + [799, 800, 801, 5000]:
        for p in (0.0, 0.3, 0.5, 1.0):
            _assert_same(lambda m: m.empty(n, dtype=getattr(m, dtype)).bernoulli_(p), seed)
    _assert_same(lambda m: m.empty(9, 6, dtype=getattr(m, dtype)).t().bernoulli_(0.4), seed)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rrelu_noise(seed, dtype):
    x = np.linspace(-1, 1, 61).astype(dtype)
    _assert_same(lambda m: m.nn.functional.rrelu(m.from_numpy(x), training=True), seed)
    _assert_same(lambda m: m.nn.functional.rrelu(m.from_numpy(x.reshape(61, 1)), 0.1, 0.4,
                                                 training=True), seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_gumbel_softmax(seed):
    """The noise is PyTorch's draw; log and softmax round as this library's ops do."""
    x = np.linspace(-1, 1, 24).reshape(4, 6)
    for kw in ({"tau": 0.5}, {"hard": True}):
        got, expected = _both(lambda m: m.nn.functional.gumbel_softmax(m.from_numpy(x), **kw),
                              seed)
        assert _state_equal()
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("seed", SEEDS)
def test_nn_init_and_modules(seed):
    _assert_same(lambda m: m.nn.Linear(7, 5).weight.detach(), seed)
    _assert_same(lambda m: m.nn.Linear(7, 5).bias.detach(), seed)
    _assert_same(lambda m: m.nn.Conv2d(3, 4, 3).weight.detach(), seed)
    _assert_same(lambda m: m.nn.init.normal_(m.empty(40, dtype=m.float64), 1.0, 0.5), seed)
    _assert_same(lambda m: m.nn.init.xavier_uniform_(m.empty(6, 9)), seed)
    _assert_same(lambda m: m.nn.init.kaiming_normal_(m.empty(3, 5), nonlinearity="relu"), seed)
    _assert_same(lambda m: m.nn.init.sparse_(m.empty(6, 4), 0.5), seed)
    got, expected = _both(lambda m: m.nn.init.orthogonal_(m.empty(4, 6)), seed)
    assert _state_equal()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    g, tg = ag.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
    got = _values(ag.nn.init.normal_(ag.empty(20), generator=g))
    expected = torch.nn.init.normal_(torch.empty(20), generator=tg).numpy()
    assert np.array_equal(np.asarray(g.get_state().tolist()), tg.get_state().numpy())
    assert np.array_equal(got, expected)


def test_seeded_training_loop_prints_pytorchs_losses():
    """Default init, dropout and shuffled batches under one seed: the same losses."""
    def run(m):
        m.manual_seed(0)
        model = m.nn.Sequential(m.nn.Linear(4, 8), m.nn.ReLU(), m.nn.Dropout(0.2),
                                m.nn.Linear(8, 1)).double()
        x = m.randn(32, 4, dtype=m.float64)
        y = x.sum(1, keepdim=True)
        opt = m.optim.SGD(model.parameters(), lr=0.05)
        losses = []
        for _ in range(3):
            for idx in m.randperm(32).split(8):
                opt.zero_grad()
                loss = ((model(x[idx]) - y[idx]) ** 2).mean()
                loss.backward()
                opt.step()
                losses.append(f"{loss.item():.6f}")
        return losses
    assert run(ag) == run(torch)


def test_data_shuffling_is_pytorchs():
    """DataLoader(shuffle=True), random_split, the random samplers: PyTorch's orders."""
    import torch.utils.data as tdata

    import autograd_core.utils.data as adata

    def run(m, d):
        m.manual_seed(0)
        return ([b.tolist() for b in d.DataLoader(list(range(10)), batch_size=4, shuffle=True)],
                [list(x) for x in d.random_split(range(8), [5, 3],
                                                 generator=m.Generator().manual_seed(1))],
                list(d.WeightedRandomSampler([0.1, 0.5, 0.4], 6)),
                list(d.WeightedRandomSampler([0.1, 0.5, 0.4, 0.2], 3, replacement=False)),
                list(d.RandomSampler(range(5), replacement=True, num_samples=40)),
                list(d.SubsetRandomSampler([10, 20, 30, 40])))
    assert run(ag, adata) == run(torch, tdata)


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
@pytest.mark.parametrize("shape, args, dt", [
    ((7,), (0.0, 1.0, -2.0, 2.0), "float32"),          # wide: normal draws, redrawn outside
    ((300,), (0.5, 0.2, 0.0, 1.0), "float32"),
    ((5, 40), (0.0, 0.02, -0.04, 0.04), "float64"),
    ((17,), (1.0, 3.0, -1.0, 0.0), "float32"),         # narrow: uniform proposals, accepted by density
    ((50,), (0.0, 1.0, 2.0, 2.5), "float64"),
])
def test_trunc_normal_draws_pytorchs_numbers(seed, shape, args, dt):
    """nn.init.trunc_normal_ is PyTorch 2.13's rejection sampler draw for draw: the same
    values and the same generator state after it."""
    ag.manual_seed(seed)
    torch.manual_seed(seed)
    got = ag.nn.init.trunc_normal_(ag.empty(*shape, dtype=getattr(ag, dt)), *args)
    want = torch.nn.init.trunc_normal_(torch.empty(*shape, dtype=getattr(torch, dt)), *args)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert ag.rand(3).tolist() == torch.rand(3).tolist()


# ---------------------------------------------------------------- gamma and dirichlet

GAMMA_ALPHAS = [0.0, 1e-3, 0.01, 0.3, 0.5, 0.999, 1.0, 1.5, 2.0, 3.7, 10.0, 100.0, 1e4]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_stream(seed, dtype):
    """sample_gamma's draws (double uniforms, double normals with the cached second
    Box-Muller sample, the alpha < 1 boost) for alphas on every path, 0 included."""
    _assert_same(lambda m: m._standard_gamma(
        m.tensor(GAMMA_ALPHAS * 3, dtype=getattr(m, dtype))), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_stream_edges(dtype):
    def fn(m):
        d = getattr(m, dtype)
        m.randn(1, dtype=m.float64)  # leaves a cached normal for the sampler to use first
        a = m.tensor([[0.5, 2.0, 7.0], [1.0, 0.2, 3.0]], dtype=d).t()  # C order of the shape
        bad = m._standard_gamma(m.tensor([-1.0, float("nan"), -0.5], dtype=d))
        g = m.Generator().manual_seed(9)
        own = m._standard_gamma(m.full((5,), 0.7, dtype=d), generator=g)
        return m.cat([m._standard_gamma(a).reshape(-1), bad, own, m.rand(2, dtype=d)])
    _assert_same(fn, 4)


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(3,), (4, 2), (2, 3, 5), (2, 11), (300,), (1, 4100)])
def test_sample_dirichlet_stream(seed, dtype, shape):
    """Gammas in double, normalised by sums in ATen's order (vectors of 4 lanes, its
    cascade for long rows), so that the samples are PyTorch's to the last bit."""
    def fn(m):
        a = _linspace(m, 0.05, 6.0, int(np.prod(shape)), dtype).reshape(shape)
        return m._sample_dirichlet(a)
    _assert_same(fn, seed)


@pytest.mark.parametrize("name", ["Gamma", "Chi2", "Beta", "Dirichlet", "StudentT"])
def test_gamma_family_samples(name):
    """The distributions built on the gamma sampler draw PyTorch's numbers (StudentT: its
    normal first, then the chi-squared)."""
    def fn(m):
        D = m.distributions
        c = m.tensor([0.4, 1.0, 2.5, 9.0])
        d = {"Gamma": lambda: D.Gamma(c, m.tensor([1.0, 2.0, 0.5, 3.0])),
             "Chi2": lambda: D.Chi2(c),
             "Beta": lambda: D.Beta(c, m.tensor([1.5, 0.3, 2.0, 2.0])),
             "Dirichlet": lambda: D.Dirichlet(c),
             "StudentT": lambda: D.StudentT(c, 1.0, 2.0)}[name]()
        return m.cat([d.sample((3,)).reshape(-1), d.rsample((2,)).reshape(-1)])
    _assert_same(fn, 21)


# ---- complex samplers on non-contiguous views (Note [Complex samplers] in
# _core/random.pyx): PyTorch fills view_as_real of the view in memory order, and
# normal_ takes its serial (double) path for a non-contiguous one

_COMPLEX_VIEWS = {
    "contiguous": lambda b: b, "transposed": lambda b: b.t(), "step2": lambda b: b[:, ::2],
    "transposed_step2": lambda b: b.t()[::2], "column": lambda b: b[:, 1],
    "small_transposed": lambda b: b[:2, :3].t(), "permuted3d": lambda b: b.view(2, 2, 6).permute(2, 0, 1),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("sampler", ["uniform_", "normal_"])
@pytest.mark.parametrize("view", sorted(_COMPLEX_VIEWS))
def test_complex_sampler_on_views_bitwise(dtype, sampler, view):
    def run(m):
        m.manual_seed(3)
        base = m.zeros(4, 6, dtype=getattr(m, dtype))
        v = _COMPLEX_VIEWS[view](base)
        getattr(v, sampler)()
        after = m.rand(3)              # the stream continues where PyTorch's does
        return base.numpy().copy(), after.numpy().copy()
    want, got = run(torch), run(ag)
    assert want[0].tobytes() == got[0].tobytes()
    assert want[1].tobytes() == got[1].tobytes()
