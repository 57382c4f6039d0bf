"""A whole training script (model, DataLoader, optimizer, scheduler, gradient clipping,
checkpoint save/resume) run as the same source under torch and autograd_core, from the same
weights and data: losses, learning rates and weights after every step agree."""
import numpy as np
import pytest
import torch

import autograd_core as ag


def _data(n=48, d=6, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d)).astype(np.float32)
    w = rng.standard_normal((d, classes)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    return x, y


def _model(lib):
    return lib.nn.Sequential(lib.nn.Linear(6, 16), lib.nn.Tanh(), lib.nn.Linear(16, 3))


def _train(lib, init_model, ckpt_path, opt_name, opt_kwargs, sched, epochs=3, resume_at=None):
    """The script: written once, run with lib = torch or autograd_core."""
    x, y = _data()
    ds = lib.utils.data.TensorDataset(lib.tensor(x), lib.tensor(y))
    order = list(np.random.default_rng(1).permutation(len(ds)))  # same "shuffle" in both
    loader = lib.utils.data.DataLoader(ds, batch_size=10, sampler=order)
    model = _model(lib)
    model.load_state_dict({k: lib.tensor(v) for k, v in init_model.items()})
    opt = getattr(lib.optim, opt_name)(model.parameters(), **opt_kwargs)
    if sched == "onecycle":
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05,
                                                      total_steps=epochs * len(loader))
    else:
        warm = lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=3)
        cos = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
        scheduler = lib.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[3])
    loss_fn = lib.nn.CrossEntropyLoss()
    log = []
    step = 0
    for epoch in range(epochs):
        for xb, yb in loader:
            if resume_at is not None and step == resume_at:
                lib.save({"model": model.state_dict(), "opt": opt.state_dict(),
                          "sched": scheduler.state_dict(), "step": step}, ckpt_path)
                ck = lib.load(ckpt_path)
                model = _model(lib)
                model.load_state_dict(ck["model"])
                opt = getattr(lib.optim, opt_name)(model.parameters(), **opt_kwargs)
                opt.load_state_dict(ck["opt"])
                if sched == "onecycle":
                    scheduler = lib.optim.lr_scheduler.OneCycleLR(
                        opt, max_lr=0.05, total_steps=epochs * len(loader))
                else:
                    warm = lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.2,
                                                           total_iters=3)
                    cos = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
                    scheduler = lib.optim.lr_scheduler.SequentialLR(opt, [warm, cos],
                                                                    milestones=[3])
                scheduler.load_state_dict(ck["sched"])
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            lib.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            scheduler.step()
            step += 1
            log.append((float(loss.detach()), scheduler.get_last_lr()[0],
                        [p.detach().numpy().copy() for p in model.parameters()]))
    return log


@pytest.mark.parametrize("opt_name,opt_kwargs,sched", [
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3), "onecycle"),
    ("Adam", dict(lr=0.01, amsgrad=True), "onecycle"),
    ("AdamW", dict(lr=0.01), "sequential"),
    ("RMSprop", dict(lr=0.01, momentum=0.5), "sequential"),
])
@pytest.mark.parametrize("resume", [False, True])
def test_training_script_matches_torch(tmp_path, opt_name, opt_kwargs, sched, resume):
    torch.manual_seed(0)
    init = {k: v.numpy().copy() for k, v in _model(torch).state_dict().items()}
    resume_at = 7 if resume else None
    lt = _train(torch, init, tmp_path / "t.pt", opt_name, opt_kwargs, sched, resume_at=resume_at)
    la = _train(ag, init, tmp_path / "a.pt", opt_name, opt_kwargs, sched, resume_at=resume_at)
    assert len(lt) == len(la) == 15
    for step, ((loss_t, lr_t, w_t), (loss_a, lr_a, w_a)) in enumerate(zip(lt, la)):
        # float32 throughout: the two libraries round matmuls/reductions differently, so
        # agreement is to float32 rounding accumulated over a few steps
        assert loss_a == pytest.approx(loss_t, rel=1e-4, abs=1e-5), step
        assert lr_a == pytest.approx(lr_t, rel=1e-12), step
        for a, t in zip(w_a, w_t):
            np.testing.assert_allclose(a, t, rtol=1e-4, atol=1e-5, err_msg=f"step {step}")
    assert lt[-1][0] < lt[0][0]  # it trains
