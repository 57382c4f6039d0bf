# the lr schedulers as training scripts use them
import torch
from torch import nn, optim
from torch.optim import lr_scheduler

torch.manual_seed(0)
model = nn.Linear(3, 1)


def run(name, make, steps=8, opt_cls=optim.SGD, **kw):
    opt = opt_cls(model.parameters(), lr=0.1, **kw)
    sched = make(opt)
    lrs = []
    for epoch in range(steps):
        opt.zero_grad()
        model(torch.ones(2, 3)).sum().backward()
        opt.step()
        if isinstance(sched, lr_scheduler.ReduceLROnPlateau):
            sched.step(1.0)
        else:
            sched.step()
        lrs.append(round(opt.param_groups[0]['lr'], 8))
    print(name, lrs)
    return sched


run('StepLR', lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
run('MultiStepLR', lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))
run('ExponentialLR', lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
run('CosineAnnealingLR', lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4))
run('LambdaLR', lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
run('OneCycleLR', lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=8), momentum=0.9)
run('CyclicLR', lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2), momentum=0.9)
run('ReduceLROnPlateau', lambda o: lr_scheduler.ReduceLROnPlateau(o, patience=1))
run('LinearLR', lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
run('CosineAnnealingWarmRestarts', lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3))
s = run('SequentialLR', lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
                                                         lr_scheduler.ExponentialLR(o, gamma=0.9)], milestones=[3]))
print(s.get_last_lr())
sch = run('PolynomialLR', lambda o: lr_scheduler.PolynomialLR(o, total_iters=6, power=2.0), opt_cls=optim.Adam)
sd = sch.state_dict()
print(sorted(sd.keys()))
print(sch.optimizer.param_groups[0]['initial_lr'])
