"""Shared driver for the optimizer differential tests: the same tiny model, weights and
data under torch and autograd_core, stepped with the same optimizer settings."""
import numpy as np
import torch

import autograd_core as ag

DT = {"float32": (torch.float32, ag.float32, np.float32),
      "float64": (torch.float64, ag.float64, np.float64)}


def make_problem(dtype="float32", seed=0, shapes=((4, 5), (5,), (5, 3), (3,))):
    rng = np.random.default_rng(seed)
    npdt = DT[dtype][2]
    weights = [rng.standard_normal(s).astype(npdt) * 0.5 for s in shapes]
    x = rng.standard_normal((8, shapes[0][0])).astype(npdt)
    y = rng.standard_normal((8, shapes[-1][-1])).astype(npdt)
    return weights, x, y


def params_for(lib, weights, dtype):
    tdt = DT[dtype][0] if lib is torch else DT[dtype][1]
    return [lib.tensor(w, dtype=tdt, requires_grad=True) for w in weights]


def loss_fn(lib, params, x, y):
    if len(params) == 2:  # matrices only (Muon)
        w1, w2 = params
        out = lib.tanh(x @ w1) @ w2
    else:
        w1, b1, w2, b2 = params
        out = lib.tanh(x @ w1 + b1) @ w2 + b2
    return ((out - y) ** 2).mean()


def convert(lib, value, dtype):
    """A hyperparameter spec for lib: ("tensor", v) becomes a 0-d tensor of lib."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "tensor":
        return lib.tensor(value[1])
    if isinstance(value, tuple):
        return tuple(convert(lib, v, dtype) for v in value)
    return value


def run(lib, opt_name, kwargs, dtype="float32", steps=5, groups=None, seed=0, closure=False,
        shapes=((4, 5), (5,), (5, 3), (3,))):
    """Losses and parameter values after each step, for one library."""
    weights, xn, yn = make_problem(dtype, seed, shapes)
    params = params_for(lib, weights, dtype)
    tdt = DT[dtype][0] if lib is torch else DT[dtype][1]
    x = lib.tensor(xn, dtype=tdt)
    y = lib.tensor(yn, dtype=tdt)
    opt_cls = getattr(lib.optim, opt_name)
    kw = {k: convert(lib, v, dtype) for k, v in kwargs.items()}
    if groups is not None:
        spec = [dict({k: convert(lib, v, dtype) for k, v in g.items()},
                     params=[params[i] for i in idx]) for idx, g in groups]
        opt = opt_cls(spec, **kw)
    else:
        opt = opt_cls(params, **kw)
    losses, history = [], []
    for _ in range(steps):
        if closure:
            def closure_fn():
                opt.zero_grad()
                loss = loss_fn(lib, params, x, y)
                loss.backward()
                return loss
            loss = opt.step(closure_fn)
        else:
            opt.zero_grad()
            loss = loss_fn(lib, params, x, y)
            loss.backward()
            opt.step()
        losses.append(float(loss.detach()))
        history.append([p.detach().numpy().copy() for p in params])
    return losses, history, opt


def tolerances(dtype):
    # float32: each step rounds a handful of ops (and PyTorch fuses multiply-adds), so
    # values agree to a few ulps per step, amplified a little by the division by sqrt(v)
    # in the adaptive methods; float64 agrees to ~1e-13.
    return (2e-5, 2e-6) if dtype == "float32" else (1e-10, 1e-12)
