"""nn.utils.parametrize, nn.utils.parametrizations (orthogonal, spectral_norm,
weight_norm) and the hook forms nn.utils.weight_norm / spectral_norm, against PyTorch:
values, gradients after optimizer steps, reprs, state_dict keys and metadata, save/load
round trips, errors and warnings."""
import copy
import io
import pickle

import pytest

from _diff import catch, no_warnings, same, same_error, warns

# ------------------------------------------------------------------ helpers


def _symmetric(mod):
    class Symmetric(mod.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

        def right_inverse(self, A):
            return A.triu()
    return Symmetric()


def _double(mod):
    class Double(mod.nn.Module):
        def forward(self, X):
            return 2 * X

        def right_inverse(self, A):
            return A / 2
    return Double()


def _rank_one(mod):
    class RankOne(mod.nn.Module):
        def forward(self, x, y):
            return x.unsqueeze(-1) @ y.unsqueeze(-2)

        def right_inverse(self, Z):
            return Z[:, 0].clone(), Z[0, :].clone()
    return RankOne()


def _train(mod, m, steps=3, opt="sgd", shape=(4, 3), seed=1):
    """A few optimizer steps on a least-squares loss through m; the losses."""
    g = mod.Generator().manual_seed(seed)
    x = mod.randn(*shape, generator=g, dtype=mod.float64)
    y = mod.randn(shape[0], m(x).shape[-1], generator=g, dtype=mod.float64)
    o = (mod.optim.SGD(m.parameters(), lr=0.1) if opt == "sgd"
         else mod.optim.Adam(m.parameters(), lr=0.05))
    losses = []
    for _ in range(steps):
        o.zero_grad()
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        o.step()
        losses.append(loss.item())
    return losses


def _sd(m):
    return {k: v for k, v in m.state_dict().items()}


def _grads(m):
    return {n: p.grad for n, p in m.named_parameters()}


# ------------------------------------------------------------------ parametrize


def test_register_repr_class_and_state_dict_keys():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = mod.nn.Linear(3, 3).double()
        P.register_parametrization(m, "weight", _symmetric(mod))
        return (repr(m), type(m).__name__, P.type_before_parametrizations(m).__name__,
                list(m.state_dict()), [n for n, _ in m.named_parameters()],
                P.is_parametrized(m), P.is_parametrized(m, "weight"),
                P.is_parametrized(m, "bias"), m.weight, type(m.parametrizations).__name__,
                type(m.parametrizations.weight).__name__, m.parametrizations.weight.original,
                isinstance(m, mod.nn.Linear))
    same(prog)


def test_values_and_gradients_after_steps():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = mod.nn.Linear(3, 3).double()
        P.register_parametrization(m, "weight", _symmetric(mod))
        losses = _train(mod, m)
        return losses, m.weight, _grads(m), m.weight.grad_fn is not None
    same(prog)


def test_stacked_parametrizations_and_assignment():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = mod.nn.Linear(3, 3).double()
        P.register_parametrization(m, "weight", _symmetric(mod))
        P.register_parametrization(m, "weight", _double(mod))
        r = [repr(m.parametrizations.weight), m.weight]
        orig = m.parametrizations.weight.original
        with mod.no_grad():
            m.weight = mod.eye(3, dtype=mod.float64) * 4
        # the original keeps its identity (optimizers hold it)
        r += [m.weight, m.parametrizations.weight.original,
              m.parametrizations.weight.original is orig, _train(mod, m), _grads(m)]
        return r
    same(prog)


def test_tuple_right_inverse_originals():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = mod.nn.Linear(4, 4).double()
        P.register_parametrization(m, "weight", _rank_one(mod))
        plist = m.parametrizations.weight
        r = [list(m.state_dict()), plist.original0, plist.original1, m.weight,
             hasattr(plist, "original"), plist.ntensors, plist.is_tensor,
             type(plist.original0).__name__]
        r += [_train(mod, m, shape=(5, 4)), _grads(m)]
        with mod.no_grad():
            m.weight = mod.ones(4, 4, dtype=mod.float64)
        r += [m.weight, plist.original0]
        P.remove_parametrizations(m, "weight")
        r += [type(m).__name__, list(m.state_dict()), m.weight, type(m.weight).__name__]
        return r
    same(prog)


def test_buffer_parametrization():
    def prog(mod):
        P = mod.nn.utils.parametrize
        m = mod.nn.Module()
        m.register_buffer("b", mod.arange(9.).reshape(3, 3))
        P.register_parametrization(m, "b", _symmetric(mod))
        r = [m.b, list(m.state_dict()), list(m.buffers()), list(m.parameters()),
             repr(m)]
        P.remove_parametrizations(m, "b", leave_parametrized=False)
        r += [m.b, list(m.state_dict()), type(m).__name__]
        return r
    same(prog)


@pytest.mark.parametrize("leave", [True, False])
def test_remove_parametrizations(leave):
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = mod.nn.Linear(3, 3).double()
        P.register_parametrization(m, "weight", _double(mod))
        P.register_parametrization(m, "bias", _double(mod))
        w = m.parametrizations.weight.original
        P.remove_parametrizations(m, "weight", leave_parametrized=leave)
        r = [type(m).__name__, m.weight, m.weight is w, list(m.state_dict()), repr(m)]
        P.remove_parametrizations(m, "bias", leave_parametrized=leave)
        r += [type(m).__name__, repr(m), hasattr(m, "parametrizations"), m.bias,
              list(m.state_dict()), P.is_parametrized(m)]
        return r
    same(prog)


def test_cached():
    def prog(mod):
        P = mod.nn.utils.parametrize
        calls = []

        class Counting(mod.nn.Module):
            def forward(self, X):
                calls.append(1)
                return X * 2
        m = mod.nn.Linear(2, 2)
        P.register_parametrization(m, "weight", Counting())
        n0 = len(calls)
        with P.cached():
            a = m.weight
            b = m.weight
            with P.cached():
                c = m.weight
            d = m.weight
        e = m.weight
        return len(calls) - n0, a is b, a is c, a is d, a is e
    same(prog)


def test_unsafe_and_consistency_checks():

    def change_shape(mod, unsafe):
        class Reshape(mod.nn.Module):
            def forward(self, X):
                return X.reshape(-1)
        m = mod.nn.Linear(2, 3)
        mod.nn.utils.parametrize.register_parametrization(m, "weight", Reshape(), unsafe=unsafe)
        return m.weight.shape, m.parametrizations.weight.unsafe

    same(change_shape, True)
    same_error(change_shape, False)

    def change_dtype(mod):
        class ToDouble(mod.nn.Module):
            def forward(self, X):
                return X.double()
        m = mod.nn.Linear(2, 3)
        mod.nn.utils.parametrize.register_parametrization(m, "weight", ToDouble())
    same_error(change_dtype)

    def stacked_change_shape(mod):
        class Reshape(mod.nn.Module):
            def forward(self, X):
                return X.reshape(-1)
        m = mod.nn.Linear(2, 3)
        P = mod.nn.utils.parametrize
        P.register_parametrization(m, "weight", _double(mod))
        P.register_parametrization(m, "weight", Reshape())
    same_error(stacked_change_shape)

    def bad_right_inverse(mod, kind):
        class Bad(mod.nn.Module):
            def forward(self, X):
                return X

            def right_inverse(self, X):
                return {"none": None, "elem": (X, 3), "dtype": X.double()}[kind]
        m = mod.nn.Linear(2, 3)
        mod.nn.utils.parametrize.register_parametrization(m, "weight", Bad())
    for kind in ("none", "elem", "dtype"):
        same_error(bad_right_inverse, kind)

    def stacked_bad_inverse(mod):
        class Bad(mod.nn.Module):
            def forward(self, X):
                return X

            def right_inverse(self, X):
                return X.double()
        m = mod.nn.Linear(2, 3)
        P = mod.nn.utils.parametrize
        P.register_parametrization(m, "weight", _double(mod))
        P.register_parametrization(m, "weight", Bad())
    same_error(stacked_bad_inverse)

    def not_a_tensor(mod):
        class NotTensor(mod.nn.Module):
            def forward(self, X):
                return 3
        m = mod.nn.Linear(2, 3)
        mod.nn.utils.parametrize.register_parametrization(m, "weight", NotTensor())
    same_error(not_a_tensor)


def test_errors():
    def missing(mod):
        mod.nn.utils.parametrize.register_parametrization(mod.nn.Linear(2, 2), "nope",
                                                          _double(mod))
    same_error(missing)

    def remove_missing(mod):
        mod.nn.utils.parametrize.remove_parametrizations(mod.nn.Linear(2, 2), "weight")
    same_error(remove_missing)

    def leave_tuple(mod):
        P = mod.nn.utils.parametrize
        m = P.register_parametrization(mod.nn.Linear(2, 2), "weight", _rank_one(mod))
        P.remove_parametrizations(m, "weight", leave_parametrized=False)
    same_error(leave_tuple)

    def no_inverse_assign(mod):
        class NoInv(mod.nn.Module):
            def forward(self, X):
                return X + 1
        m = mod.nn.utils.parametrize.register_parametrization(mod.nn.Linear(2, 2), "weight",
                                                              NoInv())
        m.weight = mod.zeros(2, 2)
    same_error(no_inverse_assign)

    def wrong_length(mod):
        class Two(mod.nn.Module):
            def __init__(self):
                super().__init__()
                self.calls = 0

            def forward(self, a, b):
                return a + b

            def right_inverse(self, X):
                self.calls += 1
                return (X, X) if self.calls == 1 else (X, X, X)
        m = mod.nn.utils.parametrize.register_parametrization(mod.nn.Linear(2, 2), "weight",
                                                              Two())
        m.weight = mod.zeros(2, 2)
    same_error(wrong_length)

    def pickle_it(mod):
        m = mod.nn.utils.parametrize.register_parametrization(mod.nn.Linear(2, 2), "weight",
                                                              _double(mod))
        pickle.dumps(m)
    # (the message's pytorch.org link is left as is, which the harness's renaming of
    # torch. would not match)
    same_error(pickle_it, message="prefix")

    def empty_list(mod):
        mod.nn.utils.parametrize.ParametrizationList([], mod.zeros(2))
    same_error(empty_list)


def test_deepcopy_and_type_before():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = P.register_parametrization(mod.nn.Linear(3, 3), "weight", _symmetric(mod))
        c = copy.deepcopy(m)
        with mod.no_grad():
            c.parametrizations.weight.original.add_(1)
        return (type(c).__name__, P.type_before_parametrizations(c).__name__, c.weight,
                m.weight, P.type_before_parametrizations(mod.nn.ReLU()).__name__)
    same(prog)


def test_transfer_parametrizations_and_params():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        a = mod.nn.Linear(3, 3)
        P.register_parametrization(a, "weight", _symmetric(mod))
        P.register_parametrization(a, "weight", _double(mod))
        P.register_parametrization(a, "bias", _double(mod))
        b = P.transfer_parametrizations_and_params(a, mod.nn.Linear(3, 3))
        c = P.transfer_parametrizations_and_params(a, mod.nn.Module(), "weight")
        t = mod.nn.Linear(4, 4)
        P.register_parametrization(t, "weight", _rank_one(mod))
        d = P.transfer_parametrizations_and_params(t, mod.nn.Linear(4, 4))
        e = P.transfer_parametrizations_and_params(mod.nn.Linear(2, 2), mod.nn.Linear(2, 2))
        return (repr(b), b.weight, b.bias, list(b.state_dict()), repr(c), c.weight,
                d.weight, list(d.state_dict()), type(e).__name__,
                b.parametrizations.weight.original is a.parametrizations.weight.original)
    same(prog)


def test_state_dict_round_trip_save_load():
    def prog(mod):
        P = mod.nn.utils.parametrize
        mod.manual_seed(0)
        m = P.register_parametrization(mod.nn.Linear(3, 3), "weight", _symmetric(mod))
        _train(mod, m.double())
        buf = io.BytesIO()
        mod.save(m.state_dict(), buf)
        buf.seek(0)
        mod.manual_seed(1)
        n = P.register_parametrization(mod.nn.Linear(3, 3).double(), "weight", _symmetric(mod))
        res = n.load_state_dict(mod.load(buf))
        plain = catch(mod.nn.Linear(3, 3).double().load_state_dict, m.state_dict())
        return repr(res), n.weight, m.weight, _sd(n), plain
    same(prog)


# ------------------------------------------------------------------ orthogonal


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
@pytest.mark.parametrize("omap", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("triv", [True, False])
def test_orthogonal(shape, omap, triv):
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Linear(shape[1], shape[0]).double()
        mod.nn.utils.parametrizations.orthogonal(m, orthogonal_map=omap,
                                                 use_trivialization=triv)
        Q = m.weight
        small = Q.mT @ Q if shape[0] >= shape[1] else Q @ Q.mT
        r = [repr(m), list(m.state_dict()), Q, small, m.parametrizations.weight.original]
        r += [_train(mod, m, opt="adam", shape=(6, shape[1])), m.weight, _grads(m)]
        return r
    same(prog, rtol=1e-6, atol=1e-9)


def test_orthogonal_assign_batched_and_float32():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Module()
        m.register_parameter("w", mod.nn.Parameter(mod.randn(2, 3, 3)))
        mod.nn.utils.parametrizations.orthogonal(m, "w")
        r = [m.w, m.w.dtype]
        q = mod.linalg.qr(mod.randn(2, 3, 3))[0]
        with mod.no_grad():
            m.w = q
        r += [m.w, m.parametrizations.w[0].base]
        m.w.sum().backward()
        r.append(m.parametrizations.w.original.grad)
        return r
    same(prog, rtol=1e-4, atol=1e-5)


def test_orthogonal_errors():
    def one_dim(mod):
        mod.nn.utils.parametrizations.orthogonal(mod.nn.Linear(3, 3), "bias")
    same_error(one_dim)

    def bad_map(mod):
        mod.nn.utils.parametrizations.orthogonal(mod.nn.Linear(3, 3), orthogonal_map="qr")
    same_error(bad_map)

    def missing(mod):
        mod.nn.utils.parametrizations.orthogonal(mod.nn.Linear(3, 3), "nope")
    same_error(missing)

    def assign_no_triv(mod):
        m = mod.nn.utils.parametrizations.orthogonal(mod.nn.Linear(3, 3), use_trivialization=False)
        m.weight = mod.eye(3)
    same_error(assign_no_triv)

    def wrong_shape(mod):
        m = mod.nn.utils.parametrizations.orthogonal(mod.nn.Linear(3, 3))
        m.parametrizations.weight[0].right_inverse(mod.eye(2))
    same_error(wrong_shape)


# ------------------------------------------------------------------ spectral_norm


@pytest.mark.parametrize("kind", ["linear", "conv", "convT", "vector"])
@pytest.mark.parametrize("iters", [1, 3])
def test_spectral_norm_parametrization(kind, iters):
    def prog(mod):
        mod.manual_seed(0)
        if kind == "linear":
            m, shape = mod.nn.Linear(5, 4).double(), (6, 5)
        elif kind == "conv":
            m, shape = mod.nn.Conv2d(2, 3, 3).double(), (2, 2, 5, 5)
        elif kind == "convT":
            m, shape = mod.nn.ConvTranspose2d(2, 3, 3).double(), (2, 2, 4, 4)
        else:
            m, shape = mod.nn.Linear(5, 4).double(), (6, 5)
        name = "bias" if kind == "vector" else "weight"
        mod.nn.utils.parametrizations.spectral_norm(m, name, n_power_iterations=iters)
        sn = m.parametrizations[name][0]
        r = [repr(m), list(m.state_dict()), getattr(m, name), getattr(sn, "_u", None),
             getattr(sn, "_v", None), sn.dim]
        g = mod.Generator().manual_seed(3)
        x = mod.randn(*shape, generator=g, dtype=mod.float64)
        opt = mod.optim.SGD(m.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            loss = m(x).pow(2).mean()
            loss.backward()
            opt.step()
            r.append(loss.item())
        r += [_grads(m), getattr(sn, "_u", None), getattr(sn, "_v", None)]
        m.eval()
        w1 = getattr(m, name)
        w2 = getattr(m, name)
        r += [w1, w2, getattr(sn, "_u", None)]
        return r
    same(prog, rtol=1e-6, atol=1e-9)


def test_spectral_norm_parametrization_eps_dim_and_removal():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Linear(3, 4)
        mod.nn.utils.parametrizations.spectral_norm(m, eps=1e-3, dim=1)
        w = m.weight
        sigma = mod.linalg.matrix_norm(w.detach(), 2)
        m.eval()
        mod.nn.utils.parametrize.remove_parametrizations(m, "weight")
        return w, sigma, m.weight, type(m).__name__, list(m.state_dict())
    same(prog, rtol=1e-5, atol=1e-6)


def test_spectral_norm_parametrization_errors():
    def bad_dim(mod):
        mod.nn.utils.parametrizations.spectral_norm(mod.nn.Linear(3, 4), dim=2)
    same_error(bad_dim)

    def bad_iters(mod):
        mod.nn.utils.parametrizations.spectral_norm(mod.nn.Linear(3, 4), n_power_iterations=0)
    same_error(bad_iters)

    def missing(mod):
        mod.nn.utils.parametrizations.spectral_norm(mod.nn.Linear(3, 4), "nope")
    same_error(missing)


def test_spectral_norm_parametrization_state_dict_round_trip():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.utils.parametrizations.spectral_norm(mod.nn.Linear(3, 4))
        m(mod.ones(2, 3))
        buf = io.BytesIO()
        mod.save(m.state_dict(), buf)
        buf.seek(0)
        n = mod.nn.utils.parametrizations.spectral_norm(mod.nn.Linear(3, 4))
        res = n.load_state_dict(mod.load(buf))
        n.eval()
        m.eval()
        return repr(res), _sd(n), n.weight, m.weight
    same(prog)


# ------------------------------------------------------------------ weight_norm


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm_parametrization(dim):
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Conv1d(2, 3, 2).double()
        mod.nn.utils.parametrizations.weight_norm(m, dim=dim)
        plist = m.parametrizations.weight
        r = [repr(m), list(m.state_dict()), plist.original0, plist.original1, m.weight,
             type(m.weight.grad_fn).__name__, plist[0].dim]
        g = mod.Generator().manual_seed(3)
        x = mod.randn(2, 2, 5, generator=g, dtype=mod.float64)
        opt = mod.optim.SGD(m.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            loss = m(x).pow(2).mean()
            loss.backward()
            opt.step()
            r.append(loss.item())
        r += [_grads(m), m.weight]
        return r
    same(prog)


def test_weight_norm_op_double_backward():
    def prog(mod):
        v = mod.tensor([[1., 2., 3.], [0.5, -1., 2.]], dtype=mod.float64, requires_grad=True)
        g = mod.tensor([[2.], [0.5]], dtype=mod.float64, requires_grad=True)
        w = mod._weight_norm(v, g, 0)
        gv, gg = mod.autograd.grad((w * w.detach().flip(1)).sum(), (v, g), create_graph=True)
        return w, gv, gg, mod.autograd.grad(gv.sum() + gg.sum(), (v, g)), \
            type(w.grad_fn).__name__
    same(prog)


def test_weight_norm_loads_old_state_dict():
    def prog(mod):
        mod.manual_seed(0)
        with no_warnings():
            old = mod.nn.utils.weight_norm(mod.nn.Linear(3, 2))
        new = mod.nn.utils.parametrizations.weight_norm(mod.nn.Linear(3, 2))
        res = new.load_state_dict(old.state_dict())
        return repr(res), new.weight, old(mod.ones(1, 3)), new(mod.ones(1, 3)), list(old.state_dict())
    same(prog)


# ------------------------------------------------------------------ the hook forms


def test_old_weight_norm():
    def prog(mod):
        mod.manual_seed(0)
        m, w = warns(mod.nn.utils.weight_norm, mod.nn.Linear(3, 2).double())
        r = [w, repr(m), list(m.state_dict()), m.weight_g, m.weight_v, m.weight,
             type(m.weight).__name__, [n for n, _ in m.named_parameters()]]
        r += [_train(mod, m, shape=(4, 3)), _grads(m)]
        with no_warnings():
            m2 = mod.nn.utils.weight_norm(mod.nn.Conv1d(2, 3, 2).double(), dim=None)
        r += [m2.weight_g, m2.weight]
        mod.nn.utils.remove_weight_norm(m)
        r += [list(m.state_dict()), m.weight, type(m.weight).__name__,
              len(m._forward_pre_hooks)]
        return r
    same(prog)


def test_old_weight_norm_errors():
    def twice(mod):
        m = mod.nn.utils.weight_norm(mod.nn.Linear(3, 2))
        mod.nn.utils.weight_norm(m)
    same_error(twice)

    def remove_missing(mod):
        mod.nn.utils.remove_weight_norm(mod.nn.Linear(3, 2))
    same_error(remove_missing)


def test_old_spectral_norm():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.utils.spectral_norm(mod.nn.Conv2d(2, 3, 3).double())
        sd = m.state_dict()
        r = [repr(m), list(sd), dict(sd._metadata), m.weight_u, m.weight_v, m.weight,
             type(m.weight).__name__, [n for n, _ in m.named_parameters()],
             [n for n, _ in m.named_buffers()]]
        g = mod.Generator().manual_seed(3)
        x = mod.randn(2, 2, 5, 5, generator=g, dtype=mod.float64)
        opt = mod.optim.Adam(m.parameters(), lr=0.01)
        for _ in range(3):
            opt.zero_grad()
            loss = m(x).pow(2).mean()
            loss.backward()
            opt.step()
            r.append(loss.item())
        r += [_grads(m), m.weight_u, m.weight_v, m.weight]
        m.eval()
        m(x)
        r += [m.weight_u, m.weight]
        mod.nn.utils.remove_spectral_norm(m)
        r += [list(m.state_dict()), dict(m.state_dict()._metadata), m.weight,
              len(m._forward_pre_hooks), len(m._state_dict_hooks),
              len(m._load_state_dict_pre_hooks)]
        t = mod.nn.utils.spectral_norm(mod.nn.ConvTranspose1d(2, 3, 2), n_power_iterations=2,
                                       eps=1e-4)
        r += [t.weight_u, t.weight_v]
        return r
    same(prog, rtol=1e-6, atol=1e-9)


def test_old_spectral_norm_state_dict_round_trip_and_version0():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.utils.spectral_norm(mod.nn.Linear(4, 3).double())
        m(mod.ones(1, 4, dtype=mod.float64))
        buf = io.BytesIO()
        mod.save(m.state_dict(), buf)
        buf.seek(0)
        n = mod.nn.utils.spectral_norm(mod.nn.Linear(4, 3).double())
        res = n.load_state_dict(mod.load(buf))
        r = [repr(res), _sd(n)]
        # a version-0 state dict: the normalized weight instead of weight_v
        sd = m.state_dict()
        old = {k: v for k, v in sd.items() if k != "weight_v"}
        old["weight"] = m.weight.detach()
        k = mod.nn.utils.spectral_norm(mod.nn.Linear(4, 3).double())
        r += [repr(k.load_state_dict(old)), k.weight_v]
        k.eval()
        r.append(k(mod.ones(1, 4, dtype=mod.float64)))
        # after removal the load pre-hook stays (PyTorch's behaviour)
        mod.nn.utils.remove_spectral_norm(n)
        r.append(catch(n.load_state_dict, n.state_dict()))
        return r
    same(prog, rtol=1e-6, atol=1e-9)


def test_old_spectral_norm_errors():
    def twice(mod):
        m = mod.nn.utils.spectral_norm(mod.nn.Linear(3, 2))
        mod.nn.utils.spectral_norm(m)
    same_error(twice)

    def remove_missing(mod):
        mod.nn.utils.remove_spectral_norm(mod.nn.Linear(3, 2))
    same_error(remove_missing)

    def none_param(mod):
        mod.nn.utils.spectral_norm(mod.nn.Linear(3, 2, bias=False), "bias")
    same_error(none_param)

    def bad_iters(mod):
        mod.nn.utils.spectral_norm(mod.nn.Linear(3, 2), n_power_iterations=0)
    same_error(bad_iters)


def test_tensor_mH_H():
    def prog(mod):
        x = mod.arange(6.).reshape(2, 3).requires_grad_()
        b = mod.arange(12.).reshape(2, 2, 3)
        return (x.mH, x.H, b.mH, type(x.mH.grad_fn).__name__,
                catch(lambda: mod.ones(3).mH), catch(lambda: b.H), catch(lambda: mod.ones(3).H),
                warns(lambda: mod.tensor(2.).mH))
    same(prog)


@pytest.mark.parametrize("name", ["parametrize", "parametrizations", "weight_norm",
                                  "spectral_norm"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    module = importlib.import_module(f"autograd_core.nn.utils.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
