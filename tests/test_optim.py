"""autograd_core.optim against PyTorch 2.13: every optimizer with each of its options, from
the same weights and data, losses and parameters after every step compared (float32 and
float64); param groups, state_dict layouts and round trips, zero_grad, hooks, errors."""
import importlib
import warnings

import numpy as np
import pytest
import torch

import autograd_core as ag
from _optim_util import loss_fn, make_problem, params_for, run, tolerances

T = ("tensor",)  # marker: ("tensor", v) builds a 0-d tensor hyperparameter in each library

CASES = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.5)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.1, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.5, weight_decay=0.1, maximize=True)),
    ("SGD", dict(lr=("tensor", 0.05), momentum=0.9)),
    ("SGD", dict(lr=0.1, foreach=False)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("Adam", dict(lr=0.01, maximize=True, amsgrad=True)),
    ("Adam", dict(lr=("tensor", 0.01))),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, amsgrad=True, weight_decay=0.2)),
    ("AdamW", dict(lr=0.01, maximize=True, weight_decay=0)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4)),
    ("Adadelta", dict(weight_decay=0.1, maximize=True)),
    ("Adadelta", dict(lr=("tensor", 0.7))),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr_decay=0.1, initial_accumulator_value=0.1)),
    ("Adagrad", dict(weight_decay=0.1, eps=1e-6, maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(betas=(0.7, 0.9), eps=1e-5, weight_decay=0.1)),
    ("Adamax", dict(maximize=True)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=1e-2, alpha=0.5, t0=2)),
    ("ASGD", dict(t0=1, weight_decay=0.1, maximize=True)),
    ("NAdam", dict()),
    ("NAdam", dict(momentum_decay=0.01, betas=(0.8, 0.99))),
    ("NAdam", dict(weight_decay=0.1)),
    ("NAdam", dict(weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict()),
    ("RAdam", dict(weight_decay=0.1)),
    ("RAdam", dict(weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict(betas=(0.8, 0.99), eps=1e-6)),
    ("RMSprop", dict()),
    ("RMSprop", dict(momentum=0.5)),
    ("RMSprop", dict(centered=True)),
    ("RMSprop", dict(alpha=0.9, momentum=0.3, centered=True, weight_decay=0.1)),
    ("RMSprop", dict(maximize=True, eps=1e-5)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.06))),
    ("Rprop", dict(maximize=True)),
    ("Adafactor", dict()),
    ("Adafactor", dict(lr=0.05, beta2_decay=-0.5, eps=(1e-20, 1e-2), d=1.5)),
    ("Adafactor", dict(weight_decay=0.1, maximize=True)),
    # foreach/fused select PyTorch's multi-tensor/fused kernels; here they run the
    # single-tensor algorithm, which agrees with them to rounding
    ("SGD", dict(lr=0.1, momentum=0.9, foreach=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, fused=True)),
    ("Adam", dict(lr=0.01, foreach=True)),
    ("Adam", dict(lr=0.01, fused=True, amsgrad=True)),
    ("AdamW", dict(lr=0.01, fused=True)),
    ("Adagrad", dict(fused=True)),
    ("RMSprop", dict(foreach=True, centered=True, momentum=0.2)),
    ("NAdam", dict(foreach=True)),
    ("Rprop", dict(foreach=True)),
]

MUON_SHAPES = ((4, 5), (5, 3))
MUON_CASES = [
    dict(),
    dict(lr=0.02, nesterov=False),
    dict(adjust_lr_fn="match_rms_adamw", weight_decay=0.0),
    dict(adjust_lr_fn="original", ns_steps=3, momentum=0.8, eps=1e-5),
    dict(ns_coefficients=(2.0, -1.5, 0.5)),
]


def _case_id(case):
    name, kw = case
    return name + "-" + ",".join(f"{k}={v}" for k, v in kw.items())


def compare_runs(name, kwargs, dtype, rtol=None, atol=None, **extra):
    lt, ht, ot = run(torch, name, kwargs, dtype, **extra)
    la, ha, oa = run(ag, name, kwargs, dtype, **extra)
    r, a = tolerances(dtype)
    rtol = r if rtol is None else rtol
    atol = a if atol is None else atol
    np.testing.assert_allclose(la, lt, rtol=rtol, atol=atol)
    for step, (pt, pa) in enumerate(zip(ht, ha)):
        for i, (x, y) in enumerate(zip(pt, pa)):
            np.testing.assert_allclose(y, x, rtol=rtol, atol=atol,
                                       err_msg=f"{name} step {step} param {i}")
    return ot, oa


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_optimizer_matches_torch(case, dtype):
    name, kwargs = case
    steps = 8 if name == "RAdam" else 5  # RAdam's rectified branch starts at step 6
    ot, oa = compare_runs(name, kwargs, dtype, steps=steps)
    compare_state_dicts(ot.state_dict(), oa.state_dict())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", MUON_CASES, ids=lambda kw: str(kw))
def test_muon_matches_torch(kwargs, dtype):
    # PyTorch runs Newton-Schulz in bfloat16, and so does ours.
    ot, oa = compare_runs("Muon", kwargs, dtype, shapes=MUON_SHAPES)
    compare_state_dicts(ot.state_dict(), oa.state_dict())


def test_adam_tensor_betas_match_torch():
    # 0-d float32 beta tensors: bias corrections are float32 in both libraries, so float64
    # parameters agree only to float32 rounding of those scalars.
    kw = dict(lr=0.01, betas=(("tensor", 0.9), ("tensor", 0.999)))
    compare_runs("Adam", kw, "float32")
    compare_runs("Adam", kw, "float64", rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", [
    dict(max_iter=4),
    dict(max_iter=4, history_size=2),
    dict(max_iter=4, line_search_fn="strong_wolfe"),
    dict(lr=0.5, max_iter=3, max_eval=5, tolerance_grad=1e-5, tolerance_change=1e-7,
         line_search_fn="strong_wolfe", history_size=3),
], ids=lambda kw: str(kw))
def test_lbfgs_matches_torch(kwargs, dtype):
    # L-BFGS divides by curvature estimates (y.s, y.y) that lose digits as it converges, so
    # float32 differences of a few ulps grow to ~1e-6 relative within two steps.
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == "float32" else {}
    ot, oa = compare_runs("LBFGS", kwargs, dtype, steps=2, closure=True, **tol)
    st = ot.state[ot.param_groups[0]["params"][0]]
    sa = oa.state[oa.param_groups[0]["params"][0]]
    assert sorted(st) == sorted(sa)
    assert st["func_evals"] == sa["func_evals"] and st["n_iter"] == sa["n_iter"]
    if dtype == "float64":
        compare_state_dicts(ot.state_dict(), oa.state_dict())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_closure_steps_match(dtype):
    compare_runs("SGD", dict(lr=0.1, momentum=0.9), dtype, closure=True)
    compare_runs("Adam", dict(lr=0.01), dtype, closure=True)


@pytest.mark.parametrize("name,groups", [
    ("SGD", [((0, 1), dict(lr=0.1, momentum=0.9)), ((2, 3), dict(lr=0.05))]),
    ("Adam", [((0, 1), dict()), ((2, 3), dict(lr=0.02, amsgrad=True, weight_decay=0.1))]),
    ("RMSprop", [((0,), dict(centered=True)), ((1, 2, 3), dict(momentum=0.4))]),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_param_groups_match(name, groups, dtype):
    ot, oa = compare_runs(name, dict(lr=0.01), dtype, groups=groups)
    compare_state_dicts(ot.state_dict(), oa.state_dict())


# ---------------------------------------------------------------------------- state dicts
def _plain(value):
    """A library-independent form of a state_dict value."""
    if isinstance(value, (torch.Tensor, ag.Tensor)):
        return ("tensor", str(value.dtype).split(".")[-1], tuple(value.shape),
                value.detach().numpy().copy())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return value


def _assert_same(a, b, path="sd"):
    if isinstance(a, dict):
        assert isinstance(b, dict), path
        assert list(a.keys()) == list(b.keys()), (path, list(a), list(b))
        for k in a:
            _assert_same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, tuple) and a and a[0] == "tensor":
        assert b[0] == "tensor" and a[1:3] == b[1:3], (path, a[1:3], b[1:3])
        np.testing.assert_allclose(b[3], a[3], rtol=1e-4, atol=1e-6, err_msg=path)
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert isinstance(b, float) and b == pytest.approx(a, rel=1e-12), path
    else:
        assert type(a) is type(b) and a == b, (path, a, b)


def compare_state_dicts(sd_torch, sd_ag):
    """Same keys in the same order, same types, and values (tensors: dtype, shape, values)."""
    _assert_same(_plain(sd_torch), _plain(sd_ag))


def _round_trip(lib, name, kwargs):
    weights, xn, yn = make_problem("float64")
    params = params_for(lib, weights, "float64")
    x, y = lib.tensor(xn), lib.tensor(yn)
    opt = getattr(lib.optim, name)(params, **kwargs)
    for _ in range(3):
        opt.zero_grad()
        loss_fn(lib, params, x, y).backward()
        opt.step()
    sd = opt.state_dict()
    params2 = [lib.tensor(p.detach().numpy().copy(), requires_grad=True) for p in params]
    opt2 = getattr(lib.optim, name)(params2, **kwargs)
    opt2.load_state_dict(sd)
    for _ in range(3):
        opt2.zero_grad()
        loss_fn(lib, params2, x, y).backward()
        opt2.step()
    return [p.detach().numpy() for p in params2]


@pytest.mark.parametrize("name,kwargs", [
    ("SGD", dict(lr=0.1, momentum=0.9)), ("Adam", dict(lr=0.01, amsgrad=True)),
    ("NAdam", dict()), ("ASGD", dict(t0=1)), ("Rprop", dict()), ("Adagrad", dict()),
    ("Adafactor", dict()), ("RMSprop", dict(momentum=0.3, centered=True)),
])
def test_state_dict_round_trip_continues_identically(name, kwargs):
    # Three steps, state_dict, load into a fresh optimizer over fresh copies of the
    # parameters, three more steps: as PyTorch doing the same, and (up to the float32
    # scalar state that loading casts to the parameters' dtype, as PyTorch does) as six
    # uninterrupted steps.
    _, full, _ = run(ag, name, kwargs, "float64", steps=6)
    for p, q, r in zip(_round_trip(ag, name, kwargs), full[-1],
                       _round_trip(torch, name, kwargs)):
        np.testing.assert_allclose(p, r, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(p, q, rtol=1e-7, atol=1e-9)


def test_load_state_dict_from_torch_layout():
    # A state_dict PyTorch produced (tensors converted) loads into our optimizer and the
    # next steps match PyTorch's.
    weights, xn, yn = make_problem("float64")
    res = {}
    for lib in (torch, ag):
        params = params_for(lib, weights, "float64")
        x, y = lib.tensor(xn), lib.tensor(yn)
        opt = lib.optim.Adam(params, lr=0.01)
        for _ in range(2):
            opt.zero_grad()
            loss_fn(lib, params, x, y).backward()
            opt.step()
        res[lib] = (params, opt, x, y)
    sd_t = res[torch][1].state_dict()
    conv = {"state": {k: {n: ag.tensor(v.numpy()) for n, v in s.items()}
                      for k, s in sd_t["state"].items()},
            "param_groups": sd_t["param_groups"]}
    params, opt, x, y = res[ag]
    fresh = [ag.tensor(p.detach().numpy().copy(), requires_grad=True) for p in params]
    opt2 = ag.optim.Adam(fresh, lr=0.5)
    opt2.load_state_dict(conv)
    assert opt2.param_groups[0]["lr"] == 0.01
    for lib, ps, o, xx, yy in ((torch, res[torch][0], res[torch][1], res[torch][2],
                                res[torch][3]), (ag, fresh, opt2, x, y)):
        o.zero_grad()
        loss_fn(lib, ps, xx, yy).backward()
        o.step()
    for a, b in zip(fresh, res[torch][0]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12)


def test_state_dict_named_params_and_shared_ids():
    res = {}
    for lib in (torch, ag):
        w = lib.zeros(3, requires_grad=True)
        b = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([{"params": [("w", w)]}, {"params": [("b", b)], "lr": 0.5}],
                            lr=0.1, momentum=0.9)
        (w.sum() + 2 * b.sum()).backward()
        opt.step()
        res[lib] = opt.state_dict()
    compare_state_dicts(res[torch], res[ag])
    assert res[ag]["param_groups"][1]["param_names"] == ["b"]


def test_load_state_dict_errors():
    for lib in (torch, ag):
        a = lib.zeros(2, requires_grad=True)
        b = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([a, b], lr=0.1)
        sd = opt.state_dict()
        with pytest.raises(ValueError, match="different number of parameter groups"):
            lib.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1).load_state_dict(sd)
        with pytest.raises(ValueError, match="doesn't match the size"):
            lib.optim.SGD([a], lr=0.1).load_state_dict(sd)


def test_state_dict_hooks_match():
    logs = {}
    for lib in (torch, ag):
        log = []
        p = lib.zeros(2, requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.1)
        opt.register_state_dict_pre_hook(lambda o: log.append("pre"))
        opt.register_state_dict_post_hook(lambda o, sd: (log.append("post"),
                                                         sd.__setitem__("extra", 1))[0])
        opt.register_state_dict_pre_hook(lambda o: log.append("pre0"), prepend=True)
        sd = opt.state_dict()
        assert sd["extra"] == 1
        opt.register_load_state_dict_pre_hook(lambda o, s: log.append("lpre"))
        opt.register_load_state_dict_post_hook(lambda o: log.append("lpost"))
        opt.load_state_dict(sd)
        logs[lib] = log
    assert logs[torch] == logs[ag] == ["pre0", "pre", "post", "lpre", "lpost"]


# ---------------------------------------------------------------------------- zero_grad
@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    for lib in (torch, ag):
        p = lib.ones(3, requires_grad=True)
        q = lib.ones(3, requires_grad=True)
        opt = lib.optim.SGD([p, q], lr=0.1)
        (p * 2).sum().backward()
        g = p.grad
        opt.zero_grad(set_to_none=set_to_none)
        assert q.grad is None
        if set_to_none:
            assert p.grad is None
        else:
            assert p.grad is g and p.grad.tolist() == [0.0, 0.0, 0.0]
    # zero_grad() defaults to set_to_none=True, as PyTorch 2.x
    p = ag.ones(2, requires_grad=True)
    opt = ag.optim.Adam([p])
    p.sum().backward()
    opt.zero_grad()
    assert p.grad is None


def test_params_without_grad_are_skipped():
    for lib in (torch, ag):
        p = lib.ones(2, requires_grad=True)
        q = lib.ones(2, requires_grad=True)
        opt = lib.optim.Adam([p, q], lr=0.1)
        p.sum().backward()
        opt.step()
        assert q.tolist() == [1.0, 1.0]
        assert len(opt.state) == 1


# ---------------------------------------------------------------------------- hooks
def test_step_hooks_match():
    logs = {}
    for lib in (torch, ag):
        log = []
        p = lib.ones(2, requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.1)
        h1 = opt.register_step_pre_hook(lambda o, a, k: log.append(("pre", len(a), k)))
        opt.register_step_post_hook(lambda o, a, k: log.append(("post", len(a), k)))
        optimizer_mod = importlib.import_module(lib.__name__ + ".optim.optimizer")
        hg1 = optimizer_mod.register_optimizer_step_pre_hook(lambda o, a, k: log.append("gpre"))
        hg2 = optimizer_mod.register_optimizer_step_post_hook(
            lambda o, a, k: log.append("gpost"))
        p.sum().backward()
        opt.step()
        h1.remove()
        hg1.remove()
        hg2.remove()
        opt.step()
        logs[lib] = log
    assert logs[torch] == logs[ag]
    assert logs[ag] == ["gpre", ("pre", 1, {}), ("post", 1, {}), "gpost", ("post", 1, {})]


def test_step_pre_hook_can_replace_args():
    for lib in (torch, ag):
        calls = []
        p = lib.ones(2, requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.1)

        def closure():
            calls.append(1)
            return lib.tensor(3.0)

        opt.register_step_pre_hook(lambda o, a, k: ((a[0],), {"closure": closure}))
        p.sum().backward()
        assert float(opt.step()) == 3.0 and calls == [1]
        bad = lib.optim.SGD([lib.ones(1, requires_grad=True)])
        bad.register_step_pre_hook(lambda o, a, k: 5)
        with pytest.raises(RuntimeError, match="must return None or a tuple"):
            bad.step()


# ---------------------------------------------------------------------------- groups
def test_add_param_group_and_repr():
    reprs = {}
    for lib in (torch, ag):
        a = lib.zeros(2, requires_grad=True)
        b = lib.zeros(3, requires_grad=True)
        opt = lib.optim.SGD([a], lr=0.1, momentum=0.9)
        opt.add_param_group({"params": b, "lr": 0.01})
        assert len(opt.param_groups) == 2 and opt.param_groups[1]["momentum"] == 0.9
        assert opt.param_groups[1]["params"] == [b]
        with pytest.raises(ValueError, match="more than one parameter group"):
            opt.add_param_group({"params": [a]})
        with pytest.raises(TypeError, match="param_group must be a dict"):
            opt.add_param_group([a])
        with pytest.raises(TypeError, match="ordered collections"):
            opt.add_param_group({"params": {lib.zeros(1, requires_grad=True)}})
        reprs[lib] = repr(opt)
    assert reprs[torch] == reprs[ag]


def test_constructor_errors_match():
    def errors(lib):
        p = [lib.zeros(2, requires_grad=True)]
        out = []
        attempts = [
            lambda: lib.optim.SGD(p, lr=-1), lambda: lib.optim.SGD(p, momentum=-1),
            lambda: lib.optim.SGD(p, weight_decay=-1),
            lambda: lib.optim.SGD(p, nesterov=True),
            lambda: lib.optim.SGD([], lr=0.1),
            lambda: lib.optim.SGD(lib.zeros(2, requires_grad=True)),
            lambda: lib.optim.SGD([1.0]),
            lambda: lib.optim.SGD([lib.zeros(2, requires_grad=True) * 2]),
            lambda: lib.optim.Adam(p, betas=(1.0, 0.9)),
            lambda: lib.optim.Adam(p, betas=(0.9, -0.1)),
            lambda: lib.optim.Adam(p, eps=-1), lambda: lib.optim.Adam(p, lr=-1),
            lambda: lib.optim.Adam(p, betas=(0.9, lib.tensor(0.99))),
            lambda: lib.optim.Adam(p, lr=lib.tensor([0.1, 0.2])),
            lambda: lib.optim.AdamW(p, weight_decay=-1),
            lambda: lib.optim.Adadelta(p, rho=1.5),
            lambda: lib.optim.Adagrad(p, lr_decay=-1),
            lambda: lib.optim.Adagrad(p, initial_accumulator_value=-1),
            lambda: lib.optim.Adamax(p, betas=(0.9, 1.0)),
            lambda: lib.optim.ASGD(p, weight_decay=-1),
            lambda: lib.optim.NAdam(p, momentum_decay=-1),
            lambda: lib.optim.RAdam(p, betas=(-0.1, 0.9)),
            lambda: lib.optim.RMSprop(p, alpha=-1), lambda: lib.optim.RMSprop(p, momentum=-1),
            lambda: lib.optim.Rprop(p, etas=(1.2, 0.5)),
            lambda: lib.optim.Adafactor(p, beta2_decay=0.5),
            lambda: lib.optim.Adafactor(p, d=0.5), lambda: lib.optim.Adafactor(p, eps=(-1, 1)),
            lambda: lib.optim.Muon(p), lambda: lib.optim.Muon([lib.zeros(2, 2)],
                                                              adjust_lr_fn="x"),
            lambda: lib.optim.LBFGS([{"params": p}, {"params": [lib.zeros(1)]}]),
        ]
        for fn in attempts:
            try:
                fn()
                out.append(None)
            except Exception as e:  # noqa: BLE001 - comparing exception types and messages
                out.append((type(e).__name__, str(e).replace("torch.", "autograd_core.")))
        return out

    for et, ea in zip(errors(torch), errors(ag)):
        assert et == ea


def test_capturable_and_fused_on_cpu_raise():
    p = ag.zeros(2, requires_grad=True)
    p.grad = ag.ones(2)
    with pytest.raises(AssertionError, match="capturable=True"):
        ag.optim.Adam([p], capturable=True).step()
    q = torch.zeros(2, requires_grad=True)
    q.grad = torch.ones(2)
    with pytest.raises(AssertionError, match="capturable=True"):
        torch.optim.Adam([q], capturable=True).step()


def test_duplicate_params_warn():
    for lib in (torch, ag):
        p = lib.zeros(2, requires_grad=True)
        with pytest.warns(UserWarning, match="duplicate parameters"):
            lib.optim.SGD([p, p], lr=0.1)


def test_differentiable_sgd_gradient_through_step():
    # differentiable=True: the step is recorded, so a meta-gradient flows to the lr.
    res = {}
    for lib in (torch, ag):
        w0 = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        lr = lib.tensor(0.1, dtype=lib.float64, requires_grad=True)
        w = w0.clone()
        w.retain_grad()
        opt = lib.optim.SGD([w], lr=lr, momentum=0.0, differentiable=True)
        w.grad = (w0 * 3).detach()
        opt.step()
        (w ** 2).sum().backward()
        res[lib] = (w.detach().numpy().copy(), lr.grad.item(), w0.grad.numpy().copy())
    np.testing.assert_allclose(res[ag][0], res[torch][0])
    assert res[ag][1] == pytest.approx(res[torch][1])
    np.testing.assert_allclose(res[ag][2], res[torch][2])


@pytest.mark.parametrize("name,kw", [("Adam", dict(lr=0.1)), ("Adam", dict(amsgrad=True)),
                                     ("RMSprop", dict(centered=True, momentum=0.5)),
                                     ("Adagrad", dict()), ("Rprop", dict())])
def test_differentiable_step_gradients_match(name, kw):
    res = {}
    for lib in (torch, ag):
        w0 = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        w = w0.clone()
        w.retain_grad()
        opt = getattr(lib.optim, name)([w], differentiable=True, **kw)
        for _ in range(2):
            w.grad = (w0.detach() * 3 + 1)
            opt.step()
        (w ** 2).sum().backward()
        res[lib] = (w.detach().numpy().copy(), w0.grad.numpy().copy())
    np.testing.assert_allclose(res[ag][0], res[torch][0], rtol=1e-12)
    np.testing.assert_allclose(res[ag][1], res[torch][1], rtol=1e-10)


def test_fused_needs_floating_params():
    for lib in (torch, ag):
        p = lib.zeros(2, dtype=lib.int64)
        p.grad = lib.ones(2, dtype=lib.int64)
        with pytest.raises(RuntimeError, match="`fused=True` requires all the params to be "
                                               "floating point"):
            lib.optim.Adam([p], fused=True).step()


def test_step_is_no_grad_and_bumps_version():
    p = ag.ones(2, requires_grad=True)
    opt = ag.optim.SGD([p], lr=0.1)
    p.sum().backward()
    v = p._version
    opt.step()
    assert p.grad_fn is None and p.is_leaf and p._version > v


def test_all_names_present():
    names = set(torch.optim.__all__) - {"SparseAdam", "swap_in_optimizer_params_and_state"}
    assert names <= set(dir(ag.optim))
    assert set(torch.optim.lr_scheduler.__all__) <= set(dir(ag.optim.lr_scheduler))
    assert set(torch.optim.swa_utils.__all__) <= set(dir(ag.optim.swa_utils))


def test_optimizer_pickles():
    import pickle
    p = ag.nn.Parameter(ag.ones(2))
    opt = ag.optim.Adam([p], lr=0.1)
    p.sum().backward()
    opt.step()
    opt2 = pickle.loads(pickle.dumps(opt))
    assert opt2.param_groups[0]["lr"] == 0.1
    assert len(opt2.state) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        repr(opt2)


def _custom_classes(lib):
    class SignSGD(lib.optim.Optimizer):
        def __init__(self, params, lr=0.01, decay=0.0):
            super().__init__(params, dict(lr=lr, decay=decay))

        @lib.no_grad()
        def step(self, closure=None):
            loss = None
            if closure is not None:
                with lib.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if "count" not in state:
                        state["count"] = 0
                        state["avg"] = lib.zeros_like(p)
                    state["count"] += 1
                    state["avg"].mul_(0.5).add_(p.grad, alpha=0.5)
                    p.mul_(1 - group["decay"]).add_(state["avg"].sign(), alpha=-group["lr"])
            return loss

    class Halve(lib.optim.lr_scheduler.LRScheduler):
        def get_lr(self):
            return [base * 0.5 ** (self.last_epoch // 2) for base in self.base_lrs]

    return SignSGD, Halve


def test_user_defined_optimizer_and_scheduler():
    res = {}
    for lib in (torch, ag):
        SignSGD, Halve = _custom_classes(lib)
        weights, xn, yn = make_problem("float64")
        params = params_for(lib, weights, "float64")
        x, y = lib.tensor(xn), lib.tensor(yn)
        opt = SignSGD([{"params": params[:2]}, {"params": params[2:], "lr": 0.02}],
                      decay=0.01)
        sched = Halve(opt)
        log = []
        for _ in range(5):
            opt.zero_grad()
            loss = loss_fn(lib, params, x, y)
            loss.backward()
            opt.step()
            sched.step()
            log.append((float(loss.detach()), sched.get_last_lr()))
        sd = opt.state_dict()
        res[lib] = (log, [p.detach().numpy().copy() for p in params], sd["state"][0]["count"],
                    repr(opt))
    assert [l for l, _ in res[torch][0]] == pytest.approx([l for l, _ in res[ag][0]], rel=1e-12)
    assert [r for _, r in res[torch][0]] == [r for _, r in res[ag][0]]
    for a, b in zip(res[torch][1], res[ag][1]):
        np.testing.assert_allclose(b, a, rtol=1e-12)
    assert res[torch][2] == res[ag][2] == 5
    assert res[torch][3] == res[ag][3]
