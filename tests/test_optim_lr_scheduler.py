"""autograd_core.optim.lr_scheduler against PyTorch 2.13: every scheduler's learning rates
(and cycled momentums) after each step, the parameters they lead to, state_dicts,
chaining/sequencing, warnings and errors."""
import warnings

import numpy as np
import pytest
import torch

import autograd_core as ag
from _diff import assert_same
from _optim_util import loss_fn, make_problem, params_for

STEPS = 14


def _sched(lib, name, opt, kw):
    cls = getattr(lib.optim.lr_scheduler, name)
    kw = dict(kw)
    if "lr_lambda" in kw:
        kw["lr_lambda"] = kw["lr_lambda"]
    if name in ("SequentialLR", "ChainedScheduler"):
        subs = [_sched(lib, n, opt, k) for n, k in kw.pop("schedulers")]
        if name == "ChainedScheduler":
            return cls(subs, **kw)
        return cls(opt, subs, **kw)
    return cls(opt, **kw)


def _lam(e):
    return 0.95 ** e


def _lam2(e):
    return 1.0 / (1 + e)


SCHEDULERS = [
    ("LambdaLR", dict(lr_lambda=_lam)),
    ("LambdaLR", dict(lr_lambda=[_lam, _lam2])),
    ("MultiplicativeLR", dict(lr_lambda=lambda e: 0.9)),
    ("StepLR", dict(step_size=3, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.3)),
    ("ConstantLR", dict(factor=0.25, total_iters=4)),
    ("LinearLR", dict(start_factor=0.2, end_factor=0.9, total_iters=6)),
    ("ExponentialLR", dict(gamma=0.87)),
    ("PolynomialLR", dict(total_iters=8, power=2.0)),
    ("CosineAnnealingLR", dict(T_max=5, eta_min=0.001)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3, T_mult=2, eta_min=0.0005)),
    ("CosineAnnealingWarmRestarts", dict(T_0=4)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3)),
    ("CyclicLR", dict(base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=2, step_size_down=4,
                      mode="triangular2")),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3, mode="exp_range",
                      gamma=0.9, cycle_momentum=False)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3,
                      scale_fn=lambda x: 0.5 ** x, scale_mode="iterations")),
    ("OneCycleLR", dict(max_lr=0.2, total_steps=STEPS)),
    ("OneCycleLR", dict(max_lr=[0.2, 0.1], epochs=2, steps_per_epoch=7, pct_start=0.4,
                        anneal_strategy="linear", three_phase=True, div_factor=10.0,
                        final_div_factor=100.0)),
    ("OneCycleLR", dict(max_lr=0.2, total_steps=STEPS, cycle_momentum=False)),
    ("SequentialLR", dict(schedulers=[("LinearLR", dict(start_factor=0.1, total_iters=3)),
                                      ("ExponentialLR", dict(gamma=0.9))], milestones=[3])),
    ("SequentialLR", dict(schedulers=[("ConstantLR", dict(factor=0.5, total_iters=2)),
                                      ("StepLR", dict(step_size=2, gamma=0.5)),
                                      ("CosineAnnealingLR", dict(T_max=4))],
                          milestones=[2, 6])),
    ("ChainedScheduler", dict(schedulers=[("ConstantLR", dict(factor=0.5, total_iters=4)),
                                          ("ExponentialLR", dict(gamma=0.9))])),
    ("ChainedScheduler", dict(schedulers=[("LinearLR", dict(start_factor=0.5,
                                                            total_iters=3)),
                                          ("MultiStepLR", dict(milestones=[4, 8]))])),
]


def _make(lib, opt_name, dtype="float64"):
    weights, xn, yn = make_problem(dtype)
    params = params_for(lib, weights, dtype)
    groups = [{"params": params[:2]}, {"params": params[2:], "lr": 0.05}]
    if opt_name == "SGD":
        opt = lib.optim.SGD(groups, lr=0.1, momentum=0.9)
    else:
        opt = lib.optim.Adam(groups, lr=0.1)
    return params, opt, lib.tensor(xn), lib.tensor(yn)


def _trace(lib, name, kw, opt_name):
    params, opt, x, y = _make(lib, opt_name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = _sched(lib, name, opt, kw)
    out = [(list(sched.get_last_lr()), [g["lr"] for g in opt.param_groups],
            [g.get("momentum") for g in opt.param_groups],
            [g.get("betas") for g in opt.param_groups])]
    for _ in range(STEPS):
        opt.zero_grad()
        loss_fn(lib, params, x, y).backward()
        opt.step()
        sched.step()
        out.append((list(sched.get_last_lr()), [g["lr"] for g in opt.param_groups],
                    [g.get("momentum") for g in opt.param_groups],
                    [g.get("betas") for g in opt.param_groups]))
    return out, [p.detach().numpy().copy() for p in params], sched


def _close(a, b):
    # Pure Python float arithmetic, same formulas: equal up to the last bit; a tolerance
    # only to stay robust.
    assert_same(a, b, rtol=1e-12, atol=1e-15)


def _sid(s):
    return s[0] + "-" + ",".join(f"{k}" for k in s[1])


@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
@pytest.mark.parametrize("case", SCHEDULERS, ids=_sid)
def test_scheduler_matches_torch(case, opt_name):
    name, kw = case
    tt, pt, st = _trace(torch, name, kw, opt_name)
    ta, pa, sa = _trace(ag, name, kw, opt_name)
    _close(tt, ta)
    assert_same(pt, pa, rtol=1e-10, atol=1e-12, what="parameters")
    sdt, sda = st.state_dict(), sa.state_dict()
    assert sorted(sdt) == sorted(sda)
    for k in sdt:
        if k in ("lr_lambdas", "_scale_fn_custom") or "lr_lambda" in k:
            continue
        _close_sd(sdt[k], sda[k])


_NOT_STATE = ("lr_lambdas", "_scale_fn_custom", "_scale_fn_ref")


def _state(x):
    """A scheduler's state_dict without what holds functions (user lambdas, scale
    functions), which the two libraries cannot share; sequences as lists."""
    if isinstance(x, dict):
        return {k: _state(v) for k, v in x.items() if k not in _NOT_STATE}
    if isinstance(x, (list, tuple)):
        return [_state(v) for v in x]
    return "<function>" if callable(x) else x


def _close_sd(a, b):
    _close(_state(a), _state(b))


@pytest.mark.parametrize("name,kw", [
    ("StepLR", dict(step_size=3, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 5], gamma=0.3)),
    ("ConstantLR", dict(factor=0.25, total_iters=4)),
    ("LinearLR", dict(start_factor=0.2, total_iters=6)),
    ("ExponentialLR", dict(gamma=0.87)),
    ("PolynomialLR", dict(total_iters=8, power=2.0)),
    ("CosineAnnealingLR", dict(T_max=5, eta_min=0.001)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3, T_mult=2)),
    ("LambdaLR", dict(lr_lambda=_lam)),
])
def test_step_with_epoch_closed_form(name, kw):
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        sched = _sched(lib, name, opt, kw)
        lrs = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            for epoch in (3, 1, 7, 7, 2.5 if name == "CosineAnnealingWarmRestarts" else 2, 10):
                opt.step()
                sched.step(epoch)
                lrs.append(sched.get_last_lr())
        res[lib] = (lrs, [str(x.message) for x in w if "epoch parameter" in str(x.message)])
    _close(res[torch][0], res[ag][0])
    assert res[torch][1] == res[ag][1]


@pytest.mark.parametrize("kw", [
    dict(), dict(mode="max", factor=0.5, patience=1, threshold=0.1, threshold_mode="abs"),
    dict(patience=0, cooldown=2, min_lr=[0.02, 0.03], eps=1e-3),
    dict(mode="max", threshold_mode="rel", patience=2, min_lr=0.04),
])
def test_reduce_lr_on_plateau(kw):
    metrics = [1.0, 0.9, 0.95, 0.95, 0.96, 0.8, 0.85, 0.85, 0.9, 0.7, 0.7, 0.7, 0.71,
               0.72, 0.9, 1.2, 1.1, 1.1, 1.1]
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
        trace = []
        for m in metrics:
            opt.step()
            sched.step(lib.tensor(m) if m > 1 else m)
            trace.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter,
                          sched.best, sched.last_epoch))
        sd = sched.state_dict()
        res[lib] = (trace, sd)
    _close_sd(res[torch][0], res[ag][0])
    _close_sd({k: v for k, v in res[torch][1].items() if k != "optimizer"},
              {k: v for k, v in res[ag][1].items() if k != "optimizer"})


def test_scheduler_state_dict_round_trip():
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        s = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.3, total_steps=20)
        for _ in range(5):
            opt.step()
            s.step()
        sd = s.state_dict()
        _, opt2, _, _ = _make(lib, "SGD")
        s2 = lib.optim.lr_scheduler.OneCycleLR(opt2, max_lr=0.3, total_steps=20)
        s2.load_state_dict(sd)
        opt2.load_state_dict(opt.state_dict())
        lrs = []
        for _ in range(5):
            opt2.step()
            s2.step()
            lrs.append(s2.get_last_lr())
        res[lib] = lrs
    _close(res[torch], res[ag])


def test_sequential_state_dict_round_trip():
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")

        def build(o):
            a = lib.optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3)
            b = lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.8)
            return lib.optim.lr_scheduler.SequentialLR(o, [a, b], milestones=[3])

        s = build(opt)
        for _ in range(2):
            opt.step()
            s.step()
        sd = s.state_dict()
        assert isinstance(sd["_schedulers"], list) and len(sd["_schedulers"]) == 2
        _, opt2, _, _ = _make(lib, "SGD")
        s2 = build(opt2)
        s2.load_state_dict(sd)
        opt2.load_state_dict(opt.state_dict())
        out = []
        for _ in range(4):
            opt2.step()
            s2.step()
            out.append(s2.get_last_lr())
        res[lib] = out
    _close(res[torch], res[ag])


def test_lambda_state_dict_keeps_callable_objects_state():
    class Fn:
        def __init__(self):
            self.k = 0.5

        def __call__(self, e):
            return self.k ** e

    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        s = lib.optim.lr_scheduler.LambdaLR(opt, [Fn(), _lam])
        sd = s.state_dict()
        assert sd["lr_lambdas"] == [{"k": 0.5}, None]
        sd["lr_lambdas"][0]["k"] = 0.25
        s.load_state_dict(sd)
        assert s.lr_lambdas[0].k == 0.25


def test_warnings_match():
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        s = lib.optim.lr_scheduler.StepLR(opt, 2)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            s.step()  # before optimizer.step()
            s.get_lr()  # outside step
        res[lib] = [str(x.message) for x in w]
    assert res[torch] == res[ag] and len(res[ag]) == 2


def test_scheduler_errors_match():
    def errors(lib):
        _, opt, _, _ = _make(lib, "SGD")
        _, opt_b, _, _ = _make(lib, "SGD")
        ls = lib.optim.lr_scheduler
        out = []
        for fn in [
            lambda: ls.StepLR(object(), 2),
            lambda: ls.ConstantLR(opt, factor=2.0),
            lambda: ls.LinearLR(opt, start_factor=0),
            lambda: ls.LinearLR(opt, end_factor=2),
            lambda: ls.LambdaLR(opt, [_lam]),
            lambda: ls.MultiplicativeLR(opt, [1, 2]),
            lambda: ls.ReduceLROnPlateau(opt, factor=1.0),
            lambda: ls.ReduceLROnPlateau(opt, mode="avg"),
            lambda: ls.ReduceLROnPlateau(opt, threshold_mode="x"),
            lambda: ls.ReduceLROnPlateau(opt, min_lr=[0.1]),
            lambda: ls.CyclicLR(opt, 0.1, 1.0, mode="zz"),
            lambda: ls.CyclicLR(lib.optim.Adagrad([lib.zeros(1, requires_grad=True)]), 0.1, 1),
            lambda: ls.CyclicLR(opt, [0.1], 1.0),
            lambda: ls.OneCycleLR(opt, 0.1),
            lambda: ls.OneCycleLR(opt, 0.1, total_steps=0),
            lambda: ls.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=2),
            lambda: ls.OneCycleLR(opt, 0.1, total_steps=5, pct_start=2.0),
            lambda: ls.OneCycleLR(opt, 0.1, total_steps=5, anneal_strategy="x"),
            lambda: ls.CosineAnnealingWarmRestarts(opt, T_0=0),
            lambda: ls.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
            lambda: ls.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="a"),
            lambda: ls.SequentialLR(opt, [], []),
            lambda: ls.SequentialLR(opt, [ls.StepLR(opt, 2)], [1]),
            lambda: ls.SequentialLR(opt, [ls.ReduceLROnPlateau(opt)], []),
            lambda: ls.SequentialLR(opt, [ls.StepLR(opt_b, 2)], []),
            lambda: ls.ChainedScheduler([]),
            lambda: ls.StepLR(lib.optim.SGD([lib.zeros(1, requires_grad=True)]), 2,
                              last_epoch=3),
        ]:
            try:
                fn()
                out.append(None)
            except Exception as e:  # noqa: BLE001 - comparing types and messages
                msg = str(e)
                if "different from" in msg:  # names the optimizer object (its repr)
                    msg = msg.split(" has ")[0]
                out.append((type(e).__name__, msg))
        return out

    for et, ea in zip(errors(torch), errors(ag)):
        assert et == ea


def test_onecycle_too_many_steps():
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        s = lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=2)
        opt.step()
        s.step()
        s.step()
        with pytest.raises(ValueError, match="Tried to step 3 times"):
            s.step()


def test_tensor_lr_is_updated_in_place():
    res = {}
    for lib in (torch, ag):
        p = lib.zeros(2, requires_grad=True)
        lr = lib.tensor(0.1)
        opt = lib.optim.Adam([p], lr=lr)
        s = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        opt.step()
        s.step()
        assert opt.param_groups[0]["lr"] is lr
        assert isinstance(s.get_last_lr()[0], lib.Tensor)
        res[lib] = float(lr)
    assert res[ag] == pytest.approx(res[torch])


# ---------------------------------------------------------------------------- swa_utils
def _bn_model(lib):
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))


@pytest.mark.parametrize("kind", ["swa", "ema", "ema_multi", "swa_multi", "buffers"])
def test_averaged_model_matches_torch(kind):
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    init = {k: v.numpy().copy() for k, v in _bn_model(torch).state_dict().items()}
    xs = [rng.standard_normal((5, 3)).astype(np.float32) for _ in range(4)]
    res = {}
    for lib in (torch, ag):
        model = _bn_model(lib)
        model.load_state_dict({k: lib.tensor(v) for k, v in init.items()})
        su = lib.optim.swa_utils
        kw = {"ema": dict(avg_fn=su.get_ema_avg_fn(0.9)),
              "ema_multi": dict(multi_avg_fn=su.get_ema_multi_avg_fn(0.8)),
              "swa_multi": dict(multi_avg_fn=su.get_swa_multi_avg_fn()),
              "buffers": dict(use_buffers=True)}.get(kind, {})
        avg = su.AveragedModel(model, **kw)
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        for x in xs:
            opt.zero_grad()
            model(lib.tensor(x)).pow(2).mean().backward()
            opt.step()
            avg.update_parameters(model)
        loader = [lib.tensor(x) for x in xs]
        su.update_bn(loader, avg)
        res[lib] = ({k: v.detach().numpy().copy() for k, v in avg.state_dict().items()},
                    avg(lib.tensor(xs[0])).detach().numpy())
    assert list(res[torch][0]) == list(res[ag][0])
    assert_same(res[torch], res[ag], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [dict(swa_lr=0.05), dict(swa_lr=[0.01, 0.02], anneal_epochs=3,
                                                        anneal_strategy="linear"),
                                dict(swa_lr=0.2, anneal_epochs=0)])
def test_swalr_matches_torch(kw):
    res = {}
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        s = lib.optim.swa_utils.SWALR(opt, **kw)
        lrs = []
        for _ in range(12):
            opt.step()
            s.step()
            lrs.append(s.get_last_lr())
        res[lib] = lrs
    _close(res[torch], res[ag])
    for lib in (torch, ag):
        _, opt, _, _ = _make(lib, "SGD")
        with pytest.raises(ValueError, match="anneal_strategy must be one of"):
            lib.optim.swa_utils.SWALR(opt, 0.1, anneal_strategy="x")
        with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0"):
            lib.optim.swa_utils.SWALR(opt, 0.1, anneal_epochs=-1)
